//! Calls that assert a condition: the code after them runs only where the condition holds.
//!
//! - JUnit's `assertTrue` and `assertFalse`, qualified by `Assert`, `Assertions` or `TestCase`, or imported.
//! - Kotlin's `check` and `require`, unqualified.
//! - Guava's `Preconditions.checkState` and `checkArgument`, qualified or imported.
//! - Each throws where the condition fails, so [`crate::cfg`] sends that path to the handlers.
//! - The condition is the one argument that is not a message.
//!   A message is a literal, a concatenation or a lambda.
//!   With two candidates (`assertTrue(message, ok)`, `message` a variable) the call asserts nothing known.
//! - Java's `assert` and Kotlin's `assert()` are not assertions here.
//!   Android runs code without `-ea`, so they check nothing there.
//!
//! # How to extend
//! - A new assertion function is a row of [`ASSERTIONS`].
//!   Give it a Java and a Kotlin fixture beside `tests/fixtures/java/checks/Assertions.java`.

use crate::ir::{BinaryOp, Call, Expr, ExprKind, Language};

/// A function that throws unless its condition is as it asserts.
struct Assertion {
    /// The called name.
    name: &'static str,
    /// The simple names of the classes it may be called through; it may always be called
    /// unqualified too (a static import, or inherited, as JUnit 3's `TestCase`).
    classes: &'static [&'static str],
    /// The languages in which an unqualified call is this function.
    unqualified_in: &'static [Language],
    /// What the condition must be for the call to return.
    holds: bool,
}

const JUNIT: &[&str] = &["Assert", "Assertions", "TestCase"];
const GUAVA: &[&str] = &["Preconditions"];
const BOTH: &[Language] = &[Language::Java, Language::Kotlin];

/// The assertion functions.
const ASSERTIONS: &[Assertion] = &[
    Assertion {
        name: "assertTrue",
        classes: JUNIT,
        unqualified_in: BOTH,
        holds: true,
    },
    Assertion {
        name: "assertFalse",
        classes: JUNIT,
        unqualified_in: BOTH,
        holds: false,
    },
    Assertion {
        name: "check",
        classes: &[],
        unqualified_in: &[Language::Kotlin],
        holds: true,
    },
    Assertion {
        name: "require",
        classes: &[],
        unqualified_in: &[Language::Kotlin],
        holds: true,
    },
    Assertion {
        name: "checkState",
        classes: GUAVA,
        unqualified_in: BOTH,
        holds: true,
    },
    Assertion {
        name: "checkArgument",
        classes: GUAVA,
        unqualified_in: BOTH,
        holds: true,
    },
];

/// What an assertion call asserts.
pub struct Asserted<'a> {
    /// The position of the condition among the arguments.
    pub index: usize,
    /// The condition.
    pub condition: &'a Expr,
    /// What the condition must be for the call to return.
    pub holds: bool,
}

/// What `call`, written in `language`, asserts, if it is an assertion with a known condition.
pub fn asserted(call: &Call, language: Language) -> Option<Asserted<'_>> {
    let assertion = ASSERTIONS.iter().find(|a| {
        a.name == call.name
            && match call.receiver.as_deref() {
                None => a.unqualified_in.contains(&language),
                Some(receiver) => last_name(receiver).is_some_and(|n| a.classes.contains(&n)),
            }
    })?;
    let mut candidates = call
        .args
        .iter()
        .enumerate()
        .filter(|(_, arg)| !is_message(arg));
    let (index, condition) = candidates.next()?;
    if candidates.next().is_some() {
        return None;
    }
    Some(Asserted {
        index,
        condition,
        holds: assertion.holds,
    })
}

/// The last name of a qualifier: `Assert` in `org.junit.Assert`.
fn last_name(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Name(name) => Some(name),
        ExprKind::Field { name, .. } => Some(name),
        _ => None,
    }
}

/// Whether `arg` can only be an assertion's message: a literal other than `true` or `false`,
/// a concatenation, or a lambda.
fn is_message(arg: &Expr) -> bool {
    matches!(
        arg.kind,
        ExprKind::Literal
            | ExprKind::Lambda { .. }
            | ExprKind::Binary {
                op: BinaryOp::Other,
                ..
            }
    )
}
