//! `typestar fetch-robolectric`: fetches the Robolectric backend's artifacts from Maven Central.
//! It runs the fetch script shipped inside the binary, so an installed `typestar` needs no source tree.
//! The script needs Maven's `mvn`; fetching again is a no-op for what is cached.

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use anyhow::Context;
use clap::Args;
use learner::backend::robolectric::default_artifacts_dir;

use super::failure::Failure;

/// Arguments of `typestar fetch-robolectric`.
#[derive(Args, Debug)]
pub struct FetchArgs {
    /// The folder to fill (default $TYPESTAR_ROBOLECTRIC_DIR, else
    /// $XDG_CACHE_HOME/typestar/robolectric, where the Robolectric backend looks).
    #[arg(long, value_name = "DIR")]
    dest: Option<PathBuf>,
    /// An Android SDK level to fetch (repeatable; 23 to 35; default 34).
    #[arg(long = "sdk", value_name = "N")]
    sdks: Vec<u32>,
}

/// Runs the shipped fetch script; its progress goes to standard error and the folder to
/// standard output.
pub fn run(args: FetchArgs) -> anyhow::Result<ExitCode> {
    let script = learner::shipped::robolectric_fetch_script().context(Failure::FetchRobolectric)?;
    let dest = args.dest.unwrap_or_else(default_artifacts_dir);
    let mut command = Command::new(&script);
    command.arg("--dest").arg(&dest);
    for sdk in &args.sdks {
        command.arg("--sdk").arg(sdk.to_string());
    }
    let status = command
        .status()
        .with_context(|| format!("cannot run {}", script.display()))
        .context(Failure::FetchRobolectric)?;
    if status.success() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(anyhow::anyhow!(
            "{} --dest {} ended with {status}; its message is above",
            script.display(),
            dest.display()
        ))
        .context(Failure::FetchRobolectric)
    }
}
