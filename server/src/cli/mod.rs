//! The subcommands and their dispatch.
//! Each subcommand lives in its own module and returns the process exit code: 0 for success (or "no
//! findings"), 1 for findings or differences.
//! Output goes through [`emit`] (`out!`, `outln!`).
//! So a reader that closes the pipe early (`typestar library | head -n 1`) ends the program
//! quietly.

/// `print!` through [`emit`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::emit(format_args!($($arg)*))
    };
}

/// `println!` through [`emit`].
macro_rules! outln {
    () => {
        $crate::cli::emit(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::emit(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod check;
pub(crate) mod devices;
mod diff;
mod docs;
mod draft;
pub(crate) mod failure;
mod fetch;
mod learn;
mod library;
mod lsp;
mod show;

use std::io::{ErrorKind, Write};
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
    /// Writes the documentation pages (diagnostic codes, bundled protocols) into a folder.
    Docs(docs::DocsArgs),
    /// Runs the language server over stdio.
    Lsp(lsp::LspArgs),
    /// Lists the bundled protocols with their provenance.
    Library(library::LibraryArgs),
    /// Writes a first experiment file for a Java class from its public API.
    Draft(draft::DraftArgs),
    /// Learns a typestate by testing (simulated with --model) and writes it with statistics.
    Learn(Box<learn::LearnArgs>),
    /// Lists the Android devices the adb servers see, with API level and agent.
    Devices(devices::DevicesArgs),
    /// Fetches the Robolectric backend's Android jars from Maven Central (needs `mvn`).
    FetchRobolectric(fetch::FetchArgs),
}

/// Runs the parsed command line.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Check(args) => check::run(args),
        Command::Show(args) => show::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Docs(args) => docs::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Library(args) => library::run(args),
        Command::Draft(args) => draft::run(args),
        Command::Learn(args) => learn::run(*args),
        Command::Devices(args) => devices::run(args),
        Command::FetchRobolectric(args) => fetch::run(args),
    }
}

/// Writes `text` to standard output.
/// When the reader has closed the pipe, the program ends at once with status 0: nobody reads
/// the rest. Any other write error ends it with status 2 and a message.
pub(crate) fn emit(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        if err.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {err}");
        std::process::exit(2);
    }
}
