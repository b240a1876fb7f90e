//! The Java and Kotlin checker on any text: the first byte picks the language and where the
//! text is cut for an edit; `check` must never panic, hang or abort, and `Incremental`, fed
//! the cut text and then the whole, must give what `check` gives.
#![no_main]

use std::path::Path;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use checker::{CheckConfig, Incremental, SourceFile};
use libfuzzer_sys::fuzz_target;
use typestates::library::Library;

static LIBRARY: LazyLock<Arc<Library>> = LazyLock::new(|| Arc::new(Library::bundled()));

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let path = if selector & 1 == 0 {
        "Fuzz.java"
    } else {
        "Fuzz.kt"
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let Ok(file) = SourceFile::from_bytes(Path::new(path), text.clone().into_bytes()) else {
        return;
    };
    let config = CheckConfig {
        time_limit: Duration::from_secs(5),
        skip_unrelated: selector & 2 == 0,
        ..CheckConfig::default()
    };
    let result = checker::check(&LIBRARY, &file, &config);
    if result.timed_out {
        return;
    }
    let mut cut = text.len() * usize::from(selector >> 2) / 63;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let before = SourceFile {
        text: text[..cut].to_owned(),
        ..file.clone()
    };
    let mut incremental = Incremental::default();
    let _ = incremental.check(&LIBRARY, &before, &config);
    let again = incremental.check(&LIBRARY, &file, &config);
    if !again.timed_out {
        assert_eq!(
            again, result,
            "Incremental after an edit differs from check"
        );
    }
});
