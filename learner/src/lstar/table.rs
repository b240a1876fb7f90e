//! The observation table of L*: rows for the short prefixes `S` and their one-input extensions.
//! Its columns are the suffixes `E`, and each cell holds the outputs of the suffix.
//! Cells are read from every answer so far, each of which answers its prefixes.
//! A cell whose word a longer query answered is never asked.

use std::collections::HashMap;

use typestates::mealy::Mealy;

use crate::closure::{words_of_length, Input, Output, OutputWord, Word};
use crate::hypothesis::Hypothesis;

/// Rows of `S ∪ S·Σ` over columns `E`.
pub(super) struct Table {
    short: Vec<Word>,
    suffixes: Vec<Word>,
    /// Every answered word and every prefix of one, with its outputs.
    answers: HashMap<Word, OutputWord>,
}

impl Table {
    /// `S = {ε}` and `E` every word of 1 to `length` inputs, shortest first.
    pub(super) fn new(inputs: &[Input], length: usize) -> Table {
        let suffixes = (1..=length.max(1))
            .flat_map(|length| words_of_length(inputs, length))
            .collect();
        Table {
            short: vec![Word::new()],
            suffixes,
            answers: HashMap::new(),
        }
    }

    fn rows<'a>(&'a self, inputs: &'a [Input]) -> impl Iterator<Item = Word> + 'a {
        self.short.iter().flat_map(move |prefix| {
            std::iter::once(prefix.clone()).chain(inputs.iter().map(move |input| {
                let mut row = prefix.clone();
                row.push(*input);
                row
            }))
        })
    }

    /// The queries of every empty cell.
    pub(super) fn missing_queries(&self, inputs: &[Input]) -> Vec<Word> {
        let mut queries: Vec<Word> = self
            .rows(inputs)
            .flat_map(|row| {
                self.suffixes.iter().map(move |suffix| {
                    let mut query = row.clone();
                    query.extend_from_slice(suffix);
                    query
                })
            })
            .filter(|query| !self.answers.contains_key(query))
            .collect();
        queries.sort();
        queries.dedup();
        queries
    }

    /// Keeps the answers to `queries`, which answer their prefixes too.
    pub(super) fn record(&mut self, queries: &[Word], answers: &[OutputWord]) {
        for (query, outputs) in queries.iter().zip(answers) {
            for length in 1..=query.len() {
                self.answers
                    .entry(query[..length].to_vec())
                    .or_insert_with(|| outputs[..length].to_vec());
            }
        }
    }

    /// The outputs of `suffix` after `prefix`.
    fn cell(&self, prefix: &[Input], suffix: &[Input]) -> &[Output] {
        let mut query = prefix.to_vec();
        query.extend_from_slice(suffix);
        &self.answers[&query][prefix.len()..]
    }

    fn row(&self, prefix: &Word) -> Vec<&[Output]> {
        self.suffixes
            .iter()
            .map(|suffix| self.cell(prefix, suffix))
            .collect()
    }

    /// A one-input extension of a short prefix whose row is no short prefix's row.
    pub(super) fn unclosed_row(&self, inputs: &[Input]) -> Option<Word> {
        let short_rows: Vec<Vec<&[Output]>> = self.short.iter().map(|p| self.row(p)).collect();
        self.rows(inputs)
            .filter(|row| !self.short.contains(row))
            .find(|row| !short_rows.contains(&self.row(row)))
    }

    pub(super) fn add_prefix(&mut self, prefix: Word) {
        self.short.push(prefix);
    }

    pub(super) fn add_suffix(&mut self, suffix: Word) {
        if !self.suffixes.contains(&suffix) {
            self.suffixes.push(suffix);
        }
    }

    /// The Mealy machine of the closed table: one state per short prefix.
    pub(super) fn hypothesis(&self, inputs: &[Input]) -> Hypothesis {
        let short_rows: Vec<Vec<&[Output]>> = self.short.iter().map(|p| self.row(p)).collect();
        let mut mealy = Mealy::with_states(inputs.to_vec(), self.short.len(), 0);
        for (state, prefix) in self.short.iter().enumerate() {
            for (column, input) in inputs.iter().enumerate() {
                let mut extended = prefix.clone();
                extended.push(*input);
                let target = short_rows
                    .iter()
                    .position(|row| *row == self.row(&extended))
                    .expect("the table is closed");
                let output = self.cell(prefix, &[*input])[0];
                mealy.set_transition(state as u32, column, target as u32, output);
            }
        }
        Hypothesis {
            mealy,
            access: self.short.clone(),
        }
    }
}
