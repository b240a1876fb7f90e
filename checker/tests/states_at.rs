//! `checker::states_at`, the states of the receiver of the call at an offset (on the called
//! name or on the receiver), and `CheckResult::calls`, the same for every call from the check
//! itself, which editors answer hovers and inlay hints from.

use std::path::Path;

use checker::{check, states_at, CheckConfig, SourceFile, StatesAt};

mod support;
use typestates::library::Library;

const JAVA: &str = r#"import android.app.Activity;
import android.media.MediaPlayer;

class Hover extends Activity {
    private MediaPlayer player;

    void local(String url) throws java.io.IOException {
        MediaPlayer mp = new MediaPlayer();
        mp.setDataSource(url);
        if (url.isEmpty()) {
            mp.prepare();
        }
        mp.start();
    }

    void field() {
        player.release();
    }

    void untracked(String s) {
        s.trim();
    }
}
"#;

const KOTLIN: &str = r#"import android.media.MediaPlayer

class Hover {
    fun play(url: String) {
        val mp = MediaPlayer()
        mp.setDataSource(url)
        mp.prepareAsync()
        mp.start()
    }
}
"#;

fn at(path: &str, text: &str, needle: &str, delta: usize) -> Option<StatesAt> {
    let file = SourceFile::from_bytes(Path::new(path), text.as_bytes().to_vec()).expect("ok");
    let offset = text.find(needle).expect("needle in text") + delta;
    states_at(&Library::bundled(), &file, offset, &CheckConfig::default())
}

#[test]
fn states_on_the_called_name_and_on_the_receiver() {
    let on_name = at("Hover.java", JAVA, "mp.start()", 3).expect("a tracked call");
    assert_eq!(on_name.class, "android.media.MediaPlayer");
    assert_eq!(on_name.receiver, "mp");
    assert_eq!(on_name.states, ["Initialized", "PreparedPending"]);
    assert!(!on_name.maybe_null && !on_name.unknown);
    let on_receiver = at("Hover.java", JAVA, "mp.start()", 0).expect("a tracked call");
    assert_eq!(on_receiver, on_name);
    let first = at("Hover.java", JAVA, "mp.setDataSource", 3).expect("a tracked call");
    assert_eq!(first.states, ["Idle"]);
}

#[test]
fn fields_of_unknown_origin_and_untracked_calls() {
    let field = at("Hover.java", JAVA, "player.release()", 7).expect("a tracked field");
    assert_eq!(field.receiver, "player");
    assert!(
        field.maybe_null,
        "the field is never assigned in this class"
    );
    assert_eq!(at("Hover.java", JAVA, "s.trim()", 2), None);
    assert_eq!(at("Hover.java", JAVA, "class Hover", 0), None);
}

/// A Kotlin property that reads a getter bound as a callin is hovered as the getter call.
const KOTLIN_PROPERTY: &str = r#"import android.content.Context
import android.database.sqlite.SQLiteOpenHelper

class Notes(context: Context) : SQLiteOpenHelper(context, "notes.db", null, 1)

fun open(context: Context) {
    val helper = Notes(context)
    helper.writableDatabase
    helper.close()
}
"#;

#[test]
fn kotlin_property_read_as_its_getter() {
    let text = KOTLIN_PROPERTY;
    let on_name = at("Open.kt", text, "writableDatabase", 3).expect("a tracked getter call");
    assert_eq!(on_name.class, "android.database.sqlite.SQLiteOpenHelper");
    assert_eq!(on_name.receiver, "helper");
    assert_eq!(on_name.states, ["Unopened"]);
    let start = text.find("writableDatabase").expect("needle in text");
    assert_eq!(on_name.span.start_byte, start);
    assert_eq!(on_name.span.end_byte, start + "writableDatabase".len());
    let on_receiver = at("Open.kt", text, "helper.writableDatabase", 0).expect("a tracked call");
    assert_eq!(on_receiver, on_name);
}

#[test]
fn kotlin_states() {
    let start = at("Hover.kt", KOTLIN, "mp.start()", 3).expect("a tracked call");
    assert_eq!(start.states, ["Preparing"]);
    assert_eq!(start.receiver, "mp");
}

#[test]
fn calls_lists_what_states_at_says_at_each_call() {
    for (path, text) in [("Hover.java", JAVA), ("Hover.kt", KOTLIN)] {
        let file = SourceFile::from_bytes(Path::new(path), text.as_bytes().to_vec()).expect("ok");
        let library = Library::bundled();
        let calls = check(&library, &file, &CheckConfig::default()).calls;
        let names: Vec<&str> = calls
            .iter()
            .map(|call| &text[call.span.start_byte..call.span.end_byte])
            .collect();
        let expected: &[&str] = if path.ends_with(".kt") {
            &["setDataSource", "prepareAsync", "start"]
        } else {
            &["setDataSource", "prepare", "start", "release"]
        };
        assert_eq!(names, expected, "{path}");
        for call in &calls {
            let at = states_at(
                &library,
                &file,
                call.span.start_byte,
                &CheckConfig::default(),
            );
            assert_eq!(at.as_ref(), Some(call), "{path}");
        }
    }
}

fn fixtures(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("fixtures are readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            fixtures(&path, out);
        } else if path.extension().is_some_and(|e| e == "java" || e == "kt") {
            out.push(path);
        }
    }
}

/// The check's own per-call results equal, at each call of every checker fixture, what a
/// separate analysis of the file for that call says (the incremental engine keeps them equal
/// to a fresh check's across edits: `tests/incremental.rs` compares whole results).
#[test]
fn the_checks_calls_are_what_states_at_says_on_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut paths = Vec::new();
    fixtures(&root, &mut paths);
    paths.sort();
    let library = Library::bundled();
    // The fixtures' checks are compared, not timed: a loaded machine must not cut one short.
    let config = support::unhurried();
    let mut compared = 0;
    for path in paths {
        let bytes = std::fs::read(&path).expect("fixture is readable");
        let Ok(file) = SourceFile::from_bytes(&path, bytes) else {
            continue;
        };
        for call in check(&library, &file, &config).calls {
            let at = states_at(&library, &file, call.span.start_byte, &config);
            assert_eq!(at.as_ref(), Some(&call), "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared} calls compared");
}
