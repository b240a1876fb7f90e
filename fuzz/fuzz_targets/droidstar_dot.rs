//! The DroidStar DOT importer on any text: it must never panic, and what it imports must print
//! as text that reads back to the same typestate.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typestates::format::{from_droidstar_dot, parse, print};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(typestate) = from_droidstar_dot("fuzz.gv", text, "a.B") {
        let printed = print(&typestate);
        assert_eq!(
            parse("printed.typestate", &printed),
            Ok(typestate),
            "{printed}"
        );
    }
});
