//! Bad input never panics or hangs: random bytes, truncated files, deep nesting, huge files,
//! files that are not UTF-8 or not Java/Kotlin.
//! The random and truncated inputs are the slow tier `robustness` (`test-tiers`).

use std::path::Path;

use checker::cfg::Cfg;
use checker::ir::{Class, Language, Nesting};
use checker::source::{Encoding, SourceError, SourceFile, MAX_SOURCE_BYTES};
use test_tiers::Tier;

/// Runs every pass on `text` and walks every resulting graph.
fn run_all(language: Language, text: &str) {
    let path = match language {
        Language::Java => "Soup.java",
        Language::Kotlin => "Soup.kt",
    };
    let file = checker::SourceFile::from_bytes(Path::new(path), text.as_bytes().to_vec())
        .expect("the soup is UTF-8");
    let library = typestates::library::Library::bundled();
    // Every pass runs: no prefilter, and the unreleased-object report on.
    let config = checker::CheckConfig {
        time_limit: std::time::Duration::from_secs(5),
        skip_unrelated: false,
        report_unreleased: true,
        ..checker::CheckConfig::default()
    };
    let _ = checker::check(&library, &file, &config);
    let files = [file.clone()];
    let project = checker::Project::new(&library, &files, config.clone(), 1);
    let _ = project.check(0);
    let _ = checker::states_at(&library, &file, text.len() / 2, &Default::default());
    let ir = checker::lang::lower(language, text);
    let _ = checker::resolve::resolve(&ir, &[].as_slice());
    fn bodies(class: &Class, language: Language) {
        for body in class
            .methods
            .iter()
            .filter_map(|m| m.body.as_ref())
            .chain(&class.initializers)
        {
            let cfg = Cfg::build(body, language);
            assert!(cfg.nodes.len() >= 3);
        }
        class
            .classes
            .iter()
            .for_each(|nested| bodies(nested, language));
    }
    ir.classes.iter().for_each(|class| bodies(class, language));
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const JAVA_SAMPLE: &str = include_str!("fixtures/java/Flow.java");
const KOTLIN_SAMPLE: &str = include_str!("fixtures/kotlin/Flow.kt");

#[test]
#[ignore = "slow tier robustness: TYPESTAR_SLOW=robustness cargo test -- --include-ignored"]
fn random_bytes_and_token_soup() {
    if !test_tiers::runs(Tier::Robustness) {
        return;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let tokens = [
        "{",
        "}",
        "(",
        ")",
        "try",
        "catch",
        "finally",
        "if",
        "else",
        "when",
        "->",
        "?.",
        "!!",
        "x",
        ".",
        "start()",
        ";",
        "\n",
        "fun",
        "class",
        "new",
        "return@let",
        "break",
        "object :",
        "\"",
        "${",
    ];
    for _ in 0..200 {
        let len = (rng.next() % 400) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() % 128) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        run_all(Language::Java, &text);
        run_all(Language::Kotlin, &text);
        let soup: String = (0..len / 4)
            .map(|_| tokens[(rng.next() % tokens.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ");
        run_all(Language::Java, &soup);
        run_all(Language::Kotlin, &soup);
    }
}

#[test]
#[ignore = "slow tier robustness: TYPESTAR_SLOW=robustness cargo test -- --include-ignored"]
fn every_truncation_of_the_fixtures() {
    if !test_tiers::runs(Tier::Robustness) {
        return;
    }
    for (language, sample) in [
        (Language::Java, JAVA_SAMPLE),
        (Language::Kotlin, KOTLIN_SAMPLE),
    ] {
        for end in (0..sample.len())
            .filter(|end| sample.is_char_boundary(*end))
            .step_by(7)
        {
            run_all(language, &sample[..end]);
        }
    }
}

#[test]
fn deep_nesting_is_summarised_not_overflowed() {
    let depth = 20_000;
    let java = format!(
        "class A {{ void f() {{ x = {}1{}; {} {} }} }}",
        "(".repeat(depth),
        ")".repeat(depth),
        "if (a) {".repeat(2_000),
        "}".repeat(2_000)
    );
    run_all(Language::Java, &java);
    let kotlin = format!(
        "fun f() {{ val x = {}1{}\n{}{} }}",
        "(".repeat(depth),
        ")".repeat(depth),
        "run {".repeat(2_000),
        "}".repeat(2_000)
    );
    run_all(Language::Kotlin, &kotlin);
}

#[test]
fn huge_file() {
    let method = "    void m() { MediaPlayer p = new MediaPlayer(); try { p.prepare(); } catch (Exception e) { p.release(); } p.start(); }\n";
    let text = format!("class Big {{\n{}}}\n", method.repeat(20_000));
    assert!(text.len() > 2_000_000);
    run_all(Language::Java, &text);
}

#[test]
fn unreadable_files_get_clear_errors() {
    let err = SourceFile::from_bytes(Path::new("A.java"), vec![b'c', 0xff, 0xfe]).unwrap_err();
    assert_eq!(
        err,
        SourceError::NotUtf8 {
            path: "A.java".into(),
            offset: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "A.java: not valid UTF-8 (first invalid byte at offset 1)"
    );
    let err = SourceFile::from_bytes(Path::new("notes.txt"), b"hello".to_vec()).unwrap_err();
    assert!(matches!(err, SourceError::UnknownLanguage { .. }));
    let err =
        SourceFile::from_bytes(Path::new("Big.kt"), vec![b' '; MAX_SOURCE_BYTES + 1]).unwrap_err();
    assert!(matches!(err, SourceError::TooLarge { .. }));
    let ok = SourceFile::from_bytes(Path::new("A.kt"), b"fun f() {}".to_vec()).expect("valid file");
    assert_eq!(ok.language, Language::Kotlin);
}

#[test]
fn latin1_files_are_decoded_and_say_so() {
    let (file, encoding) =
        SourceFile::decode(Path::new("A.java"), b"// caf\xe9\nclass A {}\n".to_vec())
            .expect("Latin-1 is read");
    assert_eq!(encoding, Encoding::Latin1);
    assert_eq!(file.text, "// caf\u{e9}\nclass A {}\n");
    let (_, encoding) =
        SourceFile::decode(Path::new("A.kt"), "// café".as_bytes().to_vec()).expect("UTF-8");
    assert_eq!(encoding, Encoding::Utf8);
    let err = SourceFile::decode(Path::new("notes.txt"), b"\xff".to_vec()).unwrap_err();
    assert!(matches!(err, SourceError::UnknownLanguage { .. }));
}

/// A Kotlin elvis chain whose right operands add no node used to double the pending edges
/// per operator (`a ?: a ?: …`, 40 terms: gigabytes); the graph now grows with the chain.
#[test]
fn elvis_chain_builds_a_linear_graph() {
    for terms in [10, 20, 40] {
        let chain = vec!["a"; terms].join(" ?: ");
        let text = format!("fun f(a: String?) {{ val s = {chain}\n s.length }}");
        let ir = checker::lang::lower(Language::Kotlin, &text);
        let body = ir.classes[0].methods[0].body.as_ref().expect("a body");
        let cfg = Cfg::build(body, Language::Kotlin);
        let edges: usize = cfg.nodes.iter().map(|node| node.succs.len()).sum();
        assert!(edges < 10 * terms, "{terms} terms: {edges} edges");
    }
    run_all(
        Language::Kotlin,
        &format!(
            "fun f(a: String?) {{ val s = {} }}",
            vec!["a"; 60].join(" ?: ")
        ),
    );
}

const JAVA_HEAD: &str = "import android.media.MediaPlayer;\n";
const KOTLIN_HEAD: &str = "import android.media.MediaPlayer\n";

/// `head`, then `open` `n` times, `middle`, `close` `n` times and `tail`.
fn deep(head: &str, open: &str, middle: &str, close: &str, n: usize, tail: &str) -> String {
    format!("{head}{}{middle}{}{tail}", open.repeat(n), close.repeat(n))
}

/// Checks `text` as the file `path` with the default configuration.
fn check_text(path: &str, text: &str) -> checker::CheckResult {
    let file = SourceFile::from_bytes(Path::new(path), text.as_bytes().to_vec()).expect("UTF-8");
    let library = typestates::library::Library::bundled();
    checker::check(&library, &file, &checker::CheckConfig::default())
}

/// Named classes nested 6 000 deep (Java) or 3 000 deep (Kotlin) overflowed the stack while
/// lowering; lowering now stops at the limit and says where.
#[test]
fn deeply_nested_classes_are_cut_and_reported() {
    let depth = 6_000;
    let java = deep(JAVA_HEAD, "class A { ", "", "}", depth, "\n");
    run_all(Language::Java, &java);
    let too_deep = check_text("Nested.java", &java).too_deep.expect("reported");
    assert_eq!(too_deep.nesting, Nesting::Classes);
    assert_eq!(too_deep.span.start.line, 2);
    assert_eq!(too_deep.span.start.col, 1001, "the 101st class");
    let kotlin = deep(KOTLIN_HEAD, "class A {\n", "", "}\n", 3_000, "");
    run_all(Language::Kotlin, &kotlin);
    let too_deep = check_text("Nested.kt", &kotlin).too_deep.expect("reported");
    assert_eq!(too_deep.nesting, Nesting::Classes);
    assert_eq!(too_deep.span.start.line, 102, "the 101st class");
    // Code within the limits is checked fully.
    let shallow = "import android.media.MediaPlayer;\nclass A { class B { void f() { new MediaPlayer().start(); } } }\n";
    assert_eq!(check_text("A.java", shallow).too_deep, None);
}

/// Statements nested past the limit are summarised and the file says so.
#[test]
fn deeply_nested_code_is_reported() {
    let head = format!("{JAVA_HEAD}class A {{ void f() {{ ");
    let text = deep(&head, "if (a) { ", "", "}", 300, " } }\n");
    let too_deep = check_text("A.java", &text).too_deep.expect("reported");
    assert_eq!(too_deep.nesting, Nesting::Code);
    assert!(too_deep
        .to_string()
        .contains("nested deeper than 100 levels"));
}

/// Annotation element arrays 40 000 deep (Java) and parenthesized types 40 000 deep (Kotlin)
/// overflowed the stack; both are now walked without recursion, and nothing is lost.
#[test]
fn deep_annotation_arrays_and_parenthesized_types() {
    let depth = 40_000;
    let java = deep(
        "@SuppressWarnings(",
        "{",
        "\"typestate\"",
        "}",
        depth,
        ")\nclass A {}\n",
    );
    run_all(Language::Java, &java);
    let ir = checker::lang::lower(Language::Java, &java);
    assert_eq!(ir.classes[0].annotations[0].string_args, ["typestate"]);
    let kotlin = deep("val x: ", "(", "MediaPlayer", ")", depth, " = null\n");
    run_all(Language::Kotlin, &kotlin);
    let ir = checker::lang::lower(Language::Kotlin, &kotlin);
    let field = &ir.classes[0].fields[0];
    assert_eq!(
        field.ty.as_ref().map(|ty| ty.name.as_str()),
        Some("MediaPlayer")
    );
}

/// Kotlin strings nested 512 deep in string templates abort the grammar's scanner, so such a
/// text is refused before parsing, naming the place; shallow templates, however many, parse.
#[test]
fn kotlin_templates_nested_too_deep_are_refused() {
    let head = format!("{KOTLIN_HEAD}val s = ");
    let text = deep(&head, "\"${", "\"", "", 600, "\n");
    run_all(Language::Kotlin, &text);
    let too_deep = check_text("Deep.kt", &text).too_deep.expect("refused");
    assert_eq!(too_deep.nesting, Nesting::StringTemplates);
    assert_eq!(too_deep.span.start.line, 2);
    assert_eq!(too_deep.span.start.col, 9 + 3 * 128, "the 129th string");
    let nested = |n: usize| deep("val s = ", "\"${", "x", "}\"", n, "\n");
    assert_eq!(check_text("Ok.kt", &nested(100)).too_deep, None);
    assert!(check_text("Deep.kt", &nested(200)).too_deep.is_some());
    let many = "val s = \"${a} ${\"b\"}\"\n".repeat(2_000);
    let result = check_text("Many.kt", &many);
    assert_eq!((result.too_deep, result.syntax_errors.len()), (None, 0));
    // Raw strings, comments and character literals do not open strings.
    let other = format!(
        "val s = \"\"\"${{\"a\"}}\"\"\" // \"${{\"\n/* \"${{ */ val c = '\"'\n{}",
        many
    );
    assert_eq!(check_text("Other.kt", &other).too_deep, None);
}

/// Parsing stops at the time limit in `check` and in `Incremental` too, not only in
/// `Project` (`tests/project.rs`).
#[test]
fn parsing_in_check_stops_at_the_time_limit() {
    let method = "    void m() { MediaPlayer p = new MediaPlayer(); p.release(); p.start(); }\n";
    let big = format!(
        "import android.media.MediaPlayer;\nclass Big {{\n{}}}\n",
        method.repeat(40_000)
    );
    let file = SourceFile::from_bytes(Path::new("Big.java"), big.into_bytes()).expect("UTF-8");
    let library = std::sync::Arc::new(typestates::library::Library::bundled());
    for skip_unrelated in [true, false] {
        let config = checker::CheckConfig {
            time_limit: std::time::Duration::from_millis(1),
            skip_unrelated,
            ..checker::CheckConfig::default()
        };
        let result = checker::check(&library, &file, &config);
        assert!(result.timed_out && result.violations.is_empty());
        let result = checker::Incremental::default().check(&library, &file, &config);
        assert!(result.timed_out && result.violations.is_empty());
    }
}

/// One method that makes `n` `MediaPlayer`s and starts each: the record pass searches the
/// rest of the method for the delivery of the error each `start()` may post (once per object).
fn distinct_starts(n: usize) -> String {
    let body: String = (0..n)
        .map(|i| format!("MediaPlayer p{i} = MediaPlayer.create(null, 1); p{i}.start();\n"))
        .collect();
    format!("import android.media.MediaPlayer;\nclass A {{ void f() {{\n{body}}} }}\n")
}

/// The analysis stops at the time limit inside one long method too, in `check` as in a
/// `Project`: the deadline was only checked before each body, so a body's solve and record
/// pass ran on past it (this input past 22 s with a limit of 1 s; the scale family
/// `java-flag-ifs` at 4000 lines past 60 s with one of 10 s).
/// Each check runs on a thread, so that one past the limit fails the test instead of hanging
/// it; the bound is generous (twice the limit, for parsing and the analysis, and 20 s more),
/// so only a check that ignores the limit fails it.
#[test]
fn the_analysis_of_one_long_method_stops_at_the_time_limit() {
    let limit = std::time::Duration::from_secs(1);
    let file = SourceFile::from_bytes(Path::new("A.java"), distinct_starts(3_000).into_bytes())
        .expect("UTF-8");
    let config = checker::CheckConfig {
        time_limit: limit,
        ..checker::CheckConfig::default()
    };
    let library = std::sync::Arc::new(typestates::library::Library::bundled());
    let checks: [fn(&typestates::library::Library, &SourceFile, &checker::CheckConfig) -> bool; 2] = [
        |library, file, config| checker::check(library, file, config).timed_out,
        |library, file, config| {
            let files = [file.clone()];
            let project = checker::Project::new(library, &files, config.clone(), 1);
            project.check(0).timed_out
        },
    ];
    for (index, run) in checks.into_iter().enumerate() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let (library, file, config) = (library.clone(), file.clone(), config.clone());
        std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let timed_out = run(&library, &file, &config);
            let _ = sender.send((timed_out, start.elapsed()));
        });
        let (timed_out, took) = receiver
            .recv_timeout(2 * limit + std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("check {index} runs past the time limit"));
        // A check that ended within the limits (for parsing, then the analysis) need not
        // report them.
        assert!(timed_out || took < 2 * limit, "check {index}: {took:?}");
    }
}

/// Texts whose parse is quadratic inside one lexing step (a run of `$` in Kotlin, an
/// unterminated comment holding many `/*`, an unterminated string followed by many `'`):
/// tree-sitter's progress callback is not called within that step, so parsing used to run
/// for minutes past the limit. Each is now cut at the limit, in `check` and in `Project`.
#[test]
fn quadratic_parses_stop_at_the_time_limit() {
    let cases = [
        (
            "Dollars.kt",
            format!(
                "import android.media.MediaPlayer\nfun f() {{\n{}\n}}\n",
                "$".repeat(256 << 10)
            ),
        ),
        (
            "Comments.java",
            format!(
                "import android.media.MediaPlayer;\nclass A {{ void f() {{{}",
                " /*".repeat(80_000)
            ),
        ),
        (
            "Quotes.kt",
            format!(
                "import android.media.MediaPlayer\nval s = \"\n{}",
                format!("{}\n", "'".repeat(50)).repeat(6_400)
            ),
        ),
    ];
    let library = typestates::library::Library::bundled();
    let config = checker::CheckConfig {
        time_limit: std::time::Duration::from_millis(1),
        ..checker::CheckConfig::default()
    };
    for (path, text) in cases {
        let file = SourceFile::from_bytes(Path::new(path), text.into_bytes()).expect("UTF-8");
        assert!(checker::check(&library, &file, &config).timed_out, "{path}");
        let files = [file];
        let project = checker::Project::new(&library, &files, config.clone(), 1);
        assert!(project.check(0).timed_out, "{path}");
    }
}

/// A lone CR ends a line in Java and Kotlin: findings on a file with CR line ends were all
/// reported on line 1 (`1:103` instead of `5:7`).
#[test]
fn lone_cr_ends_lines() {
    let lines = [
        "import android.media.MediaPlayer;",
        "class A {",
        "  void f() {",
        "    MediaPlayer p = new MediaPlayer();",
        "      p.start();",
        "  }",
        "}",
    ];
    let library = std::sync::Arc::new(typestates::library::Library::bundled());
    let config = checker::CheckConfig::default();
    for ending in ["\r", "\n", "\r\n"] {
        let text = lines.join(ending);
        let file = SourceFile::from_bytes(Path::new("A.java"), text.into_bytes()).expect("UTF-8");
        let result = checker::check(&library, &file, &config);
        let starts: Vec<String> = result
            .violations
            .iter()
            .map(|v| v.span.start.to_string())
            .collect();
        assert_eq!(starts, ["5:9"], "{ending:?}");
        let mut incremental = checker::Incremental::default();
        assert_eq!(
            incremental.check(&library, &file, &config),
            result,
            "{ending:?}"
        );
    }
}
