//! The subcommands and their dispatch. Each subcommand lives in its own module and returns the
//! process exit code: 0 for success (or "no findings"), 1 for findings or differences.

mod check;
mod diff;
mod draft;
mod learn;
mod library;
mod lsp;
mod show;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Learns, ships and checks callback typestates of Java and Android classes.
#[derive(Parser, Debug)]
#[command(name = "typestar", version, about)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Checks Java and Kotlin files against the protocol library.
    Check(check::CheckArgs),
    /// Prints the typestate of a library class or of a file.
    Show(show::ShowArgs),
    /// Compares two typestates and lists witness traces where they differ.
    Diff(diff::DiffArgs),
    /// Runs the language server over stdio.
    Lsp(lsp::LspArgs),
    /// Lists the bundled protocols with their provenance.
    Library(library::LibraryArgs),
    /// Writes a first experiment file for a Java class from its public API.
    Draft(draft::DraftArgs),
    /// Learns a typestate by testing (simulated with --model) and writes it with statistics.
    Learn(Box<learn::LearnArgs>),
}

/// Runs the parsed command line.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Check(args) => check::run(args),
        Command::Show(args) => show::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Library(args) => library::run(args),
        Command::Draft(args) => draft::run(args),
        Command::Learn(args) => learn::run(*args),
    }
}
