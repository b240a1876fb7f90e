//! `typestar draft CLASS --classpath CP [-o FILE]`: writes a first experiment file (TOML) for a
//! class from the agent's description of its public API (`learner/EXPERIMENTS.md`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

/// Arguments of `typestar draft`.
#[derive(Args, Debug)]
pub struct DraftArgs {
    /// The class to study, by binary name (`java.util.Timer`, `okhttp3.RealCall`).
    class: String,
    /// Jars and class directories the class comes from, separated by the platform's path
    /// separator (`:` on Unix); not needed for JDK classes.
    #[arg(long, value_name = "CP")]
    classpath: Option<std::ffi::OsString>,
    /// Where to write the draft; standard output if absent.
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
        .with_context(|| format!("cannot draft an experiment for {}", args.class))?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, &draft)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{draft}"),
    }
    Ok(ExitCode::SUCCESS)
}
