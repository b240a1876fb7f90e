//! Where a leak happens, and the quick fixes that remove one.
//!
//! [`crate::leaks`] says which objects are lost; this module reads the IR and the text around them.
//! A report that stands where its object was stored gets where it is lost as a related location.
//! That is the end of the method, or the lifecycle callback (the component's declaration when it does not override it).
//! An assignment that loses what the same assignment stored before (in a loop, or a callback that runs again) says so.
//!
//! Two fixes, each offered only where it is unambiguous:
//! - A field of a component still live past a lifecycle deadline (`leak-lifecycle`, `leak-component-end`).
//!   The fix calls the protocol's one releasing method at the end of that callback, added (calling `super`) when the component does not override it.
//!   It is not offered when the class releases that field anywhere already: where to release it is then a choice between places.
//! - A local left open at the end of its method or on an exception path, whose declared obligation `close()` alone discharges.
//!   Every such library protocol cites `java.io.Closeable`.
//!   The fix declares it in a try-with-resources (Java), or reads it through `use {}` (Kotlin), around the rest of its block.
//!   It drops a plain `x.close();` statement there.
//!   It is not offered when the rest assigns the name or holds a multi-line string, which re-indenting would change.
//!   Nor in Kotlin when the rest holds a `break` or `continue`, not allowed across the lambda.
//!
//! A fix is kept only if checking the fixed text finds this leak no more, and nothing the original text did not have.
//! Findings are compared by [`Key`], not by place.

use crate::check::CheckResult;
use crate::diagnostics::{Fix, FixEdit, Related, Unreleased};
use crate::ir::{line_starts, position, Body, Class, Language, SourceIr, Span, Stmt, StmtKind};
use crate::leaks::{LeakKind, GUESSED_CODE};

/// What identifies a finding across an edit that moves it: its code, class, receiver and
/// called method (empty for a leak).
pub(crate) type Key = (&'static str, String, String, String);

/// The keys of every finding of `result`, sorted.
pub(crate) fn keys(result: &CheckResult) -> Vec<Key> {
    let mut out: Vec<Key> = result
        .violations
        .iter()
        .map(|v| {
            (
                v.kind.code(),
                v.class.clone(),
                v.receiver.clone(),
                v.callin.clone(),
            )
        })
        .chain(result.unreleased.iter().map(key))
        .collect();
    out.sort();
    out
}

fn key(u: &Unreleased) -> Key {
    (u.code, u.class.clone(), u.receiver.clone(), String::new())
}

/// Adds where each report of `result` is lost, then the fixes `recheck` (the keys of the
/// findings of a fixed text, `None` when it cannot be checked fully) confirms.
pub(crate) fn attach(
    ir: &SourceIr,
    text: &str,
    result: &mut CheckResult,
    recheck: impl Fn(&str) -> Option<Vec<Key>>,
) {
    let classes = all_classes(&ir.classes);
    for u in &mut result.unreleased {
        if let Some(end) = where_lost(&classes, text, u) {
            u.related.push(end);
        }
    }
    let before = keys(result);
    let starts = line_starts(text);
    let fix = |u: &Unreleased| {
        let candidate = match u.kind {
            LeakKind::Lifecycle(_) | LeakKind::ComponentEnd => {
                release_in_callback(ir.language, &classes, text, &starts, u)
            }
            LeakKind::MethodEnd | LeakKind::Exception => close_with_block(ir, text, &starts, u),
            LeakKind::Overwritten | LeakKind::Replaced => None,
        };
        candidate.filter(|fix| {
            let fixed = apply(text, &fix.edits);
            recheck(&fixed).is_some_and(|after| only_removes(&before, &after, &key(u)))
        })
    };
    for u in &mut result.unreleased {
        if u.kind != LeakKind::ComponentEnd {
            u.fix = fix(u);
        }
    }
    // A field released by a lifecycle deadline is released by the component's end too: one
    // fix for both.
    let owner = |u: &Unreleased| {
        innermost(&classes, u.span).map(|class| (class.span.start_byte, u.receiver.clone()))
    };
    let released: Vec<_> = result
        .unreleased
        .iter()
        .filter(|u| u.fix.is_some() && matches!(u.kind, LeakKind::Lifecycle(_)))
        .filter_map(owner)
        .collect();
    for u in &mut result.unreleased {
        if u.kind == LeakKind::ComponentEnd && !owner(u).is_some_and(|o| released.contains(&o)) {
            u.fix = fix(u);
        }
    }
}

/// Whether `after` has every finding of `before` but one `removed`, and nothing else.
fn only_removes(before: &[Key], after: &[Key], removed: &Key) -> bool {
    let mut left = before.to_vec();
    for k in after {
        match left.iter().position(|b| b == k) {
            Some(at) => {
                left.remove(at);
            }
            None => return false,
        }
    }
    left.contains(removed)
}

/// `text` with `edits` (in source order, not overlapping) applied.
fn apply(text: &str, edits: &[FixEdit]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.span.start_byte]);
        out.push_str(&edit.new_text);
        at = edit.span.end_byte;
    }
    out.push_str(&text[at..]);
    out
}

/// The name of the lifecycle callback a report of kind `kind` is about.
fn callback(kind: LeakKind) -> Option<&'static str> {
    match kind {
        LeakKind::Lifecycle(deadline) => Some(deadline.method()),
        LeakKind::ComponentEnd => Some("onDestroy"),
        _ => None,
    }
}

/// Where the object of `u` is lost, when `u` stands where it was stored.
fn where_lost(classes: &[&Class], text: &str, u: &Unreleased) -> Option<Related> {
    let receiver = &u.receiver;
    if u.kind == LeakKind::MethodEnd {
        let body = classes
            .iter()
            .flat_map(|c| c.methods.iter().filter_map(|m| m.body.as_ref()))
            .filter(|b| contains(b.span, u.span))
            .min_by_key(|b| b.span.end_byte - b.span.start_byte)?;
        return Some(Related {
            span: closing_brace(text, body)?,
            label: format!("the method ends here with `{receiver}` not released"),
        });
    }
    if matches!(u.kind, LeakKind::Overwritten | LeakKind::Replaced) {
        return u.related.is_empty().then(|| Related {
            span: u.span,
            label: format!(
                "`{receiver}` was given the object it loses here, when this code ran before (a loop, or a callback that runs again)"
            ),
        });
    }
    let name = callback(u.kind)?;
    let class = innermost(classes, u.span)?;
    match class
        .methods
        .iter()
        .find(|m| m.name == name && m.params.is_empty())
        .and_then(|m| m.body.as_ref())
    {
        Some(body) => Some(Related {
            span: closing_brace(text, body)?,
            label: format!("`{name}()` returns here with `{receiver}` not released"),
        }),
        None => Some(Related {
            span: Span {
                end_byte: class.span.start_byte,
                end: class.span.start,
                ..class.span
            },
            label: format!(
                "`{}` does not override `{name}()`, so `{receiver}` is not released there",
                class.name
            ),
        }),
    }
}

/// Every named class of the file, nested ones included.
fn all_classes(classes: &[Class]) -> Vec<&Class> {
    let mut out = Vec::new();
    let mut todo: Vec<&Class> = classes.iter().collect();
    while let Some(class) = todo.pop() {
        out.push(class);
        todo.extend(&class.classes);
    }
    out
}

/// The innermost class of `classes` whose declaration contains `span`.
fn innermost<'c>(classes: &[&'c Class], span: Span) -> Option<&'c Class> {
    classes
        .iter()
        .filter(|c| contains(c.span, span))
        .min_by_key(|c| c.span.end_byte - c.span.start_byte)
        .copied()
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start_byte <= inner.start_byte && inner.end_byte <= outer.end_byte
}

/// The closing brace of a braced body.
fn closing_brace(text: &str, body: &Body) -> Option<Span> {
    let end = body.span.end_byte;
    (end > 0 && text.get(end - 1..end) == Some("}")).then(|| Span {
        start_byte: end - 1,
        start: crate::ir::LineCol {
            line: body.span.end.line,
            col: body.span.end.col.saturating_sub(1),
        },
        ..body.span
    })
}

/// The one method that releases `u`'s object, for a fix.
fn the_release(u: &Unreleased) -> Option<&str> {
    match u.releasing.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Calls the releasing method on the field of `u` at the end of the lifecycle callback.
fn release_in_callback(
    language: Language,
    classes: &[&Class],
    text: &str,
    starts: &[usize],
    u: &Unreleased,
) -> Option<Fix> {
    let name = callback(u.kind)?;
    let release = the_release(u)?;
    let receiver = u.receiver.as_str();
    let class = innermost(classes, u.span)?;
    let class_text = text.get(class.span.start_byte..class.span.end_byte)?;
    if calls_on(class_text, receiver, release) > 0 {
        return None;
    }
    let unit = indent_unit(text);
    let call = match language {
        Language::Java => vec![
            format!("if ({receiver} != null) {{"),
            format!("{unit}{receiver}.{release}();"),
            "}".to_owned(),
        ],
        Language::Kotlin => {
            let field = class.fields.iter().find(|f| f.name == receiver)?;
            let nullable = field.ty.as_ref().is_some_and(|ty| {
                let written = text.get(ty.span.start_byte..ty.span.end_byte);
                let after = text.get(ty.span.end_byte..).unwrap_or_default();
                written.is_some_and(|t| t.ends_with('?')) || after.trim_start().starts_with('?')
            });
            vec![format!(
                "{receiver}{}.{release}()",
                if nullable { "?" } else { "" }
            )]
        }
    };
    let existing = class
        .methods
        .iter()
        .find(|m| m.name == name && m.params.is_empty());
    let (brace, lines) = match existing {
        Some(method) => {
            let body = method.body.as_ref()?;
            (closing_brace(text, body)?, call)
        }
        None => {
            let brace = Span {
                start_byte: class.span.end_byte.checked_sub(1)?,
                ..class.span
            };
            if text.get(brace.start_byte..class.span.end_byte) != Some("}") {
                return None;
            }
            let (head, sup) = match language {
                Language::Java => (
                    vec!["@Override".to_owned(), format!("public void {name}() {{")],
                    format!("super.{name}();"),
                ),
                Language::Kotlin => (
                    vec![format!("override fun {name}() {{")],
                    format!("super.{name}()"),
                ),
            };
            let mut lines = vec![String::new()];
            lines.extend(head);
            lines.push(format!("{unit}{sup}"));
            lines.extend(call.into_iter().map(|l| format!("{unit}{l}")));
            lines.push("}".to_owned());
            (brace, lines)
        }
    };
    let indent = line_indent(text, brace.start_byte)?;
    let inner = format!("{indent}{unit}");
    let line_start = brace.start_byte - indent.len();
    let new_text: String = lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                "\n".to_owned()
            } else {
                format!("{inner}{l}\n")
            }
        })
        .collect();
    let what = match existing {
        Some(_) => "at the end of",
        None => "in a new",
    };
    Some(Fix {
        title: format!("Release `{receiver}` {what} `{name}()`"),
        edits: vec![FixEdit {
            span: span_at(starts, line_start, line_start),
            new_text,
        }],
    })
}

/// Declares the local of `u` in a try-with-resources (Java) or reads it through `use {}`
/// (Kotlin) around the rest of its block.
fn close_with_block(ir: &SourceIr, text: &str, starts: &[usize], u: &Unreleased) -> Option<Fix> {
    if u.code == GUESSED_CODE || the_release(u)? != "close" {
        return None;
    }
    let stored = match u.kind {
        LeakKind::Exception => u.related.first()?.span,
        _ => u.span,
    };
    let receiver = u.receiver.as_str();
    let (block, index) = all_classes(&ir.classes)
        .into_iter()
        .flat_map(|c| c.methods.iter().filter_map(|m| m.body.as_ref()))
        .find_map(|body| find_local(&body.stmts, receiver, stored))?;
    let decl = &block[index];
    let StmtKind::Local(local) = &decl.kind else {
        return None;
    };
    // The statement's span may start at its declarator (Java) and leave out its `;`.
    let line_start = text
        .get(..decl.span.start_byte)?
        .rfind('\n')
        .map_or(0, |n| n + 1);
    let line = text.get(line_start..decl.span.start_byte)?;
    let indent = &line[..line.len() - line.trim_start().len()];
    let start = line_start + indent.len();
    if line.contains([',', ';', '{', '}', '(', ')', '=']) {
        return None;
    }
    let after = text.get(decl.span.end_byte..)?;
    let decl_end = match after.trim_start_matches([' ', '\t']).strip_prefix(';') {
        Some(rest) => text.len() - rest.len(),
        None => decl.span.end_byte,
    };
    let rest = &block[index + 1..];
    let end = rest
        .last()
        .map_or(decl_end, |s| s.span.end_byte)
        .max(decl_end);
    let rest_text = text.get(decl_end..end)?;
    if rest_text.contains("\"\"\"") || assigns(rest_text, receiver) {
        return None;
    }
    // The explicit release the block makes redundant: one plain statement of the rest.
    let dropped = match calls_on(rest_text, receiver, "close") {
        0 => None,
        1 => {
            let stmt = rest.iter().find(|s| is_plain_close(text, s, receiver))?;
            line_indent(text, stmt.span.start_byte)?;
            let from = text.get(..stmt.span.start_byte)?.rfind('\n')?;
            Some(from..stmt.span.end_byte)
        }
        _ => return None,
    };
    let mut kept = String::new();
    match &dropped {
        Some(range) => {
            kept.push_str(text.get(decl_end..range.start)?);
            kept.push_str(text.get(range.end..end)?);
        }
        None => kept.push_str(rest_text),
    }
    let unit = indent_unit(text);
    let declared = text.get(start..decl.span.end_byte)?;
    let head = match ir.language {
        Language::Java => format!("try ({declared}) {{"),
        Language::Kotlin => {
            let init = local.init.as_ref()?;
            if !declared.starts_with("val ") || words(&kept, "break") || words(&kept, "continue") {
                return None;
            }
            let init = text.get(init.span.start_byte..init.span.end_byte)?;
            format!("{init}.use {{ {receiver} ->")
        }
    };
    let mut body = String::new();
    for (n, line) in kept.split('\n').enumerate() {
        if n > 0 {
            body.push('\n');
            if !line.trim().is_empty() {
                body.push_str(unit);
            }
        }
        body.push_str(line);
    }
    let how = match ir.language {
        Language::Java => "a try-with-resources",
        Language::Kotlin => "`use {}`",
    };
    Some(Fix {
        title: format!("Close `{receiver}` with {how}"),
        edits: vec![FixEdit {
            span: span_at(starts, start, end),
            new_text: format!("{head}{body}\n{indent}}}"),
        }],
    })
}

/// The block holding the declaration of `name` at `stored`, and its index there.
fn find_local<'b>(block: &'b [Stmt], name: &str, stored: Span) -> Option<(&'b [Stmt], usize)> {
    for (index, stmt) in block.iter().enumerate() {
        let inner: Vec<&[Stmt]> = match &stmt.kind {
            StmtKind::Local(local) if local.name == name && contains(stored, local.name_span) => {
                return Some((block, index));
            }
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => std::iter::once(then_branch.as_slice())
                .chain(else_branch.as_deref())
                .collect(),
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::ForEach { body, .. }
            | StmtKind::Block(body) => vec![body],
            StmtKind::Switch { arms, .. } => arms.iter().map(|a| a.body.as_slice()).collect(),
            StmtKind::Try {
                body,
                catches,
                finally,
                ..
            } => std::iter::once(body.as_slice())
                .chain(catches.iter().map(|c| c.body.as_slice()))
                .chain(finally.as_deref())
                .collect(),
            StmtKind::Labeled { body, .. } => vec![std::slice::from_ref(&**body)],
            _ => Vec::new(),
        };
        if let Some(found) = inner.into_iter().find_map(|b| find_local(b, name, stored)) {
            return Some(found);
        }
    }
    None
}

/// Whether `stmt` is the plain statement `receiver.close()`.
fn is_plain_close(text: &str, stmt: &Stmt, receiver: &str) -> bool {
    text.get(stmt.span.start_byte..stmt.span.end_byte)
        .is_some_and(|t| t.trim_end_matches(';').trim() == format!("{receiver}.close()"))
}

/// How many calls of `method` on the name `receiver` `text` holds (`x.m(`, `x?.m(`,
/// `this.x.m(`).
fn calls_on(text: &str, receiver: &str, method: &str) -> usize {
    word_matches(text, method)
        .filter(|&at| text[at + method.len()..].trim_start().starts_with('('))
        .filter(|&at| {
            let before = text[..at].trim_end();
            let Some(before) = before.strip_suffix('.') else {
                return false;
            };
            let before = before.trim_end_matches(['?', '!']).trim_end();
            before.ends_with(receiver)
                && !before[..before.len() - receiver.len()]
                    .chars()
                    .next_back()
                    .is_some_and(is_word)
        })
        .count()
}

/// Whether `text` assigns the name `name` (`name = …`, not `name == …`).
fn assigns(text: &str, name: &str) -> bool {
    word_matches(text, name).any(|at| {
        let after = text[at + name.len()..].trim_start();
        after.starts_with('=') && !after.starts_with("==")
    })
}

fn words(text: &str, word: &str) -> bool {
    word_matches(text, word).next().is_some()
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Where `name` occurs in `text` as a whole word.
fn word_matches<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = usize> + 't {
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
}

/// One level of indentation in `text`: a tab if a line starts with one, else four spaces.
fn indent_unit(text: &str) -> &'static str {
    if text.lines().any(|l| l.starts_with('\t')) {
        "\t"
    } else {
        "    "
    }
}

/// The blank space before byte `at` on its line, if only blank space precedes it there.
fn line_indent(text: &str, at: usize) -> Option<&str> {
    let before = text.get(..at)?;
    let indent = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    indent.trim().is_empty().then_some(indent)
}

/// The span of bytes `start..end`.
fn span_at(starts: &[usize], start: usize, end: usize) -> Span {
    Span {
        start_byte: start,
        end_byte: end,
        start: position(starts, start),
        end: position(starts, end),
    }
}
