//! `typestar check [PATHS]`: checks Java and Kotlin files against the protocol library.
//! Exit codes: 0 clean, 1 findings, 2 error (a file that could not be checked fully, bad options).
//! Each file error has a code and a next step ([`server::unchecked`]).
//! Handled violations alone exit 0 unless `--fail-on-handled` is given.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use checker::{CheckConfig, LeakScan};
use clap::{Args, ValueEnum};
use typestates::library::Library;

use super::failure::Failure;
use crate::report::{self, human::Style};
use server::analysis::Seconds;
use server::project;
use server::sdk::SdkSetting;

/// Arguments of `typestar check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files or folders to check (default: the current folder).
    paths: Vec<PathBuf>,
    /// The output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// A folder of `.typestate` files that adds to or overrides the bundled library
    /// (default: `.typestar` in the current folder, when it exists).
    #[arg(long)]
    typestates: Option<PathBuf>,
    /// How many files to check at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Report every leak: objects dropped, overwritten or kept past a lifecycle deadline
    /// while their protocol obliges a release (a MediaPlayer never released, a stream never
    /// closed); without it, only the leaks the benchmark vouches for.
    #[arg(long)]
    unreleased: bool,
    /// Skip the leak scan, so no leak is reported, not even those vouched for: the check
    /// without obligations, which the leak benchmark times against.
    #[arg(long, conflicts_with = "unreleased")]
    no_leaks: bool,
    /// Also exit with status 1 for violations the code handles (`typestate-violation-handled`:
    /// inside a `try` that catches what the call throws); they are always reported.
    #[arg(long)]
    fail_on_handled: bool,
    /// The app's minSdk, for modules whose Gradle file and manifest do not say.
    #[arg(long, value_name = "LEVEL")]
    min_sdk: Option<u32>,
    /// The app's targetSdk, for modules whose Gradle file and manifest do not say.
    #[arg(long, value_name = "LEVEL")]
    target_sdk: Option<u32>,
    /// How long parsing and checking one file may take before it is reported as not checked
    /// fully (default: 10).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
}

/// A time limit in seconds: a number, not negative.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    Seconds::try_from(seconds).map(|Seconds(limit)| limit)
}

/// Output formats of `typestar check`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// rustc-like text for people.
    Human,
    /// JSON (`typestar-check/1`).
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

/// Checks the paths and prints the report.
pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let library = load_library(args.typestates.as_deref())?;
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let defaults = CheckConfig::default();
    let config = CheckConfig {
        report_unreleased: args.unreleased,
        leak_scan: if args.no_leaks {
            LeakScan::Skipped
        } else {
            LeakScan::Run
        },
        time_limit: args.time_limit.unwrap_or(defaults.time_limit),
        ..defaults
    };
    let sdk = SdkSetting {
        min_sdk: args.min_sdk,
        target_sdk: args.target_sdk,
    };
    if let (Some(min), Some(target)) = (sdk.min_sdk, sdk.target_sdk) {
        anyhow::ensure!(
            min <= target,
            "--min-sdk {min} is above --target-sdk {target}: no API level is left to check"
        );
    }
    let result = project::check_paths(&library, &paths, config, jobs, sdk);
    let text = match args.format {
        Format::Human => {
            let colour = std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
            report::human::render(&result, Style::new(colour))
        }
        Format::Json => report::json::render(&result),
        Format::Sarif => report::sarif::render(&result),
    };
    out!("{text}");
    Ok(if !result.errors.is_empty() {
        ExitCode::from(2)
    } else if result.n_violations() > result.n_handled()
        || args.fail_on_handled && result.n_handled() > 0
    {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The bundled library, plus the user's folder when one is given or `.typestar` exists.
fn load_library(folder: Option<&std::path::Path>) -> anyhow::Result<Library> {
    let default = std::path::Path::new(".typestar");
    let folder = match folder {
        Some(folder) => folder,
        None if default.is_dir() => default,
        None => return Ok(Library::bundled()),
    };
    Library::load_dir(folder)
        .map_err(|errors| {
            let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
            anyhow::anyhow!(listed.join("\n"))
        })
        .context(Failure::LoadTypestates(folder.to_owned()))
}
