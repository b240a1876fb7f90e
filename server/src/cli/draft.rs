//! `typestar draft CLASS --classpath CP [-o FILE]`: writes a first experiment file (TOML) for a class.
//! It drafts it from the agent's description of its public API (`learner/EXPERIMENTS.md`).
//! It writes the harness sources the file names next to it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use super::failure::Failure;

/// Arguments of `typestar draft`.
#[derive(Args, Debug)]
pub struct DraftArgs {
    /// The class to study, by binary name (`java.util.Timer`, `okhttp3.RealCall`).
    class: String,
    /// Jars and class directories the class comes from, separated by the platform's path
    /// separator (`:` on Unix); not needed for JDK classes.
    #[arg(long, value_name = "CP")]
    classpath: Option<std::ffi::OsString>,
    /// Where to write the draft, and next to it the harness sources it needs; standard output
    /// if absent (the harness sources are then only named).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Describes the class in an agent on the host JVM and writes the draft.
pub fn run(args: DraftArgs) -> anyhow::Result<ExitCode> {
    let classpath: Vec<PathBuf> = args
        .classpath
        .as_deref()
        .map(|cp| std::env::split_paths(cp).collect())
        .unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let draft = runtime
        .block_on(learner::backend::jvm::draft_experiment(
            &args.class,
            &classpath,
        ))
        .context(Failure::Draft(args.class.clone()))?;
    let Some(path) = &args.output else {
        out!("{}", draft.experiment);
        if !draft.harnesses.is_empty() {
            let files: Vec<&str> = draft
                .harnesses
                .iter()
                .map(|it| it.file_name.as_str())
                .collect();
            eprintln!(
                "this draft names harness sources ({}): run again with -o FILE to write them next to the experiment",
                files.join(", ")
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::write(path, &draft.experiment).context(Failure::Write(path.clone()))?;
    eprintln!("wrote {}", path.display());
    // The experiment names its harness sources relative to its own folder.
    let folder = path.parent().map(Path::to_owned).unwrap_or_default();
    for harness in &draft.harnesses {
        let path = folder.join(&harness.file_name);
        std::fs::write(&path, &harness.source).context(Failure::Write(path.clone()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
