//! Words of the synchronous closure (the Starling paper, §4.1) and the alphabet that names them.
//!
//! A query is a word of inputs (callins and `wait`).
//! Its answer is a word of outputs of the same length (`eps`, `err`, `quiet` or a callback).
//! The closure sends every error to one sink: after the first `err`, every output is `err`.
//! [`close_after_err`] enforces that, and [`Alphabet`] turns inputs and outputs into the names
//! written in journals and reports.

use std::fmt;

use typestates::mealy::Signature;
pub use typestates::mealy::{Input, Output};

/// A membership query: inputs from the initial state.
pub type Word = Vec<Input>;

/// The answer to a membership query: one output per input.
pub type OutputWord = Vec<Output>;

/// Every word of exactly `length` of `inputs`, in lexicographic order of their columns.
pub fn words_of_length(inputs: &[Input], length: usize) -> Vec<Word> {
    (0..length).fold(vec![Word::new()], |words, _| {
        words
            .iter()
            .flat_map(|word| {
                inputs.iter().map(move |input| {
                    let mut next = word.clone();
                    next.push(*input);
                    next
                })
            })
            .collect()
    })
}

/// Position of the first `err` in `outputs`, if any.
pub fn first_err(outputs: &[Output]) -> Option<usize> {
    outputs.iter().position(|it| *it == Output::Err)
}

/// Makes every output after the first `err` an `err` ("after err only err").
pub fn close_after_err(outputs: &mut [Output]) {
    if let Some(position) = first_err(outputs) {
        outputs[position..].fill(Output::Err);
    }
}

/// The answer to `word` when its prefix of length `known.len()` answered `known`, and that
/// prefix ends in `err`: the known outputs followed by `err` for the rest of the word.
pub fn extend_err(known: &[Output], word_len: usize) -> OutputWord {
    let mut outputs = known.to_vec();
    outputs.resize(word_len, Output::Err);
    outputs
}

/// The symbols of one learning experiment: the class's signature and the inputs it learns over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// The class's callins and callbacks.
    pub signature: Signature,
    /// The inputs of the Mealy machine, in column order.
    pub inputs: Vec<Input>,
}

impl Alphabet {
    /// The alphabet of every non-creator callin of `signature`, then `wait`.
    pub fn of(signature: Signature) -> Alphabet {
        let inputs = signature.inputs();
        Alphabet { signature, inputs }
    }

    /// The input named `name`, if it is in the alphabet.
    pub fn input_named(&self, name: &str) -> Option<Input> {
        self.inputs
            .iter()
            .copied()
            .find(|it| self.signature.input_name(*it) == name)
    }

    /// The output named `name`, if the class has it.
    pub fn output_named(&self, name: &str) -> Option<Output> {
        match name {
            "eps" => Some(Output::Eps),
            "err" => Some(Output::Err),
            "quiet" => Some(Output::Quiet),
            _ => self
                .signature
                .callbacks
                .iter()
                .position(|it| it.name == name)
                .map(|index| Output::Callback(typestates::CallbackId(index as u32))),
        }
    }

    /// The names of a word's inputs.
    pub fn input_names(&self, word: &[Input]) -> Vec<String> {
        word.iter()
            .map(|it| self.signature.input_name(*it).to_owned())
            .collect()
    }

    /// The names of a word's outputs.
    pub fn output_names(&self, outputs: &[Output]) -> Vec<String> {
        outputs
            .iter()
            .map(|it| self.signature.output_name(*it).to_owned())
            .collect()
    }

    /// A word written as its input names separated by spaces, `ε` when empty.
    pub fn render_word(&self, word: &[Input]) -> String {
        if word.is_empty() {
            return "ε".to_owned();
        }
        self.input_names(word).join(" ")
    }

    /// A trace written as `input/output` pairs: `start/eps wait/finished`.
    pub fn render_trace<'a>(&'a self, word: &'a [Input], outputs: &'a [Output]) -> Trace<'a> {
        Trace {
            alphabet: self,
            word,
            outputs,
        }
    }

    /// The column of every input of `word`; `None` if one is outside the alphabet.
    pub fn columns(&self, word: &[Input]) -> Option<Vec<usize>> {
        word.iter()
            .map(|input| self.inputs.iter().position(|it| it == input))
            .collect()
    }

    /// The word of a list of columns.
    pub fn word(&self, columns: &[usize]) -> Word {
        columns.iter().map(|&column| self.inputs[column]).collect()
    }
}

/// A trace rendered with the alphabet's names; see [`Alphabet::render_trace`].
pub struct Trace<'a> {
    alphabet: &'a Alphabet,
    word: &'a [Input],
    outputs: &'a [Output],
}

impl fmt::Display for Trace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.word.is_empty() {
            return f.write_str("ε");
        }
        for (index, input) in self.word.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            f.write_str(self.alphabet.signature.input_name(*input))?;
            if let Some(output) = self.outputs.get(index) {
                write!(f, "/{}", self.alphabet.signature.output_name(*output))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_after_the_first_err_are_err() {
        let mut outputs = vec![Output::Eps, Output::Err, Output::Quiet, Output::Eps];
        close_after_err(&mut outputs);
        assert_eq!(
            outputs,
            vec![Output::Eps, Output::Err, Output::Err, Output::Err]
        );
        assert_eq!(first_err(&outputs), Some(1));
        assert_eq!(
            extend_err(&[Output::Err], 3),
            vec![Output::Err, Output::Err, Output::Err]
        );
    }
}
