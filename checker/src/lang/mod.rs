//! Parsing with tree-sitter and lowering into the IR, one module per grammar.
//!
//! Each grammar module walks its own node kinds and builds [`crate::ir`] values through the shared [`LowerCx`].
//! [`LowerCx`] hands out expression ids and computes spans.
//! It caps the nesting depth so that no input can exhaust the stack.
//! Syntax errors never stop lowering: `ERROR` and `MISSING` nodes are recorded and skipped.

mod java;
mod kotlin;

use std::ops::ControlFlow;
use std::time::Instant;

use tree_sitter::{Node, Parser, Tree};

use crate::ir::{Expr, ExprId, ExprKind, Language, LineCol, Nesting, SourceIr, Span, TooDeep};

/// The marker that suppresses diagnostics when it appears in a comment.
pub const IGNORE_MARKER: &str = "typestar:ignore";

/// Why a text was not parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotParsed {
    /// Parsing did not end before the deadline.
    OutOfTime,
    /// The text nests deeper than the grammar can parse without aborting.
    TooDeep(TooDeep),
}

/// Parses `text` as `language` and lowers it into the IR; a text [`parse_within`] refuses
/// as too deep gives an empty IR that says so.
pub fn lower(language: Language, text: &str) -> SourceIr {
    lower_within(language, text, None).unwrap_or_else(|_| SourceIr::empty(language))
}

/// Parses `text` as `language`, giving up at `deadline`, and lowers it; a text
/// [`parse_within`] refuses as too deep gives an empty IR that says so.
pub fn lower_within(
    language: Language,
    text: &str,
    deadline: Option<Instant>,
) -> Result<SourceIr, NotParsed> {
    let Some(mut parser) = parser(language) else {
        return Ok(SourceIr::empty(language));
    };
    match parse_within(&mut parser, language, text, None, deadline) {
        Ok(tree) => Ok(lower_tree(language, text, &tree)),
        Err(NotParsed::TooDeep(too_deep)) => Ok(SourceIr {
            too_deep: Some(too_deep),
            ..SourceIr::empty(language)
        }),
        Err(NotParsed::OutOfTime) => Err(NotParsed::OutOfTime),
    }
}

/// Lowers `tree`, the parse of `text` as `language`, into the IR (what [`lower`] does after
/// parsing; the incremental engine keeps its tree between edits and calls this directly).
pub fn lower_tree(language: Language, text: &str, tree: &Tree) -> SourceIr {
    let mut cx = LowerCx::new(text);
    let mut ir = match language {
        Language::Java => java::lower_file(&mut cx, tree.root_node()),
        Language::Kotlin => kotlin::lower_file(&mut cx, tree.root_node()),
    };
    let (ignore_comments, syntax_errors) = scan_comments_and_errors(&cx, tree);
    ir.ignore_comments = ignore_comments;
    ir.syntax_errors = syntax_errors;
    ir.n_exprs = cx.next_id;
    ir.too_deep = cx.too_deep;
    ir
}

/// The kinds of the tree nodes that [`lower_method`] lowers: the class members that become one
/// [`crate::ir::Method`] each.
/// The value of an integer literal as written (`0`, `1_000`, `0x1F`, `7L`), if it fits.
pub(crate) fn int_value(text: &str) -> Option<i64> {
    let digits: String = text
        .trim_end_matches(['l', 'L', 'u', 'U'])
        .chars()
        .filter(|c| *c != '_')
        .collect();
    match digits.get(..2) {
        Some("0x" | "0X") => i64::from_str_radix(&digits[2..], 16).ok(),
        Some("0b" | "0B") => i64::from_str_radix(&digits[2..], 2).ok(),
        _ => digits.parse().ok(),
    }
}

pub(crate) fn is_method_node(language: Language, kind: &str) -> bool {
    match language {
        Language::Java => matches!(
            kind,
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration"
        ),
        Language::Kotlin => matches!(kind, "function_declaration" | "secondary_constructor"),
    }
}

/// The kinds of the tree nodes lowered as named classes, each one level of
/// [`Nesting::Classes`].
fn is_class_node(language: Language, kind: &str) -> bool {
    match language {
        Language::Java => java::is_class_node(kind),
        Language::Kotlin => kotlin::is_class_node(kind),
    }
}

/// Lowers `node`, a member of a class of kind `class` (a node [`is_method_node`] accepts), as
/// [`lower_tree`] lowers it within the whole file when its expressions are numbered from
/// `first_id`; with the number after the last one it used.
/// `None` when the method nests too deeply, where only lowering the whole file says what
/// the IR holds.
pub(crate) fn lower_method(
    language: Language,
    text: &str,
    node: Node<'_>,
    class: crate::ir::ClassKind,
    first_id: u32,
) -> Option<(crate::ir::Method, u32)> {
    let mut cx = LowerCx::new(text);
    cx.next_id = first_id;
    let mut ancestor = node.parent();
    while let Some(parent) = ancestor {
        cx.classes += u32::from(is_class_node(language, parent.kind()));
        ancestor = parent.parent();
    }
    let method = match language {
        Language::Java => java::lower_member_method(&mut cx, node, class),
        Language::Kotlin => kotlin::lower_member_method(&mut cx, node, class),
    };
    cx.too_deep.is_none().then_some((method, cx.next_id))
}

/// The regions of `text` the parser cannot read, exactly as [`lower`] records them in
/// [`SourceIr::syntax_errors`], without lowering; parsing stops at `deadline`.
pub fn syntax_errors(
    language: Language,
    text: &str,
    deadline: Option<Instant>,
) -> Result<Vec<Span>, NotParsed> {
    let Some(mut parser) = parser(language) else {
        return Ok(Vec::new());
    };
    let tree = parse_within(&mut parser, language, text, None, deadline)?;
    Ok(tree_syntax_errors(text, &tree))
}

/// The regions of `text` that `tree`, its parse, could not read (see [`syntax_errors`]).
pub fn tree_syntax_errors(text: &str, tree: &Tree) -> Vec<Span> {
    scan_comments_and_errors(&LowerCx::new(text), tree).1
}

/// Parses `text` with the grammar of `language`; `None` if tree-sitter refuses the grammar,
/// which the grammar tests rule out, or [`parse_within`] refuses the text.
pub fn parse(language: Language, text: &str) -> Option<Tree> {
    parse_within(&mut parser(language)?, language, text, None, None).ok()
}

/// Parses `text` with `parser`, set to the grammar of `language`, reusing `old` (the tree of
/// the text before an edit, edited to match), and gives up at `deadline`.
/// A Kotlin text whose strings nest inside string templates deeper than
/// [`Nesting::StringTemplates`] allows is refused before the grammar sees it: the grammar's
/// scanner aborts the whole process at 512 levels, and screening costs one pass over the text,
/// where running the parser in a separate process would cost a process per file.
pub fn parse_within(
    parser: &mut Parser,
    language: Language,
    text: &str,
    old: Option<&Tree>,
    deadline: Option<Instant>,
) -> Result<Tree, NotParsed> {
    if language == Language::Kotlin {
        if let Some(span) = kotlin::template_nesting_past(text, Nesting::StringTemplates.limit()) {
            return Err(NotParsed::TooDeep(TooDeep {
                nesting: Nesting::StringTemplates,
                span,
            }));
        }
    }
    let past_deadline = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    let mut out_of_time = |_: &tree_sitter::ParseState| {
        if past_deadline() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut out_of_time);
    let bytes = text.as_bytes();
    // tree-sitter calls the progress callback between parse actions only, and one action can
    // lex for a long time (error recovery rescans the rest of a run of `$` or `/*` from every
    // position). The text is therefore handed over in small chunks, and past the deadline as
    // if it ended there: the lexer asks for the next chunk often, and then stops.
    let mut cut = false;
    let mut read = |offset: usize, _: tree_sitter::Point| -> &[u8] {
        if past_deadline() {
            cut = true;
            return &[];
        }
        let rest = bytes.get(offset..).unwrap_or_default();
        &rest[..rest.len().min(PARSE_CHUNK_BYTES)]
    };
    // A parser stopped by the callback resumes its old parse next time unless reset.
    parser.reset();
    let tree = parser.parse_with_options(&mut read, old, Some(options));
    match tree {
        Some(tree) if !cut => Ok(tree),
        _ => Err(NotParsed::OutOfTime),
    }
}

/// How much text the parser gets at a time (see [`parse_within`]).
const PARSE_CHUNK_BYTES: usize = 4096;

/// A parser for `language`; `None` only if tree-sitter refuses the grammar.
pub fn parser(language: Language) -> Option<Parser> {
    let grammar: tree_sitter::Language = match language {
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::Kotlin => tree_sitter_kotlin_sg::LANGUAGE.into(),
    };
    let mut parser = Parser::new();
    parser.set_language(&grammar).ok()?;
    Some(parser)
}

impl SourceIr {
    pub(crate) fn empty(language: Language) -> SourceIr {
        SourceIr {
            language,
            package: None,
            imports: Vec::new(),
            type_aliases: Vec::new(),
            classes: Vec::new(),
            file_annotations: Vec::new(),
            ignore_comments: Vec::new(),
            syntax_errors: Vec::new(),
            n_exprs: 0,
            too_deep: None,
        }
    }
}

/// Walks the whole tree once, without recursion, for comments carrying [`IGNORE_MARKER`] and
/// for the regions the parser could not read.
fn scan_comments_and_errors(cx: &LowerCx<'_>, tree: &Tree) -> (Vec<Span>, Vec<Span>) {
    let mut ignore_comments = Vec::new();
    let mut syntax_errors = Vec::new();
    // Without the marker anywhere in the text, only subtrees holding an error are visited.
    let comments = cx.text.contains(IGNORE_MARKER);
    if !comments && !tree.root_node().has_error() {
        return (ignore_comments, syntax_errors);
    }
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        let mut descend = true;
        if node.is_error() || node.is_missing() {
            syntax_errors.push(cx.span(node));
            descend = false;
        } else if !comments && !node.has_error() {
            descend = false;
        } else if node.kind().contains("comment") {
            if cx.text(node).contains(IGNORE_MARKER) {
                ignore_comments.push(cx.span(node));
            }
            descend = false;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    (ignore_comments, syntax_errors)
}

/// State shared by a lowering pass over one file.
pub(crate) struct LowerCx<'a> {
    text: &'a str,
    next_id: u32,
    /// Statements and expressions entered (see [`Nesting::Code`]).
    depth: u32,
    /// Named classes entered (see [`Nesting::Classes`]).
    classes: u32,
    too_deep: Option<TooDeep>,
    /// The line starts of a text that ends lines with a lone `\r`, where tree-sitter's rows,
    /// which count `\n` only, are not the lines.
    lines: Option<Vec<usize>>,
}

impl<'a> LowerCx<'a> {
    fn new(text: &'a str) -> LowerCx<'a> {
        LowerCx {
            text,
            next_id: 0,
            depth: 0,
            classes: 0,
            too_deep: None,
            lines: crate::ir::has_lone_cr(text).then(|| crate::ir::line_starts(text)),
        }
    }

    /// The source text of `node` (empty if tree-sitter's range is not on a char boundary).
    pub(crate) fn text(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// The span of `node`.
    pub(crate) fn span(&self, node: Node<'_>) -> Span {
        if let Some(lines) = &self.lines {
            return Span {
                start_byte: node.start_byte(),
                end_byte: node.end_byte(),
                start: crate::ir::position(lines, node.start_byte()),
                end: crate::ir::position(lines, node.end_byte()),
            };
        }
        let position = |point: tree_sitter::Point| LineCol {
            line: u32::try_from(point.row)
                .unwrap_or(u32::MAX)
                .saturating_add(1),
            col: u32::try_from(point.column)
                .unwrap_or(u32::MAX)
                .saturating_add(1),
        };
        Span {
            start_byte: node.start_byte(),
            end_byte: node.end_byte(),
            start: position(node.start_position()),
            end: position(node.end_position()),
        }
    }

    /// Builds an expression with a fresh id.
    pub(crate) fn expr(&mut self, kind: ExprKind, span: Span) -> Expr {
        let id = ExprId(self.next_id);
        self.next_id += 1;
        Expr { id, kind, span }
    }

    /// Runs `lower` on `node` one level of `nesting` deeper, or returns `None` past its limit.
    /// Real code stays below the limits, and every later pass recurses over the IR, so they
    /// keep them within a 2 MiB thread stack even in debug builds (`tests/robustness.rs`).
    pub(crate) fn nested<T>(
        &mut self,
        nesting: Nesting,
        node: Node<'_>,
        lower: impl FnOnce(&mut Self) -> T,
    ) -> Option<T> {
        if *self.depth(nesting) >= nesting.limit() {
            self.cut(nesting, node);
            return None;
        }
        *self.depth(nesting) += 1;
        let res = lower(self);
        *self.depth(nesting) -= 1;
        Some(res)
    }

    /// How deep lowering is in `nesting`.
    fn depth(&mut self, nesting: Nesting) -> &mut u32 {
        match nesting {
            Nesting::Classes => &mut self.classes,
            Nesting::Code | Nesting::StringTemplates => &mut self.depth,
        }
    }

    /// Records the first place where lowering stopped going deeper.
    fn cut(&mut self, nesting: Nesting, node: Node<'_>) {
        if self.too_deep.is_none() {
            self.too_deep = Some(TooDeep {
                nesting,
                span: self.span(node),
            });
        }
    }
}

/// The named children of `node` that carry meaning: no comments, errors or missing nodes.
pub(crate) fn children(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    let mut cursor = node.walk();
    let kids: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    kids.into_iter()
        .filter(|kid| !kid.is_error() && !kid.is_missing() && !kid.kind().contains("comment"))
}

/// The first meaningful named child of `node` of kind `kind`.
pub(crate) fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    children(node).find(|kid| kid.kind() == kind)
}

/// Whether `node` has an anonymous (keyword or punctuation) child spelled `token`.
pub(crate) fn has_token(node: Node<'_>, token: &str) -> bool {
    let mut cursor = node.walk();
    let found = node
        .children(&mut cursor)
        .any(|kid| !kid.is_named() && kid.kind() == token);
    found
}

/// The contents of a string literal, without quotes (escape sequences are kept as written).
pub(crate) fn string_contents(raw: &str) -> String {
    raw.trim_start_matches(['"', '\''])
        .trim_end_matches(['"', '\''])
        .to_owned()
}
