//! Conversions from LSP types to the analysis types: positions, text edits, paths, languages.

use std::path::PathBuf;

use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

use super::capabilities::Encoding;
use crate::analysis::text::{floor_char_boundary, LineIndex};
use crate::analysis::{Language, Pos};

/// The analysis position of an LSP position in `text`.
pub fn pos(index: &LineIndex<'_>, encoding: Encoding, position: Position) -> Pos {
    let line = index.line(position.line);
    let col = match encoding {
        Encoding::Utf8 => floor_char_boundary(line, position.character as usize),
        Encoding::Utf16 => {
            let mut units = 0;
            line.char_indices()
                .find(|(_, c)| {
                    units += c.len_utf16();
                    units > position.character as usize
                })
                .map_or(line.len(), |(i, _)| i)
        }
    };
    Pos::new(position.line, col as u32)
}

/// Applies content changes (full or ranged, in order) to `text`.
pub fn apply_changes(
    text: &str,
    encoding: Encoding,
    changes: Vec<TextDocumentContentChangeEvent>,
) -> String {
    let mut text = text.to_string();
    for change in changes {
        match change.range {
            None => text = change.text,
            Some(range) => {
                let index = LineIndex::new(&text);
                let start = index.offset(pos(&index, encoding, range.start));
                let end = index.offset(pos(&index, encoding, range.end)).max(start);
                text.replace_range(start..end, &change.text);
            }
        }
    }
    text
}

/// The file of a `file:` URI.
pub fn path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|path| path.into_owned())
}

/// The language of a document: its file name's extension when that names one, else its
/// `languageId`.
/// The extension wins because clients get the id wrong: eglot 1.9, with one server for Java
/// and Kotlin modes, sends every document with the first mode's id (`java`).
pub fn language(language_id: &str, uri: &Uri) -> Option<Language> {
    let name = uri.as_str().rsplit('/').next().unwrap_or_default();
    name.rsplit_once('.')
        .and_then(|(_, extension)| Language::from_id(extension))
        .or_else(|| Language::from_id(language_id))
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;
    use tower_lsp_server::ls_types::Range;

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((l0, c0), (l1, c1))| {
                Range::new(Position::new(l0, c0), Position::new(l1, c1))
            }),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn utf16_columns_skip_surrogate_pairs() {
        let text = "a😀b";
        let index = LineIndex::new(text);
        assert_eq!(pos(&index, Encoding::Utf16, Position::new(0, 3)).col, 5);
        assert_eq!(pos(&index, Encoding::Utf8, Position::new(0, 5)).col, 5);
        assert_eq!(pos(&index, Encoding::Utf16, Position::new(0, 99)).col, 6);
    }

    #[test]
    fn positions_inside_a_character_or_out_of_range_never_panic() {
        let text = "aé😀\r\nb\n";
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            for line in [0, 1, 2, 3, u32::MAX] {
                for character in [0, 1, 2, 3, 4, 5, 6, 99, u32::MAX] {
                    let at = Position::new(line, character);
                    let edited = apply_changes(
                        text,
                        encoding,
                        vec![change(Some(((line, character), (0, 2))), "x")],
                    );
                    assert!(edited.contains('x'), "{encoding:?} {at:?}: {edited:?}");
                    let index = LineIndex::new(text);
                    let pos = pos(&index, encoding, at);
                    assert!(
                        text.is_char_boundary(index.offset(pos)),
                        "{encoding:?} {at:?}"
                    );
                }
            }
        }
        // A UTF-8 column inside `é` edits from the start of `é`.
        let edited = apply_changes(
            text,
            Encoding::Utf8,
            vec![change(Some(((0, 2), (0, 3))), "")],
        );
        assert_eq!(edited, "a😀\r\nb\n");
    }

    #[test]
    fn ranged_changes_apply_in_order() {
        let text = apply_changes(
            "hello\nworld",
            Encoding::Utf16,
            vec![
                change(Some(((1, 0), (1, 5))), "there"),
                change(Some(((0, 5), (0, 5))), ","),
            ],
        );
        assert_eq!(text, "hello,\nthere");
        let text = apply_changes(&text, Encoding::Utf16, vec![change(None, "new")]);
        assert_eq!(text, "new");
    }

    #[test]
    fn the_extension_decides_the_language_before_the_id() {
        let cases = [
            ("java", "file:///p/A.kt", Some(Language::Kotlin)),
            ("java", "file:///p/build.gradle.kts", Some(Language::Kotlin)),
            ("kotlin", "file:///p/A.java", Some(Language::Java)),
            ("kotlin", "file:///p.java/README", Some(Language::Kotlin)),
            ("java", "untitled:Untitled-1", Some(Language::Java)),
            ("plaintext", "file:///p/notes.txt", None),
        ];
        for (id, uri, expected) in cases {
            let uri = Uri::from_str(uri).unwrap();
            assert_eq!(language(id, &uri), expected, "{id} {}", uri.as_str());
        }
    }
}
