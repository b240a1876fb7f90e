//! `typestar library`: lists the bundled protocols with their provenance.

use std::process::ExitCode;

use clap::Args;
use typestates::library::Library;

/// Arguments of `typestar library`.
#[derive(Args, Debug)]
pub struct LibraryArgs {}

/// Prints one line per class: name, states, provenance, platform, then the learning run and the
/// first source.
pub fn run(_args: LibraryArgs) -> anyhow::Result<ExitCode> {
    let library = Library::bundled();
    let width = library.iter().map(|e| e.class().len()).max().unwrap_or(0);
    outln!("{:width$}  states  provenance  platform", "class");
    for entry in library.iter() {
        let provenance = entry.provenance();
        outln!(
            "{:width$}  {:>6}  {:10}  {}",
            entry.class(),
            entry.typestate.states.len(),
            provenance.kind.keyword(),
            provenance.platform.as_deref().unwrap_or("-"),
        );
        if let Some(run) = &provenance.run {
            let sdk = run
                .sdk
                .map(|sdk| format!(", SDK {sdk}"))
                .unwrap_or_default();
            let code = run
                .code
                .map(|code| format!(", code {}", code.keyword()))
                .unwrap_or_default();
            let date = run
                .date
                .as_deref()
                .map(|d| format!(", {d}"))
                .unwrap_or_default();
            println!(
                "{:width$}  run: {}{sdk}{code}{date}",
                "",
                run.backend.keyword()
            );
        }
        if let Some(source) = provenance.sources.first() {
            outln!("{:width$}  source: {source}", "");
        }
    }
    outln!("{} protocols.", library.len());
    Ok(ExitCode::SUCCESS)
}
