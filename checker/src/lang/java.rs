//! Lowering of tree-sitter-java syntax trees into the IR.

use tree_sitter::Node;

use super::{child_of_kind, children, has_token, string_contents, LowerCx};
use crate::ir::{
    Annotation, BinaryOp, Block, Body, Call, Catch, Class, ClassKind, Expr, ExprKind, Field,
    Import, Language, Local, Method, MethodKind, Modifiers, Nesting, Param, SourceIr, Stmt,
    StmtKind, SwitchArm, TypeRef,
};

/// Lowers a `program` node.
pub(super) fn lower_file(cx: &mut LowerCx<'_>, root: Node<'_>) -> SourceIr {
    let mut ir = SourceIr::empty(Language::Java);
    for node in children(root) {
        match node.kind() {
            "package_declaration" => {
                ir.package = children(node)
                    .find(|kid| matches!(kid.kind(), "scoped_identifier" | "identifier"))
                    .map(|name| cx.text(name).to_owned());
            }
            "import_declaration" => ir.imports.push(lower_import(cx, node)),
            _ => {
                if let Some(class) = lower_type_declaration(cx, node) {
                    ir.classes.push(class);
                }
            }
        }
    }
    ir
}

fn lower_import(cx: &mut LowerCx<'_>, node: Node<'_>) -> Import {
    let path = children(node)
        .find(|kid| matches!(kid.kind(), "scoped_identifier" | "identifier"))
        .map(|name| cx.text(name).to_owned())
        .unwrap_or_default();
    Import {
        path,
        is_wildcard: child_of_kind(node, "asterisk").is_some(),
        is_static: has_token(node, "static"),
        alias: None,
        span: cx.span(node),
    }
}

/// The kind of class a node declares, if it declares one.
fn class_kind(kind: &str) -> Option<ClassKind> {
    match kind {
        "class_declaration" => Some(ClassKind::Class),
        "interface_declaration" => Some(ClassKind::Interface),
        "enum_declaration" => Some(ClassKind::Enum),
        "record_declaration" => Some(ClassKind::Record),
        "annotation_type_declaration" => Some(ClassKind::Annotation),
        _ => None,
    }
}

/// Whether nodes of `kind` are lowered as named classes.
pub(super) fn is_class_node(kind: &str) -> bool {
    class_kind(kind).is_some()
}

/// Lowers a class, interface, enum, record or annotation type declaration; `None` for other
/// nodes, and for classes nested too deeply.
fn lower_type_declaration(cx: &mut LowerCx<'_>, node: Node<'_>) -> Option<Class> {
    let kind = class_kind(node.kind())?;
    cx.nested(Nesting::Classes, node, |cx| lower_class(cx, node, kind))
}

fn lower_class(cx: &mut LowerCx<'_>, node: Node<'_>, kind: ClassKind) -> Class {
    let name = node
        .child_by_field_name("name")
        .map(|name| cx.text(name).to_owned())
        .unwrap_or_default();
    let (annotations, modifiers) = lower_modifiers(cx, node);
    let mut class = new_class(cx, node, name, kind);
    class.annotations = annotations;
    class.modifiers = modifiers;
    class.superclass = node
        .child_by_field_name("superclass")
        .and_then(|sup| children(sup).next())
        .map(|ty| lower_type(cx, ty));
    let interface_lists = ["interfaces", "extends_interfaces"]
        .iter()
        .filter_map(|field| node.child_by_field_name(field))
        .chain(child_of_kind(node, "extends_interfaces"));
    for list in interface_lists.collect::<Vec<_>>() {
        for types in children(list) {
            class
                .interfaces
                .extend(children(types).map(|ty| lower_type(cx, ty)));
        }
    }
    if kind == ClassKind::Record {
        if let Some(params) = node.child_by_field_name("parameters") {
            for param in lower_params(cx, params) {
                class.fields.push(Field {
                    name: param.name,
                    ty: param.ty,
                    init: None,
                    delegate: None,
                    getter: None,
                    annotations: Vec::new(),
                    modifiers: Modifiers::default(),
                    span: param.span,
                });
            }
        }
    }
    if let Some(body) = node.child_by_field_name("body") {
        lower_class_body(cx, body, &mut class);
    }
    class
}

fn new_class(cx: &LowerCx<'_>, node: Node<'_>, name: String, kind: ClassKind) -> Class {
    Class {
        name,
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

/// Lowers the members of a class, interface, enum or annotation body into `class`.
fn lower_class_body(cx: &mut LowerCx<'_>, body: Node<'_>, class: &mut Class) {
    for member in children(body) {
        match member.kind() {
            "field_declaration" | "constant_declaration" => lower_field(cx, member, class),
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration" => {
                class
                    .methods
                    .push(lower_member_method(cx, member, class.kind));
            }
            "static_initializer" | "block" => {
                let block = child_of_kind(member, "block").unwrap_or(member);
                class.initializers.push(lower_body(cx, block));
            }
            "enum_constant" => lower_enum_constant(cx, member, class),
            "enum_body_declarations" => lower_class_body(cx, member, class),
            _ => {
                if let Some(nested) = lower_type_declaration(cx, member) {
                    class.classes.push(nested);
                }
            }
        }
    }
}

/// An enum constant is a static field of the enum type; its class body, if any, is an
/// anonymous subclass.
fn lower_enum_constant(cx: &mut LowerCx<'_>, node: Node<'_>, class: &mut Class) {
    let span = cx.span(node);
    let name = node
        .child_by_field_name("name")
        .map(|name| cx.text(name).to_owned())
        .unwrap_or_default();
    let ty = TypeRef::named(class.name.clone(), span);
    let args = node
        .child_by_field_name("arguments")
        .map(|args| lower_args(cx, args))
        .unwrap_or_default();
    let body = node
        .child_by_field_name("body")
        .map(|body| Box::new(lower_anonymous_class(cx, body, ty.clone())));
    let ty = Box::new(ty);
    let init = cx.expr(ExprKind::New { ty, args, body }, span);
    class.fields.push(Field {
        name,
        ty: Some(TypeRef::named(class.name.clone(), span)),
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

fn lower_anonymous_class(cx: &mut LowerCx<'_>, body: Node<'_>, supertype: TypeRef) -> Class {
    let mut class = new_class(cx, body, "<anonymous>".to_owned(), ClassKind::Anonymous);
    class.superclass = Some(supertype);
    lower_class_body(cx, body, &mut class);
    class
}

fn lower_field(cx: &mut LowerCx<'_>, node: Node<'_>, class: &mut Class) {
    let (annotations, mut modifiers) = lower_modifiers(cx, node);
    modifiers.is_static |= class.kind == ClassKind::Interface;
    let ty = node
        .child_by_field_name("type")
        .map(|ty| lower_type(cx, ty));
    let mut cursor = node.walk();
    let declarators: Vec<Node<'_>> = node
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    for declarator in declarators {
        let local = lower_declarator(cx, declarator, ty.clone());
        class.fields.push(Field {
            name: local.name,
            ty: local.ty,
            init: local.init,
            delegate: None,
            getter: None,
            annotations: annotations.clone(),
            modifiers,
            span: cx.span(declarator),
        });
    }
}

/// Lowers a method or constructor declared in a class of kind `class`.
pub(super) fn lower_member_method(
    cx: &mut LowerCx<'_>,
    node: Node<'_>,
    class: ClassKind,
) -> Method {
    lower_method(cx, node, class == ClassKind::Interface)
}

fn lower_method(cx: &mut LowerCx<'_>, node: Node<'_>, in_interface: bool) -> Method {
    let first = cx.next_id;
    let (annotations, mut modifiers) = lower_modifiers(cx, node);
    let is_constructor = node.kind() != "method_declaration";
    let body = node.child_by_field_name("body").map(|b| lower_body(cx, b));
    modifiers.is_abstract |= in_interface && body.is_none();
    Method {
        name: if is_constructor {
            "<init>".to_owned()
        } else {
            node.child_by_field_name("name")
                .map(|name| cx.text(name).to_owned())
                .unwrap_or_default()
        },
        kind: if is_constructor {
            MethodKind::Constructor
        } else {
            MethodKind::Method
        },
        return_type: node
            .child_by_field_name("type")
            .filter(|ty| ty.kind() != "void_type")
            .map(|ty| lower_type(cx, ty)),
        annotations,
        modifiers,
        params: node
            .child_by_field_name("parameters")
            .map(|params| lower_params(cx, params))
            .unwrap_or_default(),
        body,
        span: cx.span(node),
        ids: first..cx.next_id,
    }
}

fn lower_params(cx: &mut LowerCx<'_>, params: Node<'_>) -> Vec<Param> {
    children(params)
        .filter(|param| matches!(param.kind(), "formal_parameter" | "spread_parameter"))
        .map(|param| lower_param(cx, param))
        .collect()
}

fn lower_param(cx: &mut LowerCx<'_>, param: Node<'_>) -> Param {
    let name = param.child_by_field_name("name").or_else(|| {
        child_of_kind(param, "variable_declarator").and_then(|d| d.child_by_field_name("name"))
    });
    let ty = param
        .child_by_field_name("type")
        .or_else(|| children(param).find(|kid| is_type_node(*kid)));
    Param {
        name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
        ty: ty.map(|ty| lower_type(cx, ty)),
        span: cx.span(param),
    }
}

/// Lowers the annotations and modifiers attached to a declaration.
fn lower_modifiers(cx: &mut LowerCx<'_>, decl: Node<'_>) -> (Vec<Annotation>, Modifiers) {
    let mut annotations = Vec::new();
    let mut modifiers = Modifiers::default();
    let Some(node) = child_of_kind(decl, "modifiers") else {
        return (annotations, modifiers);
    };
    let mut cursor = node.walk();
    for kid in node.children(&mut cursor) {
        match kid.kind() {
            "annotation" | "marker_annotation" => {
                let annotation = lower_annotation(cx, kid);
                modifiers.is_override |= annotation.name == "Override";
                annotations.push(annotation);
            }
            "static" => modifiers.is_static = true,
            "private" => modifiers.is_private = true,
            "public" | "protected" => modifiers.is_exported = true,
            "abstract" => modifiers.is_abstract = true,
            "final" => modifiers.is_final = true,
            _ => {}
        }
    }
    (annotations, modifiers)
}

fn lower_annotation(cx: &mut LowerCx<'_>, node: Node<'_>) -> Annotation {
    let mut string_args = Vec::new();
    if let Some(args) = node.child_by_field_name("arguments") {
        collect_strings(cx, args, &mut string_args);
    }
    Annotation {
        name: node
            .child_by_field_name("name")
            .map(|name| cx.text(name).to_owned())
            .unwrap_or_default(),
        string_args,
        span: cx.span(node),
    }
}

/// Collects the string literals among an annotation's arguments, in source order, through
/// `{…}` arrays and `name = value` pairs nested to any depth (an explicit stack, not
/// recursion).
fn collect_strings(cx: &LowerCx<'_>, node: Node<'_>, out: &mut Vec<String>) {
    let mut todo = vec![node];
    while let Some(node) = todo.pop() {
        let kids: Vec<Node<'_>> = children(node).collect();
        for kid in kids.into_iter().rev() {
            if matches!(
                kid.kind(),
                "string_literal" | "element_value_array_initializer" | "element_value_pair"
            ) {
                todo.push(kid);
            }
        }
        if node.kind() == "string_literal" {
            out.push(string_contents(cx.text(node)));
        }
    }
}

fn is_type_node(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "type_identifier"
            | "scoped_type_identifier"
            | "generic_type"
            | "array_type"
            | "integral_type"
            | "floating_point_type"
            | "boolean_type"
            | "void_type"
            | "annotated_type"
    )
}

fn lower_type(cx: &LowerCx<'_>, node: Node<'_>) -> TypeRef {
    TypeRef {
        name: type_name(cx, node),
        element: element_name(cx, node).map(Box::new),
        span: cx.span(node),
    }
}

/// The name of `node`'s last type argument (`Sample` of `Map<String, Sample>`).
fn element_name(cx: &LowerCx<'_>, node: Node<'_>) -> Option<String> {
    let generic = match node.kind() {
        "generic_type" => node,
        "annotated_type" => children(node).find(|kid| kid.kind() == "generic_type")?,
        _ => return None,
    };
    let last = children(child_of_kind(generic, "type_arguments")?).last()?;
    Some(type_name(cx, last))
}

/// The dotted name of a type node, without type arguments or annotations.
fn type_name(cx: &LowerCx<'_>, node: Node<'_>) -> String {
    match node.kind() {
        "scoped_type_identifier" => without_type_arguments(cx.text(node)),
        "generic_type" | "annotated_type" => children(node)
            .find(|kid| !kid.kind().ends_with("annotation"))
            .map(|kid| type_name(cx, kid))
            .unwrap_or_default(),
        "array_type" => node
            .child_by_field_name("element")
            .map(|element| format!("{}[]", type_name(cx, element)))
            .unwrap_or_default(),
        _ => cx.text(node).to_owned(),
    }
}

/// `Outer<A>.Inner` as `Outer.Inner`, without recursing over the (possibly very deep) tree.
fn without_type_arguments(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|c| match c {
            '<' => {
                depth += 1;
                false
            }
            '>' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0 && !c.is_whitespace(),
        })
        .collect()
}

fn lower_body(cx: &mut LowerCx<'_>, block: Node<'_>) -> Body {
    Body {
        stmts: lower_block(cx, block),
        span: cx.span(block),
    }
}

/// Lowers the statements of a block-like node (or a single statement) into a [`Block`].
fn lower_block(cx: &mut LowerCx<'_>, node: Node<'_>) -> Block {
    let mut out = Vec::new();
    if matches!(
        node.kind(),
        "block" | "constructor_body" | "switch_block_statement_group"
    ) {
        for stmt in children(node) {
            lower_stmt(cx, stmt, &mut out);
        }
    } else {
        lower_stmt(cx, node, &mut out);
    }
    out
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
    let field = |name: &str| node.child_by_field_name(name);
    let kind = match node.kind() {
        "local_variable_declaration" => {
            let ty = field("type")
                .filter(|ty| cx.text(*ty) != "var")
                .map(|ty| lower_type(cx, ty));
            let mut cursor = node.walk();
            let declarators: Vec<Node<'_>> = node
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            for declarator in declarators {
                let local = lower_declarator(cx, declarator, ty.clone());
                out.push(Stmt {
                    kind: StmtKind::Local(local),
                    span: cx.span(declarator),
                });
            }
            return;
        }
        "expression_statement" => match children(node).next() {
            Some(expr) => StmtKind::Expr(lower_expr(cx, expr)),
            None => return,
        },
        "if_statement" => StmtKind::If {
            cond: lower_opt_expr(cx, field("condition"), span),
            then_branch: field("consequence")
                .map(|b| lower_block(cx, b))
                .unwrap_or_default(),
            else_branch: field("alternative").map(|b| lower_block(cx, b)),
        },
        "while_statement" => StmtKind::While {
            cond: lower_opt_expr(cx, field("condition"), span),
            body: field("body")
                .map(|b| lower_block(cx, b))
                .unwrap_or_default(),
        },
        "do_statement" => StmtKind::DoWhile {
            body: field("body")
                .map(|b| lower_block(cx, b))
                .unwrap_or_default(),
            cond: lower_opt_expr(cx, field("condition"), span),
        },
        "for_statement" => {
            let mut cursor = node.walk();
            let inits: Vec<Node<'_>> = node.children_by_field_name("init", &mut cursor).collect();
            let updates: Vec<Node<'_>> =
                node.children_by_field_name("update", &mut cursor).collect();
            let mut init = Vec::new();
            for it in inits {
                if it.kind() == "local_variable_declaration" {
                    lower_stmt(cx, it, &mut init);
                } else {
                    let expr = lower_expr(cx, it);
                    init.push(Stmt {
                        span: expr.span,
                        kind: StmtKind::Expr(expr),
                    });
                }
            }
            StmtKind::For {
                init,
                cond: field("condition").map(|c| lower_expr(cx, c)),
                update: updates.into_iter().map(|u| lower_expr(cx, u)).collect(),
                body: field("body")
                    .map(|b| lower_block(cx, b))
                    .unwrap_or_default(),
            }
        }
        "enhanced_for_statement" => {
            let name = field("name");
            StmtKind::ForEach {
                var: Local {
                    name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
                    ty: field("type")
                        .filter(|ty| cx.text(*ty) != "var")
                        .map(|ty| lower_type(cx, ty)),
                    init: None,
                    name_span: name.map(|n| cx.span(n)).unwrap_or(span),
                },
                iterable: lower_opt_expr(cx, field("value"), span),
                body: field("body")
                    .map(|b| lower_block(cx, b))
                    .unwrap_or_default(),
            }
        }
        "switch_expression" | "switch_statement" => lower_switch(cx, node),
        "try_statement" | "try_with_resources_statement" => lower_try(cx, node),
        "return_statement" => StmtKind::Return {
            value: children(node).next().map(|v| lower_expr(cx, v)),
            label: None,
        },
        "break_statement" => StmtKind::Break(label_of(cx, node)),
        "continue_statement" => StmtKind::Continue(label_of(cx, node)),
        "throw_statement" => StmtKind::Throw(lower_opt_expr(cx, children(node).next(), span)),
        "yield_statement" => {
            // `yield v` gives the switch expression its value and leaves the switch.
            let value = lower_opt_expr(cx, children(node).next(), span);
            out.push(Stmt {
                span,
                kind: StmtKind::Expr(value),
            });
            StmtKind::Break(None)
        }
        "block" => StmtKind::Block(lower_block(cx, node)),
        "synchronized_statement" => {
            let lock = children(node)
                .find(|kid| kid.kind() == "parenthesized_expression")
                .map(|lock| lower_expr(cx, lock));
            let mut block: Block = lock
                .into_iter()
                .map(|lock| Stmt {
                    span: lock.span,
                    kind: StmtKind::Expr(lock),
                })
                .collect();
            if let Some(body) = field("body") {
                block.extend(lower_block(cx, body));
            }
            StmtKind::Block(block)
        }
        "labeled_statement" => {
            let mut kids = children(node);
            let label = kids
                .next()
                .map(|l| cx.text(l).to_owned())
                .unwrap_or_default();
            let mut inner = Vec::new();
            if let Some(stmt) = kids.next() {
                lower_stmt(cx, stmt, &mut inner);
            }
            let body = match inner.len() {
                1 => inner.remove(0),
                _ => Stmt {
                    span,
                    kind: StmtKind::Block(inner),
                },
            };
            StmtKind::Labeled {
                label,
                body: Box::new(body),
            }
        }
        "explicit_constructor_invocation" | "assert_statement" => {
            let kind = lower_other(cx, node);
            StmtKind::Expr(cx.expr(kind, span))
        }
        ";" | "empty_statement" | "line_comment" | "block_comment" => return,
        _ => match lower_type_declaration(cx, node) {
            Some(class) => StmtKind::LocalClass(Box::new(class)),
            None => StmtKind::Expr(lower_expr(cx, node)),
        },
    };
    out.push(Stmt { kind, span });
}

fn label_of(cx: &LowerCx<'_>, node: Node<'_>) -> Option<String> {
    child_of_kind(node, "identifier").map(|label| cx.text(label).to_owned())
}

fn lower_declarator(cx: &mut LowerCx<'_>, declarator: Node<'_>, ty: Option<TypeRef>) -> Local {
    let name = declarator.child_by_field_name("name");
    let has_dimensions = declarator.child_by_field_name("dimensions").is_some();
    Local {
        name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
        ty: ty.map(|ty| {
            if has_dimensions {
                TypeRef::named(format!("{}[]", ty.name), ty.span)
            } else {
                ty
            }
        }),
        init: declarator
            .child_by_field_name("value")
            .map(|value| lower_expr(cx, value)),
        name_span: cx.span(name.unwrap_or(declarator)),
    }
}

fn lower_switch(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let scrutinee = node
        .child_by_field_name("condition")
        .map(|c| lower_expr(cx, c));
    let mut arms = Vec::new();
    let mut fallthrough = false;
    if let Some(block) = node.child_by_field_name("body") {
        for arm in children(block) {
            fallthrough |= arm.kind() == "switch_block_statement_group";
            let mut labels = Vec::new();
            let mut guard = None;
            let mut is_default = false;
            let mut body = Vec::new();
            for kid in children(arm) {
                if kid.kind() == "switch_label" {
                    is_default |= has_token(kid, "default");
                    for label in children(kid) {
                        if label.kind() == "guard" {
                            guard = children(label).next().map(|g| lower_expr(cx, g));
                        } else {
                            labels.push(lower_expr(cx, label));
                        }
                    }
                } else {
                    lower_stmt(cx, kid, &mut body);
                }
            }
            arms.push(SwitchArm {
                labels,
                guard,
                is_default,
                body,
                span: cx.span(arm),
            });
        }
    }
    StmtKind::Switch {
        scrutinee,
        arms,
        fallthrough,
    }
}

fn lower_try(cx: &mut LowerCx<'_>, node: Node<'_>) -> StmtKind {
    let mut resources = Vec::new();
    if let Some(spec) = node.child_by_field_name("resources") {
        for resource in children(spec) {
            let span = cx.span(resource);
            let kind = match resource.child_by_field_name("name") {
                Some(name) => StmtKind::Local(Local {
                    name: cx.text(name).to_owned(),
                    ty: resource
                        .child_by_field_name("type")
                        .filter(|ty| cx.text(*ty) != "var")
                        .map(|ty| lower_type(cx, ty)),
                    init: resource
                        .child_by_field_name("value")
                        .map(|value| lower_expr(cx, value)),
                    name_span: cx.span(name),
                }),
                None => StmtKind::Expr(lower_opt_expr(cx, children(resource).next(), span)),
            };
            resources.push(Stmt { kind, span });
        }
    }
    let mut catches = Vec::new();
    let mut finally = None;
    for kid in children(node) {
        match kid.kind() {
            "catch_clause" => {
                let param = child_of_kind(kid, "catch_formal_parameter");
                let types: Vec<TypeRef> = param
                    .and_then(|p| child_of_kind(p, "catch_type"))
                    .map(|types| children(types).map(|ty| lower_type(cx, ty)).collect())
                    .unwrap_or_default();
                let name = param.and_then(|p| p.child_by_field_name("name"));
                catches.push(Catch {
                    param: Param {
                        name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
                        ty: types.first().cloned(),
                        span: cx.span(param.unwrap_or(kid)),
                    },
                    types,
                    body: kid
                        .child_by_field_name("body")
                        .map(|b| lower_block(cx, b))
                        .unwrap_or_default(),
                    span: cx.span(kid),
                });
            }
            "finally_clause" => {
                finally = child_of_kind(kid, "block").map(|b| lower_block(cx, b));
            }
            _ => {}
        }
    }
    StmtKind::Try {
        resources,
        body: node
            .child_by_field_name("body")
            .map(|b| lower_block(cx, b))
            .unwrap_or_default(),
        catches,
        finally,
    }
}

fn lower_opt_expr(cx: &mut LowerCx<'_>, node: Option<Node<'_>>, fallback: crate::ir::Span) -> Expr {
    match node {
        Some(node) => lower_expr(cx, node),
        None => cx.expr(ExprKind::Other(Vec::new()), fallback),
    }
}

fn lower_args(cx: &mut LowerCx<'_>, args: Node<'_>) -> Vec<Expr> {
    children(args).map(|arg| lower_expr(cx, arg)).collect()
}

fn lower_expr(cx: &mut LowerCx<'_>, node: Node<'_>) -> Expr {
    let span = cx.span(node);
    match cx.nested(Nesting::Code, node, |cx| lower_expr_kind(cx, node)) {
        Some(kind) => cx.expr(kind, span),
        None => cx.expr(ExprKind::Other(Vec::new()), span),
    }
}

fn lower_expr_kind(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let field = |name: &str| node.child_by_field_name(name);
    let boxed =
        |cx: &mut LowerCx<'_>, name: &str| Box::new(lower_opt_expr(cx, field(name), cx.span(node)));
    match node.kind() {
        "identifier" => ExprKind::Name(cx.text(node).to_owned()),
        "this" => ExprKind::This(None),
        "super" => ExprKind::Super,
        "null_literal" => ExprKind::Null,
        "true" => ExprKind::Bool(true),
        "false" => ExprKind::Bool(false),
        "decimal_integer_literal" | "hex_integer_literal" | "binary_integer_literal" => {
            super::int_value(cx.text(node)).map_or(ExprKind::Literal, ExprKind::Int)
        }
        kind if kind.ends_with("_literal") => ExprKind::Literal,
        "parenthesized_expression" => match children(node).next() {
            Some(inner) => lower_expr(cx, inner).kind,
            None => ExprKind::Other(Vec::new()),
        },
        "field_access" => {
            let receiver = boxed(cx, "object");
            match field("field") {
                Some(name) if name.kind() == "this" => ExprKind::This(receiver.dotted_name()),
                Some(name) => ExprKind::Field {
                    receiver,
                    name: cx.text(name).to_owned(),
                    name_span: cx.span(name),
                },
                None => ExprKind::Other(vec![*receiver]),
            }
        }
        "method_invocation" => {
            let receiver = field("object").map(|obj| Box::new(lower_expr(cx, obj)));
            let name = field("name");
            ExprKind::Call(Call {
                receiver,
                name: name.map(|n| cx.text(n).to_owned()).unwrap_or_default(),
                name_span: cx.span(name.unwrap_or(node)),
                args: field("arguments")
                    .map(|args| lower_args(cx, args))
                    .unwrap_or_default(),
                is_safe: false,
            })
        }
        "object_creation_expression" => {
            let ty = field("type")
                .map(|ty| lower_type(cx, ty))
                .unwrap_or(TypeRef::named(String::new(), cx.span(node)));
            let args = field("arguments")
                .map(|args| lower_args(cx, args))
                .unwrap_or_default();
            let body = child_of_kind(node, "class_body")
                .map(|body| Box::new(lower_anonymous_class(cx, body, ty.clone())));
            let ty = Box::new(ty);
            ExprKind::New { ty, args, body }
        }
        "lambda_expression" => {
            let params = match field("parameters") {
                Some(p) if p.kind() == "identifier" => vec![Param {
                    name: cx.text(p).to_owned(),
                    ty: None,
                    span: cx.span(p),
                }],
                Some(p) if p.kind() == "inferred_parameters" => children(p)
                    .map(|name| Param {
                        name: cx.text(name).to_owned(),
                        ty: None,
                        span: cx.span(name),
                    })
                    .collect(),
                Some(p) => lower_params(cx, p),
                None => Vec::new(),
            };
            let body = match field("body") {
                Some(b) if b.kind() == "block" => lower_body(cx, b),
                Some(b) => {
                    let expr = lower_expr(cx, b);
                    Body {
                        span: expr.span,
                        stmts: vec![Stmt {
                            span: expr.span,
                            kind: StmtKind::Expr(expr),
                        }],
                    }
                }
                None => Body {
                    stmts: Vec::new(),
                    span: cx.span(node),
                },
            };
            ExprKind::Lambda {
                params,
                body: Box::new(body),
            }
        }
        "method_reference" => {
            let mut kids = children(node);
            let receiver = match kids.next() {
                Some(first) if is_type_node(first) => ExprKind::Name(type_name(cx, first)),
                Some(first) => lower_expr_kind(cx, first),
                None => ExprKind::Other(Vec::new()),
            };
            let receiver = Box::new(cx.expr(receiver, span_of_first(cx, node)));
            let name = if has_token(node, "new") {
                "new".to_owned()
            } else {
                kids.last()
                    .map(|n| cx.text(n).to_owned())
                    .unwrap_or_default()
            };
            ExprKind::MethodRef { receiver, name }
        }
        "binary_expression" => {
            let op = match field("operator").map(|op| op.kind()) {
                Some("==") => BinaryOp::Eq,
                Some("!=") => BinaryOp::Ne,
                Some("&&") => BinaryOp::And,
                Some("||") => BinaryOp::Or,
                Some("<") => BinaryOp::Lt,
                Some("<=") => BinaryOp::Le,
                Some(">") => BinaryOp::Gt,
                Some(">=") => BinaryOp::Ge,
                _ => BinaryOp::Other,
            };
            ExprKind::Binary {
                op,
                lhs: boxed(cx, "left"),
                rhs: boxed(cx, "right"),
            }
        }
        "unary_expression" if field("operator").is_some_and(|op| op.kind() == "!") => {
            ExprKind::Not(boxed(cx, "operand"))
        }
        "unary_expression" if field("operator").is_some_and(|op| op.kind() == "-") => {
            let operand = boxed(cx, "operand");
            match operand.kind {
                ExprKind::Int(value) => ExprKind::Int(-value),
                _ => ExprKind::Other(vec![*operand]),
            }
        }
        "assignment_expression" => {
            let target = boxed(cx, "left");
            let value = boxed(cx, "right");
            if field("operator").is_some_and(|op| op.kind() == "=") {
                ExprKind::Assign { target, value }
            } else {
                // `x += 1`: a new value the analysis does not follow.
                let span = value.span;
                let value = Box::new(cx.expr(ExprKind::Other(vec![*value]), span));
                ExprKind::Assign { target, value }
            }
        }
        // `i++`, `--i`: likewise.
        "update_expression" => match children(node).find(|kid| kid.is_named()) {
            Some(operand) => {
                let target = Box::new(lower_expr(cx, operand));
                let value = Box::new(cx.expr(ExprKind::Other(Vec::new()), cx.span(node)));
                ExprKind::Assign { target, value }
            }
            None => ExprKind::Other(Vec::new()),
        },
        "cast_expression" => ExprKind::Cast {
            ty: Box::new(
                field("type")
                    .map(|ty| lower_type(cx, ty))
                    .unwrap_or(TypeRef::named(String::new(), cx.span(node))),
            ),
            expr: boxed(cx, "value"),
        },
        "instanceof_expression" => {
            let expr = boxed(cx, "left");
            let ty = field("right")
                .or_else(|| children(node).find(|kid| is_type_node(*kid)))
                .map(|ty| lower_type(cx, ty));
            match ty {
                Some(ty) => ExprKind::TypeTest {
                    expr,
                    ty: Box::new(ty),
                    negated: false,
                },
                None => ExprKind::Other(vec![*expr]),
            }
        }
        "ternary_expression" => {
            let span = cx.span(node);
            let cond = lower_opt_expr(cx, field("condition"), span);
            let branch = |cx: &mut LowerCx<'_>, name: &str| {
                let expr = lower_opt_expr(cx, field(name), span);
                vec![Stmt {
                    span: expr.span,
                    kind: StmtKind::Expr(expr),
                }]
            };
            let then_branch = branch(cx, "consequence");
            let else_branch = Some(branch(cx, "alternative"));
            ExprKind::Control(Box::new(Stmt {
                span,
                kind: StmtKind::If {
                    cond,
                    then_branch,
                    else_branch,
                },
            }))
        }
        "switch_expression" => ExprKind::Control(Box::new(Stmt {
            span: cx.span(node),
            kind: lower_switch(cx, node),
        })),
        _ => lower_other(cx, node),
    }
}

fn span_of_first(cx: &LowerCx<'_>, node: Node<'_>) -> crate::ir::Span {
    cx.span(children(node).next().unwrap_or(node))
}

/// Lowers an expression the analysis does not distinguish: its expression children are kept.
fn lower_other(cx: &mut LowerCx<'_>, node: Node<'_>) -> ExprKind {
    let kids = children(node)
        .filter(|kid| {
            !is_type_node(*kid)
                && !matches!(kid.kind(), "type_arguments" | "dimensions" | "modifiers")
        })
        .map(|kid| lower_expr(cx, kid))
        .collect();
    ExprKind::Other(kids)
}
