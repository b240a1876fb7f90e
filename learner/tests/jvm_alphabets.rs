//! The complete alphabet of every JDK class of the bundled library: each public instance
//! method the agent's `describe` lists (inherited ones included) is classified by the
//! library's bindings as a callin, an observer (a callin refined by its answer), harmless, or
//! unknown (bound to nothing: a call of it has an unknown effect on the protocol).
//! `tests/alphabets/<class>.txt` keeps the listing (`UPDATE_EXPECT=1` rewrites it); the unknown
//! methods are what the library has not classified yet.
//! Android classes need Robolectric's android-all jar and OkHttp its own jars: not listed here.
//! Slow tier `jvm` (`test-tiers`): it starts the agent on every JDK class of the library.

mod jvm_support;

use std::fmt::Write;
use std::path::Path;

use learner::backend::jvm::{public_methods, PublicMethod};
use test_tiers::Tier;
use typestates::binding::{MethodKind, MethodRef, Params};
use typestates::Typestate;

/// Whether `method` (an instance method of the typestate's class) is `reference`.
fn binds(reference: &MethodRef, method: &PublicMethod) -> bool {
    reference.kind == MethodKind::Instance
        && reference.class.is_none()
        && reference.name == method.name
        && match &reference.params {
            Params::Any => true,
            Params::Exact(types) => *types == method.params,
        }
}

/// How the library classifies `method`.
fn classify(typestate: &Typestate, method: &PublicMethod) -> String {
    let callins: Vec<String> = typestate
        .callins
        .iter()
        .filter(|callin| !callin.is_creator())
        .filter(|callin| callin.binding.methods.iter().any(|m| binds(m, method)))
        .map(|callin| match &callin.binding.returns {
            Some(answer) => format!("observer {} (returns {answer})", callin.name),
            None => format!("callin {}", callin.name),
        })
        .collect();
    if !callins.is_empty() {
        return callins.join(", ");
    }
    if typestate.harmless.iter().any(|m| binds(m, method)) {
        return "harmless".to_owned();
    }
    "unknown".to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jdk_library_classes_have_every_public_method_classified() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let config = jvm_support::config(Vec::new());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/alphabets");
    let library = typestates::library::Library::bundled();
    for entry in library.iter() {
        let class = entry.class();
        if !(class.starts_with("java.") || class.starts_with("javax.")) {
            continue;
        }
        let methods = public_methods(class, &config)
            .await
            .unwrap_or_else(|error| panic!("describe {class}: {error}"));
        let mut text = format!("# {class}: public instance methods, classified by the library.\n");
        let mut unknown = 0;
        for method in &methods {
            let classification = classify(&entry.typestate, method);
            unknown += usize::from(classification == "unknown");
            let returns = method.returns.as_deref().unwrap_or("void");
            writeln!(
                text,
                "{returns} {}({}): {classification}",
                method.name,
                method.params.join(", ")
            )
            .expect("writing to a string");
        }
        writeln!(text, "# {} methods, {unknown} unknown.", methods.len()).expect("to a string");
        expect_test::expect_file![dir.join(format!("{class}.txt"))].assert_eq(&text);
    }
}
