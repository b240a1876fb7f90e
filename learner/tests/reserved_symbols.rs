//! An experiment whose symbol is a reserved word of the typestate format is refused when it
//! loads, naming the file, the line and the symbol: the typestate learned from it could not
//! name the symbol and would not parse.

use learner::backend::jvm::Experiment;

const EXPERIMENT: &str = r#"class = "java.util.Timer"

[[build]]
new = "java.util.Timer"
params = []
args = []
as = "subject"

[callins.purge]
call = "purge"

[callins.SYMBOL]
call = "cancel"
"#;

#[test]
fn a_reserved_symbol_is_refused_naming_file_line_and_symbol() {
    let dir = std::env::temp_dir().join(format!("typestar-reserved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    for reserved in ["wait", "quiet", "state", "accept", "restricted"] {
        let text = EXPERIMENT.replace("SYMBOL", reserved);
        let path = dir.join(format!("{reserved}.toml"));
        std::fs::write(&path, &text).expect("temp dir is writable");
        let message = Experiment::load(&path)
            .err()
            .unwrap_or_else(|| panic!("`{reserved}` was accepted"))
            .to_string();
        let line = text
            .lines()
            .position(|it| it == format!("[callins.{reserved}]"))
            .expect("the table is in the text")
            + 1;
        assert!(
            message.starts_with(&format!("{}:{line}:", path.display())),
            "{message}"
        );
        assert!(
            message.contains(&format!(
                "`callins.{reserved}`: `{reserved}` is a reserved word of the typestate format"
            )),
            "{message}"
        );
    }
    let text = EXPERIMENT.replace("SYMBOL", "cancel");
    let path = dir.join("cancel.toml");
    std::fs::write(&path, &text).expect("temp dir is writable");
    assert!(Experiment::load(&path).is_ok());
}
