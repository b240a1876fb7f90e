//! The complete alphabet of every class of the bundled library the agent can describe: each
//! public instance method the agent's `describe` lists (inherited ones included) is classified
//! by the library's bindings as a callin, an observer (a callin refined by its answer), a
//! callback (a listener's registration or an overridden method), harmless, excluded (left out
//! of the protocol on purpose, with the reason), or unknown (bound to nothing).
//! Excluded and unknown methods both have an unknown effect on the protocol for a checker; an
//! unknown one is a method nobody classified, and no class may have one
//! ([`every_listed_method_is_classified`], a fast test over the committed listings).
//! An observer says how its answers were found: `by experiment` when the protocol was learned
//! (the learner ran the method in every state and recorded its abstracted answer), `by
//! binding` when a person wrote which state gives which answer.
//! `tests/alphabets/<class>.txt` keeps the listing (`UPDATE_EXPECT=1` rewrites it, from the
//! jars in the slow tiers, from the committed method lists in the fast test).
//! JDK classes are described on the host JVM, OkHttp's and Retrofit's with their jars
//! (`tests/fetch-okhttp.sh`, `tests/fetch-retrofit.sh`),
//! and Android's inside Robolectric from the android-all jar of SDK 34.
//! Slow tiers `jvm` and `robolectric` (`test-tiers`): they start the agent on every class.
//! Volley's `RequestQueue` and Universal Image Loader's `ImageLoader`, Android libraries, are
//! described inside Robolectric with their jars (`tests/fetch-volley.sh`, `tests/fetch-uil.sh`).

mod jvm_support;
mod robolectric_support;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use learner::backend::jvm::{public_methods, JvmConfig, PublicMethod};
use learner::backend::robolectric;
use test_tiers::Tier;
use typestates::binding::{CallbackBinding, MethodKind, MethodRef, Params};
use typestates::library::{path_for_class, Entry, Library};
use typestates::{ProvenanceKind, Typestate};

/// Whether `method` (an instance method of the typestate's class) is `reference`; the agent
/// names nested types in binary form (`Canvas$EdgeType`) and varargs as arrays (`long[]`), a
/// library file as Java source does (`Canvas.EdgeType`, `long...`).
fn binds(reference: &MethodRef, method: &PublicMethod) -> bool {
    reference.kind == MethodKind::Instance
        && reference.class.is_none()
        && reference.name == method.name
        && match &reference.params {
            Params::Any => true,
            Params::Exact(types) => {
                types.len() == method.params.len()
                    && types
                        .iter()
                        .zip(&method.params)
                        .all(|(bound, param)| bound.replace("...", "[]") == param.replace('$', "."))
            }
        }
}

/// How the library classifies `method`.
fn classify(typestate: &Typestate, method: &PublicMethod) -> String {
    // Kotlin's `@JvmName("-deprecated_code")` bridges are public in the bytecode, but no Java or
    // Kotlin source can name them.
    let identifier = (method.name.chars().next()).is_some_and(|c| c.is_alphabetic() || c == '_')
        && (method.name.chars()).all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if !identifier {
        return "not callable from source (no Java identifier)".to_owned();
    }
    let callins: Vec<String> = typestate
        .callins
        .iter()
        .filter(|callin| !callin.is_creator())
        .filter(|callin| callin.binding.methods.iter().any(|m| binds(m, method)))
        .map(|callin| match &callin.binding.returns {
            Some(answer) => format!(
                "observer {} (returns {answer}, {})",
                callin.name,
                if typestate.provenance.kind == ProvenanceKind::Learned {
                    "by experiment"
                } else {
                    "by binding"
                }
            ),
            None => format!("callin {}", callin.name),
        })
        .collect();
    if !callins.is_empty() {
        return callins.join(", ");
    }
    let callbacks: Vec<String> = (typestate.callbacks.iter())
        .filter_map(|callback| match &callback.binding {
            CallbackBinding::Listener { register, .. } if *register == method.name => {
                Some(format!("registers callback {}", callback.name))
            }
            CallbackBinding::Override {
                class: None,
                method: name,
            } if *name == method.name => Some(format!("callback {} (overridden)", callback.name)),
            _ => None,
        })
        .collect();
    if !callbacks.is_empty() {
        return callbacks.join(", ");
    }
    if typestate.harmless.iter().any(|m| binds(m, method)) {
        return "harmless".to_owned();
    }
    if let Some(exclusion) = (typestate.excluded.iter())
        .find(|exclusion| exclusion.methods.iter().any(|m| binds(m, method)))
    {
        return format!("excluded ({})", exclusion.reason);
    }
    "unknown".to_owned()
}

/// The listing of `entry`'s class: each of `methods` with its classification, and a count.
fn listing(entry: &Entry, methods: &[PublicMethod]) -> String {
    let class = entry.class();
    let mut text = format!("# {class}: public instance methods, classified by the library.\n");
    let mut unknown = 0;
    for method in methods {
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
    text
}

fn listings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/alphabets")
}

/// Compares the listing of each class with its file in `tests/alphabets/`, then fails naming
/// every method no line of the library classifies.
fn assert_listings(library: &Library, classes: &[&str], methods: &[Vec<PublicMethod>]) {
    assert_eq!(classes.len(), methods.len(), "one description per class");
    let mut unknown = Vec::new();
    for (class, methods) in classes.iter().zip(methods) {
        let entry = library.get(class).expect("a library class");
        expect_test::expect_file![listings_dir().join(format!("{class}.txt"))]
            .assert_eq(&listing(entry, methods));
        unknown.extend(unclassified(entry, methods));
    }
    assert!(
        unknown.is_empty(),
        "public methods no line of the library classifies (add each to a callin, `harmless:` or `excluded:`):\n{}",
        unknown.join("\n")
    );
}

/// The methods of `entry`'s class that its file does not classify, each with the file's path.
fn unclassified(entry: &Entry, methods: &[PublicMethod]) -> Vec<String> {
    let file = format!("typestates/library/{}", path_for_class(entry.class()));
    (methods.iter())
        .filter(|method| classify(&entry.typestate, method) == "unknown")
        .map(|method| format!("{file}: {}({})", method.name, method.params.join(", ")))
        .collect()
}

/// The methods a committed listing names: `returns name(T1, T2): classification` per line.
fn listed_methods(text: &str) -> Vec<PublicMethod> {
    (text.lines())
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let (head, rest) = line.split_once('(').expect("`(` in a listing line");
            let (params, _) = rest.split_once(')').expect("`)` in a listing line");
            let (returns, name) = head.rsplit_once(' ').expect("a return type");
            PublicMethod {
                name: name.to_owned(),
                params: (params.split(", "))
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect(),
                returns: (returns != "void").then(|| returns.to_owned()),
            }
        })
        .collect()
}

/// Every class of the library has a listing, and the library classifies every method of it.
/// The slow tiers take the methods from the jars; this takes them from the committed listings
/// and classifies them again, so a change of the library shows here without a jar.
#[test]
fn every_listed_method_is_classified() {
    let library = Library::bundled();
    let classes: Vec<&str> = library.iter().map(Entry::class).collect();
    let methods: Vec<Vec<PublicMethod>> = (classes.iter())
        .map(|class| {
            let path = listings_dir().join(format!("{class}.txt"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            listed_methods(&text)
        })
        .collect();
    assert_listings(&library, &classes, &methods);
    expect_test::expect_file![listings_dir().join("SUMMARY.md")]
        .assert_eq(&summary(&library, &classes, &methods));
}

/// The table of every library class with how many of its public methods each kind of line
/// classifies.
fn summary(library: &Library, classes: &[&str], methods: &[Vec<PublicMethod>]) -> String {
    let mut text = String::from(
        "# Complete alphabets\n\n\
         Every public instance method of every bundled class, by how its file classifies it.\n\
         Written by `cargo test -p learner --test jvm_alphabets` from the listings beside it \
         (`UPDATE_EXPECT=1` rewrites it).\n\
         Excluded methods are left out of the protocol on purpose, with the reason in the file; \
         unreachable ones are Kotlin bridges no source can name.\n\n\
         | class | provenance | methods | callins and observers | callbacks | harmless | excluded | unreachable | unclassified |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut totals = [0usize; 7];
    for (class, methods) in classes.iter().zip(methods) {
        let entry = library.get(class).expect("a library class");
        let mut counts = [0usize; 7];
        counts[0] = methods.len();
        for method in methods {
            let how = classify(&entry.typestate, method);
            let kind = if how.starts_with("callin") || how.starts_with("observer") {
                1
            } else if how.contains("callback") {
                2
            } else if how == "harmless" {
                3
            } else if how.starts_with("excluded") {
                4
            } else if how.starts_with("not callable") {
                5
            } else {
                6
            };
            counts[kind] += 1;
        }
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
        let cells: Vec<String> = counts.iter().map(usize::to_string).collect();
        writeln!(
            text,
            "| `{class}` | {} | {} |",
            entry.typestate.provenance.kind.keyword(),
            cells.join(" | ")
        )
        .expect("writing to a string");
    }
    let cells: Vec<String> = totals.iter().map(usize::to_string).collect();
    writeln!(
        text,
        "| {} classes | | {} |",
        classes.len(),
        cells.join(" | ")
    )
    .expect("writing to a string");
    text
}

/// The library's classes whose names start with one of `prefixes`.
fn classes_under<'l>(library: &'l Library, prefixes: &[&str]) -> Vec<&'l str> {
    library
        .iter()
        .map(Entry::class)
        .filter(|class| prefixes.iter().any(|prefix| class.starts_with(prefix)))
        .collect()
}

/// Describes each class on the host JVM with `config`.
async fn describe_on_jvm(classes: &[&str], config: &JvmConfig) -> Vec<Vec<PublicMethod>> {
    let mut all = Vec::new();
    for class in classes {
        all.push(
            public_methods(class, config)
                .await
                .unwrap_or_else(|error| panic!("describe {class}: {error}")),
        );
    }
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn jdk_library_classes_have_every_public_method_classified() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let library = Library::bundled();
    let classes = classes_under(&library, &["java.", "javax."]);
    let methods = describe_on_jvm(&classes, &jvm_support::config(Vec::new())).await;
    assert_listings(&library, &classes, &methods);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn okhttp_library_classes_have_every_public_method_classified() {
    assert_maven_listings("okhttp3.", "fetch-okhttp.sh", "okhttp", "OkHttp 4.12").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn retrofit_library_classes_have_every_public_method_classified() {
    assert_maven_listings(
        "retrofit2.",
        "fetch-retrofit.sh",
        "retrofit",
        "Retrofit 2.11",
    )
    .await;
}

/// The listings of the library's classes under `prefix`, described on the host JVM with the
/// jars `script` fetches into `<target>/dir`.
async fn assert_maven_listings(prefix: &str, script: &str, dir: &str, what: &str) {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let library = Library::bundled();
    let classes = classes_under(&library, &[prefix]);
    let classpath = jvm_support::maven_classpath(script, dir, what);
    let methods = describe_on_jvm(&classes, &jvm_support::config(classpath)).await;
    assert_listings(&library, &classes, &methods);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn android_library_classes_have_every_public_method_classified() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = Library::bundled();
    let classes = classes_under(&library, &["android."]);
    let methods = robolectric::public_methods(&classes, &robolectric_support::config())
        .await
        .unwrap_or_else(|error| panic!("describe inside Robolectric: {error}"));
    assert_listings(&library, &classes, &methods);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn android_libraries_from_maven_have_every_public_method_classified() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = Library::bundled();
    for (prefix, script, dir, what) in [
        (
            "com.nostra13.",
            "fetch-uil.sh",
            "uil",
            "Universal Image Loader 1.9.5",
        ),
        (
            "com.android.volley.",
            "fetch-volley.sh",
            "volley",
            "Volley 1.0.19",
        ),
    ] {
        let classes = classes_under(&library, &[prefix]);
        let mut config = robolectric_support::config();
        config.jvm.classpath = jvm_support::maven_classpath(script, dir, what);
        let methods = robolectric::public_methods(&classes, &config)
            .await
            .unwrap_or_else(|error| panic!("describe {what} inside Robolectric: {error}"));
        assert_listings(&library, &classes, &methods);
    }
}
