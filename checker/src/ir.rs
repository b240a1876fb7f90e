//! The language-neutral intermediate representation that Java and Kotlin files are lowered into.
//!
//! The IR keeps only what the typestate analysis needs.
//! That is declarations with their declared types, and statement trees.
//! The statements are local declarations, assignments, calls, branches, loops, `try` and jumps.
//! Everything else (arithmetic, string templates, array accesses) survives as
//! [`ExprKind::Other`], so the calls nested inside it are not lost.
//! Every node carries a [`Span`], and every expression a file-unique [`ExprId`].
//! Later passes use the id as a key for side tables such as resolved types.

use std::fmt;

/// A position in a source file: 1-based line, and 1-based column counted in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in bytes from the start of the line.
    pub col: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Where each line of `text` starts, in bytes; lines end at `\n`, `\r\n` and a lone `\r`, as
/// Java (JLS 3.4) and Kotlin end them.
pub fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (at, &byte) in bytes.iter().enumerate() {
        let ends_line = byte == b'\n' || (byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'));
        if ends_line {
            starts.push(at + 1);
        }
    }
    starts
}

/// Whether `text` ends a line with a lone `\r` (neither `\n` nor `\r\n`), where tree-sitter,
/// which counts `\n` only, gives other rows than [`line_starts`].
pub fn has_lone_cr(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .any(|(at, &byte)| byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'))
}

/// The line and column of byte `offset`, given the [`line_starts`] of its text.
pub fn position(starts: &[usize], offset: usize) -> LineCol {
    let line = starts.partition_point(|&start| start <= offset).max(1);
    let start = starts[line - 1];
    LineCol {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        col: u32::try_from(offset - start + 1).unwrap_or(u32::MAX),
    }
}

/// A range of source text: byte offsets plus the line and column of both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start_byte: usize,
    /// Byte offset one past the last byte.
    pub end_byte: usize,
    /// Position of the first byte.
    pub start: LineCol,
    /// Position one past the last byte.
    pub end: LineCol,
}

impl Span {
    /// Whether `other` lies within this span.
    pub fn contains(&self, other: Span) -> bool {
        self.start_byte <= other.start_byte && other.end_byte <= self.end_byte
    }
}

/// The source language a file was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// Java (`.java`).
    Java,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
}

/// One lowered source file.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceIr {
    /// The language the file was parsed as.
    pub language: Language,
    /// The package declaration, dotted, if any.
    pub package: Option<String>,
    /// The imports, in source order.
    pub imports: Vec<Import>,
    /// The Kotlin type aliases declared at the top of the file, in source order.
    pub type_aliases: Vec<TypeAlias>,
    /// The top-level classes (Kotlin top-level functions and properties are gathered in one
    /// class of kind [`ClassKind::TopLevel`]).
    pub classes: Vec<Class>,
    /// Annotations on the file itself (Kotlin `@file:Suppress(...)`).
    pub file_annotations: Vec<Annotation>,
    /// Comments that contain the suppression marker `typestar:ignore`.
    pub ignore_comments: Vec<Span>,
    /// Regions the parser could not make sense of; they were skipped.
    pub syntax_errors: Vec<Span>,
    /// The number of expressions; every [`ExprId`] is below it.
    pub n_exprs: u32,
    /// The first place nested deeper than lowering follows; what lies deeper was skipped.
    pub too_deep: Option<TooDeep>,
}

/// A place nested deeper than the checker follows, so the file was not checked fully.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    /// What nests.
    pub nesting: Nesting,
    /// The first node past the limit.
    pub span: Span,
}

/// What nests too deeply (see [`TooDeep`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    /// Statements and expressions.
    Code,
    /// Named classes declared inside classes.
    Classes,
    /// Kotlin strings inside string templates (the grammar's scanner aborts at 512).
    StringTemplates,
}

impl Nesting {
    /// How many levels are followed.
    pub fn limit(self) -> u32 {
        match self {
            Nesting::Code => 100,
            Nesting::Classes => 100,
            Nesting::StringTemplates => 128,
        }
    }

    /// What nests, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Nesting::Code => "statements and expressions",
            Nesting::Classes => "classes",
            Nesting::StringTemplates => "strings in string templates",
        }
    }
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} nested deeper than {} levels; the file was not checked fully",
            self.span.start,
            self.nesting.describe(),
            self.nesting.limit()
        )
    }
}

/// An import declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The imported name, dotted, without the trailing `.*`.
    pub path: String,
    /// Whether the import brings in every member of `path` (`import a.b.*`).
    pub is_wildcard: bool,
    /// Whether this is a Java `import static`.
    pub is_static: bool,
    /// The Kotlin alias (`import a.B as C`).
    pub alias: Option<String>,
    /// Where the import is.
    pub span: Span,
}

/// A Kotlin `typealias Name = Type`: the name stands for the type wherever it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeAlias {
    /// The alias, as declared.
    pub name: String,
    /// The type it stands for, without type arguments.
    pub target: TypeRef,
    /// Where the declaration is.
    pub span: Span,
}

/// A reference to a type as written in the source, without type arguments or nullability.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRef {
    /// The dotted name as written (`MediaPlayer`, `android.media.MediaPlayer`,
    /// `MediaPlayer.OnPreparedListener`); arrays keep their `[]`.
    pub name: String,
    /// The last type argument's name, without its own arguments (`Sample` of
    /// `Map<String, Sample>`): the elements of a collection.
    /// Boxed, a thin pointer: most types have none (see the `size` test).
    pub element: Option<Box<String>>,
    /// Where the type is written.
    pub span: Span,
}

impl TypeRef {
    /// The name without its qualifier (`IOException` of `java.io.IOException`).
    pub fn simple_name(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }

    /// A type written without type arguments.
    pub fn named(name: String, span: Span) -> TypeRef {
        TypeRef {
            name,
            element: None,
            span,
        }
    }
}

/// An annotation with the string literals among its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The annotation name as written, without `@`.
    pub name: String,
    /// The string literal arguments (`@SuppressWarnings({"a", "b"})` gives `a` and `b`).
    pub string_args: Vec<String>,
    /// Where the annotation is.
    pub span: Span,
}

/// Modifiers that matter to the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifiers {
    /// `static` in Java; members of objects and companion objects in Kotlin.
    pub is_static: bool,
    /// `private`.
    pub is_private: bool,
    /// Visible outside the project: Java `public` or `protected`; in Kotlin, anything but
    /// `private` and `internal`.
    pub is_exported: bool,
    /// `abstract` (and interface methods without a body).
    pub is_abstract: bool,
    /// Kotlin `override` or Java `@Override`.
    pub is_override: bool,
    /// Cannot be overridden (a method) or extended (a class): Java `final`; in Kotlin, `final`,
    /// or none of `open`, `abstract`, `sealed` and `override` (Kotlin's default), outside
    /// interfaces.
    pub is_final: bool,
    /// A Kotlin `inline` function with no `crossinline` or `noinline` parameter: the lambdas
    /// it is given run in place, before the call returns.
    pub runs_lambdas_in_place: bool,
}

/// What kind of type declaration a [`Class`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    /// A class.
    Class,
    /// An interface.
    Interface,
    /// An enum.
    Enum,
    /// A Java record.
    Record,
    /// An annotation type.
    Annotation,
    /// A Kotlin `object` declaration.
    Object,
    /// A Kotlin `companion object`.
    Companion,
    /// An anonymous class: Java `new X() { … }` or Kotlin `object : X { … }`.
    Anonymous,
    /// The Kotlin top-level functions and properties of a file.
    TopLevel,
}

/// A type declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    /// The simple name; anonymous classes are named `<anonymous>` and the Kotlin top level
    /// `<top-level>`.
    pub name: String,
    /// What kind of declaration it is.
    pub kind: ClassKind,
    /// The superclass, if written (for anonymous classes: the named supertype).
    pub superclass: Option<TypeRef>,
    /// The implemented interfaces (in Kotlin: every supertype written without a constructor
    /// call).
    pub interfaces: Vec<TypeRef>,
    /// The annotations on the declaration.
    pub annotations: Vec<Annotation>,
    /// The modifiers of the declaration.
    pub modifiers: Modifiers,
    /// Fields, and Kotlin properties (including those declared in a primary constructor).
    pub fields: Vec<Field>,
    /// Methods and constructors.
    pub methods: Vec<Method>,
    /// Instance and static initializer blocks, Kotlin `init { … }` blocks.
    pub initializers: Vec<Body>,
    /// Nested and inner classes, including companion objects.
    pub classes: Vec<Class>,
    /// Where the declaration is.
    pub span: Span,
}

/// A field or a Kotlin property.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field name.
    pub name: String,
    /// The declared type, if written.
    pub ty: Option<TypeRef>,
    /// The initializer, if any.
    pub init: Option<Expr>,
    /// The Kotlin delegate (`by lazy { … }`), if any.
    pub delegate: Option<Expr>,
    /// The Kotlin custom getter (`val player get() = mPlayer`), if any: reading the property
    /// runs it, so the property stores nothing itself.
    pub getter: Option<Body>,
    /// The annotations on the field.
    pub annotations: Vec<Annotation>,
    /// The modifiers of the field.
    pub modifiers: Modifiers,
    /// Where the declaration is.
    pub span: Span,
}

/// Whether a [`Method`] is a plain method or a constructor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MethodKind {
    /// A method or a Kotlin function.
    #[default]
    Method,
    /// A constructor.
    Constructor,
}

/// A method, constructor or Kotlin function; the default is an empty method with no name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Method {
    /// The method name (`<init>` for constructors).
    pub name: String,
    /// Method or constructor.
    pub kind: MethodKind,
    /// The declared return type, if written.
    pub return_type: Option<TypeRef>,
    /// The annotations on the method.
    pub annotations: Vec<Annotation>,
    /// The modifiers of the method.
    pub modifiers: Modifiers,
    /// The parameters.
    pub params: Vec<Param>,
    /// The body; `None` for abstract and native methods.
    pub body: Option<Body>,
    /// Where the declaration is.
    pub span: Span,
    /// The expression ids its lowering handed out (in order, as [`crate::lang`] numbers the
    /// whole file), so that the incremental engine can lower it again alone.
    pub ids: std::ops::Range<u32>,
}

/// A parameter of a method, lambda or catch clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The parameter name.
    pub name: String,
    /// The declared type, if written.
    pub ty: Option<TypeRef>,
    /// Where the parameter is.
    pub span: Span,
}

/// Code that runs as a unit: a method body, a lambda body, an initializer block.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// The statements.
    pub stmts: Block,
    /// Where the body is.
    pub span: Span,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What the statement does.
    pub kind: StmtKind,
    /// Where the statement is.
    pub span: Span,
}

/// The kinds of statements.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// A local variable declaration.
    Local(Local),
    /// An expression evaluated for its effect (calls, assignments).
    Expr(Expr),
    /// `if (cond) then else otherwise`.
    If {
        /// The condition.
        cond: Expr,
        /// The statements run when the condition holds.
        then_branch: Block,
        /// The statements run otherwise, if written.
        else_branch: Option<Block>,
    },
    /// `while (cond) body`.
    While {
        /// The loop condition, tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Block,
    },
    /// `do body while (cond)`.
    DoWhile {
        /// The loop body, run at least once.
        body: Block,
        /// The loop condition, tested after each iteration.
        cond: Expr,
    },
    /// The classic Java `for (init; cond; update) body`.
    For {
        /// The initialisers.
        init: Block,
        /// The condition; `None` loops until a jump leaves.
        cond: Option<Expr>,
        /// The update expressions.
        update: Vec<Expr>,
        /// The loop body.
        body: Block,
    },
    /// `for (x : iterable)` in Java and `for (x in iterable)` in Kotlin.
    ForEach {
        /// The loop variable.
        var: Local,
        /// The iterated expression.
        iterable: Expr,
        /// The loop body.
        body: Block,
    },
    /// Java `switch` and Kotlin `when`.
    Switch {
        /// The scrutinee; `None` for a Kotlin `when` without subject.
        scrutinee: Option<Expr>,
        /// The arms in source order.
        arms: Vec<SwitchArm>,
        /// Whether control falls from one arm into the next (Java `case x:` groups).
        fallthrough: bool,
    },
    /// `try` with optional resources, catch clauses and finally block.
    Try {
        /// The try-with-resources declarations, closed in reverse order after the body.
        resources: Block,
        /// The protected statements.
        body: Block,
        /// The catch clauses.
        catches: Vec<Catch>,
        /// The finally block, if any.
        finally: Option<Block>,
    },
    /// `return`, with a Kotlin label (`return@let`) if written.
    Return {
        /// The returned value.
        value: Option<Expr>,
        /// The label of the lambda returned from.
        label: Option<String>,
    },
    /// `break`, with a label if written.
    Break(Option<String>),
    /// `continue`, with a label if written.
    Continue(Option<String>),
    /// `throw value`.
    Throw(Expr),
    /// A nested block (also `synchronized` bodies and Java labeled blocks).
    Block(Block),
    /// A labeled statement (`outer: for …`, `loop@ for …`).
    Labeled {
        /// The label, without `:` or `@`.
        label: String,
        /// The labeled statement.
        body: Box<Stmt>,
    },
    /// A local class declaration.
    LocalClass(Box<Class>),
    /// A Kotlin local function.
    LocalFunction(Box<Method>),
}

/// A local variable declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Local {
    /// The variable name.
    pub name: String,
    /// The declared type; `None` for Java `var` and Kotlin declarations without a type.
    pub ty: Option<TypeRef>,
    /// The initializer, if any.
    pub init: Option<Expr>,
    /// Where the name is.
    pub name_span: Span,
}

/// One arm of a `switch` or `when`.
#[derive(Debug, Clone, PartialEq)]
pub struct SwitchArm {
    /// The case labels (patterns, constants, `when` conditions).
    pub labels: Vec<Expr>,
    /// The Kotlin guard (`is Int if x > 0 ->`) or Java `when` guard.
    pub guard: Option<Expr>,
    /// Whether this is the `default` / `else` arm.
    pub is_default: bool,
    /// The statements of the arm.
    pub body: Block,
    /// Where the arm is.
    pub span: Span,
}

/// A catch clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Catch {
    /// The caught exception variable.
    pub param: Param,
    /// The caught types (several for a Java multi-catch).
    pub types: Vec<TypeRef>,
    /// The handler.
    pub body: Block,
    /// Where the clause is.
    pub span: Span,
}

/// A file-unique identity of an expression, dense from 0 to [`SourceIr::n_exprs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExprId(pub u32);

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The identity of the expression.
    pub id: ExprId,
    /// What the expression is.
    pub kind: ExprKind,
    /// Where the expression is.
    pub span: Span,
}

/// The kinds of expressions.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A simple name: a local, parameter, field, or the first part of a qualified name.
    Name(String),
    /// `this`, with a qualifier (`Outer.this`, `this@Outer`) if written.
    This(Option<String>),
    /// `super`.
    Super,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal, negated or not (`0`, `-1`).
    Int(i64),
    /// Any other literal.
    Literal,
    /// `receiver.name` without a call: a field access or part of a qualified name.
    Field {
        /// The expression before the dot.
        receiver: Box<Expr>,
        /// The name after the dot.
        name: String,
        /// Where the name after the dot is.
        name_span: Span,
    },
    /// A method call (also Kotlin constructor calls `X(…)`, which look the same).
    Call(Call),
    /// A Java instance creation `new X(…)`, possibly with an anonymous class body, or a
    /// Kotlin object expression `object : X { … }`.
    New {
        /// The instantiated type (boxed here and below, so that types do not widen every
        /// expression: see the `size` test).
        ty: Box<TypeRef>,
        /// The constructor arguments.
        args: Vec<Expr>,
        /// The anonymous class body, if any.
        body: Option<Box<Class>>,
    },
    /// A lambda (a Kotlin lambda without explicit parameters has none: its implicit `it`
    /// is the resolver's business).
    Lambda {
        /// The parameters.
        params: Vec<Param>,
        /// The body.
        body: Box<Body>,
    },
    /// A method reference `receiver::name`.
    MethodRef {
        /// The expression or type before `::`.
        receiver: Box<Expr>,
        /// The referenced method (`new` for constructor references).
        name: String,
    },
    /// A binary operation whose operator matters to the analysis.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        lhs: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
    },
    /// Logical negation `!operand`.
    Not(Box<Expr>),
    /// An assignment `target = value` (compound assignments are [`ExprKind::Other`]).
    Assign {
        /// The assigned place.
        target: Box<Expr>,
        /// The assigned value.
        value: Box<Expr>,
    },
    /// A cast `(T) expr` or `expr as T`.
    Cast {
        /// The cast expression.
        expr: Box<Expr>,
        /// The target type.
        ty: Box<TypeRef>,
    },
    /// A type test `expr instanceof T` or `expr is T` (negated for `!is`).
    TypeTest {
        /// The tested expression.
        expr: Box<Expr>,
        /// The tested type.
        ty: Box<TypeRef>,
        /// Whether the test is negated (`!is`).
        negated: bool,
    },
    /// Control flow in expression position: a Java ternary or switch expression, Kotlin
    /// `if`/`when`/`try` as values, and Kotlin `return`/`throw`/`break` used as expressions.
    /// The value is that of the last expression statement on the path taken.
    Control(Box<Stmt>),
    /// Any other expression; its sub-expressions are evaluated left to right.
    Other(Vec<Expr>),
}

/// The binary operators the analysis distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `==` (and `===`).
    Eq,
    /// `!=` (and `!==`).
    Ne,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// Kotlin `?:`.
    Elvis,
    /// Every other operator.
    Other,
}

impl BinaryOp {
    /// Whether it compares its operands: `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// A method call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The explicit receiver; `None` for an unqualified call (implicit `this`, a local
    /// function, a Kotlin constructor call or a scope function such as `with`).
    pub receiver: Option<Box<Expr>>,
    /// The called name.
    pub name: String,
    /// Where the called name is.
    pub name_span: Span,
    /// The arguments, Kotlin trailing lambdas last.
    pub args: Vec<Expr>,
    /// Whether the call is a Kotlin safe call `receiver?.name(…)`.
    pub is_safe: bool,
}

impl Expr {
    /// If this expression compares something with `null`, returns that something and whether
    /// the comparison is `== null` (`true`) or `!= null` (`false`).
    pub fn null_check(&self) -> Option<(&Expr, bool)> {
        let ExprKind::Binary { op, lhs, rhs } = &self.kind else {
            return None;
        };
        let is_eq = match op {
            BinaryOp::Eq => true,
            BinaryOp::Ne => false,
            _ => return None,
        };
        match (&lhs.kind, &rhs.kind) {
            (_, ExprKind::Null) => Some((lhs, is_eq)),
            (ExprKind::Null, _) => Some((rhs, is_eq)),
            _ => None,
        }
    }

    /// The dotted name this expression spells if it is a chain of names (`a.b.C`).
    pub fn dotted_name(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Name(name) => Some(name.clone()),
            ExprKind::Field { receiver, name, .. } => {
                Some(format!("{}.{}", receiver.dotted_name()?, name))
            }
            _ => None,
        }
    }
}

impl Stmt {
    /// The expressions a control expression ([`ExprKind::Control`]) of this statement takes
    /// its value from: the last expression statement of each branch of an `if` with an
    /// `else`, of a `when`/`switch` with an `else`/`default` arm, or of a Kotlin `try` and
    /// each of its `catch` blocks; a branch that leaves by a jump (`return`, `throw`) gives
    /// none. `None` when some branch gives no value.
    pub fn branch_values(&self) -> Option<Vec<&Expr>> {
        let branches: Vec<&Block> = match &self.kind {
            StmtKind::Try { body, catches, .. } => std::iter::once(body)
                .chain(catches.iter().map(|c| &c.body))
                .collect(),
            StmtKind::If {
                then_branch,
                else_branch: Some(otherwise),
                ..
            } => vec![then_branch, otherwise],
            StmtKind::Switch {
                arms,
                fallthrough: false,
                ..
            } if arms.iter().any(|arm| arm.is_default) => arms.iter().map(|a| &a.body).collect(),
            _ => return None,
        };
        let mut values = Vec::new();
        for branch in branches {
            match branch.last().map(|stmt| &stmt.kind) {
                Some(StmtKind::Expr(Expr {
                    kind: ExprKind::Control(jump),
                    ..
                })) if is_jump(&jump.kind) => {}
                Some(StmtKind::Expr(value)) => values.push(value),
                Some(kind) if is_jump(kind) => {}
                _ => return None,
            }
        }
        Some(values)
    }
}

/// Whether the statement always jumps away (`return`, `throw`, `break`, `continue`).
fn is_jump(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::Return { .. } | StmtKind::Throw(_) | StmtKind::Break(_) | StmtKind::Continue(_)
    )
}

impl Annotation {
    /// Whether this annotation suppresses the given warning name
    /// (`@SuppressWarnings("name")` or `@Suppress("name")`).
    pub fn suppresses(&self, warning: &str) -> bool {
        let simple = self.name.rsplit('.').next().unwrap_or(&self.name);
        matches!(simple, "SuppressWarnings" | "Suppress")
            && self.string_args.iter().any(|arg| arg == warning)
    }
}

#[cfg(test)]
mod size {
    /// Every lowered expression pays for the widest kind, and the project check keeps the
    /// expressions of many files: a larger `Expr` raises its peak memory (`bench/checker`,
    /// whose target is 200 MB).
    #[test]
    fn an_expression_stays_small() {
        assert!(std::mem::size_of::<super::Expr>() <= 136);
    }
}
