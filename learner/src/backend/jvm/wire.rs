//! The agent protocol's replies as Rust types (`agent-android/PROTOCOL.md`); requests are built
//! where they are sent.
//! Keys this client does not know are ignored, as the protocol asks.

use serde::Deserialize;
use serde_json::Value;

/// The protocol version this client speaks.
pub(crate) const PROTOCOL: u64 = 1;

/// One line from the agent.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub(crate) enum Reply {
    Hello {
        protocol: u64,
        #[serde(default)]
        java: String,
        /// What the agent runs on beyond the JVM (Robolectric: its version and SDK level).
        #[serde(default)]
        platform: Option<Value>,
    },
    Ready,
    Error(ErrorReply),
    Loaded {
        inputs: Vec<String>,
        outputs: Vec<String>,
    },
    Description(Box<super::draft::Description>),
    Started(RunReply),
    Stepped(RunReply),
    Bye,
}

/// An `error` reply (§9).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ErrorReply {
    pub code: String,
    pub field: Option<String>,
    pub message: String,
    #[serde(default)]
    pub fatal: bool,
}

/// The parts of `started` and `stepped` (§4.4) the backend acts on.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunReply {
    pub status: String,
    #[serde(default)]
    pub outputs: Vec<String>,
    #[serde(default)]
    pub failure: Option<Value>,
    #[serde(default)]
    pub restart_required: bool,
}

impl RunReply {
    /// The failure's message, or the whole failure object.
    pub fn failure_message(&self) -> String {
        match &self.failure {
            Some(failure) => failure
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| failure.to_string(), str::to_owned),
            None => "no failure reported".to_owned(),
        }
    }
}
