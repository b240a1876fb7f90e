//! Data-driven tests of the control-flow graphs and the dataflow solver.
//!
//! A toy analysis records which calls happened before each `probe()` call: `may` on some
//! path, `must` on every path, plus null-check facts (`x!=null`) from branch edges.
//! Each `probe()` in the fixtures carries the expected `// ^^^^^ may: …; must: …`.
//! They live in the crate because the solver is private to it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::support::{assert_annotations, language_of, Annotation};
use checker::cfg::{Cfg, CloseTarget, EdgeKind, Node, NodeKind};
use checker::flow::{solve, Analysis, Lattice};
use checker::ir::{Class, ExprKind};

/// `None` for unreached points; otherwise the may and must sets.
#[derive(Clone, PartialEq, Debug)]
struct CallsBefore(Option<(BTreeSet<String>, BTreeSet<String>)>);

impl Lattice for CallsBefore {
    fn bottom() -> Self {
        CallsBefore(None)
    }

    fn join(&mut self, other: &Self) -> bool {
        let Some((other_may, other_must)) = &other.0 else {
            return false;
        };
        match &mut self.0 {
            None => {
                self.0 = other.0.clone();
                true
            }
            Some((may, must)) => {
                let old = (may.len(), must.len());
                may.extend(other_may.iter().cloned());
                must.retain(|fact| other_must.contains(fact));
                old != (may.len(), must.len())
            }
        }
    }
}

struct CallsBeforeProbe;

impl<'a> Analysis<'a> for CallsBeforeProbe {
    type State = CallsBefore;

    fn entry_state(&self) -> CallsBefore {
        CallsBefore(Some(Default::default()))
    }

    fn transfer(&self, node: &Node<'a>, edge: EdgeKind, input: &CallsBefore) -> CallsBefore {
        let fact = match (node.kind, edge) {
            (_, EdgeKind::Exception) => None,
            (NodeKind::Call(expr), _) => match &expr.kind {
                ExprKind::Call(call) if call.name != "probe" => Some(call.name.clone()),
                _ => None,
            },
            (NodeKind::Close(CloseTarget::Local(local)), _) => {
                Some(format!("close({})", local.name))
            }
            (NodeKind::Close(CloseTarget::Expr(expr)), _) => {
                expr.dotted_name().map(|name| format!("close({name})"))
            }
            (NodeKind::Catch(catch), _) => Some(format!("catch({})", catch.param.name)),
            (NodeKind::NotNull(tested), EdgeKind::True | EdgeKind::False) => {
                let op = if edge == EdgeKind::True { "!=" } else { "==" };
                tested.dotted_name().map(|name| format!("{name}{op}null"))
            }
            (NodeKind::Branch(cond), EdgeKind::True | EdgeKind::False) => {
                cond.null_check().and_then(|(tested, is_eq)| {
                    let holds_null = is_eq == (edge == EdgeKind::True);
                    let op = if holds_null { "==" } else { "!=" };
                    tested.dotted_name().map(|name| format!("{name}{op}null"))
                })
            }
            _ => None,
        };
        let mut out = input.clone();
        if let (Some(fact), Some((may, must))) = (fact, &mut out.0) {
            may.insert(fact.clone());
            must.insert(fact);
        }
        out
    }
}

fn render(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// Joins the states of every copy of each `probe()` call (finally blocks are copied per exit
/// path) into one state per source location.
fn probes_of_class(
    class: &Class,
    language: checker::ir::Language,
    out: &mut BTreeMap<(u32, u32, u32), CallsBefore>,
) {
    for body in class
        .methods
        .iter()
        .filter_map(|m| m.body.as_ref())
        .chain(&class.initializers)
    {
        let cfg = Cfg::build(body, language);
        let solution = solve(&cfg, &CallsBeforeProbe);
        assert!(solution.converged);
        for (index, node) in cfg.nodes.iter().enumerate() {
            let NodeKind::Call(expr) = node.kind else {
                continue;
            };
            let ExprKind::Call(call) = &expr.kind else {
                continue;
            };
            if call.name != "probe" {
                continue;
            }
            let id = checker::cfg::NodeId(index as u32);
            let at = &call.name_span;
            out.entry((at.start.line, at.start.col, at.end.col))
                .or_insert_with(CallsBefore::bottom)
                .join(solution.state_at(id));
        }
    }
    for nested in &class.classes {
        probes_of_class(nested, language, out);
    }
}

#[track_caller]
fn check(path: &Path) {
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let language = language_of(path);
    let ir = checker::lang::lower(language, &text);
    assert!(
        ir.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        ir.syntax_errors
    );
    let mut states = BTreeMap::new();
    for class in &ir.classes {
        probes_of_class(class, language, &mut states);
    }
    let actual = states
        .into_iter()
        .map(|((line, start, end), state)| Annotation {
            line,
            cols: (start, end),
            text: match state.0 {
                Some((may, must)) => format!("may: {}; must: {}", render(&may), render(&must))
                    .trim_end()
                    .to_owned(),
                None => "unreachable".to_owned(),
            },
        })
        .collect();
    assert_annotations(path, &text, actual);
}

#[test]
fn java_flow() {
    check(Path::new("tests/fixtures/java/Flow.java"));
}

#[test]
fn kotlin_flow() {
    check(Path::new("tests/fixtures/kotlin/Flow.kt"));
}

/// Counts the solver's transfers; its lattice only says whether a point is reached, with
/// the number of paths that reach it so far (capped), so every new path changes it.
struct CountingPaths {
    transfers: std::cell::Cell<usize>,
}

#[derive(Clone, PartialEq, Debug)]
struct Paths(u32);

impl Lattice for Paths {
    fn bottom() -> Self {
        Paths(0)
    }

    fn join(&mut self, other: &Self) -> bool {
        let joined = self.0.saturating_add(other.0).min(1 << 20);
        std::mem::replace(&mut self.0, joined) != joined
    }
}

impl<'a> Analysis<'a> for CountingPaths {
    type State = Paths;

    fn entry_state(&self) -> Paths {
        Paths(1)
    }

    fn transfer(&self, _: &Node<'a>, _: EdgeKind, input: &Paths) -> Paths {
        self.transfers.set(self.transfers.get() + 1);
        input.clone()
    }
}

/// On a body without loops the solver visits each node once, after every path into it:
/// a chain of `if`s visited in arrival order would cost a visit of the rest of the chain per
/// branch (quadratic; fuzz finding F9's chains of conditionals).
#[test]
fn acyclic_bodies_visit_each_node_once() {
    for ifs in [1, 10, 100] {
        let mut text = String::from("class A { void f(boolean c) {\n");
        for i in 0..ifs {
            // Branches of unequal length: in arrival order, the short one reaches the join first.
            text.push_str(&format!(
                "if (c) {{ a{i}(); }} else {{ b{i}(); b{i}(); b{i}(); }}\n"
            ));
        }
        text.push_str("} }\n");
        let ir = checker::lang::lower(checker::ir::Language::Java, &text);
        let body = ir.classes[0].methods[0]
            .body
            .as_ref()
            .expect("f has a body");
        let cfg = Cfg::build(body, checker::ir::Language::Java);
        let analysis = CountingPaths {
            transfers: std::cell::Cell::new(0),
        };
        let solution = solve(&cfg, &analysis);
        assert!(solution.converged);
        let edges: usize = cfg.nodes.iter().map(|node| node.succs.len()).sum();
        assert!(
            analysis.transfers.get() <= edges,
            "{ifs} ifs: {} transfers over {edges} edges",
            analysis.transfers.get()
        );
    }
}
