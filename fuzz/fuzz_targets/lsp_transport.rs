//! The LSP framing decoder on any bytes, fed in pieces: it must never panic, give the same
//! bodies and errors however the input is cut, only give bodies that are JSON, and keep its
//! buffer bounded while it skips bytes that are no header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use server::lsp::framing::{Decoded, Decoder, Input};

/// The bodies and the number of errors, decoding `data` in pieces of `piece` bytes.
fn decode(data: &[u8], piece: usize) -> Vec<Option<Vec<u8>>> {
    let mut decoder = Decoder::default();
    let mut out = Vec::new();
    let mut take = |decoded: Decoded| match decoded {
        Decoded::Body(body) => {
            assert!(serde_json::from_slice::<serde_json::Value>(&body).is_ok());
            out.push(Some(body));
        }
        Decoded::Invalid(_) => out.push(None),
    };
    for chunk in data.chunks(piece) {
        decoder.push(chunk);
        while let Some(decoded) = decoder.next(Input::Open) {
            take(decoded);
        }
    }
    while let Some(decoded) = decoder.next(Input::Ended) {
        take(decoded);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&piece, data)) = data.split_first() else {
        return;
    };
    let whole = decode(data, data.len().max(1));
    let pieces = decode(data, usize::from(piece % 16) + 1);
    assert_eq!(whole, pieces, "cut in pieces of {}", piece % 16 + 1);
});
