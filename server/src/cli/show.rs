//! `typestar show CLASS|FILE [--format text|json|dot|mermaid|table]`: prints a typestate.

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use typestates::render::{self, Options};

/// Arguments of `typestar show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A library class (`android.media.MediaRecorder`, or `MediaRecorder` when unambiguous)
    /// or a file: the text format, typestar JSON, or a DroidStar DOT result.
    typestate: String,
    /// The output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Draw the error sink (dot and mermaid only).
    #[arg(long)]
    error_sink: bool,
}

/// Output formats of `typestar show`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// The `.typestate` text format.
    Text,
    /// typestar JSON (`typestar/1`).
    Json,
    /// Graphviz DOT.
    Dot,
    /// Mermaid stateDiagram-v2.
    Mermaid,
    /// A Markdown table: states by callins.
    Table,
}

/// Prints the typestate in the chosen format.
pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let typestate = crate::load::typestate(&args.typestate)?;
    let options = Options {
        error_sink: args.error_sink,
    };
    let text = match args.format {
        Format::Text => typestates::format::print(&typestate),
        Format::Json => typestates::format::to_json(&typestate),
        Format::Dot => render::dot::render(&typestate, options),
        Format::Mermaid => render::mermaid::render(&typestate, options),
        Format::Table => render::table::render(&typestate),
    };
    out!("{text}");
    if !text.ends_with('\n') {
        outln!();
    }
    Ok(ExitCode::SUCCESS)
}
