//! The edits that suppress a finding: the `// typestar:ignore` line comment and the method
//! annotations `@SuppressWarnings("typestate")` (Java) and `@Suppress("typestate")` (Kotlin).
//! The checker honours both (`checker::suppress`); this module only writes them.

use super::{text, Edit, Language, Pos, Span};

/// The marker of a line suppression.
pub const LINE_MARKER: &str = "typestar:ignore";

/// The edit that appends `// typestar:ignore` to `line`.
pub fn ignore_line(source: &str, line: u32) -> Edit {
    let end = Pos::new(line, text::line(source, line).len() as u32);
    Edit {
        span: Span::new(end, end),
        new_text: format!(" // {LINE_MARKER}"),
    }
}

/// The edit that annotates the method declared on line `method.line` so the checker skips it.
pub fn suppress_method(source: &str, language: Language, method: Pos) -> Edit {
    let declaration = text::line(source, method.line);
    let indent = &declaration[..declaration.len() - declaration.trim_start().len()];
    let annotation = match language {
        Language::Java => "@SuppressWarnings(\"typestate\")",
        Language::Kotlin => "@Suppress(\"typestate\")",
    };
    let start = Pos::new(method.line, 0);
    Edit {
        span: Span::new(start, start),
        new_text: format!("{indent}{annotation}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_annotations_keep_the_indentation() {
        let source = "class A {\n    void run() {\n    }\n}";
        let edit = suppress_method(source, Language::Java, Pos::new(1, 4));
        assert_eq!(edit.new_text, "    @SuppressWarnings(\"typestate\")\n");
        assert_eq!(edit.span.start, Pos::new(1, 0));
        let edit = suppress_method(source, Language::Kotlin, Pos::new(1, 4));
        assert_eq!(edit.new_text, "    @Suppress(\"typestate\")\n");
        assert_eq!(ignore_line(source, 1).span.start, Pos::new(1, 16));
    }
}
