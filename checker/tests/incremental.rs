//! The incremental engine against a check from scratch: every fixture file is edited many
//! times at random (typing and deleting in code, comments and method names, pasting a piece of the file
//! elsewhere, going back to an earlier text), and after each edit
//! [`checker::Incremental::check`] must equal [`checker::check`] of the same text, quick fixes
//! included (`tests/fixes/` is edited too).
//! The random edits are the slow tier `random-edits` (`test-tiers`); the named edits always run.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use checker::{check, CheckConfig, Incremental, Lowering, Reuse, SourceFile};
use test_tiers::Tier;
use typestates::library::Library;

const EDITS_PER_FILE: usize = 30;

/// A small deterministic generator (xorshift64*), so a failure replays.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Texts typed into the file: blank space, comment markers, code of the checked protocols.
const TYPED: &[&str] = &[
    " ",
    "\n",
    "x",
    "// ",
    "/* ",
    " */",
    "\"",
    "{",
    "}",
    ";",
    "player.start();\n",
    "mp.prepareAsync();\n",
    "release()",
    ".",
    "(",
    ")",
];

/// The byte offset of a char boundary near `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One random edit of `text`, a sixth of each: whole lines (which mostly keep the code
/// valid), typing into a comment, into a method's name, a statement added to or removed from
/// a method's body, a method copied under another name or removed, and typing, deleting or
/// pasting anywhere.
fn edit(random: &mut Random, text: &str) -> String {
    match random.below(6) {
        0 => return edit_lines(random, text),
        4 => {
            if let Some(edited) = edit_method_body(random, text) {
                return edited;
            }
        }
        5 => {
            if let Some(edited) = edit_members(random, text) {
                return edited;
            }
        }
        3 => {
            if let Some(edited) = edit_method_name(random, text) {
                return edited;
            }
        }
        1 => {
            if let Some(edited) = edit_comment(random, text) {
                return edited;
            }
        }
        _ => {}
    }
    let start = boundary(text, random.below(text.len() + 1));
    let removed = match random.below(3) {
        0 => 0,
        1 => 1 + random.below(3),
        _ => 1 + random.below(40),
    };
    let end = boundary(text, start + removed).max(start);
    let inserted = if random.below(4) == 0 {
        // A piece of the file itself: real code, moved or duplicated.
        let from = boundary(text, random.below(text.len() + 1));
        let to = boundary(text, from + 1 + random.below(60)).max(from);
        text[from..to].to_owned()
    } else {
        TYPED[random.below(TYPED.len())].to_owned()
    };
    format!("{}{inserted}{}", &text[..start], &text[end..])
}

/// Types into, or deletes from, a `//` comment, near its start.
fn edit_comment(random: &mut Random, text: &str) -> Option<String> {
    let comments: Vec<usize> = text.match_indices("//").map(|(at, _)| at).collect();
    let at = *comments.get(random.below(comments.len()))?;
    let start = boundary(text, at + random.below(12));
    if random.below(3) == 0 {
        let end = boundary(text, start + 1 + random.below(4)).max(start);
        return Some(format!("{}{}", &text[..start], &text[end..]));
    }
    let typed = TYPED[random.below(TYPED.len())];
    Some(format!("{}{typed}{}", &text[..start], &text[start..]))
}

/// Types a letter into, or deletes the last letter of, the name of a method declaration
/// (a name before `(` on a line that declares it with `void` or `fun`).
fn edit_method_name(random: &mut Random, text: &str) -> Option<String> {
    let names: Vec<usize> = text
        .match_indices('(')
        .map(|(at, _)| at)
        .filter(|&at| {
            let line = text[..at].rsplit('\n').next().unwrap_or("");
            let name_ends = line.ends_with(|c: char| c.is_ascii_alphanumeric());
            name_ends && (line.contains("void ") || line.contains("fun "))
        })
        .collect();
    let at = *names.get(random.below(names.len()))?;
    Some(if random.below(2) == 0 {
        format!("{}x{}", &text[..at], &text[at..])
    } else {
        format!("{}{}", &text[..at - 1], &text[at..])
    })
}

/// Statements typed into method bodies, by language: locals of tracked and untracked types,
/// calls on tracked objects.
const JAVA_STATEMENTS: &[&str] = &[
    "        MediaPlayer extra = new MediaPlayer();\n",
    "        int counted = 1;\n",
    "        player.start();\n",
    "        mp.release();\n",
    "        return;\n",
];
const KOTLIN_STATEMENTS: &[&str] = &[
    "        val extra = MediaPlayer()\n",
    "        var counted = 1\n",
    "        player.start()\n",
    "        mp.release()\n",
    "        return\n",
];

/// The line starts of the method declarations of `text` (lines declaring a method with
/// `void` or `fun` and opening its body with `{`), with the end of each method: the line
/// after the first one indented no deeper than the declaration that closes it with `}`.
fn methods(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some((start, line))
        })
        .collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut out = Vec::new();
    for (i, (start, line)) in lines.iter().enumerate() {
        let declares =
            (line.contains("void ") || line.contains("fun ")) && line.trim_end().ends_with('{');
        if !declares {
            continue;
        }
        let close = lines[i + 1..]
            .iter()
            .find(|(_, l)| indent(l) <= indent(line) && l.trim_start().starts_with('}'));
        if let Some((end, closing)) = close {
            out.push((*start, end + closing.len()));
        }
    }
    out
}

/// Adds a statement at a line of a method's body, or removes one of its lines.
fn edit_method_body(random: &mut Random, text: &str) -> Option<String> {
    let methods = methods(text);
    let (start, end) = *methods.get(random.below(methods.len()))?;
    let body_lines: Vec<usize> = text[start..end]
        .match_indices('\n')
        .map(|(at, _)| start + at + 1)
        .filter(|&at| at < end)
        .collect();
    let at = *body_lines.get(random.below(body_lines.len()))?;
    if random.below(3) == 0 {
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n + 1);
        if line_end < end {
            return Some(format!("{}{}", &text[..at], &text[line_end..]));
        }
    }
    let statements = if text.contains("fun ") {
        KOTLIN_STATEMENTS
    } else {
        JAVA_STATEMENTS
    };
    let typed = statements[random.below(statements.len())];
    Some(format!("{}{typed}{}", &text[..at], &text[at..]))
}

/// Copies a whole method after itself under another name, or removes one.
fn edit_members(random: &mut Random, text: &str) -> Option<String> {
    let methods = methods(text);
    let (start, end) = *methods.get(random.below(methods.len()))?;
    if random.below(2) == 0 {
        return Some(format!("{}{}", &text[..start], &text[end..]));
    }
    let method = &text[start..end];
    let name_end = method.find('(')?;
    let copy = format!("{}Copy{}", &method[..name_end], &method[name_end..]);
    Some(format!("{}{copy}{}", &text[..end], &text[end..]))
}

/// Deletes a line, duplicates one elsewhere, or inserts a comment or blank line.
fn edit_lines(random: &mut Random, text: &str) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = random.below(lines.len() + 1);
    match random.below(4) {
        0 if at < lines.len() => {
            lines.remove(at);
        }
        1 => {
            let copied = lines[random.below(lines.len())];
            lines.insert(at, copied);
        }
        2 => lines.insert(at, "    // typed a comment\n"),
        _ => lines.insert(at, "\n"),
    }
    lines.concat()
}

/// `A.java` with `text`.
fn java_file(text: &str) -> SourceFile {
    SourceFile {
        path: "A.java".into(),
        language: checker::ir::Language::Java,
        text: text.to_owned(),
    }
}

fn fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("tests/fixtures"), root.join("tests/fixes")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture folder is readable") {
            let path = entry.expect("fixture entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("java" | "kt")
            ) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
#[ignore = "slow tier random-edits: TYPESTAR_SLOW=random-edits cargo test -- --include-ignored"]
fn incremental_results_equal_a_check_from_scratch_after_every_random_edit() {
    if !test_tiers::runs(Tier::RandomEdits) {
        return;
    }
    let library = Arc::new(Library::bundled());
    let mut random = Random(0x7e57_57a7);
    let mut reused = [0usize; 5];
    let mut reused_bodies_with_leaks = 0;
    // Java, Kotlin.
    let mut lowered_methods = [0usize; 2];
    let mut lowered_files = 0;
    let files = fixtures();
    assert!(files.len() > 20, "the fixtures are found");
    for path in files {
        let language = support::language_of(&path);
        // The leak report is on for the fixtures of leaks, so reused analyses carry leaks too.
        let leaks = path
            .components()
            .any(|c| matches!(c.as_os_str().to_str(), Some("unreleased" | "leaks")));
        let config = CheckConfig {
            report_unreleased: leaks,
            ..support::unhurried()
        };
        let original = std::fs::read_to_string(&path).expect("fixture is readable");
        let mut engine = Incremental::default();
        let mut history = vec![original.clone()];
        // The last text without syntax errors: most edits start from it, so that the walk
        // does not drift into text that is broken everywhere.
        let mut clean = original.clone();
        let mut text = original;
        for step in 0..EDITS_PER_FILE {
            text = match random.below(10) {
                // Back to an earlier text, as an undo or a stale snapshot would.
                0 => history[random.below(history.len())].clone(),
                1..=6 => edit(&mut random, &clean),
                _ => edit(&mut random, &text),
            };
            history.push(text.clone());
            let file = SourceFile {
                path: path.clone(),
                language,
                text: text.clone(),
            };
            let (incremental, reuse) = engine.check_reporting(&library, &file, &config);
            let scratch = check(&library, &file, &config);
            assert_eq!(
                incremental,
                scratch,
                "{} after edit {step}; the text was:\n{text}",
                path.display()
            );
            if let Some(kept) = engine.ir() {
                assert!(
                    *kept == checker::lang::lower(language, &text),
                    "{} after edit {step} ({:?}): the kept IR is not the lowered one; the text was:\n{text}",
                    path.display(),
                    engine.lowering()
                );
            }
            if engine.lowering() == Lowering::Method {
                lowered_methods[usize::from(language == checker::ir::Language::Kotlin)] += 1;
            }
            lowered_files += usize::from(engine.lowering() == Lowering::File);
            if scratch.syntax_errors.is_empty() {
                clean.clone_from(&text);
            }
            reused_bodies_with_leaks += usize::from(leaks && reuse == Reuse::Bodies);
            reused[match reuse {
                Reuse::Nothing => 0,
                Reuse::Tree => 1,
                Reuse::Findings => 2,
                Reuse::Ir => 3,
                Reuse::Bodies => 4,
            }] += 1;
        }
    }
    // Every way of reusing work is exercised, not only the fallback.
    assert!(reused[1] > 150, "reparsed edits: {reused:?}");
    assert!(reused[2] > 100, "kept findings after lowering: {reused:?}");
    assert!(
        reused[3] > 100,
        "kept findings without lowering: {reused:?}"
    );
    assert!(reused[4] > 50, "kept analyses of method bodies: {reused:?}");
    assert!(
        reused_bodies_with_leaks > 10,
        "kept analyses of method bodies with the leak report on: {reused_bodies_with_leaks}"
    );
    assert!(
        lowered_methods.iter().all(|&n| n > 50) && lowered_files > 100,
        "lowered only the edited method (Java, Kotlin): {lowered_methods:?}, the whole file: {lowered_files}"
    );
}

#[test]
fn renaming_a_method_nothing_names_reuses_the_analyses_of_the_others() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig::default();
    let text = "import android.media.MediaPlayer;\n\nclass A {\n    void f() {\n        MediaPlayer p = new MediaPlayer();\n        p.start();\n    }\n\n    void g() {\n        MediaPlayer q = new MediaPlayer();\n        q.start();\n    }\n}\n";
    let mut engine = Incremental::default();
    engine.check_reporting(&library, &java_file(text), &config);

    let renamed = text.replace("void f()", "void fx()");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&renamed), &config);
    assert_eq!(reuse, Reuse::Bodies);
    assert_eq!(after, check(&library, &java_file(&renamed), &config));
    assert_eq!(after.violations.len(), 2);

    // Once `g` calls it, the name is a fact other code reads: the whole file is analysed.
    let called = renamed.replace("q.start();", "q.start();\n        fx();");
    engine.check_reporting(&library, &java_file(&called), &config);
    let renamed_again = called.replace("void fx()", "void fy()");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&renamed_again), &config);
    assert_eq!(reuse, Reuse::Tree);
    assert_eq!(after, check(&library, &java_file(&renamed_again), &config));
}

#[test]
fn adding_a_statement_or_a_local_to_one_method_reuses_the_analyses_of_the_others() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig::default();
    let text = "import android.media.MediaPlayer;\n\nclass A {\n    void f() {\n        MediaPlayer p = new MediaPlayer();\n        p.start();\n    }\n\n    void g() {\n        MediaPlayer q = new MediaPlayer();\n        q.start();\n    }\n\n    void h() {\n        MediaPlayer r = new MediaPlayer();\n        r.start();\n    }\n}\n";
    let mut engine = Incremental::default();
    engine.check_reporting(&library, &java_file(text), &config);
    // More expressions and one more local in `g`: `h`'s are numbered anew.
    let edits = [
        "q.start();\n        q.reset();",
        "q.start();\n        MediaPlayer s = new MediaPlayer();\n        s.release();",
    ];
    for edit in edits {
        let edited = text.replace("q.start();", edit);
        engine.check_reporting(&library, &java_file(text), &config);
        let (after, reuse) = engine.check_reporting(&library, &java_file(&edited), &config);
        assert_eq!(engine.lowering(), Lowering::Method, "{edit}");
        assert_eq!(reuse, Reuse::Bodies, "{edit}");
        assert_eq!(
            after,
            check(&library, &java_file(&edited), &config),
            "{edit}"
        );
        assert_eq!(after.violations.len(), 3, "{edit}");
    }
}

/// The leaks an analysis found are part of its result: reused, they move with the edit, and a
/// local added to one method renumbers those of the next.
#[test]
fn the_leaks_of_untouched_methods_are_reused_and_moved() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig {
        report_unreleased: true,
        ..CheckConfig::default()
    };
    let method = |name: &str, local: &str| {
        format!("    int {name}(String path) throws IOException {{\n        FileInputStream {local} = new FileInputStream(path);\n        return {local}.read();\n    }}\n")
    };
    let text = format!(
        "import java.io.FileInputStream;\nimport java.io.IOException;\n\nclass A {{\n{}\n{}\n{}}}\n",
        method("f", "p"),
        method("g", "q"),
        method("h", "r")
    );
    let mut engine = Incremental::default();
    let first = engine.check(&library, &java_file(&text), &config);
    assert_eq!(first.unreleased.len(), 3, "{:?}", first.unreleased);

    let edited = text.replace(
        "return q.read();",
        "FileInputStream s = new FileInputStream(path);\n        s.close();\n        return q.read();",
    );
    let (after, reuse) = engine.check_reporting(&library, &java_file(&edited), &config);
    assert_eq!(engine.lowering(), Lowering::Method);
    assert_eq!(reuse, Reuse::Bodies);
    assert_eq!(after, check(&library, &java_file(&edited), &config));
    assert_eq!(after.unreleased.len(), 3, "{:?}", after.unreleased);
}

#[test]
fn a_comment_edit_keeps_the_findings_and_a_code_edit_does_not() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig::default();
    let text = "import android.media.MediaPlayer;\n\nclass A {\n    // a comment\n    void f() {\n        MediaPlayer p = new MediaPlayer();\n        p.start();\n    }\n}\n";
    let mut engine = Incremental::default();
    let (first, reuse) = engine.check_reporting(&library, &java_file(text), &config);
    assert_eq!(reuse, Reuse::Nothing);
    assert_eq!(first.violations.len(), 1);

    let commented = text.replace("a comment", "a longer\n    // comment");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&commented), &config);
    assert_eq!(reuse, Reuse::Findings);
    assert_eq!(after, check(&library, &java_file(&commented), &config));
    assert_eq!(
        after.violations[0].span.start.line,
        first.violations[0].span.start.line + 1
    );

    let typed = commented.replace("a longer", "a much longer");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&typed), &config);
    assert_eq!(
        reuse,
        Reuse::Ir,
        "typing inside one comment needs no lowering"
    );
    assert_eq!(after, check(&library, &java_file(&typed), &config));

    let fixed = typed.replace("p.start();", "p.release();");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&fixed), &config);
    assert_eq!(reuse, Reuse::Tree);
    assert!(after.violations.is_empty());
}

/// The library is compared by pointer: a comment edit checked against another `Arc`, even
/// of an equal library, is analysed again; against the same `Arc`, its findings are kept.
#[test]
fn a_library_change_is_seen_by_pointer_identity() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig::default();
    let text = "import android.media.MediaPlayer;\n\nclass A {\n    // a comment\n    void f() {\n        MediaPlayer p = new MediaPlayer();\n        p.start();\n    }\n}\n";
    let mut engine = Incremental::default();
    engine.check(&library, &java_file(text), &config);
    let commented = text.replace("a comment", "a longer\n    // comment");
    let other = Arc::new(Library::clone(&library));
    let (after, reuse) = engine.check_reporting(&other, &java_file(&commented), &config);
    assert_eq!(reuse, Reuse::Tree);
    assert_eq!(after, check(&other, &java_file(&commented), &config));
    let typed = commented.replace("a longer", "a much longer");
    let (_, reuse) = engine.check_reporting(&other, &java_file(&typed), &config);
    assert_eq!(reuse, Reuse::Ir, "the same `Arc` again");
}

/// A leak fix is made of the text around it: a comment edit inside the text it rewrites must
/// not keep the old fix, so the engine checks again and equals a check from scratch.
#[test]
fn a_comment_edit_inside_a_leak_fix_computes_the_fix_again() {
    let library = Arc::new(Library::bundled());
    let config = CheckConfig {
        report_unreleased: true,
        ..CheckConfig::default()
    };
    let text = "import java.io.FileInputStream;\nimport java.io.IOException;\n\nclass A {\n    int f(String path) throws IOException {\n        FileInputStream in = new FileInputStream(path);\n        // a comment\n        return in.read();\n    }\n}\n";
    let mut engine = Incremental::default();
    let first = engine.check(&library, &java_file(text), &config);
    let fix = first.unreleased[0]
        .fix
        .as_ref()
        .expect("a try-with-resources fix");
    assert!(fix.edits[0].new_text.contains("// a comment"), "{fix:?}");

    let commented = text.replace("a comment", "another comment");
    let (after, reuse) = engine.check_reporting(&library, &java_file(&commented), &config);
    assert_ne!(
        reuse,
        Reuse::Findings,
        "findings with a leak fix are not relocated"
    );
    assert_eq!(after, check(&library, &java_file(&commented), &config));
    let fix = after.unreleased[0].fix.as_ref().expect("the fix, again");
    assert!(
        fix.edits[0].new_text.contains("// another comment"),
        "{fix:?}"
    );
}
