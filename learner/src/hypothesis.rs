//! A learner's hypothesis: a Mealy machine plus an access word for each state.
//! The equivalence oracles reuse the access words as state representatives (the Starling paper,
//! Remark 1).

use typestates::mealy::Mealy;

use crate::closure::{Alphabet, Input, OutputWord, Word};

/// A hypothesis Mealy machine whose state `q` is reached by `access[q]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hypothesis {
    /// The machine, over the experiment's inputs in column order.
    pub mealy: Mealy,
    /// A shortest known access word of each state.
    pub access: Vec<Word>,
}

impl Hypothesis {
    /// The hypothesis's outputs on `word`.
    pub fn outputs(&self, word: &[Input]) -> OutputWord {
        self.mealy
            .outputs(word)
            .expect("queries use the hypothesis's alphabet")
    }

    /// The state reached by `word`.
    pub fn state_after(&self, alphabet: &Alphabet, word: &[Input]) -> u32 {
        let columns = alphabet.columns(word).expect("queries use the alphabet");
        self.mealy.run_columns(self.mealy.initial, &columns).1
    }

    /// Number of states, the error sink included.
    pub fn n_states(&self) -> usize {
        self.mealy.n_states()
    }
}
