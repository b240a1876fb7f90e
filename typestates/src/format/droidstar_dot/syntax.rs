//! The DOT subset DroidStar writes: tokens with their line:col, and a reader.
//! The reader recovers at the end of each statement, so one run reports every syntax error.

use crate::format::Diagnostic;

/// What a DroidStar result says, before any meaning is given to its labels.
pub(super) struct Graph {
    /// False when the text is not a `digraph` at all; nothing else is then reported.
    pub is_digraph: bool,
    /// The nodes in order of first mention.
    pub nodes: Vec<NodeRef>,
    /// The edges in order.
    pub edges: Vec<RawEdge>,
    /// Every lexical and syntax error.
    pub errors: Vec<Diagnostic>,
}

/// Reads `text`, from `path`, into nodes and edges.
pub(super) fn read(path: &str, text: &str) -> Graph {
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
    Graph {
        is_digraph,
        nodes: reader.nodes,
        edges: reader.edges,
        errors: reader.errors,
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
pub(super) struct NodeRef {
    /// The id, unquoted.
    pub id: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

/// One `a -> b [label=x]` edge.
pub(super) struct RawEdge {
    /// The source node.
    pub from: NodeRef,
    /// The target node.
    pub to: NodeRef,
    /// The `label` attribute's value, where it was written.
    pub label: Option<NodeRef>,
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
