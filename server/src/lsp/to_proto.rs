//! Conversions from the analysis types to LSP types: diagnostics, ranges, edits, hovers.

use std::path::PathBuf;
use std::str::FromStr;

use tower_lsp_server::ls_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, NumberOrString, Position, Range, TextEdit,
    Uri,
};

use typestates::library::LibraryError;

use super::capabilities::Encoding;
use crate::analysis::hover::HoverText;
use crate::analysis::text::LineIndex;
use crate::analysis::{Certainty, Edit, Finding, FindingCode, Pos, Span};
use crate::docs;

/// The `source` of every diagnostic the server publishes.
pub const SOURCE: &str = "typestar";

/// The diagnostic code of a `.typestate` file that does not parse.
pub const TYPESTATE_FORMAT_CODE: &str = "typestate-format";

/// The section of `code` in the diagnostics page the server wrote (`docs::cache_dir`), when
/// the page is there.
fn code_description(code: FindingCode) -> Option<CodeDescription> {
    let page = docs::cache_dir().join(docs::DIAGNOSTICS_PAGE);
    if !page.is_file() {
        return None;
    }
    let file = Uri::from_file_path(&page)?;
    let href = Uri::from_str(&format!("{}#{}", file.as_str(), code.id())).ok()?;
    Some(CodeDescription { href })
}

/// The LSP position of `pos`.
pub fn position(index: &LineIndex<'_>, encoding: Encoding, pos: Pos) -> Position {
    let line = index.line(pos.line);
    let col = (pos.col as usize).min(line.len());
    let character = match encoding {
        Encoding::Utf8 => col,
        Encoding::Utf16 => line
            .get(..col)
            .map_or(col, |prefix| prefix.encode_utf16().count()),
    };
    Position::new(pos.line, character as u32)
}

/// The LSP range of `span`.
pub fn range(index: &LineIndex<'_>, encoding: Encoding, span: Span) -> Range {
    Range::new(
        position(index, encoding, span.start),
        position(index, encoding, span.end),
    )
}

/// A finding as an LSP diagnostic of the document `uri`.
pub fn diagnostic(
    index: &LineIndex<'_>,
    encoding: Encoding,
    uri: &Uri,
    finding: &Finding,
) -> Diagnostic {
    Diagnostic {
        range: range(index, encoding, finding.span),
        severity: Some(match (finding.code, finding.certainty) {
            (FindingCode::IgnoredCall, _) => DiagnosticSeverity::INFORMATION,
            (FindingCode::HandledViolation, _) => DiagnosticSeverity::HINT,
            (FindingCode::NotCheckedFully, _) => DiagnosticSeverity::WARNING,
            (code, _) if code.is_leak() => DiagnosticSeverity::WARNING,
            (_, Certainty::Definite) => DiagnosticSeverity::ERROR,
            (_, Certainty::Possible) => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(finding.code.id().to_string())),
        code_description: code_description(finding.code),
        source: Some(SOURCE.to_string()),
        message: finding.message.clone(),
        related_information: Some(
            finding
                .related
                .iter()
                .map(|related| DiagnosticRelatedInformation {
                    location: Location::new(uri.clone(), range(index, encoding, related.span)),
                    message: related.message.clone(),
                })
                .collect(),
        )
        .filter(|related: &Vec<_>| !related.is_empty()),
        tags: None,
        data: None,
    }
}

/// A library folder error as the file it is about and an LSP diagnostic there (the library
/// counts 1-based lines and character columns).
pub fn library_error(error: &LibraryError) -> (PathBuf, Diagnostic) {
    let (path, line, col, message) = match error {
        LibraryError::Io { path, source } => (path.clone(), 1, 1, format!("cannot read: {source}")),
        LibraryError::Parse(diagnostic) => (
            PathBuf::from(&diagnostic.path),
            diagnostic.line,
            diagnostic.col,
            diagnostic.message.clone(),
        ),
        LibraryError::DuplicateClass {
            class,
            path,
            line,
            col,
            first,
        } => (
            path.clone(),
            *line,
            *col,
            format!(
                "class `{class}` is already described by {}",
                first.display()
            ),
        ),
    };
    let line = line.saturating_sub(1) as u32;
    let col = col.saturating_sub(1) as u32;
    let diagnostic = Diagnostic {
        range: Range::new(Position::new(line, col), Position::new(line, col + 1)),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(TYPESTATE_FORMAT_CODE.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        ..Diagnostic::default()
    };
    (path, diagnostic)
}

/// An analysis edit as an LSP text edit.
pub fn text_edit(index: &LineIndex<'_>, encoding: Encoding, edit: &Edit) -> TextEdit {
    TextEdit::new(range(index, encoding, edit.span), edit.new_text.clone())
}

/// Hover text as an LSP hover.
pub fn hover(index: &LineIndex<'_>, encoding: Encoding, hover: HoverText) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover.markdown,
        }),
        range: Some(range(index, encoding, hover.span)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_count_code_units() {
        let index = LineIndex::new("a😀b");
        assert_eq!(
            position(&index, Encoding::Utf16, Pos::new(0, 5)).character,
            3
        );
        assert_eq!(
            position(&index, Encoding::Utf8, Pos::new(0, 5)).character,
            5
        );
        assert_eq!(
            position(&index, Encoding::Utf16, Pos::new(0, 2)).character,
            2,
            "inside a char: clamped by get"
        );
    }
}
