//! The `typestar` binary: one command line for showing, diffing, learning and checking
//! typestates, and the LSP server (`typestar lsp`).

mod cli;
mod load;
mod report;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprint!("{}", cli::failure::render(&err));
            ExitCode::from(2)
        }
    }
}
