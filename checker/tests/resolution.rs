//! Data-driven resolution tests: every call whose receiver type resolves must carry a
//! `// ^^^ <receiver type>` annotation under its name in the fixture, and nothing else may.
//! The fixtures are `tests/fixtures/{java,kotlin}/Resolution.*`; each holds many small cases.

mod support;

use std::path::Path;

use checker::ir::{Block, Class, Expr, ExprKind, SourceIr, Stmt, StmtKind};
use checker::resolve::Resolution;
use support::{assert_annotations, language_of, Annotation};

/// Classes the fixtures may assume exist outside the file, as the typestate library will.
const KNOWN: &[&str] = &[
    "android.media.MediaPlayer",
    "android.media.MediaRecorder",
    "android.os.AsyncTask",
    "android.app.Activity",
];

#[track_caller]
fn check(path: &Path) {
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let ir = checker::lang::lower(language_of(path), &text);
    assert!(
        ir.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        ir.syntax_errors
    );
    let res = checker::resolve::resolve(&ir, &KNOWN);
    let actual = calls(&ir)
        .into_iter()
        .filter_map(|call| {
            let ExprKind::Call(c) = &call.kind else {
                return None;
            };
            Some(Annotation {
                line: c.name_span.start.line,
                cols: (c.name_span.start.col, c.name_span.end.col),
                text: receiver_text(&res, call)?,
            })
        })
        .collect();
    assert_annotations(path, &text, actual);
}

#[test]
fn java_resolution() {
    check(Path::new("tests/fixtures/java/Resolution.java"));
}

#[test]
fn kotlin_resolution() {
    check(Path::new("tests/fixtures/kotlin/Resolution.kt"));
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
