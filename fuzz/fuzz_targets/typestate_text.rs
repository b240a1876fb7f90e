//! The typestate text reader on any text: it must never panic, and what it reads must print
//! as text that reads back to the same typestate.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typestates::format::{parse, print};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(typestate) = parse("fuzz.typestate", text) {
        let printed = print(&typestate);
        assert_eq!(
            parse("printed.typestate", &printed),
            Ok(typestate),
            "{printed}"
        );
    }
});
