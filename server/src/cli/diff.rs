//! `typestar diff A B`: compares two typestates and lists where they behave differently.
//! It also lists where one says an input was only restricted by its experiment and the other an
//! error.

use std::process::ExitCode;

use clap::Args;

/// Arguments of `typestar diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The left typestate: a library class or a file.
    left: String,
    /// The right typestate: a library class or a file.
    right: String,
    /// How many witness traces to list at most.
    #[arg(long, default_value_t = 10)]
    limit: usize,
}

/// Prints the differences; exits 0 when equivalent and agreeing on restrictions, 1 otherwise.
pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let left = crate::load::typestate(&args.left)?;
    let right = crate::load::typestate(&args.right)?;
    let diff = typestates::diff::diff(&left, &right, args.limit);
    out!(
        "{}",
        server::compare::describe(&diff, &args.left, &args.right)
    );
    if diff.is_identical() {
        return Ok(ExitCode::SUCCESS);
    }
    Ok(ExitCode::from(1))
}
