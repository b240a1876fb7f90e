//! `typestar diff A B`: compares two typestates and lists where they behave differently, and
//! where one says an input was only restricted by its experiment and the other an error.

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
    if diff.is_identical() {
        outln!("{} and {} are equivalent.", args.left, args.right);
        return Ok(ExitCode::SUCCESS);
    }
    if diff.is_equivalent() {
        outln!(
            "{} and {} have the same traces, but not the same restrictions of their experiments:",
            args.left,
            args.right
        );
    }
    let sides = [
        ("callins", &diff.callins_only_left, &args.left),
        ("callins", &diff.callins_only_right, &args.right),
        ("callbacks", &diff.callbacks_only_left, &args.left),
        ("callbacks", &diff.callbacks_only_right, &args.right),
    ];
    for (what, names, side) in sides {
        if !names.is_empty() {
            outln!("{what} only in {side}: {}", names.join(", "));
        }
    }
    for witness in diff.witnesses.iter().chain(&diff.restrictions) {
        let prefix: Vec<String> = witness.steps[..witness.steps.len() - 1]
            .iter()
            .map(|s| format!("{}/{}", s.input, s.left))
            .collect();
        let last = witness.steps.last().expect("a witness has a step");
        outln!(
            "after [{}]: `{}` answers {} in {} but {} in {}",
            prefix.join(" "),
            last.input,
            last.left,
            args.left,
            last.right,
            args.right
        );
    }
    Ok(ExitCode::from(1))
}
