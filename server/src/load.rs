//! Finds the typestate a command line names: a file in the text format, or a class of the
//! bundled library.

use std::path::Path;

use anyhow::{bail, Context};
use typestates::Typestate;

/// Loads `spec`: a path to a `.typestate` file, or a library class name.
pub fn typestate(spec: &str) -> anyhow::Result<Typestate> {
    let path = Path::new(spec);
    if path.exists() {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {spec}"))?;
        return typestates::format::parse(spec, &text).map_err(|errors| {
            let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
            anyhow::anyhow!(
                "{} error(s) in {spec}:\n{}",
                errors.len(),
                listed.join("\n")
            )
        });
    }
    bail!("`{spec}` is neither a file nor a class of the typestate library")
}
