//! Finds the typestate a command line names.
//! That is a file (the text format, typestar JSON, or a DroidStar DOT result), or a class of the bundled library.
//! A class is named by fully qualified name, or by simple name when that is unambiguous.
//! And the experiment file it names, or a shipped one.

use std::path::{Path, PathBuf};

use anyhow::Context;
use typestates::format::Diagnostic;
use typestates::library::{Library, MAX_TYPESTATE_BYTES};
use typestates::Typestate;

/// Loads `spec`: a path to a `.typestate`, `.json`, `.gv` or `.dot` file, or a library class.
pub fn typestate(spec: &str) -> anyhow::Result<Typestate> {
    let path = Path::new(spec);
    if !path.exists() {
        let library = Library::bundled();
        let entry = library.find(spec).with_context(|| {
            format!("`{spec}` is neither a file nor a class of the typestate library (see `typestar library`)")
        })?;
        return Ok(entry.typestate.clone());
    }
    let bytes = typestates::files::read_regular(path, MAX_TYPESTATE_BYTES)
        .with_context(|| format!("cannot read {spec}"))?;
    let text = String::from_utf8(bytes).with_context(|| format!("cannot read {spec}"))?;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let parsed = match extension {
        "json" => typestates::format::from_json(spec, &text),
        "gv" | "dot" => {
            // DroidStar names its results `<Class>-diagram.gv`; the class only labels the result.
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or(spec);
            let class = stem.trim_end_matches("-diagram");
            typestates::format::from_droidstar_dot(spec, &text, class)
        }
        _ => typestates::format::parse(spec, &text),
    };
    parsed.map_err(|errors| report(spec, &errors))
}

/// The experiment file `spec`, else the shipped experiment of that name (`java.util.Timer`).
/// A path (a folder or a `.toml` name) is always a file, whose loading names what is wrong.
pub fn experiment_file(spec: &Path) -> anyhow::Result<PathBuf> {
    let a_path = spec.components().count() > 1 || spec.extension().is_some_and(|it| it == "toml");
    if a_path || spec.exists() {
        return Ok(spec.to_owned());
    }
    let name = spec.to_string_lossy();
    let shipped = learner::shipped::experiment(&name)?;
    shipped.with_context(|| {
        format!(
            "`{name}` is neither an experiment file nor a shipped experiment; shipped: {}",
            learner::shipped::experiment_names().join(", ")
        )
    })
}

/// One error listing every diagnostic of a file, each as file:line:col.
fn report(spec: &str, errors: &[Diagnostic]) -> anyhow::Error {
    let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
    anyhow::anyhow!(
        "{} error(s) in {spec}:\n{}",
        errors.len(),
        listed.join("\n")
    )
}
