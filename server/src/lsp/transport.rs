//! A guard in front of tower-lsp-server's reader.
//! It re-frames the client's byte stream with the resynchronising [`Decoder`].
//! It replaces every message the framework could not decode by a well-formed request.
//! The server answers that request with the JSON-RPC error (`-32700` parse error, `-32600` invalid request).
//!
//! Why: tower-lsp-server 0.23 reads with tokio-util's `FramedRead`.
//! It ends the stream after the first decode error (tokio-rs/tokio#3976), so one malformed message
//! would stop the server.

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc;

use super::framing::{Decoded, Decoder, Input};

/// The method of the stand-in request; the server answers it with the carried error.
pub const INVALID_MESSAGE: &str = "typestar/invalidMessage";

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
pub async fn guard(mut input: impl AsyncRead + Unpin, mut output: impl AsyncWrite + Unpin) {
    let mut decoder = Decoder::default();
    let mut chunk = vec![0; 1 << 16];
    loop {
        let read = input.read(&mut chunk).await.unwrap_or(0);
        let state = if read == 0 {
            Input::Ended
        } else {
            decoder.push(&chunk[..read]);
            Input::Open
        };
        while let Some(decoded) = decoder.next(state) {
            let body = match decoded {
                Decoded::Body(body) => checked(body),
                Decoded::Invalid(why) => {
                    stand_in(jsonrpc::ErrorCode::ParseError, Value::Null, &why)
                }
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
        if state == Input::Ended {
            return;
        }
    }
}

/// `body` (JSON) itself when the framework can decode it, else a stand-in.
fn checked(body: Vec<u8>) -> Vec<u8> {
    if serde_json::from_slice::<jsonrpc::Request>(&body).is_ok()
        || serde_json::from_slice::<jsonrpc::Response>(&body).is_ok()
    {
        return body;
    }
    let id = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|value| value.get("id").cloned())
        .filter(|id| id.is_number() || id.is_string())
        .unwrap_or(Value::Null);
    stand_in(
        jsonrpc::ErrorCode::InvalidRequest,
        id,
        "not a JSON-RPC 2.0 message",
    )
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
        assert_eq!(bodies.len(), 3, "{output}");
        assert!(bodies[0].ends_with(good));
        assert!(bodies[1].contains("\"code\":-32700") && bodies[1].contains("invalid JSON"));
        assert!(bodies[2].contains("\"code\":-32600"));
    }
}
