//! `textDocument/diagnostic`: pull diagnostics of an open document, checked on its current
//! snapshot through the document's incremental cache (the same check a push would publish).

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
};

use crate::lsp::diagnostics;
use crate::lsp::session::Session;

/// Handles `diagnostic`; an empty report for documents that are not open.
pub async fn handle(
    session: &Session,
    params: DocumentDiagnosticParams,
) -> jsonrpc::Result<DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    let items = match session.documents.snapshot(&uri) {
        Some(snapshot) => {
            let analysis = diagnostics::analyze(session, &snapshot)
                .await
                .ok_or_else(jsonrpc::Error::internal_error)?;
            diagnostics::to_diagnostics(session, &uri, &snapshot.file.text, &analysis)
        }
        None => Vec::new(),
    };
    Ok(DocumentDiagnosticReportResult::Report(
        DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport {
                result_id: None,
                items,
            },
        }),
    ))
}
