//! Data-driven resolution tests over `tests/fixtures/{java,kotlin}/Resolution.*`, each with many small cases.
//! Every call whose receiver type resolves carries a `// ^^^ <receiver type>` annotation under its name.
//! Every Kotlin property read that is no declared local or field carries a `// ^^^ property <receiver type>` one.
//! Nothing else may carry one.
//! They live in the crate because they walk the IR with the crate's own `Visitor`.

use std::path::Path;

use crate::support::{assert_annotations, language_of, Annotation};
use checker::ir::{Class, Expr, ExprKind, Method, SourceIr};
use checker::resolve::Resolution;
use checker::visit::{walk_expr, Visitor};

/// Classes the fixtures may assume exist outside the file, as the typestate library will.
const KNOWN: &[&str] = &[
    "android.media.MediaPlayer",
    "android.media.MediaRecorder",
    "android.os.AsyncTask",
    "android.app.Activity",
    "kotlin.collections.MutableMap",
    "kotlin.collections.List",
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
            let (name_span, text) = match &call.kind {
                ExprKind::Call(c) => (c.name_span, receiver_text(&res, call)?),
                ExprKind::Field { name_span, .. } => (*name_span, property_text(&res, call)?),
                _ => (call.span, property_text(&res, call)?),
            };
            Some(Annotation {
                line: name_span.start.line,
                cols: (name_span.start.col, name_span.end.col),
                text,
            })
        })
        .collect();
    assert_annotations(path, &text, actual);
}

#[test]
fn java_resolution() {
    check(Path::new("tests/fixtures/java/Resolution.java"));
}

/// The known types, and the project's `a.Paths`, which declares `path()`.
struct WithPaths;

impl checker::resolve::KnownTypes for WithPaths {
    fn is_known(&self, fqn: &str) -> bool {
        KNOWN.contains(&fqn)
    }

    fn returns(&self, class: &str, method: &str) -> Option<String> {
        (class == "a.Paths" && method == "path").then(|| "java.lang.String".to_owned())
    }
}

#[test]
fn a_wildcard_static_import_brings_what_the_project_declares() {
    let text = "package b;\nimport static a.Paths.*;\nimport static a.Other.*;\n\
                class Picker extends android.app.Activity {\n  \
                String f() { return path(); }\n  void g() { finish(); }\n}\n";
    let ir = checker::lang::lower(checker::ir::Language::Java, text);
    let res = checker::resolve::resolve(&ir, &WithPaths);
    let receivers: Vec<Option<String>> = calls(&ir)
        .into_iter()
        .map(|call| receiver_text(&res, call))
        .collect();
    // `finish()` is inherited, not imported: it stays on the activity.
    assert_eq!(
        receivers,
        vec![
            Some("static a.Paths".to_owned()),
            Some("b.Picker".to_owned())
        ]
    );
}

#[test]
fn kotlin_resolution() {
    check(Path::new("tests/fixtures/kotlin/Resolution.kt"));
}

/// Every call, field access and name expression in the file, in source order.
fn calls(ir: &SourceIr) -> Vec<&Expr> {
    let mut calls = Calls(Vec::new());
    for class in &ir.classes {
        calls.class(class);
    }
    let mut out = calls.0;
    out.sort_by_key(|e| (e.span.start_byte, e.span.end_byte));
    out
}

/// Collects the call, field access and name expressions of what it visits.
struct Calls<'a>(Vec<&'a Expr>);

impl<'a> Calls<'a> {
    fn class(&mut self, class: &'a Class) {
        for field in &class.fields {
            field
                .init
                .iter()
                .chain(&field.delegate)
                .for_each(|e| self.visit_expr(e));
        }
        for body in class
            .initializers
            .iter()
            .chain(class.methods.iter().filter_map(|m| m.body.as_ref()))
        {
            self.visit_block(&body.stmts);
        }
        for nested in &class.classes {
            self.class(nested);
        }
    }
}

impl<'a> Visitor<'a> for Calls<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if matches!(
            expr.kind,
            ExprKind::Call(_) | ExprKind::Field { .. } | ExprKind::Name(_)
        ) {
            self.0.push(expr);
        }
        walk_expr(self, expr);
    }

    fn visit_anonymous_class(&mut self, class: &'a Class) {
        self.class(class);
    }

    fn visit_local_class(&mut self, class: &'a Class) {
        self.class(class);
    }

    fn visit_local_function(&mut self, method: &'a Method) {
        method.body.iter().for_each(|b| self.visit_block(&b.stmts));
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

/// The annotation of a Kotlin property read that is no declared local or field: `property`
/// and its receiver's type.
fn property_text(res: &Resolution, read: &Expr) -> Option<String> {
    let ty = res.property_receiver(read.id)?;
    Some(format!("property {}", ty.fqn))
}
