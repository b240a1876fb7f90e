//! A resynchronising decoder of the LSP base protocol (`Content-Length` framing), without IO.
//!
//! Bytes go in with [`Decoder::push`]; [`Decoder::next`] gives whole JSON bodies and one error
//! per stretch of input it had to skip.
//! After a frame it cannot use, it skips to the next `Content-Length: N` line.
//! Such a frame has no `Content-Length` or an unreadable one.
//! Or its body is not JSON, or it has bytes that are no header.
//! So one bad message costs one error and never the framing of the messages after it.
//! A JSON body cannot hold a `Content-Length: N` line.
//! A raw line break is not allowed inside a JSON string, and the words are not JSON outside one.
//! So finding one inside a body proves that its declared length was too long.
//! The body ends there and the next message is kept.
//! A declared length that is too short leaves a truncated body, which is an error.
//! The rest of that message, before the next header, is skipped without a second error.

/// The largest body accepted; a bigger one is skipped and reported.
pub const MAX_MESSAGE: usize = 256 << 20;

/// The largest header block; a longer one is not a header.
const MAX_HEADER: usize = 8 << 10;

/// The name of the one header the framing needs, in lower case.
const CONTENT_LENGTH: &[u8] = b"content-length:";

/// At most this many blanks around the number of a `Content-Length` line found by a search.
const MAX_BLANKS: usize = 16;

/// At most this many digits in the number of a `Content-Length` line found by a search.
const MAX_DIGITS: usize = 20;

/// What the decoder gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// A message body that is JSON.
    Body(Vec<u8>),
    /// Input that is no usable message, and why.
    Invalid(String),
}

/// Whether more bytes may still come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// More bytes may follow: an incomplete message waits for them.
    Open,
    /// The input has ended: what is left is decoded or reported now.
    Ended,
}

/// The decoder's state: the bytes not decoded yet.
#[derive(Debug, Default)]
pub struct Decoder {
    buffer: Vec<u8>,
    /// The last thing given was an error, so skipped bytes right after it belong to it.
    skipping: bool,
}

impl Decoder {
    /// Adds bytes read from the client.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// The next body or error, or `None` when the buffered bytes are not enough to tell.
    pub fn next(&mut self, input: Input) -> Option<Decoded> {
        loop {
            let blanks = self
                .buffer
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            self.buffer.drain(..blanks);
            if self.skipping {
                // Inside bytes already reported: only a `Content-Length` line starts a message
                // (any other header-like bytes there are where a read happened to stop).
                let keep = match find_header(&self.buffer, 0) {
                    Search::Found(at) => at,
                    Search::Partial(at) if input == Input::Open => at,
                    Search::Partial(_) | Search::Absent => self.buffer.len(),
                };
                self.buffer.drain(..keep);
            }
            if self.buffer.is_empty() {
                return None;
            }
            let (length, body_start) = match header(&self.buffer) {
                Header::Complete { length, body_start } => (length, body_start),
                Header::Incomplete if input == Input::Open => return None,
                Header::Incomplete | Header::Invalid => match self.skip_garbage(input) {
                    Some(error) => return Some(error),
                    None if input == Input::Ended || self.buffer.is_empty() => return None,
                    None => match header(&self.buffer) {
                        // Skipped up to a header that is still incomplete: wait for the rest.
                        Header::Incomplete => return None,
                        _ => continue,
                    },
                },
            };
            let Some(length) = length else {
                self.buffer.drain(..body_start);
                return Some(self.error("missing or invalid Content-Length header".into()));
            };
            if length > MAX_MESSAGE {
                self.buffer.drain(..body_start);
                return Some(self.error(format!(
                    "message of {length} bytes is over the {MAX_MESSAGE}-byte limit"
                )));
            }
            let available = &self.buffer[body_start..];
            let seen = &available[..available.len().min(length)];
            // A header inside the body: the declared length was too long.
            if let Search::Found(at) = find_header(seen, 0) {
                let body = seen[..at].to_vec();
                self.buffer.drain(..body_start + at);
                return Some(self.body(body, "shorter than its Content-Length"));
            }
            if available.len() < length {
                if input == Input::Open {
                    return None;
                }
                self.buffer.clear();
                return Some(self.error(format!("input ended inside a message of {length} bytes")));
            }
            let body = available[..length].to_vec();
            self.buffer.drain(..body_start + length);
            return Some(self.body(body, "longer than its Content-Length"));
        }
    }

    /// Drops bytes up to the next header (or all that cannot start one); an error unless they
    /// follow an error.
    fn skip_garbage(&mut self, input: Input) -> Option<Decoded> {
        let keep = match find_header(&self.buffer, 1) {
            Search::Found(at) => at,
            Search::Partial(at) if input == Input::Open => at,
            Search::Partial(_) | Search::Absent => self.buffer.len(),
        };
        let skipped: Vec<u8> = self.buffer.drain(..keep).collect();
        if self.skipping || skipped.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        Some(self.error(format!(
            "skipped {} bytes that are not an LSP message header",
            skipped.len()
        )))
    }

    /// `body` when it is JSON, else an error saying it may be `cut` (its length was wrong).
    /// JSON is UTF-8 (RFC 8259); serde_json does not check the text of strings it skips.
    /// The body is read as the server reads it, into a `serde_json::Value`, so that what
    /// passes here parses there (a number out of `f64`'s range, `1e11111`, does not).
    fn body(&mut self, body: Vec<u8>, cut: &str) -> Decoded {
        let checked = std::str::from_utf8(&body)
            .map_err(|err| err.to_string())
            .and_then(|text| {
                serde_json::from_str::<serde_json::Value>(text).map_err(|err| err.to_string())
            });
        match checked {
            Ok(_) => {
                self.skipping = false;
                Decoded::Body(body)
            }
            Err(err) => self.error(format!("invalid JSON ({err}); is the message {cut}?")),
        }
    }

    fn error(&mut self, why: String) -> Decoded {
        self.skipping = true;
        Decoded::Invalid(why)
    }
}

/// What the start of the buffer holds.
enum Header {
    /// A header block, its `Content-Length` if readable, and where the body starts.
    Complete {
        length: Option<usize>,
        body_start: usize,
    },
    /// The start of a header block.
    Incomplete,
    /// Bytes that are no header block.
    Invalid,
}

/// Reads the header block at the start of `buffer` (which does not start with a blank).
fn header(buffer: &[u8]) -> Header {
    let mut start = 0;
    let mut length = None;
    loop {
        if start > MAX_HEADER {
            return Header::Invalid;
        }
        let Some(end) = buffer[start..].iter().position(|&b| b == b'\n') else {
            let raw = &buffer[start..];
            let partial = raw.strip_suffix(b"\r").unwrap_or(raw);
            let fits = match partial.iter().position(|&b| b == b':') {
                Some(colon) => colon > 0 && field(&partial[..colon], &partial[colon + 1..]),
                None => partial.iter().all(|&b| is_token(b)),
            };
            // A line that is not the blank one makes the next line start past its bytes.
            let within = partial.is_empty() || start + raw.len() < MAX_HEADER;
            return if fits && within {
                Header::Incomplete
            } else {
                Header::Invalid
            };
        };
        let line = &buffer[start..start + end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        start += end + 1;
        if line.is_empty() {
            return Header::Complete {
                length,
                body_start: start,
            };
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Header::Invalid;
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if name.is_empty() || !field(name, value) {
            return Header::Invalid;
        }
        if name.eq_ignore_ascii_case(&CONTENT_LENGTH[..CONTENT_LENGTH.len() - 1]) {
            length = std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.trim().parse().ok());
        }
    }
}

/// Whether `name: value` can be a header field (RFC 9110: a token, then visible ASCII).
fn field(name: &[u8], value: &[u8]) -> bool {
    name.iter().all(|&b| is_token(b))
        && value
            .iter()
            .all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
}

fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Where a search for a header line found one.
enum Search {
    /// A whole `Content-Length: N` line starts here.
    Found(usize),
    /// One may start here; the buffer ends before it can tell.
    Partial(usize),
    /// None can start in the buffer.
    Absent,
}

/// The first `Content-Length: N` line (case-insensitive, ended by a line break) at or after
/// `from`.
fn find_header(buffer: &[u8], from: usize) -> Search {
    for at in from..buffer.len() {
        match header_line_at(&buffer[at..]) {
            Some(true) => return Search::Found(at),
            None => return Search::Partial(at),
            Some(false) => {}
        }
    }
    Search::Absent
}

/// Whether `bytes` start with a `Content-Length: N` line; `None` when they end too soon to tell.
fn header_line_at(bytes: &[u8]) -> Option<bool> {
    let name = bytes.len().min(CONTENT_LENGTH.len());
    if !bytes[..name].eq_ignore_ascii_case(&CONTENT_LENGTH[..name]) {
        return Some(false);
    }
    let mut rest = bytes.get(CONTENT_LENGTH.len()..)?;
    let run = |rest: &mut &[u8], limit: usize, accept: fn(&u8) -> bool| {
        let n = rest
            .iter()
            .take(limit + 1)
            .take_while(|b| accept(b))
            .count();
        *rest = &rest[n..];
        n
    };
    let blanks = run(&mut rest, MAX_BLANKS, |b| *b == b' ' || *b == b'\t');
    let digits = run(&mut rest, MAX_DIGITS, u8::is_ascii_digit);
    let trailing = run(&mut rest, MAX_BLANKS, |b| *b == b' ' || *b == b'\t');
    if blanks > MAX_BLANKS || digits > MAX_DIGITS || trailing > MAX_BLANKS {
        return Some(false);
    }
    match rest {
        [] => None,
        [b'\r'] => None,
        [b'\n', ..] | [b'\r', b'\n', ..] => Some(digits > 0),
        _ => Some(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `input` fed in pieces of `piece` bytes, then ends it.
    fn decode(input: &[u8], piece: usize) -> Vec<Decoded> {
        let mut decoder = Decoder::default();
        let mut out = Vec::new();
        for chunk in input.chunks(piece.max(1)) {
            decoder.push(chunk);
            while let Some(decoded) = decoder.next(Input::Open) {
                out.push(decoded);
            }
        }
        while let Some(decoded) = decoder.next(Input::Ended) {
            out.push(decoded);
        }
        out
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// `B:body` for a body, `E:` plus the start of the message for an error.
    fn summary(decoded: &[Decoded]) -> Vec<String> {
        decoded
            .iter()
            .map(|d| match d {
                Decoded::Body(body) => format!("B:{}", String::from_utf8_lossy(body)),
                Decoded::Invalid(why) => format!("E:{}", why.split([' ', '(']).next().unwrap()),
            })
            .collect()
    }

    const A: &str = r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#;
    const B: &str =
        r#"{"jsonrpc":"2.0","id":2,"method":"b","params":{"t":"Content-Length: 3\r\n\r\n"}}"#;

    #[test]
    fn framing_cases() {
        let a = format!("B:{A}");
        let b = format!("B:{B}");
        let cases: Vec<(&str, String, Vec<&str>)> = vec![
            ("two messages", frame(A) + &frame(B), vec![&a, &b]),
            (
                "other headers, any case, LF lines",
                format!("content-type: x\ncontent-LENGTH:{}\n\n{A}", A.len()) + &frame(B),
                vec![&a, &b],
            ),
            (
                "missing Content-Length: its body is skipped with it",
                format!("Content-Type: x\r\n\r\n{A}") + &frame(B),
                vec!["E:missing", &b],
            ),
            (
                "unreadable Content-Length",
                format!("Content-Length: ten\r\n\r\n{A}") + &frame(B),
                vec!["E:missing", &b],
            ),
            (
                "too short: one error, then the next message",
                format!("Content-Length: 10\r\n\r\n{A}") + &frame(B),
                vec!["E:invalid", &b],
            ),
            (
                "too long: the body ends at the next header, both are kept",
                format!("Content-Length: {}\r\n\r\n{A}", A.len() + 30) + &frame(B),
                vec![&a, &b],
            ),
            (
                "too long at the end of the input",
                format!("Content-Length: {}\r\n\r\n{A}", A.len() + 30),
                vec!["E:input"],
            ),
            (
                "garbage before a header",
                format!("hello world\r\n{}", frame(A)),
                vec!["E:skipped", &a],
            ),
            (
                "garbage glued to a header",
                format!("xx{{}}{}", frame(A)),
                vec!["E:skipped", &a],
            ),
            (
                "a body that is not JSON",
                frame("{x}") + &frame(A),
                vec!["E:invalid", &a],
            ),
            (
                "blank lines between messages",
                format!("\r\n\r\n{}\r\n{}", frame(A), frame(B)),
                vec![&a, &b],
            ),
            (
                "over the size limit",
                format!("Content-Length: {}\r\n\r\n{A}", MAX_MESSAGE + 1) + &frame(B),
                vec!["E:message", &b],
            ),
            ("only garbage", "no header at all".into(), vec!["E:skipped"]),
            (
                "a header line that is too long to be one",
                format!("Content-Length: {}\r\n\r\n", " ".repeat(40)) + &frame(A),
                vec!["E:missing", &a],
            ),
        ];
        for (name, input, expected) in cases {
            for piece in [1, 7, input.len()] {
                let got = summary(&decode(input.as_bytes(), piece));
                assert_eq!(got, expected, "{name}, pieces of {piece}");
            }
        }
    }

    #[test]
    fn after_an_error_only_a_content_length_line_starts_a_message() {
        // Found by the lsp_transport fuzz target: a read that stopped inside garbage left
        // `-Length: 201` at the start, which reads as a header without Content-Length.
        let input = format!("Content-Length: 10\r\n\r\n{A}Conten\u{a4}-Length: 201\r\n\r\n{B}");
        for piece in [1, 8, input.len()] {
            assert_eq!(
                summary(&decode(input.as_bytes(), piece)),
                ["E:invalid"],
                "{piece}"
            );
        }
    }

    #[test]
    fn a_number_out_of_range_is_not_a_body() {
        // Found by the lsp_transport fuzz target: the server could not parse what passed.
        let mut input = b"Content-Length: 8\r\n\r\n\r1e11111".to_vec();
        input.extend_from_slice(frame(A).as_bytes());
        assert_eq!(
            summary(&decode(&input, 3)),
            ["E:invalid", &format!("B:{A}")]
        );
    }

    #[test]
    fn a_body_that_is_not_utf8_is_not_json() {
        let mut input = b"Content-Length: 4\r\n\r\n\"\x85a\"".to_vec();
        input.extend_from_slice(frame(A).as_bytes());
        assert_eq!(
            summary(&decode(&input, 3)),
            ["E:invalid", &format!("B:{A}")]
        );
    }

    #[test]
    fn an_incomplete_message_waits_for_its_rest() {
        let mut decoder = Decoder::default();
        let message = frame(A);
        decoder.push(&message.as_bytes()[..message.len() - 1]);
        assert_eq!(decoder.next(Input::Open), None);
        decoder.push(&message.as_bytes()[message.len() - 1..]);
        assert_eq!(decoder.next(Input::Open), Some(Decoded::Body(A.into())));
    }

    #[test]
    fn garbage_without_a_header_does_not_grow_the_buffer() {
        let mut decoder = Decoder::default();
        for _ in 0..1000 {
            decoder.push(&[b'{'; 1000]);
            while decoder.next(Input::Open).is_some() {}
            assert!(
                decoder.buffer.len() <= MAX_HEADER,
                "{}",
                decoder.buffer.len()
            );
        }
    }
}
