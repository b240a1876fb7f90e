//! Checking one file again and again as it is edited, re-doing only what an edit can change.
//!
//! An [`Incremental`] keeps, for one document, the last text, its tree-sitter tree and the IR lowered from it.
//! It also keeps the findings of the last check, with the library and configuration they were computed with.
//! Findings and analyses are reused only from a check against the same `Arc<Library>`.
//! So a library change is seen by pointer identity, never by comparing contents.
//! A caller keeps one `Arc<Library>` while its protocols stay the same.
//! Each [`Incremental::check`] of a new text goes through these steps:
//! 1. It finds the one [`TextEdit`] between the old and the new text (their common prefix and suffix).
//!    So the caller only hands over whole texts, in any order.
//! 2. It edits the kept tree, and tree-sitter reparses only around the edit.
//!    Parsing was the largest part of a check (`bench/results/lsp-latency.md`).
//! 3. An edit inside one comment keeps the IR, moved across the edit, and the findings, relocated.
//!    The comment must be there afterwards, on the same line, without the suppression marker.
//!    The fixes are computed again, as they read the text ([`crate::fixes`]).
//! 4. An edit inside one method, whose tree changed only inside that method's node, lowers only that method into the kept IR.
//!    Its expressions are numbered from where the kept one's started ([`crate::ir::Method::ids`]), and what follows is renumbered if the count changed.
//! 5. Otherwise it lowers the whole new tree, and compares it with the kept IR relocated across the edit ([`relocate`]).
//!    If they are equal, the edit touched only what the IR does not record (blank space, a
//!    literal's contents).
//!    Then the kept findings, relocated, are the answer.
//! 6. Otherwise it analyses the new IR as [`crate::check`] does.
//!    If only some methods differ and [`Last::reusable`] allows it, the analyses of the others' bodies are taken from the last check ([`body_memo`]).
//!
//! The result is always that of [`crate::check`] on the same text, and the kept IR that lowered from it.
//! `tests/incremental.rs` applies many random edits to fixture files and compares both after each one.

use std::sync::Arc;
use std::time::Instant;

use tree_sitter::{Parser, Tree};
use typestates::library::Library;

mod body_memo;
mod relocate;

use body_memo::{Analyses, BodyMemo};
use relocate::{Comparison, Renumbering, Shift, TextEdit};

use crate::check::{check_lowered_with, related};
use crate::ir::{Language, Method, MethodKind, SourceIr};
use crate::lang::{parse_within, NotParsed};
use crate::source::SourceFile;
use crate::visit_mut::VisitMut;
use crate::{CheckConfig, CheckResult};

/// The incremental state of one document; see the module documentation.
#[derive(Default)]
pub struct Incremental {
    parsed: Option<Parsed>,
    last: Option<Last>,
    lowering: Lowering,
}

/// What the last [`Incremental::check`] lowered into the IR, for tests and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lowering {
    /// Nothing: the IR was known to be the kept one moved, or the file was not analysed.
    #[default]
    None,
    /// Only the method the edit stayed inside; the rest is the kept IR, moved.
    Method,
    /// The whole file.
    File,
}

/// The last text and its tree.
struct Parsed {
    language: Language,
    parser: Parser,
    text: String,
    tree: Tree,
}

/// The last analysis and what it depended on.
struct Last {
    /// Compared by pointer, never by contents.
    library: Arc<Library>,
    config: CheckConfig,
    text: String,
    ir: SourceIr,
    /// The analyses of its method bodies, for [`body_memo`].
    analyses: Analyses,
    result: CheckResult,
}

/// What the last [`Incremental::check`] reused, for tests and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reuse {
    /// Parsed and analysed from scratch.
    Nothing,
    /// Reparsed the edited region of the kept tree, then analysed.
    Tree,
    /// Reparsed the edited region of the kept tree, lowered it, and analysed it again
    /// reusing the analyses of some method bodies the edit did not touch
    /// ([`body_memo`]).
    Bodies,
    /// Kept the findings, relocated (the tree was reparsed around the edit, or afresh if it
    /// has syntax errors), after lowering the new tree and finding the kept IR equal to it.
    Findings,
    /// Kept the IR and the findings, relocated, without lowering: the text is the same, or
    /// the edit stayed inside one comment.
    Ir,
}

impl Incremental {
    /// Checks `file` against `library`; the same result as [`crate::check`].
    /// Analyses are reused only from a check against the same `Arc`.
    pub fn check(
        &mut self,
        library: &Arc<Library>,
        file: &SourceFile,
        config: &CheckConfig,
    ) -> CheckResult {
        self.check_reporting(library, file, config).0
    }

    /// [`Incremental::check`], also telling what was reused.
    pub fn check_reporting(
        &mut self,
        library: &Arc<Library>,
        file: &SourceFile,
        config: &CheckConfig,
    ) -> (CheckResult, Reuse) {
        // Relocating positions across an edit counts `\n` only, as tree-sitter does; a text
        // that ends lines with a lone `\r` is checked afresh each time.
        let lone_cr = |parsed: &Parsed| crate::ir::has_lone_cr(&parsed.text);
        if crate::ir::has_lone_cr(&file.text) || self.parsed.as_ref().is_some_and(lone_cr) {
            *self = Incremental::default();
            let result = crate::check(library, file, config);
            return (result, Reuse::Nothing);
        }
        let reparsed = self.reparse(file, Instant::now().checked_add(config.time_limit));
        self.lowering = Lowering::None;
        // Taken out while in use, so that a panic midway leaves nothing half relocated.
        let last = self.last.take();
        let Some(parsed) = &self.parsed else {
            let result = match reparsed.not_parsed {
                Some(why) => CheckResult::not_parsed(why),
                // tree-sitter refused the grammar, which the grammar tests rule out.
                None => crate::check(library, file, config),
            };
            return (result, Reuse::Nothing);
        };
        let reused_tree = if reparsed.reused_tree {
            Reuse::Tree
        } else {
            Reuse::Nothing
        };
        if config.skip_unrelated && !related(library, &parsed.text, &config.supertypes) {
            let result = CheckResult {
                syntax_errors: crate::lang::tree_syntax_errors(&parsed.text, &parsed.tree),
                ..CheckResult::default()
            };
            return (result, reused_tree);
        }
        let mut last = last.zip(reparsed.edit);
        if let Some((kept, edit)) = last.as_mut().filter(|_| reparsed.same_ir) {
            if let Ok(result) = kept.reuse(library, config, *edit, NewIr::Moved, &parsed.text) {
                self.last = last.map(|(kept, _)| kept);
                return (result, Reuse::Ir);
            }
            last = None;
        }
        let mut lowered = None;
        let mut analyses = Analyses::default();
        self.lowering = Lowering::File;
        if let Some((mut kept, edit)) = last {
            let new = match kept.splice(edit, parsed, &reparsed.changed) {
                Some(spliced) => {
                    self.lowering = Lowering::Method;
                    NewIr::Spliced(Box::new(spliced))
                }
                None => NewIr::Lowered(lowered.insert(crate::lang::lower_tree(
                    parsed.language,
                    &parsed.text,
                    &parsed.tree,
                ))),
            };
            match kept.reuse(library, config, edit, new, &parsed.text) {
                Ok(result) => {
                    self.last = Some(kept);
                    return (result, Reuse::Findings);
                }
                Err(kept_analyses) => {
                    analyses = kept_analyses;
                    if lowered.is_none() {
                        lowered = Some(std::mem::replace(
                            &mut kept.ir,
                            SourceIr::empty(parsed.language),
                        ));
                    }
                }
            }
        }
        let ir = lowered.unwrap_or_else(|| {
            crate::lang::lower_tree(parsed.language, &parsed.text, &parsed.tree)
        });
        let mut memo = BodyMemo::new(analyses);
        let result = check_lowered_with(library, &parsed.text, &ir, config, &mut memo);
        let (reused, analyses) = memo.finish();
        self.last = (!result.timed_out).then(|| Last {
            library: library.clone(),
            config: config.clone(),
            text: parsed.text.clone(),
            ir,
            analyses,
            result: result.clone(),
        });
        let reuse = if reused > 0 {
            Reuse::Bodies
        } else {
            reused_tree
        };
        (result, reuse)
    }

    /// Brings the kept tree up to `file`, giving up at `deadline`.
    fn reparse(&mut self, file: &SourceFile, deadline: Option<Instant>) -> Reparsed {
        let old = self
            .parsed
            .take()
            .filter(|parsed| parsed.language == file.language);
        let Some(mut parsed) = old else {
            return match parse_new(file, deadline) {
                Ok(parsed) => {
                    self.parsed = parsed;
                    Reparsed::default()
                }
                Err(why) => Reparsed {
                    not_parsed: Some(why),
                    ..Reparsed::default()
                },
            };
        };
        let edit = TextEdit::between(&parsed.text, &file.text);
        if edit.is_empty() {
            self.parsed = Some(parsed);
            return Reparsed {
                edit: Some(edit),
                reused_tree: true,
                same_ir: true,
                changed: Vec::new(),
                not_parsed: None,
            };
        }
        let old_comment = comment_around(
            &parsed.tree,
            &parsed.text,
            edit.start_byte,
            edit.old_end_byte,
        );
        parsed.tree.edit(&edit.to_tree_sitter());
        let language = file.language;
        let mut tree = parse_within(
            &mut parsed.parser,
            language,
            &file.text,
            Some(&parsed.tree),
            deadline,
        );
        let mut reused_tree = true;
        // Around syntax errors tree-sitter's recovery may take another path when it reuses old
        // subtrees than when it starts afresh; only a fresh parse is sure to give what `check`
        // sees.
        if tree.as_ref().is_ok_and(|tree| tree.root_node().has_error()) {
            tree = parse_within(&mut parsed.parser, language, &file.text, None, deadline);
            reused_tree = false;
        }
        let tree = match tree {
            Ok(tree) => tree,
            Err(why) => {
                return Reparsed {
                    not_parsed: Some(why),
                    ..Reparsed::default()
                }
            }
        };
        let changed = if reused_tree {
            parsed
                .tree
                .changed_ranges(&tree)
                .map(|range| range.start_byte..range.end_byte)
                .collect()
        } else {
            Vec::new()
        };
        // The edit stayed inside one comment: the same comment, moved by the edit's length, is
        // there afterwards, no line was added or removed (Kotlin's statement ends depend on
        // line breaks), and neither text holds the suppression marker. The tokens outside the
        // comment are the old ones, so the IR is the old one, relocated.
        let new_comment = comment_around(&tree, &file.text, edit.start_byte, edit.new_end_byte);
        let same_ir = reused_tree
            && edit.start.line == edit.old_end.line
            && edit.start.line == edit.new_end.line
            && match (old_comment, new_comment) {
                (Some(old), Some(new)) => {
                    new.start == old.start
                        && new.end + edit.old_end_byte == old.end + edit.new_end_byte
                }
                _ => false,
            };
        parsed.tree = tree;
        parsed.text.clone_from(&file.text);
        self.parsed = Some(parsed);
        Reparsed {
            edit: Some(edit),
            reused_tree,
            same_ir,
            changed,
            not_parsed: None,
        }
    }

    /// What the last check lowered.
    pub fn lowering(&self) -> Lowering {
        self.lowering
    }

    /// The IR the last check analysed or kept, if it is kept for the next one (tests compare
    /// it with the IR lowered from scratch).
    pub fn ir(&self) -> Option<&SourceIr> {
        self.last.as_ref().map(|last| &last.ir)
    }
}

/// What [`Incremental::reparse`] did.
#[derive(Default)]
struct Reparsed {
    /// The edit from the kept text (`None` when there was no kept text in this language).
    edit: Option<TextEdit>,
    /// Whether the kept tree was reused.
    reused_tree: bool,
    /// Whether the IR is certainly the kept one moved across `edit` (the text is the same, or
    /// the edit stayed inside one comment).
    same_ir: bool,
    /// The byte ranges of the new tree whose structure differs from the kept tree's, when
    /// that was reused.
    changed: Vec<std::ops::Range<usize>>,
    /// Why the new text has no tree, when parsing gave up.
    not_parsed: Option<NotParsed>,
}

/// The IR of the new text, for [`Last::reuse`].
enum NewIr<'a> {
    /// Known to be the kept one moved across the edit.
    Moved,
    /// Lowered from the whole new tree.
    Lowered(&'a SourceIr),
    /// The kept IR is now the new one, spliced by [`Last::splice`].
    Spliced(Box<Spliced>),
}

/// How [`Last::splice`] made the new IR from the kept one.
struct Spliced {
    /// The kept IR, moved, compared with the new one.
    comparison: Comparison,
    /// How the expression ids of the kept IR changed.
    renumbering: Renumbering,
    /// The place of the lowered method in [`relocate::methods`] order.
    ordinal: usize,
    /// The kept method there, moved.
    old: Method,
}

/// The byte range of the comment of `tree` that holds `start..end`, if one does and its text
/// does not hold the suppression marker.
fn comment_around(
    tree: &Tree,
    text: &str,
    start: usize,
    end: usize,
) -> Option<std::ops::Range<usize>> {
    let node = tree.root_node().descendant_for_byte_range(start, end)?;
    let range = node.byte_range();
    let is_comment = node.kind().contains("comment")
        && range.start <= start
        && end <= range.end
        && text
            .get(range.clone())
            .is_some_and(|comment| !comment.contains(crate::lang::IGNORE_MARKER));
    is_comment.then_some(range)
}

impl Last {
    /// Makes the kept IR that of the new text, moved across `edit`, with only the method the
    /// edit stayed inside lowered again from `parsed`, if that gives what lowering the whole
    /// tree gives: neither text has syntax errors or suppression comments, the edit lies
    /// strictly inside one method of the kept IR, the new tree has a method node of that
    /// method's extent, moved, and every part of the tree whose structure changed (`changed`)
    /// lies inside it. Otherwise `None`, with the kept IR untouched.
    fn splice(
        &mut self,
        edit: TextEdit,
        parsed: &Parsed,
        changed: &[std::ops::Range<usize>],
    ) -> Option<Spliced> {
        let plain = |ir: &SourceIr| {
            ir.syntax_errors.is_empty() && ir.ignore_comments.is_empty() && ir.too_deep.is_none()
        };
        if !plain(&self.ir)
            || parsed.tree.root_node().has_error()
            || parsed.text.contains(crate::lang::IGNORE_MARKER)
        {
            return None;
        }
        let ordinal = relocate::methods(&self.ir).iter().position(|method| {
            method.span.start_byte < edit.start_byte && edit.old_end_byte < method.span.end_byte
        })?;
        let (old, class) = relocate::method_mut(&mut self.ir, ordinal)?;
        let (start, end) = (
            old.span.start_byte,
            old.span.end_byte - edit.old_end_byte + edit.new_end_byte,
        );
        let mut node = parsed
            .tree
            .root_node()
            .descendant_for_byte_range(start, end)?;
        while node.byte_range() == (start..end)
            && !crate::lang::is_method_node(parsed.language, node.kind())
        {
            node = node.parent()?;
        }
        let inside = |range: &std::ops::Range<usize>| start <= range.start && range.end <= end;
        if node.byte_range() != (start..end) || !changed.iter().all(inside) {
            return None;
        }
        let (first, old_next) = (old.ids.start, old.ids.end);
        let (method, next) =
            crate::lang::lower_method(parsed.language, &parsed.text, node, class, first)?;
        let mut shift = Shift::new(edit);
        shift.visit_method(old);
        let moved_exactly = shift.is_exact();
        let old = std::mem::take(old);
        let renumbering = if next == old_next {
            Renumbering::NONE
        } else {
            Renumbering {
                first,
                old_next,
                new_next: next,
            }
        };
        let mut rest = Shift::renumbering(edit, renumbering);
        if !relocate::ir(&mut rest, &mut self.ir) {
            // Unreachable: every other position lies outside the edited method.
            return None;
        }
        self.ir.n_exprs = self.ir.n_exprs - old_next + next;
        let (slot, _) = relocate::method_mut(&mut self.ir, ordinal)?;
        *slot = method;
        let comparison = if next == old_next && moved_exactly && old == *slot {
            Comparison::Same
        } else {
            let mut same = vec![true; relocate::methods(&self.ir).len()];
            same[ordinal] = false;
            Comparison::Methods(same)
        };
        Some(Spliced {
            comparison,
            renumbering,
            ordinal,
            old,
        })
    }

    /// The kept findings moved across `edit`, if they are those of the new text (`new`); the
    /// library and configuration must be the same. The kept state follows the edit.
    /// Otherwise the kept analyses of the method bodies that may be reused (see
    /// [`Last::reusable`]), relocated.
    fn reuse(
        &mut self,
        library: &Arc<Library>,
        config: &CheckConfig,
        edit: TextEdit,
        new: NewIr<'_>,
        text: &str,
    ) -> Result<CheckResult, Analyses> {
        if self.config != *config || !Arc::ptr_eq(&self.library, library) {
            return Err(Analyses::default());
        }
        let old_text = std::mem::replace(&mut self.text, text.to_owned());
        let analyses = std::mem::take(&mut self.analyses);
        let (comparison, changed) = match new {
            NewIr::Lowered(ir) => {
                let comparison = relocate::compare(edit, &mut self.ir, ir);
                let changed = match &comparison {
                    Comparison::Methods(same) => relocate::methods(&self.ir)
                        .into_iter()
                        .zip(relocate::methods(ir))
                        .zip(same)
                        .filter(|(_, &same)| !same)
                        .map(|(pair, _)| pair)
                        .collect(),
                    _ => Vec::new(),
                };
                (comparison, changed)
            }
            NewIr::Moved if relocate::ir(&mut Shift::new(edit), &mut self.ir) => {
                (Comparison::Same, Vec::new())
            }
            NewIr::Moved => (Comparison::Different, Vec::new()),
            NewIr::Spliced(spliced) => {
                let Spliced {
                    comparison,
                    renumbering,
                    ordinal,
                    old,
                } = *spliced;
                let changed = match &comparison {
                    Comparison::Methods(_) => relocate::methods(&self.ir)
                        .get(ordinal)
                        .map(|new| (&old, *new))
                        .into_iter()
                        .collect(),
                    _ => Vec::new(),
                };
                let reusable = Self::reusable(&changed, &old_text, text);
                return self.reuse_compared(
                    edit,
                    renumbering,
                    comparison,
                    reusable,
                    analyses,
                    text,
                );
            }
        };
        let reusable = Self::reusable(&changed, &old_text, text);
        self.reuse_compared(
            edit,
            Renumbering::NONE,
            comparison,
            reusable,
            analyses,
            text,
        )
    }

    /// [`Last::reuse`] once the kept IR, moved, has been compared with the new one; whether the
    /// analyses of the unchanged methods may be reused is `reusable`.
    fn reuse_compared(
        &mut self,
        edit: TextEdit,
        renumbering: Renumbering,
        comparison: Comparison,
        reusable: bool,
        analyses: Analyses,
        text: &str,
    ) -> Result<CheckResult, Analyses> {
        match comparison {
            // A leak fix is made of the text around it and confirmed by checking the fixed
            // text: it is computed again with the findings.
            Comparison::Same if self.result.unreleased.iter().any(|u| u.fix.is_some()) => {
                Err(Analyses::default())
            }
            Comparison::Same => {
                let mut shift = Shift::new(edit);
                relocate::result(&mut shift, &mut self.result);
                if !shift.is_exact() {
                    return Err(Analyses::default());
                }
                self.analyses = analyses.relocated(edit, Renumbering::NONE, |_| true);
                self.result.syntax_errors.clone_from(&self.ir.syntax_errors);
                crate::fixes::attach(&self.ir, text, &mut self.result.violations);
                Ok(self.result.clone())
            }
            Comparison::Methods(same) if reusable => {
                Err(analyses.relocated(edit, renumbering, |ordinal| {
                    same.get(ordinal) == Some(&true)
                }))
            }
            _ => Err(Analyses::default()),
        }
    }

    /// Whether the analyses of the unchanged methods of the relocated kept IR may be reused
    /// when only the methods `changed` (old and new) differ: each of those is a non-private
    /// method, the same but for its name and body, whose name (old and new) is written
    /// nowhere else in its text, so no other code calls it or names it, and the class-level
    /// facts other bodies read (fields, helpers, signatures) are the same.
    fn reusable(changed: &[(&Method, &Method)], old_text: &str, text: &str) -> bool {
        changed.iter().all(|(old, new)| {
            old.kind == MethodKind::Method
                && new.kind == MethodKind::Method
                && !old.modifiers.is_private
                && old.modifiers == new.modifiers
                && old.return_type == new.return_type
                && old.annotations == new.annotations
                && old.params == new.params
                && written_once(old_text, &old.name)
                && written_once(text, &new.name)
        })
    }
}

/// Whether `name` occurs exactly once in `text` as a whole word.
fn written_once(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut found = 0;
    for (at, _) in text.match_indices(name) {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            found += 1;
        }
    }
    !name.is_empty() && found == 1
}

/// A fresh parse of `file` (`None` if tree-sitter refuses the grammar), giving up at
/// `deadline`.
fn parse_new(file: &SourceFile, deadline: Option<Instant>) -> Result<Option<Parsed>, NotParsed> {
    let Some(mut parser) = crate::lang::parser(file.language) else {
        return Ok(None);
    };
    let tree = parse_within(&mut parser, file.language, &file.text, None, deadline)?;
    Ok(Some(Parsed {
        language: file.language,
        parser,
        text: file.text.clone(),
        tree,
    }))
}
