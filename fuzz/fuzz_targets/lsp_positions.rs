//! LSP position conversion on any text and positions, in UTF-8 and UTF-16: converting a
//! position never panics and lands on a character boundary, a ranged edit anywhere (out of
//! range, inside a character, reversed) applies without panicking, and a position the server
//! sends converts back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use server::analysis::text::LineIndex;
use server::lsp::capabilities::Encoding;
use server::lsp::{from_proto, to_proto};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let (numbers, text) = data.split_at(8);
    let text = String::from_utf8_lossy(text);
    let number = |at: usize| u32::from(u16::from_le_bytes([numbers[at], numbers[at + 1]]));
    let (line0, char0, line1, char1) = (number(0) % 64, number(2), number(4) % 64, number(6));
    let index = LineIndex::new(&text);
    for encoding in [Encoding::Utf8, Encoding::Utf16] {
        for position in [Position::new(line0, char0), Position::new(line1, char1)] {
            let pos = from_proto::pos(&index, encoding, position);
            let offset = index.offset(pos);
            assert!(text.is_char_boundary(offset), "{position:?} -> {offset}");
            let back = to_proto::position(&index, encoding, pos);
            assert_eq!(from_proto::pos(&index, encoding, back), pos, "{position:?}");
        }
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(line0, char0),
                Position::new(line1, char1),
            )),
            range_length: None,
            text: "é😀\r\n".into(),
        };
        from_proto::apply_changes(&text, encoding, vec![change]);
    }
});
