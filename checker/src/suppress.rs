//! Suppression of findings by one of three marks:
//! - `@SuppressWarnings("typestate")` on a method or class (Java);
//! - `@Suppress("typestate")` on a function, class or file (Kotlin);
//! - a comment containing `typestar:ignore` on the reported line or the line above.

use crate::ir::{Class, SourceIr, Span};

/// The warning name the suppression annotations take.
pub const WARNING_NAME: &str = "typestate";

/// Whether a finding at `span` is suppressed in `ir`.
pub fn is_suppressed(ir: &SourceIr, span: Span) -> bool {
    let line = span.start.line;
    let by_comment = ir.ignore_comments.iter().any(|comment| {
        comment.end.line == line || comment.end.line + 1 == line || comment.start.line == line
    });
    by_comment
        || ir
            .file_annotations
            .iter()
            .any(|a| a.suppresses(WARNING_NAME))
        || ir.classes.iter().any(|class| class_suppresses(class, span))
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start_byte <= inner.start_byte && inner.end_byte <= outer.end_byte
}

fn class_suppresses(class: &Class, span: Span) -> bool {
    if !contains(class.span, span) {
        return false;
    }
    class.annotations.iter().any(|a| a.suppresses(WARNING_NAME))
        || class.methods.iter().any(|method| {
            contains(method.span, span)
                && method
                    .annotations
                    .iter()
                    .any(|a| a.suppresses(WARNING_NAME))
        })
        || class.fields.iter().any(|field| {
            contains(field.span, span)
                && field.annotations.iter().any(|a| a.suppresses(WARNING_NAME))
        })
        || class
            .classes
            .iter()
            .any(|nested| class_suppresses(nested, span))
}
