//! Learning purposes beyond query filters: input variants, and output merge and split.
//!
//! - **Input variants.** One input symbol may have several concrete forms.
//!   Examples are two URLs that both serve an image, or `prepare()` and `prepareAsync()` when they
//!   are meant to agree.
//!   Running every combination of forms per query, as DroidStar did, is exponential.
//!   [`RoundRobin`] instead gives each *run* the next form of every variant input (run `r` uses
//!   form `r mod forms`).
//!   It costs no extra run.
//!   Every run re-executes its prefix on the system, so each prefix shared by runs is executed with
//!   different forms.
//!   A form that answers differently is caught by the non-determinism check (the rerun confirms it)
//!   and reported with both traces, naming the prefix.
//! - **Output merge.** Several callbacks the experiment treats as one (`onLoadingComplete` and
//!   `onLoadingFailed` as "done"): [`OutputMap::merge`] sends each to a representative.
//! - **Output split.** One callback whose payload tells situations apart (`onError(code)`):
//!   [`OutputMap::split`] names a callback per payload case.
//!   Only backends that see payloads (the JVM backend) can split; [`OutputMap::apply`] takes the
//!   payload when there is one.
//!
//! [`Mapped`] applies an [`OutputMap`] to any system, so the learner sees mapped outputs only.

use std::collections::HashMap;

use typestates::CallbackId;

use crate::closure::{Input, Output};
use crate::oracle::sul::{Sul, SulError};

/// How observed callbacks become the callbacks the learner sees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputMap {
    merged: HashMap<CallbackId, CallbackId>,
    splits: HashMap<CallbackId, Vec<(String, CallbackId)>>,
}

impl OutputMap {
    /// Treats every callback of `callbacks` as `into`.
    pub fn merge(mut self, callbacks: &[CallbackId], into: CallbackId) -> OutputMap {
        for callback in callbacks {
            self.merged.insert(*callback, into);
        }
        self
    }

    /// Reports `callback` as `into` when its payload contains `case` (first case wins).
    pub fn split(mut self, callback: CallbackId, case: &str, into: CallbackId) -> OutputMap {
        self.splits
            .entry(callback)
            .or_default()
            .push((case.to_owned(), into));
        self
    }

    /// The output the learner sees for `output`, observed with `payload` if the backend has one.
    pub fn apply(&self, output: Output, payload: Option<&str>) -> Output {
        let Output::Callback(callback) = output else {
            return output;
        };
        let split = payload.and_then(|payload| {
            self.splits
                .get(&callback)?
                .iter()
                .find_map(|(case, into)| payload.contains(case.as_str()).then_some(*into))
        });
        let callback = split.unwrap_or(callback);
        Output::Callback(self.merged.get(&callback).copied().unwrap_or(callback))
    }
}

/// A system whose outputs go through an [`OutputMap`] (merges; no payloads to split on).
pub struct Mapped<S> {
    inner: S,
    map: OutputMap,
}

impl<S: Sul> Mapped<S> {
    /// `inner` seen through `map`.
    pub fn new(inner: S, map: OutputMap) -> Mapped<S> {
        Mapped { inner, map }
    }
}

impl<S: Sul> Sul for Mapped<S> {
    async fn reset(&mut self) -> Result<(), SulError> {
        self.inner.reset().await
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        Ok(self.map.apply(self.inner.step(input).await?, None))
    }

    async fn steps(&mut self, inputs: &[Input]) -> Result<Vec<Output>, SulError> {
        let outputs = self.inner.steps(inputs).await?;
        Ok(outputs
            .into_iter()
            .map(|it| self.map.apply(it, None))
            .collect())
    }
}

/// A system whose inputs may have several concrete forms.
pub trait Forms: Sul {
    /// How many forms `input` has (1 when it is no variant).
    fn n_forms(&self, input: Input) -> usize;

    /// Makes later steps of `input` use form `form` (below [`Forms::n_forms`]).
    fn use_form(&mut self, input: Input, form: usize);
}

/// Runs each run with the next form of every variant input (see the module docs).
pub struct RoundRobin<S> {
    inner: S,
    variants: Vec<Input>,
    runs: usize,
}

impl<S: Forms> RoundRobin<S> {
    /// Rotates the forms of `variants` on `inner`, one step per run.
    pub fn new(inner: S, variants: Vec<Input>) -> RoundRobin<S> {
        RoundRobin {
            inner,
            variants,
            runs: 0,
        }
    }
}

impl<S: Forms> Sul for RoundRobin<S> {
    async fn reset(&mut self) -> Result<(), SulError> {
        for input in &self.variants {
            let forms = self.inner.n_forms(*input).max(1);
            self.inner.use_form(*input, self.runs % forms);
        }
        self.runs += 1;
        self.inner.reset().await
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        self.inner.step(input).await
    }

    async fn steps(&mut self, inputs: &[Input]) -> Result<Vec<Output>, SulError> {
        self.inner.steps(inputs).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: CallbackId = CallbackId(0);
    const B: CallbackId = CallbackId(1);
    const C: CallbackId = CallbackId(2);

    #[test]
    fn merged_callbacks_become_one_and_payloads_split_one_callback() {
        let map = OutputMap::default().merge(&[A, B], A).split(C, "code=7", B);
        assert_eq!(map.apply(Output::Callback(B), None), Output::Callback(A));
        assert_eq!(
            map.apply(Output::Callback(C), Some("code=5")),
            Output::Callback(C)
        );
        // A split case may itself be merged.
        assert_eq!(
            map.apply(Output::Callback(C), Some("code=7")),
            Output::Callback(A)
        );
        assert_eq!(map.apply(Output::Quiet, Some("code=7")), Output::Quiet);
    }

    /// One callin whose form 1 is broken: it answers `err` where form 0 answers `eps`.
    struct TwoForms {
        form: usize,
        forms_used: Vec<usize>,
    }

    impl Sul for TwoForms {
        async fn reset(&mut self) -> Result<(), SulError> {
            self.forms_used.push(self.form);
            Ok(())
        }

        async fn step(&mut self, _input: Input) -> Result<Output, SulError> {
            Ok(if self.form == 0 {
                Output::Eps
            } else {
                Output::Err
            })
        }
    }

    impl Forms for TwoForms {
        fn n_forms(&self, _input: Input) -> usize {
            2
        }

        fn use_form(&mut self, _input: Input, form: usize) {
            self.form = form;
        }
    }

    #[tokio::test]
    async fn each_run_uses_the_next_form() {
        let input = Input::Callin(typestates::CallinId(0));
        let mut sul = RoundRobin::new(
            TwoForms {
                form: 0,
                forms_used: Vec::new(),
            },
            vec![input],
        );
        let mut outputs = Vec::new();
        for _ in 0..3 {
            sul.reset().await.unwrap();
            outputs.push(sul.step(input).await.unwrap());
        }
        assert_eq!(sul.inner.forms_used, vec![0, 1, 0]);
        assert_eq!(outputs, vec![Output::Eps, Output::Err, Output::Eps]);
    }
}
