//! Running analysis off the async runtime.
//! Every CPU-bound piece of work goes through [`blocking`], which runs it on tokio's blocking pool.
//! It turns a panic into a logged error, so one bad request or file never takes the server down.

use std::any::Any;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::MessageType;

use super::session::Session;

/// Runs `work` on a blocking thread; `None` (after logging) if it panicked.
pub async fn blocking<T, F>(session: &Session, what: &str, work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => Some(value),
        Err(err) => {
            let why = if err.is_panic() {
                format!("panicked: {}", panic_message(err.into_panic()))
            } else {
                "was cancelled".to_string()
            };
            session
                .log(MessageType::ERROR, format!("typestar: {what} {why}"))
                .await;
            None
        }
    }
}

/// [`blocking`] for a request handler: a panic becomes an internal-error response.
pub async fn request<T, F>(session: &Session, what: &str, work: F) -> jsonrpc::Result<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    blocking(session, what, work)
        .await
        .ok_or_else(|| jsonrpc::Error {
            code: jsonrpc::ErrorCode::InternalError,
            message: format!("typestar: {what} failed; see the server log").into(),
            data: None,
        })
}

fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic".to_string())
}
