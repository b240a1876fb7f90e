//! Scripted engines: a checker that replays `timer.<callin>();` lines as one straight-line
//! trace against the library's CountDownTimer protocol, and a learner that returns a known typestate.
//!
//! Scripting by text: a file containing `PANIC` makes the checker panic, one containing `SLOW`
//! blocks the check until [`FakeChecker::release`].

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use server::analysis::{
    CallFact, Certainty, CheckOptions, Checker, DocumentCache, Edit, FileAnalysis, Finding,
    FindingCode, Fix, Library, Pos, Related, SourceFile, Span,
};
use server::learning::{Draft, LearnError, LearnProgress, LearnRequest, Learner};
use tokio::sync::Notify;
use typestates::Typestate;

use crate::harness::COUNTDOWN;

/// The scripted checker.
#[derive(Default)]
pub struct FakeChecker {
    checks: AtomicUsize,
    /// The library each check was handed, in order.
    libraries: Mutex<Vec<Arc<Library>>>,
    released: Mutex<bool>,
    opened: Condvar,
    /// Notified when a `SLOW` check returns.
    pub slow_finished: Notify,
    /// Notified when a `SLOW` check starts waiting.
    pub slow_started: Notify,
}

impl FakeChecker {
    /// Lets blocked `SLOW` checks finish.
    pub fn release(&self) {
        *self.released.lock().unwrap() = true;
        self.opened.notify_all();
    }

    /// How many checks ran.
    pub fn checks(&self) -> usize {
        self.checks.load(Ordering::SeqCst)
    }

    /// The library each check was handed, in order.
    pub fn libraries(&self) -> Vec<Arc<Library>> {
        self.libraries.lock().unwrap().clone()
    }
}

impl Checker for FakeChecker {
    fn check(
        &self,
        library: &Arc<Library>,
        file: &SourceFile,
        _cache: &DocumentCache,
        _options: CheckOptions,
    ) -> FileAnalysis {
        self.checks.fetch_add(1, Ordering::SeqCst);
        self.libraries.lock().unwrap().push(library.clone());
        assert!(!file.text.contains("PANIC"), "scripted panic");
        if file.text.contains("SLOW") {
            self.slow_started.notify_one();
            let released = self.released.lock().unwrap();
            drop(self.opened.wait_while(released, |r| !*r).unwrap());
            let analysis = replay(library, file);
            self.slow_finished.notify_one();
            return analysis;
        }
        replay(library, file)
    }

    fn index(&self, _library: &Library, _files: &[SourceFile]) {}

    fn method_at(&self, file: &SourceFile, pos: Pos) -> Option<Pos> {
        let lines: Vec<&str> = file.text.lines().collect();
        (0..=pos.line as usize).rev().find_map(|n| {
            let line = lines.get(n)?;
            line.contains("void ")
                .then(|| Pos::new(n as u32, (line.len() - line.trim_start().len()) as u32))
        })
    }
}

/// The findings and the calls of the one straight-line trace.
fn replay(library: &Library, file: &SourceFile) -> FileAnalysis {
    let mut analysis = FileAnalysis::default();
    let Some(entry) = library.get("android.os.CountDownTimer") else {
        return analysis;
    };
    let typestate = &entry.typestate;
    let mut state = typestate.initial;
    let mut entered: Option<Span> = None;
    for (n, line) in file.text.lines().enumerate() {
        let n = n as u32;
        let Some(at) = line.find("timer.") else {
            continue;
        };
        let rest = &line[at + "timer.".len()..];
        let Some(name) = rest.split('(').next() else {
            continue;
        };
        let Some(callin) = typestate.callin_by_name(name) else {
            continue;
        };
        let end = line[at..].find(')').map_or(line.len(), |e| at + e + 1);
        let span = Span::new(Pos::new(n, at as u32), Pos::new(n, end as u32));
        let state_name = typestate.state(state).name.clone();
        analysis.calls.push(CallFact {
            span,
            class: typestate.class.clone(),
            receiver: "timer".to_string(),
            method: name.to_string(),
            states: vec![state_name.clone()],
            maybe_null: false,
            unknown: false,
            derived: None,
        });
        match typestate.step(state, callin).target() {
            Some(target) => {
                state = target;
                entered = Some(span);
            }
            None => analysis.findings.push(Finding {
                code: FindingCode::TypestateViolation,
                span,
                certainty: if line.contains("// maybe") {
                    Certainty::Possible
                } else {
                    Certainty::Definite
                },
                message: format!("`{name}()` called on `timer` in state {state_name}"),
                related: entered
                    .map(|span| Related {
                        span,
                        message: format!("`timer` enters state {state_name} here"),
                    })
                    .into_iter()
                    .collect(),
                fix: (name == "start").then(|| Fix {
                    title: "Remove the repeated `start()`".to_string(),
                    edits: vec![Edit {
                        span: Span::new(Pos::new(n, 0), Pos::new(n + 1, 0)),
                        new_text: String::new(),
                    }],
                }),
            }),
        }
    }
    analysis
}

/// The scripted learner: reports progress, then returns CountDownTimer's protocol renamed to
/// the requested class, or, when `until_cancelled`, works until cancelled.
#[derive(Default)]
pub struct FakeLearner {
    /// Run until the server says stop.
    pub until_cancelled: bool,
    /// Turns true when a run stopped because the server said stop.
    pub stopped: Arc<AtomicBool>,
}

impl Learner for FakeLearner {
    fn draft(&self, request: &LearnRequest) -> Result<Draft, LearnError> {
        let classpath: Vec<String> = request
            .settings
            .classpath
            .iter()
            .map(|path| format!("{:?}", path.display().to_string()))
            .collect();
        Ok(Draft {
            experiment: format!(
                "class = {:?}\n# classpath = [{}]\n",
                request.class,
                classpath.join(", ")
            ),
            harnesses: Vec::new(),
        })
    }

    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut (dyn FnMut(LearnProgress) + Send),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError> {
        report(LearnProgress {
            message: "round 1: 12 membership queries".to_string(),
            percentage: Some(50),
        });
        if self.until_cancelled {
            while !cancelled() {
                std::thread::sleep(Duration::from_millis(2));
            }
            self.stopped.store(true, Ordering::Relaxed);
            return Err(LearnError::Cancelled);
        }
        let mut typestate = typestates::format::parse("fake", COUNTDOWN).unwrap();
        typestate.class = request.class.clone();
        Ok(typestate)
    }
}
