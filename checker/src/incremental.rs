//! Checking one file again and again as it is edited, re-doing only what an edit can change.
//!
//! An [`Incremental`] keeps, for one document, the last text, its tree-sitter tree, the IR
//! lowered from it and the findings of the last check with the library and configuration
//! they were computed with. Each [`Incremental::check`] of a new text:
//!
//! 1. finds the one [`TextEdit`] between the old and the new text (their common prefix and
//!    suffix), so the caller only hands over whole texts, in any order;
//! 2. edits the kept tree and lets tree-sitter reparse only around the edit (parsing was
//!    the largest part of a check: `bench/results/lsp-latency.md`);
//! 3. lowers the new tree, and relocates the kept IR across the edit ([`crate::relocate`]);
//!    if the two are equal, the edit touched only what the IR does not record (a comment,
//!    blank space, a literal's contents), and the kept findings, relocated, are the answer
//!    (with their fixes computed again, as those read the text: [`crate::fixes`]);
//! 4. otherwise analyses the new IR as [`crate::check`] does.
//!
//! The result is always that of [`crate::check`] on the same text: `tests/incremental.rs`
//! applies many random edits to fixture files and compares after each one.

use tree_sitter::{Parser, Tree};
use typestates::library::Library;

use crate::check::{check_lowered, related};
use crate::ir::{Language, SourceIr};
use crate::relocate::{self, Shift, TextEdit};
use crate::source::SourceFile;
use crate::{CheckConfig, CheckResult};

/// The incremental state of one document; see the module documentation.
#[derive(Default)]
pub struct Incremental {
    parsed: Option<Parsed>,
    last: Option<Last>,
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
    library: Library,
    config: CheckConfig,
    ir: SourceIr,
    result: CheckResult,
}

/// What the last [`Incremental::check`] reused, for tests and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reuse {
    /// Parsed and analysed from scratch.
    Nothing,
    /// Reparsed the edited region of the kept tree, then analysed.
    Tree,
    /// Kept the findings, relocated (the tree was reparsed around the edit, or afresh if it
    /// has syntax errors).
    Findings,
}

impl Incremental {
    /// Checks `file` against `library`; the same result as [`crate::check`].
    pub fn check(
        &mut self,
        library: &Library,
        file: &SourceFile,
        config: &CheckConfig,
    ) -> CheckResult {
        self.check_reporting(library, file, config).0
    }

    /// [`Incremental::check`], also telling what was reused.
    pub fn check_reporting(
        &mut self,
        library: &Library,
        file: &SourceFile,
        config: &CheckConfig,
    ) -> (CheckResult, Reuse) {
        let (edit, reused_tree) = self.reparse(file);
        let Some(parsed) = &self.parsed else {
            // tree-sitter refused the grammar, which the grammar tests rule out.
            self.last = None;
            return (crate::check(library, file, config), Reuse::Nothing);
        };
        let reused_tree = if reused_tree {
            Reuse::Tree
        } else {
            Reuse::Nothing
        };
        if config.skip_unrelated && !related(library, &parsed.text, &config.supertypes) {
            self.last = None;
            let result = CheckResult {
                syntax_errors: crate::lang::tree_syntax_errors(&parsed.text, &parsed.tree),
                ..CheckResult::default()
            };
            return (result, reused_tree);
        }
        let ir = crate::lang::lower_tree(parsed.language, &parsed.text, &parsed.tree);
        if let (Some(edit), Some(last)) = (edit, self.last.as_mut()) {
            if let Some(result) = last.reuse(library, config, edit, &ir, &parsed.text) {
                return (result, Reuse::Findings);
            }
        }
        let result = check_lowered(library, &parsed.text, &ir, config);
        self.last = (!result.timed_out).then(|| Last {
            library: library.clone(),
            config: config.clone(),
            ir,
            result: result.clone(),
        });
        (result, reused_tree)
    }

    /// Brings the kept tree up to `file`: the edit from the kept text (`None` when there is
    /// no kept text in this language), and whether the kept tree was reused.
    fn reparse(&mut self, file: &SourceFile) -> (Option<TextEdit>, bool) {
        let old = self
            .parsed
            .take()
            .filter(|parsed| parsed.language == file.language);
        let Some(mut parsed) = old else {
            self.last = None;
            self.parsed = parse_new(file);
            return (None, false);
        };
        let edit = TextEdit::between(&parsed.text, &file.text);
        let mut reused = true;
        if !edit.is_empty() {
            parsed.tree.edit(&edit.to_tree_sitter());
            let mut tree = parsed.parser.parse(&file.text, Some(&parsed.tree));
            // Around syntax errors tree-sitter's recovery may take another path when it
            // reuses old subtrees than when it starts afresh; only a fresh parse is sure to
            // give what `check` sees.
            if tree
                .as_ref()
                .is_some_and(|tree| tree.root_node().has_error())
            {
                tree = parsed.parser.parse(&file.text, None);
                reused = false;
            }
            let Some(tree) = tree else {
                self.last = None;
                return (None, false);
            };
            parsed.tree = tree;
            parsed.text.clone_from(&file.text);
        }
        self.parsed = Some(parsed);
        (Some(edit), reused)
    }
}

impl Last {
    /// The kept findings moved across `edit`, if they are those of `ir` (the new text's IR)
    /// with the same library and configuration; the kept state follows the edit either way.
    fn reuse(
        &mut self,
        library: &Library,
        config: &CheckConfig,
        edit: TextEdit,
        ir: &SourceIr,
        text: &str,
    ) -> Option<CheckResult> {
        if self.config != *config || self.library != *library {
            return None;
        }
        let mut shift = Shift::new(edit);
        if !relocate::ir(&mut shift, &mut self.ir) || self.ir != *ir {
            return None;
        }
        relocate::result(&mut shift, &mut self.result);
        if !shift.is_exact() {
            return None;
        }
        self.result.syntax_errors.clone_from(&ir.syntax_errors);
        crate::fixes::attach(ir, text, &mut self.result.violations);
        Some(self.result.clone())
    }
}

fn parse_new(file: &SourceFile) -> Option<Parsed> {
    let mut parser = crate::lang::parser(file.language)?;
    let tree = parser.parse(&file.text, None)?;
    Some(Parsed {
        language: file.language,
        parser,
        text: file.text.clone(),
        tree,
    })
}
