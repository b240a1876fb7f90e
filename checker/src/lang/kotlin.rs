//! Lowering of tree-sitter-kotlin-sg syntax trees (the fwcd node shape) into the IR.
//!
//! Kotlin needs a few translations the Java side does not:
//! - `if`, `when`, `try` and jumps are expressions;
//! - loop labels are sibling nodes of the loop;
//! - trailing lambdas live in the call suffix;
//! - the grammar reads some one-line object expressions as an `object_literal` followed by a trailing lambda, lowered as the object body it really is.

use tree_sitter::Node;

use super::{child_of_kind, children, has_token, LowerCx};
use crate::ir::{
    Annotation, BinaryOp, Block, Body, Call, Catch, Class, ClassKind, Expr, ExprKind, Field,
    Import, Language, Local, Method, MethodKind, Modifiers, Nesting, Param, SourceIr, Span, Stmt,
    StmtKind, SwitchArm, TypeAlias, TypeRef,
};

/// Lowers a `source_file` node.
pub(super) fn lower_file(cx: &mut LowerCx<'_>, root: Node<'_>) -> SourceIr {
    let mut ir = SourceIr::empty(Language::Kotlin);
    let mut top = new_class(cx, root, "<top-level>", ClassKind::TopLevel);
    let mut script = Vec::new();
    for node in children(root) {
        match node.kind() {
            "package_header" => {
                ir.package = child_of_kind(node, "identifier").map(|id| dotted(cx, id));
            }
            "import_list" => {
                for header in children(node) {
                    ir.imports.push(lower_import(cx, header));
                }
            }
            "import_header" => ir.imports.push(lower_import(cx, node)),
            "type_alias" => ir.type_aliases.extend(lower_type_alias(cx, node)),
            "file_annotation" => {
                ir.file_annotations
                    .extend(children(node).map(|it| lower_annotation(cx, it)));
            }
            _ => {
                if !lower_member(cx, node, &mut top) {
                    lower_stmt(cx, node, &mut script);
                }
            }
        }
    }
    let classes = std::mem::take(&mut top.classes);
    if !script.is_empty() {
        top.initializers.push(Body {
            stmts: script,
            span: cx.span(root),
        });
    }
    if !(top.fields.is_empty() && top.methods.is_empty() && top.initializers.is_empty()) {
        ir.classes.push(top);
    }
    ir.classes.extend(classes);
    ir
}

/// The dotted text of an `identifier` made of `simple_identifier`s.
fn dotted(cx: &LowerCx<'_>, node: Node<'_>) -> String {
    children(node)
        .map(|part| cx.text(part))
        .collect::<Vec<_>>()
        .join(".")
}

fn lower_import(cx: &mut LowerCx<'_>, node: Node<'_>) -> Import {
    Import {
        path: child_of_kind(node, "identifier")
            .map(|id| dotted(cx, id))
            .unwrap_or_default(),
        is_wildcard: child_of_kind(node, "wildcard_import").is_some(),
        is_static: false,
        alias: child_of_kind(node, "import_alias")
            .and_then(|alias| children(alias).next())
            .map(|name| cx.text(name).to_owned()),
        span: cx.span(node),
    }
}

/// `typealias Name<T> = Type`; `None` when the parser left out a part.
fn lower_type_alias(cx: &LowerCx<'_>, node: Node<'_>) -> Option<TypeAlias> {
    let name = child_of_kind(node, "type_identifier")?;
    let target = children(node)
        .skip_while(|kid| kid.id() != name.id())
        .skip(1)
        .find(|kid| is_type_node(*kid))?;
    Some(TypeAlias {
        name: cx.text(name).to_owned(),
        target: lower_type(cx, target),
        span: cx.span(node),
    })
}

fn new_class(cx: &LowerCx<'_>, node: Node<'_>, name: &str, kind: ClassKind) -> Class {
    Class {
        name: name.to_owned(),
        kind,
        superclass: None,
        interfaces: Vec::new(),
        annotations: Vec::new(),
        modifiers: Modifiers::default(),
        fields: Vec::new(),
        methods: Vec::new(),
        initializers: Vec::new(),
        classes: Vec::new(),
        span: cx.span(node),
    }
}

/// Lowers a declaration that can be a class member into `class`; `false` if `node` is not one.
fn lower_member(cx: &mut LowerCx<'_>, node: Node<'_>, class: &mut Class) -> bool {
    match node.kind() {
        "property_declaration" => {
            let is_static = matches!(class.kind, ClassKind::Companion);
            for mut field in lower_property(cx, node) {
                field.modifiers.is_static |= is_static;
                class.fields.push(field);
            }
        }
        "function_declaration" | "secondary_constructor" => {
            let method = lower_member_method(cx, node, class.kind);
            class.methods.push(method);
        }
        // A getter on the line after its property is the property's sibling in the tree.
        "getter" => {
            let getter = lower_getter(cx, node);
            if let Some(field) = class.fields.last_mut().filter(|f| f.getter.is_none()) {
                field.getter = getter;
            }
        }
        "anonymous_initializer" => class.initializers.push(Body {
            stmts: lower_block(cx, node),
            span: cx.span(node),
        }),
        "enum_entry" => lower_enum_entry(cx, node, class),
        "class_body" | "enum_class_body" => {
            for member in children(node) {
                lower_member(cx, member, class);
            }
        }
        _ => match lower_class(cx, node) {
            Some(nested) => class.classes.push(nested),
            None => return false,
        },
    }
    true
}

/// Whether nodes of `kind` are lowered as named classes.
pub(super) fn is_class_node(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration" | "object_declaration" | "companion_object"
    )
}

/// Lowers a class, interface, enum class, object or companion object declaration; `None` for
/// other nodes, and for classes nested too deeply.
fn lower_class(cx: &mut LowerCx<'_>, node: Node<'_>) -> Option<Class> {
    let kind = match node.kind() {
        "class_declaration" if has_token(node, "interface") => ClassKind::Interface,
        "class_declaration" if has_token(node, "enum") => ClassKind::Enum,
        "class_declaration" => ClassKind::Class,
        "object_declaration" => ClassKind::Object,
        "companion_object" => ClassKind::Companion,
        _ => return None,
    };
    cx.nested(Nesting::Classes, node, |cx| {
        lower_class_of_kind(cx, node, kind)
    })
}

fn lower_class_of_kind(cx: &mut LowerCx<'_>, node: Node<'_>, kind: ClassKind) -> Class {
    let name = child_of_kind(node, "type_identifier")
        .map(|name| cx.text(name))
        .unwrap_or(if kind == ClassKind::Companion {
            "Companion"
        } else {
            ""
        });
    let mut class = new_class(cx, node, name, kind);
    (class.annotations, class.modifiers) = lower_modifiers(cx, node);
    class.modifiers.is_final &= kind != ClassKind::Interface;
    lower_supertypes(cx, node, &mut class);
    if let Some(ctor) = child_of_kind(node, "primary_constructor") {
        lower_primary_constructor(cx, ctor, &mut class);
    }
    for body in children(node).filter(|k| matches!(k.kind(), "class_body" | "enum_class_body")) {
        lower_member(cx, body, &mut class);
    }
    class
}

/// Reads the `delegation_specifier`s of a class or object: the one with a constructor call
/// is the superclass, the others are interfaces.
fn lower_supertypes(cx: &mut LowerCx<'_>, node: Node<'_>, class: &mut Class) {
    for spec in children(node).filter(|k| k.kind() == "delegation_specifier") {
        for kid in children(spec) {
            match kid.kind() {
                "constructor_invocation" => {
                    class.superclass = children(kid).next().map(|ty| lower_type(cx, ty));
                }
                "explicit_delegation" => {
                    class
                        .interfaces
                        .extend(children(kid).next().map(|ty| lower_type(cx, ty)));
                }
                _ if is_type_node(kid) => class.interfaces.push(lower_type(cx, kid)),
                _ => {}
            }
        }
    }
}

fn lower_primary_constructor(cx: &mut LowerCx<'_>, ctor: Node<'_>, class: &mut Class) {
    let mut params = Vec::new();
    for param in children(ctor).filter(|k| k.kind() == "class_parameter") {
        let lowered = lower_param(cx, param);
        if child_of_kind(param, "binding_pattern_kind").is_some() {
            let (annotations, modifiers) = lower_modifiers(cx, param);
            class.fields.push(Field {
                name: lowered.name.clone(),
                ty: lowered.ty.clone(),
                init: None,
                delegate: None,
                getter: None,
                annotations,
                modifiers,
                span: lowered.span,
            });
        }
        params.push(lowered);
    }
    class.methods.push(Method {
        name: "<init>".to_owned(),
        kind: MethodKind::Constructor,
        return_type: None,
        annotations: Vec::new(),
        modifiers: Modifiers::default(),
        params,
        body: None,
        span: cx.span(ctor),
        ids: cx.next_id..cx.next_id,
    });
}

fn lower_enum_entry(cx: &mut LowerCx<'_>, node: Node<'_>, class: &mut Class) {
    let span = cx.span(node);
    let ty = TypeRef::named(class.name.clone(), span);
    let args = child_of_kind(node, "value_arguments")
        .map(|args| lower_value_args(cx, args))
        .unwrap_or_default();
    let body = child_of_kind(node, "class_body").map(|body| {
        let mut anonymous = new_class(cx, body, "<anonymous>", ClassKind::Anonymous);
        anonymous.superclass = Some(ty.clone());
        lower_member(cx, body, &mut anonymous);
        Box::new(anonymous)
    });
    let init = cx.expr(
        ExprKind::New {
            ty: Box::new(ty.clone()),
            args,
            body,
        },
        span,
    );
    class.fields.push(Field {
        name: child_of_kind(node, "simple_identifier")
            .map(|name| cx.text(name).to_owned())
            .unwrap_or_default(),
        ty: Some(ty),
        init: Some(init),
        delegate: None,
        getter: None,
        annotations: Vec::new(),
        modifiers: Modifiers {
            is_static: true,
            ..Modifiers::default()
        },
        span,
    });
}

/// Lowers a property declaration into one field per declared name.
fn lower_property(cx: &mut LowerCx<'_>, node: Node<'_>) -> Vec<Field> {
    let (annotations, modifiers) = lower_modifiers(cx, node);
    let (locals, init_stmt) = lower_property_locals(cx, node);
    let delegate = child_of_kind(node, "property_delegate")
        .and_then(|d| children(d).next())
        .map(|d| lower_expr(cx, d));
    let destructured = init_stmt.and_then(|stmt| match stmt.kind {
        StmtKind::Expr(expr) => Some(expr),
        _ => None,
    });
    let getter = child_of_kind(node, "getter").and_then(|getter| lower_getter(cx, getter));
    let n_locals = locals.len();
    locals
        .into_iter()
        .map(|local| Field {
            name: local.name,
            ty: local.ty,
            init: local
                .init
                .or_else(|| (n_locals == 1).then(|| destructured.clone()).flatten()),
            delegate: delegate.clone(),
            getter: getter.clone(),
            annotations: annotations.clone(),
            modifiers,
            span: cx.span(node),
        })
        .collect()
}

/// The variables a property declaration introduces; for a destructuring declaration the
/// initializer comes back separately as an expression statement.
fn lower_property_locals(cx: &mut LowerCx<'_>, node: Node<'_>) -> (Vec<Local>, Option<Stmt>) {
    let init_node = children(node).find(|kid| is_expression_node(*kid));
    if let Some(single) = child_of_kind(node, "variable_declaration") {
        let local = Local {
            init: init_node.map(|init| lower_expr(cx, init)),
            ..lower_variable(cx, single)
        };
        return (vec![local], None);
    }
    let locals = child_of_kind(node, "multi_variable_declaration")
        .map(|multi| children(multi).map(|var| lower_variable(cx, var)).collect())
        .unwrap_or_default();
    let init = init_node.map(|init| {
        let expr = lower_expr(cx, init);
        Stmt {
            span: expr.span,
            kind: StmtKind::Expr(expr),
        }
    });
    (locals, init)
}

fn lower_variable(cx: &LowerCx<'_>, var: Node<'_>) -> Local {
    let name = child_of_kind(var, "simple_identifier");
    Local {
        name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
        ty: children(var)
            .find(|kid| is_type_node(*kid))
            .map(|ty| lower_type(cx, ty)),
        init: None,
        name_span: cx.span(name.unwrap_or(var)),
    }
}

/// Lowers a function or secondary constructor declared in a class of kind `class`.
pub(super) fn lower_member_method(
    cx: &mut LowerCx<'_>,
    node: Node<'_>,
    class: ClassKind,
) -> Method {
    if node.kind() == "secondary_constructor" {
        return lower_secondary_constructor(cx, node);
    }
    let mut method = lower_function(cx, node);
    method.modifiers.is_static |= class == ClassKind::Companion;
    method.modifiers.is_abstract |= class == ClassKind::Interface && method.body.is_none();
    method.modifiers.is_final &= class != ClassKind::Interface;
    method
}

fn lower_function(cx: &mut LowerCx<'_>, node: Node<'_>) -> Method {
    let first = cx.next_id;
    let (annotations, mut modifiers) = lower_modifiers(cx, node);
    let params_node = child_of_kind(node, "function_value_parameters");
    let lambdas_escape = params_node.is_some_and(|params| {
        children(params)
            .filter(|kid| kid.kind() == "parameter_modifiers")
            .flat_map(children)
            .any(|kid| matches!(cx.text(kid), "crossinline" | "noinline"))
    });
    modifiers.runs_lambdas_in_place = has_modifier(cx, node, "inline") && !lambdas_escape;
    let return_type = children(node)
        .skip_while(|kid| kid.kind() != "function_value_parameters")
        .find(|kid| is_type_node(*kid))
        .map(|ty| lower_type(cx, ty));
    Method {
        name: child_of_kind(node, "simple_identifier")
            .map(|name| cx.text(name).to_owned())
            .unwrap_or_default(),
        kind: MethodKind::Method,
        return_type,
        annotations,
        modifiers,
        params: params_node
            .map(|params| lower_params(cx, params))
            .unwrap_or_default(),
        body: child_of_kind(node, "function_body").map(|body| lower_function_body(cx, body)),
        span: cx.span(node),
        ids: first..cx.next_id,
    }
}

fn lower_secondary_constructor(cx: &mut LowerCx<'_>, node: Node<'_>) -> Method {
    let first = cx.next_id;
    let (annotations, modifiers) = lower_modifiers(cx, node);
    let mut stmts = Vec::new();
    if let Some(delegation) = child_of_kind(node, "constructor_delegation_call") {
        let args = child_of_kind(delegation, "value_arguments")
            .map(|args| lower_value_args(cx, args))
            .unwrap_or_default();
        let span = cx.span(delegation);
        let expr = cx.expr(ExprKind::Other(args), span);
        stmts.push(Stmt {
            span,
            kind: StmtKind::Expr(expr),
        });
    }
    stmts.extend(lower_block(cx, node));
    Method {
        name: "<init>".to_owned(),
        kind: MethodKind::Constructor,
        return_type: None,
        annotations,
        modifiers,
        params: child_of_kind(node, "function_value_parameters")
            .map(|params| lower_params(cx, params))
            .unwrap_or_default(),
        body: Some(Body {
            stmts,
            span: cx.span(node),
        }),
        span: cx.span(node),
        ids: first..cx.next_id,
    }
}

/// A function body: a block, or `= expr`, which returns the expression.
fn lower_function_body(cx: &mut LowerCx<'_>, body: Node<'_>) -> Body {
    let stmts = if has_token(body, "=") {
        let value = children(body).next().map(|value| lower_expr(cx, value));
        vec![Stmt {
            span: cx.span(body),
            kind: StmtKind::Return { value, label: None },
        }]
    } else {
        lower_block(cx, body)
    };
    Body {
        stmts,
        span: cx.span(body),
    }
}

/// The body of a property's `get() = …` or `get() { … }`.
fn lower_getter(cx: &mut LowerCx<'_>, getter: Node<'_>) -> Option<Body> {
    child_of_kind(getter, "function_body").map(|body| lower_function_body(cx, body))
}

fn lower_params(cx: &mut LowerCx<'_>, params: Node<'_>) -> Vec<Param> {
    children(params)
        .filter(|param| param.kind() == "parameter")
        .map(|param| lower_param(cx, param))
        .collect()
}

fn lower_param(cx: &mut LowerCx<'_>, param: Node<'_>) -> Param {
    Param {
        name: child_of_kind(param, "simple_identifier")
            .map(|name| cx.text(name).to_owned())
            .unwrap_or_default(),
        ty: children(param)
            .find(|kid| is_type_node(*kid))
            .map(|ty| lower_type(cx, ty)),
        span: cx.span(param),
    }
}

/// Whether the declaration `decl` is written with the modifier `word` (`inline`).
fn has_modifier(cx: &LowerCx<'_>, decl: Node<'_>, word: &str) -> bool {
    children(decl)
        .filter(|kid| kid.kind() == "modifiers")
        .flat_map(children)
        .any(|kid| cx.text(kid) == word)
}

fn lower_modifiers(cx: &mut LowerCx<'_>, decl: Node<'_>) -> (Vec<Annotation>, Modifiers) {
    let mut annotations = Vec::new();
    let mut modifiers = Modifiers {
        is_exported: true,
        ..Modifiers::default()
    };
    let (mut open, mut final_) = (false, false);
    for node in children(decl).filter(|k| matches!(k.kind(), "modifiers" | "parameter_modifiers")) {
        for kid in children(node) {
            match kid.kind() {
                "annotation" => annotations.push(lower_annotation(cx, kid)),
                _ => match cx.text(kid) {
                    "private" => {
                        modifiers.is_private = true;
                        modifiers.is_exported = false;
                    }
                    "internal" => modifiers.is_exported = false,
                    "abstract" => modifiers.is_abstract = true,
                    "override" => modifiers.is_override = true,
                    "open" | "sealed" => open = true,
                    "final" => final_ = true,
                    _ => {}
                },
            }
        }
    }
    modifiers.is_final = final_ || !(open || modifiers.is_abstract || modifiers.is_override);
    (annotations, modifiers)
}

fn lower_annotation(cx: &mut LowerCx<'_>, node: Node<'_>) -> Annotation {
    let target = child_of_kind(node, "constructor_invocation").unwrap_or(node);
    let name = children(target)
        .find(|kid| is_type_node(*kid))
        .map(|ty| type_name(cx, ty))
        .unwrap_or_default();
    let string_args = child_of_kind(target, "value_arguments")
        .map(|args| {
            children(args)
                .filter_map(|arg| child_of_kind(arg, "string_literal"))
                .map(|lit| {
                    children(lit)
                        .filter(|part| part.kind() == "string_content")
                        .map(|part| cx.text(part))
                        .collect::<String>()
                })
                .collect()
        })
        .unwrap_or_default();
    Annotation {
        name,
        string_args,
        span: cx.span(node),
    }
}

fn is_type_node(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "user_type"
            | "nullable_type"
            | "non_nullable_type"
            | "function_type"
            | "parenthesized_type"
            | "type_reference"
            | "dynamic"
    )
}

/// Whether `node` is an expression (as opposed to a declaration part, type or punctuation).
fn is_expression_node(node: Node<'_>) -> bool {
    !is_type_node(node)
        && !matches!(
            node.kind(),
            "modifiers"
                | "binding_pattern_kind"
                | "variable_declaration"
                | "multi_variable_declaration"
                | "property_delegate"
                | "getter"
                | "setter"
                | "type_constraints"
                | "type_parameters"
        )
}

fn lower_type(cx: &LowerCx<'_>, node: Node<'_>) -> TypeRef {
    TypeRef {
        name: type_name(cx, node),
        element: element_name(cx, node).map(Box::new),
        span: cx.span(node),
    }
}

/// The name of `node`'s last type argument (`Sample` of `MutableMap<String, Sample>?`).
fn element_name(cx: &LowerCx<'_>, node: Node<'_>) -> Option<String> {
    let mut node = node;
    while node.kind() != "user_type" {
        if !matches!(
            node.kind(),
            "nullable_type" | "non_nullable_type" | "parenthesized_type" | "type_reference"
        ) {
            return None;
        }
        node = children(node).find(|kid| is_type_node(*kid))?;
    }
    let arguments = children(node)
        .filter(|kid| kid.kind() == "type_arguments")
        .last()?;
    let projection = children(arguments).last()?;
    let ty = children(projection).find(|kid| is_type_node(*kid))?;
    Some(type_name(cx, ty))
}

/// The dotted name of a type node, without type arguments, nullability or modifiers, through
/// any number of parentheses (a loop, not recursion).
fn type_name(cx: &LowerCx<'_>, node: Node<'_>) -> String {
    let mut node = node;
    loop {
        match node.kind() {
            "user_type" => {
                return children(node)
                    .filter(|kid| kid.kind() == "type_identifier")
                    .map(|kid| cx.text(kid))
                    .collect::<Vec<_>>()
                    .join(".")
            }
            "nullable_type" | "non_nullable_type" | "parenthesized_type" | "type_reference" => {
                match children(node).find(|kid| is_type_node(*kid)) {
                    Some(kid) => node = kid,
                    None => return String::new(),
                }
            }
            _ => return cx.text(node).to_owned(),
        }
    }
}

/// The span of the first string opened inside string templates deeper than `limit` strings,
/// if any: a lexer of Kotlin's strings, templates, comments and character literals, as the
/// grammar's scanner sees them, which counts only what can nest.
/// A text with fewer `${` than `limit` cannot nest that deep and is not scanned.
pub(super) fn template_nesting_past(text: &str, limit: u32) -> Option<Span> {
    if text.matches("${").count() < limit as usize {
        return None;
    }
    /// What the lexer is inside.
    enum Frame {
        /// Code, inside `${` when not the outermost, with its open braces.
        Code { braces: u32 },
        /// A string, raw (`"""`) or not.
        Str { raw: bool },
    }
    let bytes = text.as_bytes();
    let mut stack = vec![Frame::Code { braces: 0 }];
    let mut strings = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        match stack.last_mut() {
            Some(Frame::Code { braces }) => match rest {
                [b'/', b'/', ..] => {
                    i += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    continue;
                }
                [b'/', b'*', ..] => {
                    // Kotlin's block comments nest.
                    let mut depth = 0u32;
                    while i < bytes.len() {
                        match &bytes[i..] {
                            [b'/', b'*', ..] => (depth, i) = (depth + 1, i + 2),
                            [b'*', b'/', ..] => {
                                (depth, i) = (depth - 1, i + 2);
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => i += 1,
                        }
                    }
                    continue;
                }
                [b'\'', ..] => {
                    // A character literal: up to the next unescaped quote on the line.
                    let mut j = 1;
                    while let Some(&b) = rest.get(j) {
                        match b {
                            b'\\' => j += 2,
                            b'\'' | b'\n' => break,
                            _ => j += 1,
                        }
                    }
                    i += j + 1;
                    continue;
                }
                [b'"', b'"', b'"', ..] | [b'"', ..] => {
                    let raw = rest.starts_with(b"\"\"\"");
                    strings += 1;
                    if strings > limit {
                        return Some(point_span(text, i));
                    }
                    stack.push(Frame::Str { raw });
                    i += if raw { 3 } else { 1 };
                    continue;
                }
                [b'{', ..] => *braces += 1,
                [b'}', ..] if *braces > 0 => *braces -= 1,
                // The `}` of a template: back into its string (a stray one outside is skipped).
                [b'}', ..] if stack.len() > 1 => {
                    stack.pop();
                }
                _ => {}
            },
            Some(Frame::Str { raw }) => {
                let raw = *raw;
                match rest {
                    [b'$', b'{', ..] => {
                        stack.push(Frame::Code { braces: 0 });
                        i += 2;
                        continue;
                    }
                    [b'\\', _, ..] if !raw => {
                        i += 2;
                        continue;
                    }
                    [b'"', b'"', b'"', ..] if raw => {
                        stack.pop();
                        strings -= 1;
                        i += 3;
                        continue;
                    }
                    [b'"', ..] if !raw => {
                        stack.pop();
                        strings -= 1;
                    }
                    [b'\n', ..] if !raw => {
                        // An unterminated string ends at the line's end.
                        stack.pop();
                        strings -= 1;
                    }
                    _ => {}
                }
            }
            None => break,
        }
        i += 1;
    }
    None
}

/// An empty span at byte `at` of `text`, with its line and column.
fn point_span(text: &str, at: usize) -> Span {
    let position = crate::ir::position(&crate::ir::line_starts(text), at);
    Span {
        start_byte: at,
        end_byte: at,
        start: position,
        end: position,
    }
}

/// Lowers the statements directly inside a block-like node: `statements`, braces, a
/// `control_structure_body`, a function body, a lambda, a catch or finally block.
/// Labels, which the grammar puts beside the labeled loop, are attached to it here.
fn lower_block(cx: &mut LowerCx<'_>, node: Node<'_>) -> Block {
    let mut out = Vec::new();
    let mut label: Option<String> = None;
    for kid in children(node) {
        match kid.kind() {
            "statements" | "block" | "control_structure_body" => {
                out.extend(lower_block(cx, kid));
            }
            "label" => label = Some(cx.text(kid).trim_end_matches('@').to_owned()),
            _ => {
                let mut stmts = Vec::new();
                lower_stmt(cx, kid, &mut stmts);
                match label.take() {
                    Some(label) if stmts.len() == 1 => {
                        let body = Box::new(stmts.remove(0));
                        out.push(Stmt {
                            span: body.span,
                            kind: StmtKind::Labeled { label, body },
                        });
                    }
                    _ => out.extend(stmts),
                }
            }
        }
    }
    out
}

/// Lowers the statements of a node that also has non-statement children (a catch block's
/// parameter, a try's clauses): only its `statements` children are read.
fn lower_statements_of(cx: &mut LowerCx<'_>, node: Node<'_>) -> Block {
    children(node)
        .filter(|kid| kid.kind() == "statements")
        .flat_map(|stmts| lower_block(cx, stmts))
        .collect()
}

fn lower_stmt(cx: &mut LowerCx<'_>, node: Node<'_>, out: &mut Block) {
    if cx
        .nested(Nesting::Code, node, |cx| lower_stmt_at_depth(cx, node, out))
        .is_none()
    {
        let span = cx.span(node);
        let summary = cx.expr(ExprKind::Other(Vec::new()), span);
        out.push(Stmt {
            kind: StmtKind::Expr(summary),
            span,
        });
    }
}

fn lower_stmt_at_depth(cx: &mut LowerCx<'_>, node: Node<'_>, out: &mut Block) {
    let span = cx.span(node);
    let kind = match node.kind() {
        "property_declaration" => {
            let delegate = child_of_kind(node, "property_delegate")
                .and_then(|d| children(d).next())
                .map(|d| lower_expr(cx, d));
            let (locals, init) = lower_property_locals(cx, node);
            out.extend(init);
            for mut local in locals {
                local.init = local.init.or_else(|| delegate.clone());
                out.push(Stmt {
                    span,
                    kind: StmtKind::Local(local),
                });
            }
            return;
        }
        "assignment" => lower_assignment(cx, node),
        "for_statement" => {
            let var = child_of_kind(node, "variable_declaration")
                .or_else(|| child_of_kind(node, "multi_variable_declaration"))
                .map(|var| lower_variable(cx, var))
                .unwrap_or(Local {
                    name: String::new(),
                    ty: None,
                    init: None,
                    name_span: span,
                });
            let iterable = children(node)
                .find(|kid| {
                    is_expression_node(*kid)
                        && !matches!(kid.kind(), "control_structure_body" | "annotation")
                })
                .map(|it| lower_expr(cx, it))
                .unwrap_or_else(|| cx.expr(ExprKind::Other(Vec::new()), span));
            StmtKind::ForEach {
                var,
                iterable,
                body: lower_loop_body(cx, node),
            }
        }
        "while_statement" => StmtKind::While {
            cond: lower_condition(cx, node),
            body: lower_loop_body(cx, node),
        },
        "do_while_statement" => StmtKind::DoWhile {
            body: lower_loop_body(cx, node),
            cond: lower_condition(cx, node),
        },
        "if_expression" | "when_expression" | "try_expression" | "jump_expression" => {
            lower_control(cx, node)
        }
        "function_declaration" => StmtKind::LocalFunction(Box::new(lower_function(cx, node))),
        _ => match lower_class(cx, node) {
            Some(class) => StmtKind::LocalClass(Box::new(class)),
            None => StmtKind::Expr(lower_expr(cx, node)),
        },
    };
    out.push(Stmt { kind, span });
}

fn lower_loop_body(cx: &mut LowerCx<'_>, node: Node<'_>) -> Block {
    child_of_kind(node, "control_structure_body")
        .map(|body| lower_block(cx, body))
        .unwrap_or_default()
}

fn lower_condition(cx: &mut LowerCx<'_>, node: Node<'_>) -> Expr {
    match children(node).find(|kid| kid.kind() != "control_structure_body") {
        Some(cond) => lower_expr(cx, cond),
        None => cx.expr(ExprKind::Other(Vec::new()), cx.span(node)),
    }
}

fn lower_assignment(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let span = cx.span(node);
    let target = match child_of_kind(node, "directly_assignable_expression") {
        Some(place) => {
            let kind = lower_navigation(cx, place);
            cx.expr(kind, cx.span(place))
        }
        None => cx.expr(ExprKind::Other(Vec::new()), span),
    };
    let value = match children(node)
        .filter(|kid| kid.kind() != "directly_assignable_expression")
        .last()
    {
        Some(value) => lower_expr(cx, value),
        None => cx.expr(ExprKind::Other(Vec::new()), span),
    };
    let value = if has_token(node, "=") {
        value
    } else {
        // `x += 1`: a new value the analysis does not follow.
        let span = value.span;
        cx.expr(ExprKind::Other(vec![value]), span)
    };
    let kind = ExprKind::Assign {
        target: Box::new(target),
        value: Box::new(value),
    };
    StmtKind::Expr(cx.expr(kind, span))
}

/// Lowers `receiver` + `navigation_suffix` pairs (in navigation expressions and assignment
/// targets); a lone child is lowered as itself.
fn lower_navigation(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let mut kids = children(node);
    let Some(first) = kids.next() else {
        return ExprKind::Other(Vec::new());
    };
    match kids.next() {
        Some(suffix) if suffix.kind() == "navigation_suffix" => {
            let receiver = Box::new(lower_expr(cx, first));
            match child_of_kind(suffix, "simple_identifier") {
                Some(name) => ExprKind::Field {
                    receiver,
                    name: cx.text(name).to_owned(),
                    name_span: cx.span(name),
                },
                None => ExprKind::Other(vec![*receiver]),
            }
        }
        Some(other) => {
            let parts = vec![lower_expr(cx, first), lower_expr(cx, other)];
            ExprKind::Other(parts)
        }
        None => lower_expr(cx, first).kind,
    }
}

/// Lowers `if`, `when`, `try` and jumps, which Kotlin treats as expressions.
fn lower_control(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let span = cx.span(node);
    match node.kind() {
        "if_expression" => {
            let branch = |cx: &mut LowerCx<'_>, name: &str| {
                node.child_by_field_name(name)
                    .map(|body| lower_block(cx, body))
            };
            StmtKind::If {
                cond: match node.child_by_field_name("condition") {
                    Some(cond) => lower_expr(cx, cond),
                    None => cx.expr(ExprKind::Other(Vec::new()), span),
                },
                then_branch: branch(cx, "consequence").unwrap_or_default(),
                else_branch: branch(cx, "alternative"),
            }
        }
        "when_expression" => lower_when(cx, node),
        "try_expression" => lower_try(cx, node),
        _ => lower_jump(cx, node),
    }
}

fn lower_when(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let scrutinee = child_of_kind(node, "when_subject")
        .and_then(|subject| children(subject).last())
        .map(|subject| lower_expr(cx, subject));
    let mut arms = Vec::new();
    for entry in children(node).filter(|kid| kid.kind() == "when_entry") {
        let mut labels = Vec::new();
        let mut guard = None;
        let mut body = Vec::new();
        for kid in children(entry) {
            match kid.kind() {
                "when_condition" => {
                    labels.extend(children(kid).map(|cond| lower_expr(cx, cond)));
                }
                "guard_condition" => guard = children(kid).next().map(|g| lower_expr(cx, g)),
                "control_structure_body" => body = lower_block(cx, kid),
                _ => {}
            }
        }
        arms.push(SwitchArm {
            labels,
            guard,
            is_default: has_token(entry, "else"),
            body,
            span: cx.span(entry),
        });
    }
    StmtKind::Switch {
        scrutinee,
        arms,
        fallthrough: false,
    }
}

fn lower_try(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let body = lower_statements_of(cx, node);
    let mut catches = Vec::new();
    let mut finally = None;
    for kid in children(node) {
        match kid.kind() {
            "catch_block" => {
                let types: Vec<TypeRef> = children(kid)
                    .filter(|ty| is_type_node(*ty))
                    .map(|ty| lower_type(cx, ty))
                    .collect();
                let name = child_of_kind(kid, "simple_identifier");
                catches.push(Catch {
                    param: Param {
                        name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
                        ty: types.first().cloned(),
                        span: cx.span(name.unwrap_or(kid)),
                    },
                    types,
                    body: lower_statements_of(cx, kid),
                    span: cx.span(kid),
                });
            }
            "finally_block" => finally = Some(lower_statements_of(cx, kid)),
            _ => {}
        }
    }
    StmtKind::Try {
        resources: Vec::new(),
        body,
        catches,
        finally,
    }
}

fn lower_jump(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let label = child_of_kind(node, "label").map(|l| cx.text(l).trim_end_matches('@').to_owned());
    let value = children(node)
        .find(|kid| kid.kind() != "label")
        .map(|value| lower_expr(cx, value));
    let mut cursor = node.walk();
    let keyword = node
        .children(&mut cursor)
        .find(|kid| !kid.is_named())
        .map(|kid| kid.kind().trim_end_matches('@'))
        .unwrap_or_default();
    match keyword {
        "throw" => StmtKind::Throw(
            value.unwrap_or_else(|| cx.expr(ExprKind::Other(Vec::new()), cx.span(node))),
        ),
        "break" => StmtKind::Break(label),
        "continue" => StmtKind::Continue(label),
        _ => StmtKind::Return { value, label },
    }
}

fn lower_expr(cx: &mut LowerCx<'_>, node: Node<'_>) -> Expr {
    let span = cx.span(node);
    match cx.nested(Nesting::Code, node, |cx| lower_expr_kind(cx, node)) {
        Some(kind) => cx.expr(kind, span),
        None => cx.expr(ExprKind::Other(Vec::new()), span),
    }
}

fn lower_expr_kind(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    match node.kind() {
        "simple_identifier" => ExprKind::Name(cx.text(node).to_owned()),
        "this_expression" => {
            ExprKind::This(child_of_kind(node, "type_identifier").map(|l| cx.text(l).to_owned()))
        }
        "super_expression" => ExprKind::Super,
        "null_literal" => ExprKind::Null,
        "boolean_literal" => ExprKind::Bool(cx.text(node) == "true"),
        "string_literal" => {
            let parts: Vec<Expr> = children(node)
                .filter_map(|part| match part.kind() {
                    "interpolated_expression" => children(part).next(),
                    "interpolated_identifier" => Some(part),
                    _ => None,
                })
                .map(|part| match part.kind() {
                    "interpolated_identifier" => {
                        let name = ExprKind::Name(cx.text(part).to_owned());
                        cx.expr(name, cx.span(part))
                    }
                    _ => lower_expr(cx, part),
                })
                .collect();
            if parts.is_empty() {
                ExprKind::Literal
            } else {
                ExprKind::Other(parts)
            }
        }
        "integer_literal" | "hex_literal" | "bin_literal" | "long_literal" => {
            super::int_value(cx.text(node)).map_or(ExprKind::Literal, ExprKind::Int)
        }
        "prefix_expression" if has_token(node, "-") => match children(node).last() {
            Some(inner) => match lower_expr(cx, inner) {
                Expr {
                    kind: ExprKind::Int(value),
                    ..
                } => ExprKind::Int(-value),
                inner => ExprKind::Other(vec![inner]),
            },
            None => ExprKind::Other(Vec::new()),
        },
        kind if kind.ends_with("_literal")
            && kind != "lambda_literal"
            && kind != "object_literal"
            && kind != "collection_literal" =>
        {
            ExprKind::Literal
        }
        "parenthesized_expression" => match children(node).next() {
            Some(inner) => lower_expr(cx, inner).kind,
            None => ExprKind::Other(Vec::new()),
        },
        "navigation_expression" => lower_navigation(cx, node),
        "call_expression" => lower_call(cx, node),
        "indexing_expression" => lower_indexing(cx, node),
        // `i++`, `--i`: a new value the analysis does not follow.
        "postfix_expression" | "prefix_expression"
            if has_token(node, "++") || has_token(node, "--") =>
        {
            match children(node).find(|kid| kid.is_named()) {
                Some(operand) => ExprKind::Assign {
                    target: Box::new(lower_expr(cx, operand)),
                    value: Box::new(cx.expr(ExprKind::Other(Vec::new()), cx.span(node))),
                },
                None => ExprKind::Other(Vec::new()),
            }
        }
        "postfix_expression" if has_token(node, "!!") => match children(node).next() {
            Some(inner) => lower_expr(cx, inner).kind,
            None => ExprKind::Other(Vec::new()),
        },
        // `@Suppress("DEPRECATION") MediaRecorder()` and `label@ expr` are the expression.
        "prefix_expression"
            if children(node).any(|kid| matches!(kid.kind(), "annotation" | "label")) =>
        {
            match children(node).last() {
                Some(inner) => lower_expr(cx, inner).kind,
                None => ExprKind::Other(Vec::new()),
            }
        }
        "prefix_expression" if has_token(node, "!") => match children(node).last() {
            Some(inner) => ExprKind::Not(Box::new(lower_expr(cx, inner))),
            None => ExprKind::Other(Vec::new()),
        },
        "equality_expression"
        | "comparison_expression"
        | "conjunction_expression"
        | "disjunction_expression"
        | "elvis_expression" => {
            let op = match node.kind() {
                "conjunction_expression" => BinaryOp::And,
                "disjunction_expression" => BinaryOp::Or,
                "elvis_expression" => BinaryOp::Elvis,
                _ if has_token(node, "==") || has_token(node, "===") => BinaryOp::Eq,
                _ if has_token(node, "!=") || has_token(node, "!==") => BinaryOp::Ne,
                _ if has_token(node, "<=") => BinaryOp::Le,
                _ if has_token(node, ">=") => BinaryOp::Ge,
                _ if has_token(node, "<") => BinaryOp::Lt,
                _ if has_token(node, ">") => BinaryOp::Gt,
                _ => BinaryOp::Other,
            };
            let mut operands = children(node);
            match (operands.next(), operands.next()) {
                (Some(lhs), Some(rhs)) => ExprKind::Binary {
                    op,
                    lhs: Box::new(lower_expr(cx, lhs)),
                    rhs: Box::new(lower_expr(cx, rhs)),
                },
                _ => lower_other(cx, node),
            }
        }
        "as_expression" | "check_expression" => {
            let expr = children(node).next().map(|e| lower_expr(cx, e));
            let ty = children(node)
                .find(|kid| is_type_node(*kid))
                .map(|ty| lower_type(cx, ty));
            match (expr, ty) {
                (Some(expr), Some(ty)) if node.kind() == "as_expression" => ExprKind::Cast {
                    expr: Box::new(expr),
                    ty: Box::new(ty),
                },
                (Some(expr), Some(ty)) => ExprKind::TypeTest {
                    expr: Box::new(expr),
                    ty: Box::new(ty),
                    negated: has_token(node, "!") || has_token(node, "!is"),
                },
                (expr, _) => ExprKind::Other(expr.into_iter().collect()),
            }
        }
        "lambda_literal" => {
            let params = child_of_kind(node, "lambda_parameters")
                .map(|params| {
                    children(params)
                        .map(|var| {
                            let local = lower_variable(cx, var);
                            Param {
                                name: local.name,
                                ty: local.ty,
                                span: local.name_span,
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            ExprKind::Lambda {
                params,
                body: Box::new(Body {
                    stmts: lower_statements_of(cx, node),
                    span: cx.span(node),
                }),
            }
        }
        "anonymous_function" => ExprKind::Lambda {
            params: child_of_kind(node, "function_value_parameters")
                .map(|params| lower_params(cx, params))
                .unwrap_or_default(),
            body: Box::new(match child_of_kind(node, "function_body") {
                Some(body) => lower_function_body(cx, body),
                None => Body {
                    stmts: Vec::new(),
                    span: cx.span(node),
                },
            }),
        },
        "object_literal" => {
            let class = lower_object_literal(cx, node, None);
            new_of_anonymous(class)
        }
        "callable_reference" => {
            let receiver = match children(node).find(|kid| kid.kind() == "type_identifier") {
                Some(ty) => cx.expr(ExprKind::Name(cx.text(ty).to_owned()), cx.span(ty)),
                None => cx.expr(ExprKind::This(None), cx.span(node)),
            };
            ExprKind::MethodRef {
                receiver: Box::new(receiver),
                name: children(node)
                    .filter(|kid| kid.kind() == "simple_identifier")
                    .last()
                    .map(|name| cx.text(name).to_owned())
                    .unwrap_or_default(),
            }
        }
        "if_expression" | "when_expression" | "try_expression" | "jump_expression" => {
            let span = cx.span(node);
            ExprKind::Control(Box::new(Stmt {
                kind: lower_control(cx, node),
                span,
            }))
        }
        _ => lower_other(cx, node),
    }
}

/// Lowers `callee(args) { trailing lambda }`.
fn lower_call(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let mut kids = children(node);
    let (Some(callee), suffix) = (kids.next(), kids.next()) else {
        return ExprKind::Other(Vec::new());
    };
    let mut args = Vec::new();
    let mut trailing_lambda = None;
    if let Some(suffix) = suffix {
        for part in children(suffix) {
            match part.kind() {
                "value_arguments" => args.extend(lower_value_args(cx, part)),
                "annotated_lambda" => trailing_lambda = child_of_kind(part, "lambda_literal"),
                _ => {}
            }
        }
    }
    if callee.kind() == "object_literal" {
        // The grammar's reading of a one-line `object : X { … }`: the body is the lambda.
        let class = lower_object_literal(cx, callee, trailing_lambda);
        return new_of_anonymous(class);
    }
    args.extend(trailing_lambda.map(|lambda| lower_expr(cx, lambda)));
    let (receiver, name_node, is_safe) = match callee.kind() {
        "navigation_expression" => {
            let mut parts = children(callee);
            let receiver = parts.next();
            let suffix = parts.next();
            let name = suffix.and_then(|s| child_of_kind(s, "simple_identifier"));
            let is_safe = suffix.is_some_and(|s| has_token(s, "?."));
            match (receiver, name) {
                (Some(receiver), Some(name)) => (Some(receiver), name, is_safe),
                _ => (Some(callee), callee, false),
            }
        }
        "simple_identifier" => (None, callee, false),
        _ => (Some(callee), callee, false),
    };
    let name = if name_node == callee && receiver.is_some() {
        "invoke".to_owned()
    } else {
        cx.text(name_node).to_owned()
    };
    ExprKind::Call(Call {
        receiver: receiver.map(|r| Box::new(lower_expr(cx, r))),
        name,
        name_span: cx.span(name_node),
        args,
        is_safe,
    })
}

/// `samples[id]` read is the operator call `samples.get(id)`.
fn lower_indexing(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let (Some(receiver), Some(suffix)) = (
        children(node).next(),
        child_of_kind(node, "indexing_suffix"),
    ) else {
        return lower_other(cx, node);
    };
    let args = children(suffix).map(|arg| lower_expr(cx, arg)).collect();
    ExprKind::Call(Call {
        receiver: Some(Box::new(lower_expr(cx, receiver))),
        name: "get".to_owned(),
        name_span: cx.span(suffix),
        args,
        is_safe: false,
    })
}

fn lower_value_args(cx: &mut LowerCx<'_>, args: Node<'_>) -> Vec<Expr> {
    children(args)
        .filter_map(|arg| children(arg).last())
        .map(|value| lower_expr(cx, value))
        .collect()
}

/// Lowers `object : X(…), Y { … }`; `body_lambda` is the body when the grammar read it as a
/// trailing lambda.
fn lower_object_literal(
    cx: &mut LowerCx<'_>,
    node: Node<'_>,
    body_lambda: Option<Node<'_>>,
) -> Class {
    let mut class = new_class(cx, node, "<anonymous>", ClassKind::Anonymous);
    lower_supertypes(cx, node, &mut class);
    if let Some(body) = child_of_kind(node, "class_body") {
        lower_member(cx, body, &mut class);
    }
    if let Some(lambda) = body_lambda {
        for statements in children(lambda).filter(|kid| kid.kind() == "statements") {
            for member in children(statements) {
                lower_member(cx, member, &mut class);
            }
        }
    }
    class
}

/// The object expression for an anonymous class: it creates an instance of its first
/// supertype (`kotlin.Any` if none is written).
fn new_of_anonymous(class: Class) -> ExprKind {
    let ty = class
        .superclass
        .clone()
        .or_else(|| class.interfaces.first().cloned())
        .unwrap_or(TypeRef::named("Any".to_owned(), class.span));
    ExprKind::New {
        ty: Box::new(ty),
        args: Vec::new(),
        body: Some(Box::new(class)),
    }
}

/// Lowers an expression the analysis does not distinguish: its expression children are kept.
fn lower_other(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let kids = children(node)
        .filter(|kid| {
            !is_type_node(*kid)
                && !matches!(
                    kid.kind(),
                    "type_arguments" | "navigation_suffix" | "label" | "modifiers"
                )
        })
        .map(|kid| lower_expr(cx, kid))
        .collect();
    ExprKind::Other(kids)
}
