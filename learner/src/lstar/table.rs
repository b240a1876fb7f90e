//! The observation table of L*: rows for the short prefixes `S` and their one-input
//! extensions, columns for the suffixes `E`, each cell the outputs of the suffix.

use std::collections::HashMap;

use typestates::mealy::Mealy;

use crate::closure::{Input, OutputWord, Word};
use crate::hypothesis::Hypothesis;

/// Rows of `S ∪ S·Σ` over columns `E`.
pub(super) struct Table {
    short: Vec<Word>,
    suffixes: Vec<Word>,
    cells: HashMap<(Word, usize), OutputWord>,
}

impl Table {
    pub(super) fn new(inputs: &[Input]) -> Table {
        Table {
            short: vec![Word::new()],
            suffixes: inputs.iter().map(|input| vec![*input]).collect(),
            cells: HashMap::new(),
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
        let mut queries = Vec::new();
        for row in self.rows(inputs) {
            for (column, suffix) in self.suffixes.iter().enumerate() {
                if !self.cells.contains_key(&(row.clone(), column)) {
                    let mut query = row.clone();
                    query.extend_from_slice(suffix);
                    queries.push(query);
                }
            }
        }
        queries.sort();
        queries.dedup();
        queries
    }

    /// Fills every empty cell whose query is answered.
    pub(super) fn record(&mut self, inputs: &[Input], queries: &[Word], answers: &[OutputWord]) {
        let answered: HashMap<&Word, &OutputWord> = queries.iter().zip(answers).collect();
        let rows: Vec<Word> = self.rows(inputs).collect();
        for row in rows {
            for (column, suffix) in self.suffixes.iter().enumerate() {
                let mut query = row.clone();
                query.extend_from_slice(suffix);
                if let Some(outputs) = answered.get(&query) {
                    self.cells
                        .insert((row.clone(), column), outputs[row.len()..].to_vec());
                }
            }
        }
    }

    fn row(&self, prefix: &Word) -> Vec<&OutputWord> {
        (0..self.suffixes.len())
            .map(|column| &self.cells[&(prefix.clone(), column)])
            .collect()
    }

    /// A one-input extension of a short prefix whose row is no short prefix's row.
    pub(super) fn unclosed_row(&self, inputs: &[Input]) -> Option<Word> {
        let short_rows: Vec<Vec<&OutputWord>> = self.short.iter().map(|p| self.row(p)).collect();
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
        let short_rows: Vec<Vec<&OutputWord>> = self.short.iter().map(|p| self.row(p)).collect();
        let mut mealy = Mealy::with_states(inputs.to_vec(), self.short.len(), 0);
        for (state, prefix) in self.short.iter().enumerate() {
            for (column, input) in inputs.iter().enumerate() {
                let mut extended = prefix.clone();
                extended.push(*input);
                let target = short_rows
                    .iter()
                    .position(|row| *row == self.row(&extended))
                    .expect("the table is closed");
                // Column `column` of E is the single input `input`.
                let output = self.cells[&(prefix.clone(), column)][0];
                mealy.set_transition(state as u32, column, target as u32, output);
            }
        }
        Hypothesis {
            mealy,
            access: self.short.clone(),
        }
    }
}
