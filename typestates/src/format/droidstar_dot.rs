//! Imports the automata DroidStar learned, from its Graphviz results (`X-diagram.gv`).
//!
//! DroidStar writes `digraph { 0 -> 1[label=start]; 1 -> 3[label=delta_finished]; }`: nodes
//! are numbers and node 0 is initial; a label is a callin, `delta_X` the callback `X` arriving
//! when time passes, and `delta_beta` time passing quietly. The error sink is left implicit: a
//! callin without an edge is disabled, and a state without a `delta_*` edge fails when time
//! passes. Labels may be quoted or not; node and graph attributes are ignored.
//!
//! DroidStar knows symbols, not Java methods, so each callin is bound to an instance method of
//! the same name with any overload, and each callback to an overridden method of the same name;
//! states are named `s0`, `s1`, … after DroidStar's numbers.

use std::collections::HashMap;

use super::lexer::is_word;
use super::{Diagnostic, RESERVED};
use crate::binding::{CallbackBinding, CallinBinding, MethodKind, MethodRef, Params};
use crate::model::{
    Callback, CallbackId, Callin, Origin, State, StateId, Step, Typestate, WaitOutcome,
};
use crate::provenance::{Provenance, ProvenanceKind};

/// Reads a DroidStar result, read from `path`, as the typestate of `class`, or returns every
/// error found at file:line:col.
pub fn from_droidstar_dot(
    path: &str,
    text: &str,
    class: &str,
) -> Result<Typestate, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let tokens = lex(text, &mut |line, col, message| {
        errors.push(Diagnostic::new(path, line, col, message));
    });
    let mut reader = Reader {
        path,
        tokens: &tokens,
        next: 0,
        errors,
        edges: Vec::new(),
        nodes: Vec::new(),
    };
    let is_digraph = reader.graph();
    let Reader {
        mut errors,
        edges,
        nodes,
        ..
    } = reader;
    let typestate = is_digraph.then(|| {
        Builder {
            path,
            errors: &mut errors,
        }
        .build(class, &nodes, &edges)
    });
    match typestate {
        Some(typestate) if errors.is_empty() => Ok(typestate),
        _ => {
            errors.sort_by_key(|e| (e.line, e.col));
            Err(errors)
        }
    }
}

/// A token of the DOT subset DroidStar writes, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    kind: Kind,
    line: usize,
    col: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// An identifier, a number or a quoted string, unquoted.
    Id(String),
    /// `->` or `--`.
    Edge,
    /// One of `{ } [ ] ; , =`.
    Punct(char),
}

/// The tokens of `text`. A line with a lexical error is reported and dropped whole: DroidStar
/// writes one statement per line, so what the parser would say about the rest of it usually
/// follows from the typo.
fn lex(text: &str, error: &mut dyn FnMut(usize, usize, String)) -> Vec<Token> {
    let mut tokens = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_start = tokens.len();
        let mut clean = true;
        let mut error = |line, col, message| {
            clean = false;
            error(line, col, message);
        };
        let chars: Vec<char> = line.chars().collect();
        let token = |kind, i: usize| Token {
            kind,
            line: index + 1,
            col: i + 1,
        };
        let mut i = 0;
        if line.trim_start().starts_with('#') {
            continue;
        }
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
            } else if c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            } else if c == '-' && matches!(chars.get(i + 1), Some('>' | '-')) {
                tokens.push(token(Kind::Edge, i));
                i += 2;
            } else if "{}[];,=".contains(c) {
                tokens.push(token(Kind::Punct(c), i));
                i += 1;
            } else if c == '"' {
                let start = i;
                let mut value = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    value.push(chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    tokens.push(token(Kind::Id(value), start));
                    i += 1;
                } else {
                    error(
                        index + 1,
                        start + 1,
                        "unterminated string (expected a closing `\"` on the same line)".to_owned(),
                    );
                }
            } else if c.is_alphanumeric() || c == '_' || c == '.' {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
                {
                    i += 1;
                }
                tokens.push(token(Kind::Id(chars[start..i].iter().collect()), start));
            } else {
                error(index + 1, i + 1, format!("unexpected character `{c}`"));
                i += 1;
            }
        }
        if !clean {
            tokens.truncate(line_start);
        }
    }
    tokens
}

/// A node id with where it was written.
#[derive(Clone, Debug)]
struct NodeRef {
    id: String,
    line: usize,
    col: usize,
}

/// One `a -> b [label=x]` edge.
struct RawEdge {
    from: NodeRef,
    to: NodeRef,
    label: Option<NodeRef>,
}

/// Reads the token stream into nodes (in order of first mention) and edges.
struct Reader<'a> {
    path: &'a str,
    tokens: &'a [Token],
    next: usize,
    errors: Vec<Diagnostic>,
    edges: Vec<RawEdge>,
    nodes: Vec<NodeRef>,
}

type Expected = (usize, usize, String);

impl Reader<'_> {
    /// `[strict] digraph [ID] { statements }`; false when this is not a digraph at all.
    fn graph(&mut self) -> bool {
        let header = (|| {
            self.eat_id("strict");
            if !self.eat_id("digraph") {
                return Err(self.expected("`digraph`"));
            }
            if !self.peek_punct('{') {
                self.id("the graph's name")?;
            }
            self.punct('{', "`{`")
        })();
        if let Err(error) = header {
            self.report(error);
            return false;
        }
        while self.next < self.tokens.len() && !self.peek_punct('}') {
            let start = self.next;
            if let Err(error) = self.statement() {
                self.report(error);
                // Recover at the end of the statement.
                while self.next < self.tokens.len()
                    && !self.peek_punct(';')
                    && !self.peek_punct('}')
                {
                    self.next += 1;
                }
            }
            self.eat_punct(';');
            if self.next == start {
                self.next += 1;
            }
        }
        if let Err(error) = self.punct('}', "`}` closing the graph") {
            self.report(error);
        }
        true
    }

    /// A node, edge or attribute statement.
    fn statement(&mut self) -> Result<(), Expected> {
        let first = self.id("a node, an edge or an attribute")?;
        if matches!(first.id.as_str(), "graph" | "node" | "edge") && self.peek_punct('[') {
            return self.attributes().map(drop);
        }
        if self.eat_punct('=') {
            return self.id("the attribute's value").map(drop);
        }
        let mut chain = vec![first];
        while self.eat_edge() {
            chain.push(self.id("the target node")?);
        }
        let attributes = if self.peek_punct('[') {
            self.attributes()?
        } else {
            Vec::new()
        };
        for node in &chain {
            self.mention(node);
        }
        let label = attributes
            .into_iter()
            .find(|(key, _)| key.id == "label")
            .map(|(_, value)| value);
        for pair in chain.windows(2) {
            self.edges.push(RawEdge {
                from: pair[0].clone(),
                to: pair[1].clone(),
                label: label.clone(),
            });
        }
        Ok(())
    }

    /// One or more `[key=value, ...]` lists.
    fn attributes(&mut self) -> Result<Vec<(NodeRef, NodeRef)>, Expected> {
        let mut attributes = Vec::new();
        while self.eat_punct('[') {
            while !self.eat_punct(']') {
                let key = self.id("an attribute name or `]`")?;
                self.punct('=', "`=` after the attribute name")?;
                let value = self.id("the attribute's value")?;
                attributes.push((key, value));
                if !self.eat_punct(',') {
                    self.eat_punct(';');
                }
            }
        }
        Ok(attributes)
    }

    fn mention(&mut self, node: &NodeRef) {
        if !self.nodes.iter().any(|n| n.id == node.id) {
            self.nodes.push(node.clone());
        }
    }

    fn report(&mut self, (line, col, message): Expected) {
        self.errors
            .push(Diagnostic::new(self.path, line, col, message));
    }

    fn expected(&self, what: &str) -> Expected {
        match self.tokens.get(self.next) {
            Some(token) => {
                let found = match &token.kind {
                    Kind::Id(id) => format!("`{id}`"),
                    Kind::Edge => "an edge operator".to_owned(),
                    Kind::Punct(c) => format!("`{c}`"),
                };
                (
                    token.line,
                    token.col,
                    format!("expected {what}, found {found}"),
                )
            }
            None => {
                let (line, col) = self.tokens.last().map_or((1, 1), |t| (t.line, t.col + 1));
                (
                    line,
                    col,
                    format!("expected {what}, found the end of the file"),
                )
            }
        }
    }

    fn id(&mut self, what: &str) -> Result<NodeRef, Expected> {
        match self.tokens.get(self.next) {
            Some(Token {
                kind: Kind::Id(id),
                line,
                col,
            }) => {
                self.next += 1;
                Ok(NodeRef {
                    id: id.clone(),
                    line: *line,
                    col: *col,
                })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn eat_id(&mut self, word: &str) -> bool {
        let matched = matches!(self.tokens.get(self.next), Some(Token { kind: Kind::Id(id), .. }) if id == word);
        self.next += usize::from(matched);
        matched
    }

    fn peek_punct(&self, c: char) -> bool {
        matches!(self.tokens.get(self.next), Some(Token { kind: Kind::Punct(p), .. }) if *p == c)
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let matched = self.peek_punct(c);
        self.next += usize::from(matched);
        matched
    }

    fn eat_edge(&mut self) -> bool {
        let matched = matches!(
            self.tokens.get(self.next),
            Some(Token {
                kind: Kind::Edge,
                ..
            })
        );
        self.next += usize::from(matched);
        matched
    }

    fn punct(&mut self, c: char, what: &str) -> Result<(), Expected> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }
}

/// What a label means.
enum Symbol<'a> {
    Callin(&'a str),
    Callback(&'a str),
    Quiet,
}

fn symbol(label: &str) -> Symbol<'_> {
    match label.strip_prefix("delta_") {
        Some("beta") => Symbol::Quiet,
        Some(callback) => Symbol::Callback(callback),
        None => Symbol::Callin(label),
    }
}

/// Builds the typestate from the nodes and edges, checking it is deterministic.
struct Builder<'a> {
    path: &'a str,
    errors: &'a mut Vec<Diagnostic>,
}

impl Builder<'_> {
    fn error(&mut self, at: &NodeRef, message: String) {
        self.errors
            .push(Diagnostic::new(self.path, at.line, at.col, message));
    }

    fn build(&mut self, class: &str, nodes: &[NodeRef], edges: &[RawEdge]) -> Typestate {
        let state_of: HashMap<&str, StateId> = nodes
            .iter()
            .enumerate()
            .map(|(i, node)| (node.id.as_str(), StateId(i as u32)))
            .collect();
        let mut callins: Vec<Callin> = Vec::new();
        let mut callbacks: Vec<Callback> = Vec::new();
        for node in nodes.iter().filter(|n| !is_word(&n.id)) {
            self.error(node, format!("`{}` cannot name a state", node.id));
        }
        let mut states: Vec<State> = nodes
            .iter()
            .map(|node| State {
                name: format!("s{}", node.id),
                description: None,
                on_callin: Vec::new(),
                on_wait: WaitOutcome::Error {
                    origin: Origin::default(),
                },
            })
            .collect();
        let mut seen: HashMap<(StateId, Option<String>), &NodeRef> = HashMap::new();
        for edge in edges {
            let Some(label) = &edge.label else {
                self.error(&edge.from, "expected a `label` on the edge".to_owned());
                continue;
            };
            let from = state_of[edge.from.id.as_str()];
            let target = state_of[edge.to.id.as_str()];
            let symbol = symbol(&label.id);
            let name = match symbol {
                Symbol::Callin(name) | Symbol::Callback(name) => Some(name),
                Symbol::Quiet => None,
            };
            if let Some(name) = name {
                if !is_word(name) || RESERVED.contains(&name) {
                    self.error(label, format!("`{name}` cannot name a symbol"));
                    continue;
                }
            }
            // Callbacks and quiet share the one time-passing move of a state.
            let key = (
                from,
                matches!(symbol, Symbol::Callin(_)).then(|| label.id.clone()),
            );
            if let Some(first) = seen.get(&key) {
                let edge_kind = match symbol {
                    Symbol::Callin(name) => format!("a `{name}` edge"),
                    Symbol::Callback(_) | Symbol::Quiet => "a `delta_*` edge".to_owned(),
                };
                let message = format!(
                    "node {} already has {edge_kind} (line {}): the automaton must be deterministic",
                    edge.from.id, first.line
                );
                self.error(label, message);
                continue;
            }
            seen.insert(key, label);
            let on_wait = match symbol {
                Symbol::Callin(name) => {
                    if callbacks.iter().any(|c| c.name == name) {
                        self.error(label, format!("`{name}` is also a callback"));
                        continue;
                    }
                    let callin =
                        index_or_push(&mut callins, |c| c.name == name, || callin_named(name));
                    let on_callin = &mut states[from.index()].on_callin;
                    on_callin.resize(callins.len(), Step::unknown_error());
                    on_callin[callin] = Step::Enabled {
                        target,
                        ignored: false,
                        origin: Origin::default(),
                    };
                    continue;
                }
                Symbol::Callback(name) => {
                    if callins.iter().any(|c| c.name == name) {
                        self.error(label, format!("`{name}` is also a callin"));
                        continue;
                    }
                    WaitOutcome::Callback {
                        callback: CallbackId(index_or_push(
                            &mut callbacks,
                            |c| c.name == name,
                            || callback_named(name),
                        ) as u32),
                        target,
                        origin: Origin::default(),
                    }
                }
                Symbol::Quiet => WaitOutcome::Quiet {
                    target,
                    origin: Origin::default(),
                },
            };
            states[from.index()].on_wait = on_wait;
        }
        for state in &mut states {
            state.on_callin.resize(callins.len(), Step::unknown_error());
        }
        let initial = match state_of.get("0") {
            Some(initial) => *initial,
            None => {
                // With no node at all, a syntax error has usually said why already.
                match nodes.first() {
                    Some(first) => self.error(
                        first,
                        "expected node 0, DroidStar's initial state".to_owned(),
                    ),
                    None if self.errors.is_empty() => self.errors.push(Diagnostic::new(
                        self.path,
                        1,
                        1,
                        "expected at least one edge".to_owned(),
                    )),
                    None => {}
                }
                StateId(0)
            }
        };
        Typestate {
            class: class.to_owned(),
            summary: None,
            provenance: Provenance {
                kind: ProvenanceKind::Droidstar,
                sources: vec![format!("DroidStar result {}", self.path)],
                platform: None,
                stats: None,
            },
            notes: Vec::new(),
            callins,
            callbacks,
            states,
            initial,
            examples: Vec::new(),
        }
    }
}

/// The index of the first item `is` accepts, after pushing `make()` if there is none.
fn index_or_push<T>(
    items: &mut Vec<T>,
    is: impl Fn(&T) -> bool,
    make: impl FnOnce() -> T,
) -> usize {
    items.iter().position(is).unwrap_or_else(|| {
        items.push(make());
        items.len() - 1
    })
}

fn callin_named(name: &str) -> Callin {
    Callin {
        name: name.to_owned(),
        binding: CallinBinding {
            methods: vec![MethodRef {
                kind: MethodKind::Instance,
                class: None,
                name: name.to_owned(),
                params: Params::Any,
            }],
            condition: None,
        },
        creates: None,
    }
}

fn callback_named(name: &str) -> Callback {
    Callback {
        name: name.to_owned(),
        binding: CallbackBinding::Override {
            class: None,
            method: name.to_owned(),
        },
    }
}
