//! Moving the positions of a lowered file, and of its findings, across one text edit.
//!
//! A [`TextEdit`] replaces the bytes `start..old_end` of the old text by the bytes `start..new_end` of the new one.
//! [`Shift`] maps an old position to the new text.
//! Positions before the edit stay, and positions after it move by the edit's length and lines.
//! Positions inside the replaced bytes have no image.
//! The start of a span at a pure insertion point moves with the text after it, and its end stays with the text before it.
//! So spans never grow over inserted text.
//!
//! [`ir`] relocates a whole [`SourceIr`] in place, and says whether every position had an image.
//! [`compare`] does the same, and compares with the IR lowered from the new text, method by method.
//! Say every position had an image and the IRs are equal.
//! Then the two texts differ only in what the IR does not record (comments, blank space, literal
//! contents).
//! Then the findings of the old text, relocated by [`result`], are those of the new one.
//! `tests/incremental.rs` checks this against a check from scratch after many random edits.
//! When they differ only in some methods, the analyses of the others may be reused ([`super::body_memo`]).
//!
//! [`Shift::renumbering`] also moves expression ids ([`Renumbering`]), for the incremental engine.
//! It lowers only the edited method and puts it into the kept IR.
//! When that method now has more or fewer expressions, everything lowered after it is numbered as lowering the whole file would.

use crate::diagnostics::{Related, Unreleased, Violation};
use crate::ir::{Class, ClassKind, Expr, ExprId, LineCol, Method, SourceIr, Span};
use crate::visit_mut::{
    walk_annotation, walk_body, walk_expr, walk_field, walk_method, walk_source, walk_type_ref,
    VisitMut,
};
use crate::CheckResult;

/// One replacement of a range of bytes: `old[start..old_end]` became `new[start..new_end]`,
/// with the 1-based line and byte column of each end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextEdit {
    /// Where the replaced bytes start (in both texts).
    pub start_byte: usize,
    /// Where they ended in the old text.
    pub old_end_byte: usize,
    /// Where the replacement ends in the new text.
    pub new_end_byte: usize,
    /// The position of `start_byte`.
    pub start: LineCol,
    /// The position of `old_end_byte` in the old text.
    pub old_end: LineCol,
    /// The position of `new_end_byte` in the new text.
    pub new_end: LineCol,
}

impl TextEdit {
    /// The one edit that turns `old` into `new`: their common prefix and suffix stay (an
    /// empty edit at the end if they are equal).
    pub fn between(old: &str, new: &str) -> TextEdit {
        let (old_bytes, new_bytes) = (old.as_bytes(), new.as_bytes());
        let prefix = old_bytes
            .iter()
            .zip(new_bytes)
            .take_while(|(a, b)| a == b)
            .count();
        let room = old.len().min(new.len()) - prefix;
        let suffix = old_bytes
            .iter()
            .rev()
            .zip(new_bytes.iter().rev())
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        let start = position_after(LineCol { line: 1, col: 1 }, &old_bytes[..prefix]);
        TextEdit {
            start_byte: prefix,
            old_end_byte: old.len() - suffix,
            new_end_byte: new.len() - suffix,
            start,
            old_end: position_after(start, &old_bytes[prefix..old.len() - suffix]),
            new_end: position_after(start, &new_bytes[prefix..new.len() - suffix]),
        }
    }

    /// Whether the edit changes nothing.
    pub fn is_empty(&self) -> bool {
        self.start_byte == self.old_end_byte && self.start_byte == self.new_end_byte
    }

    /// The edit as tree-sitter takes it (0-based rows and columns).
    pub(crate) fn to_tree_sitter(self) -> tree_sitter::InputEdit {
        let point = |at: LineCol| tree_sitter::Point {
            row: at.line as usize - 1,
            column: at.col as usize - 1,
        };
        tree_sitter::InputEdit {
            start_byte: self.start_byte,
            old_end_byte: self.old_end_byte,
            new_end_byte: self.new_end_byte,
            start_position: point(self.start),
            old_end_position: point(self.old_end),
            new_end_position: point(self.new_end),
        }
    }
}

/// The position reached from `at` by reading `bytes`.
fn position_after(at: LineCol, bytes: &[u8]) -> LineCol {
    match bytes.iter().rposition(|&b| b == b'\n') {
        None => LineCol {
            line: at.line,
            col: at.col + bytes.len() as u32,
        },
        Some(last) => LineCol {
            line: at.line + bytes.iter().filter(|&&b| b == b'\n').count() as u32,
            col: (bytes.len() - last) as u32,
        },
    }
}

/// Maps the positions of the old text to the new one, remembering whether one had no image.
pub struct Shift {
    edit: TextEdit,
    lost: bool,
    renumber: Renumbering,
}

/// How the expression ids change when one method is lowered again: its own old ids,
/// `first..old_next`, have no image, and those from `old_next` on move to start at `new_next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Renumbering {
    /// The first id of the method lowered again.
    pub first: u32,
    /// The id after its last one, before.
    pub old_next: u32,
    /// The id after its last one, now.
    pub new_next: u32,
}

impl Renumbering {
    /// No id changes.
    pub const NONE: Renumbering = Renumbering {
        first: u32::MAX,
        old_next: u32::MAX,
        new_next: u32::MAX,
    };
}

impl Shift {
    /// A mapping across `edit`.
    pub fn new(edit: TextEdit) -> Shift {
        Shift::renumbering(edit, Renumbering::NONE)
    }

    /// A mapping across `edit` that also renumbers expression ids.
    pub fn renumbering(edit: TextEdit, renumber: Renumbering) -> Shift {
        Shift {
            edit,
            lost: false,
            renumber,
        }
    }

    /// Whether every position (and expression id) mapped so far had an image.
    pub fn is_exact(&self) -> bool {
        !self.lost
    }

    /// Whether the mapping changes expression ids.
    pub fn renumbers(&self) -> bool {
        self.renumber != Renumbering::NONE
    }

    /// The id of an expression, renumbered (noting the loss when it has no image).
    pub fn expr_id(&mut self, id: ExprId) -> ExprId {
        let Renumbering {
            first, old_next, ..
        } = self.renumber;
        if first <= id.0 && id.0 < old_next {
            self.lost = true;
        }
        self.id(id)
    }

    /// The id of an expression from `old_next` on, renumbered.
    fn id(&self, id: ExprId) -> ExprId {
        let Renumbering {
            old_next, new_next, ..
        } = self.renumber;
        if id.0 >= old_next {
            ExprId(id.0 - old_next + new_next)
        } else {
            id
        }
    }

    /// Moves `span` to the new text (leaving it as it is, and noting the loss, when one of its
    /// ends lies inside the replaced bytes).
    pub fn span(&mut self, span: &mut Span) {
        let Some((start_moves, end_moves)) = self.moves(span.start_byte, span.end_byte) else {
            return;
        };
        if start_moves {
            (span.start_byte, span.start) = self.moved(span.start_byte, span.start);
        }
        if end_moves {
            (span.end_byte, span.end) = self.moved(span.end_byte, span.end);
        }
    }

    /// Moves the byte range `start..end` as [`Shift::span`] moves a span.
    pub fn bytes(&mut self, start: usize, end: usize) -> (usize, usize) {
        let e = self.edit;
        let by = |at: usize| at - e.old_end_byte + e.new_end_byte;
        match self.moves(start, end) {
            Some((start_moves, end_moves)) => (
                if start_moves { by(start) } else { start },
                if end_moves { by(end) } else { end },
            ),
            None => (start, end),
        }
    }

    /// Whether the start and the end of `start..end` move (or stay); `None`, noting the
    /// loss, when one lies inside the replaced bytes.
    fn moves(&mut self, start: usize, end: usize) -> Option<(bool, bool)> {
        let e = self.edit;
        // A start at a pure insertion point belongs to the text after it; an end to the text
        // before it.
        let start_stays = start < e.start_byte;
        let start_moves = start >= e.old_end_byte && !start_stays;
        let end_stays = end <= e.start_byte;
        let end_moves = end >= e.old_end_byte && !end_stays;
        if !(start_stays || start_moves) || !(end_stays || end_moves) {
            self.lost = true;
            return None;
        }
        Some((start_moves, end_moves))
    }

    fn moved(&self, byte: usize, at: LineCol) -> (usize, LineCol) {
        let e = self.edit;
        let byte = byte - e.old_end_byte + e.new_end_byte;
        let at = if at.line == e.old_end.line {
            LineCol {
                line: e.new_end.line,
                col: at.col - e.old_end.col + e.new_end.col,
            }
        } else {
            LineCol {
                line: at.line - e.old_end.line + e.new_end.line,
                col: at.col,
            }
        };
        (byte, at)
    }
}

/// Relocates every span of `ir`; whether every one had an image.
pub fn ir(shift: &mut Shift, ir: &mut SourceIr) -> bool {
    walk_source(shift, ir);
    shift.is_exact()
}

/// How a kept IR, relocated, compares with the IR lowered from the new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Equal, and every position had an image.
    Same,
    /// Equal but for some methods (at least one, or only in how many expressions there
    /// are), each with the same number of them in each class: per method in [`methods`]
    /// order, whether it is equal (its expressions numbered the same, or renumbered as the
    /// incremental engine's lowering of one method says) with every position of it having an
    /// image.
    Methods(Vec<bool>),
    /// Anything else differs (or some position outside the methods had no image).
    Different,
}

/// Relocates every span of `old` across `edit` and compares it with `new`, method by method.
pub fn compare(edit: TextEdit, old: &mut SourceIr, new: &SourceIr) -> Comparison {
    let mut outer = Shift::new(edit);
    let mut classes = std::mem::take(&mut old.classes);
    ir(&mut outer, old);
    // Every field but the classes, compared below; a new field fails to compile here.
    let SourceIr {
        language,
        package,
        imports,
        type_aliases,
        classes: _,
        file_annotations,
        ignore_comments,
        syntax_errors,
        n_exprs,
        too_deep,
    } = &*old;
    let mut same_methods = Vec::new();
    let mut same = *language == new.language
        && *package == new.package
        && *imports == new.imports
        && *type_aliases == new.type_aliases
        && *file_annotations == new.file_annotations
        && *ignore_comments == new.ignore_comments
        && *syntax_errors == new.syntax_errors
        && *too_deep == new.too_deep
        && classes.len() == new.classes.len();
    let same_numbering = *n_exprs == new.n_exprs;
    for (old, new) in classes.iter_mut().zip(&new.classes) {
        same = same && class_but_methods(edit, &mut outer, old, new, &mut same_methods);
    }
    old.classes = classes;
    if !same || !outer.is_exact() {
        Comparison::Different
    } else if same_numbering && same_methods.iter().all(|&same| same) {
        Comparison::Same
    } else {
        Comparison::Methods(same_methods)
    }
}

/// Every method of `ir`, class by class (a class's own methods, then those of its nested
/// classes), as [`Comparison::Methods`] lists them.
pub fn methods(ir: &SourceIr) -> Vec<&Method> {
    fn visit<'a>(classes: &'a [Class], out: &mut Vec<&'a Method>) {
        for class in classes {
            out.extend(&class.methods);
            visit(&class.classes, out);
        }
    }
    let mut out = Vec::new();
    visit(&ir.classes, &mut out);
    out
}

/// The method at `ordinal` in [`methods`] order, with the kind of its class.
pub(crate) fn method_mut(ir: &mut SourceIr, ordinal: usize) -> Option<(&mut Method, ClassKind)> {
    fn visit<'a>(
        classes: &'a mut [Class],
        ordinal: &mut usize,
    ) -> Option<(&'a mut Method, ClassKind)> {
        for class in classes {
            let kind = class.kind;
            let n_methods = class.methods.len();
            if *ordinal < n_methods {
                return Some((&mut class.methods[*ordinal], kind));
            }
            *ordinal -= n_methods;
            if let Some(found) = visit(&mut class.classes, ordinal) {
                return Some(found);
            }
        }
        None
    }
    let mut ordinal = ordinal;
    visit(&mut ir.classes, &mut ordinal)
}

/// Relocates `old` and compares it with `new`: all but the methods through `outer`, which
/// must stay exact, and each method on its own, noting in `same_methods` whether it is equal;
/// whether everything but the methods is equal.
fn class_but_methods(
    edit: TextEdit,
    outer: &mut Shift,
    old: &mut Class,
    new: &Class,
    same_methods: &mut Vec<bool>,
) -> bool {
    let Class {
        name,
        kind,
        superclass,
        interfaces,
        annotations,
        modifiers,
        fields,
        methods,
        initializers,
        classes,
        span,
    } = old;
    superclass
        .iter_mut()
        .chain(interfaces.iter_mut())
        .for_each(|ty| walk_type_ref(outer, ty));
    annotations
        .iter_mut()
        .for_each(|a| walk_annotation(outer, a));
    fields.iter_mut().for_each(|f| walk_field(outer, f));
    initializers.iter_mut().for_each(|b| walk_body(outer, b));
    outer.span(span);
    let same = *name == new.name
        && *kind == new.kind
        && *superclass == new.superclass
        && *interfaces == new.interfaces
        && *annotations == new.annotations
        && *modifiers == new.modifiers
        && *fields == new.fields
        && *initializers == new.initializers
        && *span == new.span
        && methods.len() == new.methods.len()
        && classes.len() == new.classes.len();
    if !same {
        return false;
    }
    for (old, new) in methods.iter_mut().zip(&new.methods) {
        let mut shift = Shift::new(edit);
        shift.visit_method(old);
        same_methods.push(shift.is_exact() && *old == *new);
    }
    classes
        .iter_mut()
        .zip(&new.classes)
        .all(|(old, new)| class_but_methods(edit, outer, old, new, same_methods))
}

/// Relocates every span of a check's findings (the syntax errors come from the new IR, and
/// the fixes are computed again from it: [`crate::fixes`]).
pub fn result(shift: &mut Shift, result: &mut CheckResult) {
    for violation in &mut result.violations {
        self::violation(shift, violation);
    }
    for Unreleased { span, related, .. } in &mut result.unreleased {
        shift.span(span);
        for Related { span, .. } in related {
            shift.span(span);
        }
    }
    for call in &mut result.calls {
        shift.span(&mut call.span);
    }
    for unconverged in &mut result.unconverged {
        shift.span(&mut unconverged.span);
    }
}

fn violation(shift: &mut Shift, violation: &mut Violation) {
    shift.span(&mut violation.span);
    for Related { span, .. } in &mut violation.related {
        shift.span(span);
    }
}

/// The IR's walk, relocating every span it reaches, renumbering expression ids, and the id
/// range of each method after the edit.
impl VisitMut for Shift {
    fn visit_span(&mut self, span: &mut Span) {
        self.span(span);
    }

    fn visit_method(&mut self, method: &mut Method) {
        // An empty range may sit at the renumbering's start before the edit as well as after
        // it: only the methods after the edit are renumbered.
        if method.span.start_byte >= self.edit.old_end_byte {
            let ids = &method.ids;
            method.ids = self.id(ExprId(ids.start)).0..self.id(ExprId(ids.end)).0;
        }
        walk_method(self, method);
    }

    fn visit_expr(&mut self, expr: &mut Expr) {
        walk_expr(self, expr);
        expr.id = self.id(expr.id);
    }
}
