//! Temporary smoke test.
use typestates::format::{parse, print};
#[test]
fn cdt() {
    let text = std::fs::read_to_string("library/android/os/CountDownTimer.typestate").unwrap();
    let t = parse("CountDownTimer.typestate", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let printed = print(&t);
    println!("{printed}");
    let again = parse("x", &printed).unwrap();
    assert_eq!(t, again);
    let m = typestates::mealy::to_mealy(&t);
    println!("{:?}", m);
    assert_eq!(t.n_minimal_states(), 3);
    for ex in &t.examples {
        assert_eq!(t.accepts(&ex.trace), ex.accepted, "{:?}", ex);
    }
}
