//! A guard in front of tower-lsp-server's reader: it re-frames the client's byte stream and
//! replaces every message the framework could not decode by a well-formed request that the
//! server answers with the JSON-RPC error (`-32700` parse error, `-32600` invalid request).
//!
//! Why: tower-lsp-server 0.23 reads with tokio-util's `FramedRead`, which ends the stream after
//! the first decode error (tokio-rs/tokio#3976), so one malformed message would stop the server.

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tower_lsp_server::jsonrpc;

/// The method of the stand-in request; the server answers it with the carried error.
pub const INVALID_MESSAGE: &str = "typestar/invalidMessage";

/// The largest message accepted; a bigger one is skipped and answered with an error.
const MAX_MESSAGE: usize = 256 << 20;

/// Params of the stand-in request.
#[derive(Debug, Deserialize)]
pub struct InvalidMessage {
    /// The JSON-RPC error code.
    pub code: i64,
    /// What was wrong.
    pub message: String,
}

impl InvalidMessage {
    /// The error response to send.
    pub fn into_error(self) -> jsonrpc::Error {
        jsonrpc::Error {
            code: jsonrpc::ErrorCode::from(self.code),
            message: self.message.into(),
            data: None,
        }
    }
}

/// Copies framed messages from `input` to `output`, replacing undecodable ones, until `input`
/// ends or `output` closes.
pub async fn guard(input: impl AsyncRead + Unpin, mut output: impl AsyncWrite + Unpin) {
    let mut input = BufReader::new(input);
    loop {
        let body = match read_frame(&mut input).await {
            Ok(Frame::Body(body)) => checked(body),
            Ok(Frame::Invalid(why)) => stand_in(jsonrpc::ErrorCode::ParseError, Value::Null, &why),
            Ok(Frame::End) | Err(_) => return,
        };
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        let written = async {
            output.write_all(header.as_bytes()).await?;
            output.write_all(&body).await?;
            output.flush().await
        };
        if written.await.is_err() {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    Invalid(String),
    End,
}

async fn read_frame(
    input: &mut (impl AsyncRead + Unpin + AsyncBufReadExt),
) -> std::io::Result<Frame> {
    let mut length = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).await? == 0 {
            return Ok(Frame::End);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let Some(length) = length else {
        return Ok(Frame::Invalid(
            "missing or invalid Content-Length header".to_string(),
        ));
    };
    if length > MAX_MESSAGE {
        tokio::io::copy(&mut input.take(length as u64), &mut tokio::io::sink()).await?;
        return Ok(Frame::Invalid(format!(
            "message of {length} bytes is over the {MAX_MESSAGE}-byte limit"
        )));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).await?;
    Ok(Frame::Body(body))
}

/// `body` itself when the framework can decode it, else a stand-in.
fn checked(body: Vec<u8>) -> Vec<u8> {
    if serde_json::from_slice::<jsonrpc::Request>(&body).is_ok()
        || serde_json::from_slice::<jsonrpc::Response>(&body).is_ok()
    {
        return body;
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(value) => {
            let id = value
                .get("id")
                .filter(|id| id.is_number() || id.is_string())
                .cloned()
                .unwrap_or(Value::Null);
            stand_in(
                jsonrpc::ErrorCode::InvalidRequest,
                id,
                "not a JSON-RPC 2.0 message",
            )
        }
        Err(err) => stand_in(
            jsonrpc::ErrorCode::ParseError,
            Value::Null,
            &format!("invalid JSON: {err}"),
        ),
    }
}

fn stand_in(code: jsonrpc::ErrorCode, id: Value, why: &str) -> Vec<u8> {
    tracing::warn!("bad message from the client: {why}");
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": INVALID_MESSAGE,
        "params": { "code": code.code(), "message": why },
    })
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn guarded(input: &str) -> String {
        let mut output = Vec::new();
        guard(input.as_bytes(), &mut output).await;
        String::from_utf8(output).unwrap()
    }

    #[tokio::test]
    async fn good_messages_pass_and_bad_ones_become_stand_ins() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!(
            "Content-Length: {}\r\n\r\n{good}Content-Length: 3\r\n\r\n{{x}}garbage\r\n\r\nContent-Length: 2\r\n\r\n{{}}",
            good.len()
        );
        let output = guarded(&input).await;
        let bodies: Vec<&str> = output.split("Content-Length: ").skip(1).collect();
        assert_eq!(bodies.len(), 4, "{output}");
        assert!(bodies[0].ends_with(good));
        assert!(bodies[1].contains("\"code\":-32700") && bodies[1].contains("invalid JSON"));
        assert!(bodies[2].contains("\"code\":-32700") && bodies[2].contains("Content-Length"));
        assert!(bodies[3].contains("\"code\":-32600"));
    }
}
