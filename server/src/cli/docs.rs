//! `typestar docs --out DIR`: writes the documentation pages generated from the project (the
//! diagnostic codes, and each bundled protocol with its diagram, states and provenance).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use typestates::library::Library;

/// Arguments of `typestar docs`.
#[derive(Args, Debug)]
pub struct DocsArgs {
    /// The folder to write the pages into (created if missing).
    #[arg(long)]
    out: PathBuf,
}

/// Writes the pages and lists them, relative to the folder.
pub fn run(args: DocsArgs) -> anyhow::Result<ExitCode> {
    let written = server::docs::write(&args.out, &Library::bundled())
        .with_context(|| format!("cannot write the pages into {}", args.out.display()))?;
    for path in written {
        outln!(
            "{}",
            path.strip_prefix(&args.out).unwrap_or(&path).display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
