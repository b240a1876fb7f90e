//! `typestar show CLASS|FILE`: prints a typestate.

use std::process::ExitCode;

use clap::Args;

/// Arguments of `typestar show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A library class (`android.media.MediaRecorder`, or `MediaRecorder` when unambiguous)
    /// or a typestate file.
    typestate: String,
}

/// Prints the typestate in the text format.
pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let typestate = crate::load::typestate(&args.typestate)?;
    print!("{}", typestates::format::print(&typestate));
    Ok(ExitCode::SUCCESS)
}
