//! The typestar JSON reader on any text: it must never panic, and what it reads must print as
//! text and export as JSON that both read back to the same typestate.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typestates::format::{from_json, parse, print, to_json};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(typestate) = from_json("fuzz.json", text) {
        let printed = print(&typestate);
        assert_eq!(
            parse("printed.typestate", &printed).as_ref(),
            Ok(&typestate),
            "{printed}"
        );
        let exported = to_json(&typestate);
        assert_eq!(
            from_json("exported.json", &exported),
            Ok(typestate),
            "{exported}"
        );
    }
});
