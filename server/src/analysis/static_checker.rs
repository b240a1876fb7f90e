//! The production [`Checker`], built on the `checker` crate.
//!
//! A `checker::Incremental` per document gives findings, fixes, and the per-call results of hovers and inlay hints.
//! The checker's IR gives the method enclosing a finding.
//! `checker::project_config` makes a class extending a protocol class in one file tracked in every other.
//! It also makes a wrapper's methods run in the order its clients call them.

use std::path::Path;
use std::sync::{Arc, PoisonError, RwLock};

use checker::ir::{Class, LineCol};
use checker::leaks::LeakKind;
use checker::{CheckConfig, ViolationKind};

use super::text::LineIndex;
use super::{
    CallFact, Certainty, CheckOptions, Checker, DocumentCache, Edit, FileAnalysis, Finding,
    FindingCode, Fix, Language, Leaks, Library, Pos, Related, SourceFile, Span,
};

/// The static checker of the `checker` crate.
#[derive(Debug, Default)]
pub struct StaticChecker {
    /// The configuration with the workspace's supertypes and clients, from the last
    /// [`Checker::index`].
    config: RwLock<Arc<CheckConfig>>,
}

impl Checker for StaticChecker {
    fn check(
        &self,
        library: &Arc<Library>,
        file: &SourceFile,
        cache: &DocumentCache,
        options: CheckOptions,
    ) -> FileAnalysis {
        let config = CheckConfig {
            report_unreleased: options.leaks == Leaks::All,
            time_limit: options.time_limit,
            ..self.config()
        };
        let result = cache
            .incremental
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .check(library, &source(file), &config);
        let not_checked_fully = not_checked_fully(&result, &config, file);
        let findings = result
            .violations
            .into_iter()
            .map(|violation| Finding {
                code: match violation.kind {
                    ViolationKind::Definite | ViolationKind::Possible => {
                        FindingCode::TypestateViolation
                    }
                    ViolationKind::Ignored => FindingCode::IgnoredCall,
                    ViolationKind::Handled => FindingCode::HandledViolation,
                },
                span: span(violation.span),
                certainty: match violation.kind {
                    ViolationKind::Possible | ViolationKind::Handled => Certainty::Possible,
                    ViolationKind::Definite | ViolationKind::Ignored => Certainty::Definite,
                },
                message: violation.message,
                related: related(violation.related),
                fix: violation.fix.map(fix),
            })
            .chain(result.unreleased.into_iter().map(leak))
            .chain(not_checked_fully)
            .collect();
        let calls = result
            .calls
            .into_iter()
            .map(|states| CallFact {
                method: file
                    .text
                    .get(states.span.start_byte..states.span.end_byte)
                    .unwrap_or_default()
                    .to_string(),
                span: span(states.span),
                class: states.class,
                receiver: states.receiver,
                states: states.states,
                maybe_null: states.maybe_null,
                unknown: states.unknown,
                derived: states.derived,
            })
            .collect();
        FileAnalysis { findings, calls }
    }

    fn method_at(&self, file: &SourceFile, pos: Pos) -> Option<Pos> {
        let ir = checker::lang::lower(language(file.language), &file.text);
        let offset = LineIndex::new(&file.text).offset(pos);
        innermost_method(&ir.classes, offset).map(|method| span(method).start)
    }

    fn index(&self, library: &Library, files: &[SourceFile]) {
        let files: Vec<checker::SourceFile> = files.iter().map(source).collect();
        let config = checker::project_config(library, &files, CheckConfig::default());
        *self.config.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(config);
    }
}

impl StaticChecker {
    /// The checker's configuration: the defaults, with the workspace's supertypes and
    /// clients.
    fn config(&self) -> CheckConfig {
        CheckConfig::clone(&self.config.read().unwrap_or_else(PoisonError::into_inner))
    }
}

fn fix(fix: checker::Fix) -> Fix {
    Fix {
        title: fix.title,
        edits: fix
            .edits
            .into_iter()
            .map(|edit| Edit {
                span: span(edit.span),
                new_text: edit.new_text,
            })
            .collect(),
    }
}

fn related(related: Vec<checker::Related>) -> Vec<Related> {
    related
        .into_iter()
        .map(|related| Related {
            span: span(related.span),
            message: related.label,
        })
        .collect()
}

/// A leak report as a finding.
fn leak(unreleased: checker::Unreleased) -> Finding {
    let code = match unreleased.kind {
        _ if unreleased.code == checker::leaks::GUESSED_CODE => FindingCode::NeverReleased,
        LeakKind::MethodEnd => FindingCode::LeakMethodEnd,
        LeakKind::Exception => FindingCode::LeakException,
        LeakKind::Overwritten => FindingCode::LeakOverwritten,
        LeakKind::Replaced => FindingCode::LeakReplaced,
        LeakKind::ComponentEnd => FindingCode::LeakComponentEnd,
        LeakKind::Lifecycle(_) => FindingCode::LeakLifecycle,
    };
    Finding {
        code,
        span: span(unreleased.span),
        certainty: if unreleased.definite {
            Certainty::Definite
        } else {
            Certainty::Possible
        },
        message: unreleased.message,
        related: related(unreleased.related),
        fix: unreleased.fix.map(fix),
    }
}

fn innermost_method(classes: &[Class], offset: usize) -> Option<checker::ir::Span> {
    let within = |span: checker::ir::Span| span.start_byte <= offset && offset <= span.end_byte;
    classes
        .iter()
        .filter(|class| within(class.span))
        .find_map(|class| {
            innermost_method(&class.classes, offset).or_else(|| {
                class
                    .methods
                    .iter()
                    .map(|method| method.span)
                    .find(|span| within(*span))
            })
        })
}

fn source(file: &SourceFile) -> checker::SourceFile {
    checker::SourceFile {
        path: file.path.clone().unwrap_or_default(),
        language: language(file.language),
        text: file.text.to_string(),
    }
}

fn language(language: Language) -> checker::ir::Language {
    match language {
        Language::Java => checker::ir::Language::Java,
        Language::Kotlin => checker::ir::Language::Kotlin,
    }
}

/// The checker counts 1-based lines and 1-based byte columns.
/// The findings that say a file was not checked fully: at the place nesting went too deep,
/// or at the start of the file, which it names, when the time limit was hit; and at the start
/// of each body whose analysis did not settle.
fn not_checked_fully(
    result: &checker::CheckResult,
    config: &CheckConfig,
    file: &SourceFile,
) -> Vec<Finding> {
    let cut = match (result.too_deep, result.timed_out) {
        (Some(too_deep), _) => Some((
            span(too_deep.span),
            format!(
                "{} nested deeper than {} levels: the file was not checked fully",
                too_deep.nesting.describe(),
                too_deep.nesting.limit()
            ),
        )),
        (None, true) => Some((
            Span::new(Pos::new(0, 0), Pos::new(0, 0)),
            format!(
                "checking {} took longer than the limit of {} s: the file was not checked fully",
                file.path
                    .as_deref()
                    .and_then(Path::file_name)
                    .map_or("this file".into(), |name| name.to_string_lossy()),
                config.time_limit.as_secs_f64()
            ),
        )),
        (None, false) => None,
    };
    let unconverged = result.unconverged.iter().map(|unconverged| {
        let start = span(unconverged.span).start;
        (
            Span::new(start, start),
            format!("{}: the file was not checked fully", unconverged.describe()),
        )
    });
    cut.into_iter()
        .chain(unconverged)
        .map(|(at, message)| Finding {
            code: FindingCode::NotCheckedFully,
            span: at,
            certainty: Certainty::Possible,
            message,
            related: Vec::new(),
            fix: None,
        })
        .collect()
}

fn span(span: checker::ir::Span) -> Span {
    let pos = |at: LineCol| Pos::new(at.line.saturating_sub(1), at.col.saturating_sub(1));
    Span::new(pos(span.start), pos(span.end))
}
