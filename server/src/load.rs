//! Finds the typestate a command line names: a file in the text format, or a class of the
//! bundled library (by fully qualified name, or by simple name when that is unambiguous).

use std::path::Path;

use anyhow::Context;
use typestates::library::Library;
use typestates::Typestate;

/// Loads `spec`: a path to a `.typestate` file, or a library class name.
pub fn typestate(spec: &str) -> anyhow::Result<Typestate> {
    let path = Path::new(spec);
    if path.is_file() {
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
    let library = Library::bundled();
    let entry = library.find(spec).with_context(|| {
        format!("`{spec}` is neither a file nor a class of the typestate library (see `typestar library`)")
    })?;
    Ok(entry.typestate.clone())
}
