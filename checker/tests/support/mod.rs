//! Shared test helpers: reading fixtures, parsing `// ^^^ text` annotations, and walking the
//! IR to list every call with its resolved receiver.

use std::fmt::Write as _;
use std::path::Path;

use checker::ir::{Block, Class, Expr, ExprKind, Language, SourceIr, Stmt, StmtKind};
use checker::resolve::Resolution;

/// One expected or actual finding: a line, a byte column range on it, and a message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Annotation {
    pub line: u32,
    pub cols: (u32, u32),
    pub text: String,
}

/// The language of a fixture, from its extension.
pub fn language_of(path: &Path) -> Language {
    match path.extension().and_then(|e| e.to_str()) {
        Some("kt" | "kts") => Language::Kotlin,
        _ => Language::Java,
    }
}

/// Reads the `// ^^^ text` annotations of a fixture.
/// The carets mark 1-based byte columns of the nearest line above that is not an annotation.
pub fn annotations(text: &str) -> Vec<Annotation> {
    let mut out = Vec::new();
    let mut target_line = 0;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let carets = trimmed.strip_prefix("//").map(str::trim_start);
        match carets {
            Some(rest) if rest.starts_with('^') => {
                let start = line.find('^').unwrap_or(0);
                let len = rest.chars().take_while(|c| *c == '^').count();
                let message = rest[len..].trim().to_owned();
                out.push(Annotation {
                    line: target_line,
                    cols: (start as u32 + 1, (start + len) as u32 + 1),
                    text: message,
                });
            }
            _ => target_line = index as u32 + 1,
        }
    }
    out.sort();
    out
}

/// Compares actual findings with the annotations of `text`, with a readable failure.
#[track_caller]
pub fn assert_annotations(path: &Path, text: &str, mut actual: Vec<Annotation>) {
    actual.sort();
    let expected = annotations(text);
    if expected != actual {
        let render = |items: &[Annotation]| {
            items.iter().fold(String::new(), |mut out, a| {
                let _ = writeln!(out, "  {}:{}-{}: {}", a.line, a.cols.0, a.cols.1, a.text);
                out
            })
        };
        panic!(
            "{}: annotations differ\nexpected:\n{}actual:\n{}",
            path.display(),
            render(&expected),
            render(&actual)
        );
    }
}

/// Every call expression in the file, in source order.
pub fn calls(ir: &SourceIr) -> Vec<&Expr> {
    let mut out = Vec::new();
    for class in &ir.classes {
        class_calls(class, &mut out);
    }
    out.sort_by_key(|e| (e.span.start_byte, e.span.end_byte));
    out
}

fn class_calls<'a>(class: &'a Class, out: &mut Vec<&'a Expr>) {
    for field in &class.fields {
        field
            .init
            .iter()
            .chain(&field.delegate)
            .for_each(|e| expr_calls(e, out));
    }
    for body in class
        .initializers
        .iter()
        .chain(class.methods.iter().filter_map(|m| m.body.as_ref()))
    {
        block_calls(&body.stmts, out);
    }
    for nested in &class.classes {
        class_calls(nested, out);
    }
}

fn block_calls<'a>(block: &'a Block, out: &mut Vec<&'a Expr>) {
    for stmt in block {
        stmt_calls(stmt, out);
    }
}

fn stmt_calls<'a>(stmt: &'a Stmt, out: &mut Vec<&'a Expr>) {
    match &stmt.kind {
        StmtKind::Local(local) => local.init.iter().for_each(|e| expr_calls(e, out)),
        StmtKind::Expr(e) | StmtKind::Throw(e) => expr_calls(e, out),
        StmtKind::If {
            cond,
            then_branch,
            else_branch,
        } => {
            expr_calls(cond, out);
            block_calls(then_branch, out);
            else_branch.iter().for_each(|b| block_calls(b, out));
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            expr_calls(cond, out);
            block_calls(body, out);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            block_calls(init, out);
            cond.iter().chain(update).for_each(|e| expr_calls(e, out));
            block_calls(body, out);
        }
        StmtKind::ForEach { iterable, body, .. } => {
            expr_calls(iterable, out);
            block_calls(body, out);
        }
        StmtKind::Switch {
            scrutinee, arms, ..
        } => {
            scrutinee.iter().for_each(|e| expr_calls(e, out));
            for arm in arms {
                arm.labels
                    .iter()
                    .chain(&arm.guard)
                    .for_each(|e| expr_calls(e, out));
                block_calls(&arm.body, out);
            }
        }
        StmtKind::Try {
            resources,
            body,
            catches,
            finally,
        } => {
            block_calls(resources, out);
            block_calls(body, out);
            catches.iter().for_each(|c| block_calls(&c.body, out));
            finally.iter().for_each(|b| block_calls(b, out));
        }
        StmtKind::Return { value, .. } => value.iter().for_each(|e| expr_calls(e, out)),
        StmtKind::Break(_) | StmtKind::Continue(_) => {}
        StmtKind::Block(block) => block_calls(block, out),
        StmtKind::Labeled { body, .. } => stmt_calls(body, out),
        StmtKind::LocalClass(class) => class_calls(class, out),
        StmtKind::LocalFunction(method) => {
            method.body.iter().for_each(|b| block_calls(&b.stmts, out));
        }
    }
}

fn expr_calls<'a>(expr: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &expr.kind {
        ExprKind::Call(call) => {
            out.push(expr);
            call.receiver.iter().for_each(|r| expr_calls(r, out));
            call.args.iter().for_each(|a| expr_calls(a, out));
        }
        ExprKind::Field { receiver, .. } | ExprKind::MethodRef { receiver, .. } => {
            expr_calls(receiver, out)
        }
        ExprKind::New { args, body, .. } => {
            args.iter().for_each(|a| expr_calls(a, out));
            body.iter().for_each(|c| class_calls(c, out));
        }
        ExprKind::Lambda { body, .. } => block_calls(&body.stmts, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            expr_calls(lhs, out);
            expr_calls(rhs, out);
        }
        ExprKind::Assign { target, value } => {
            expr_calls(target, out);
            expr_calls(value, out);
        }
        ExprKind::Not(e) | ExprKind::Cast { expr: e, .. } | ExprKind::TypeTest { expr: e, .. } => {
            expr_calls(e, out)
        }
        ExprKind::Control(stmt) => stmt_calls(stmt, out),
        ExprKind::Other(parts) => parts.iter().for_each(|p| expr_calls(p, out)),
        ExprKind::Name(_)
        | ExprKind::This(_)
        | ExprKind::Super
        | ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Literal => {}
    }
}

/// The receiver of a call as the fixtures spell it: `static X` for class receivers.
pub fn receiver_text(res: &Resolution, call: &Expr) -> Option<String> {
    let ty = res.receiver_of(call.id)?;
    Some(if ty.is_class_ref {
        format!("static {}", ty.fqn)
    } else {
        ty.fqn.clone()
    })
}
