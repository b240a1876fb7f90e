//! Source positions in an experiment file.
//! It turns byte offsets to `line:col`, and finds the span of a field named by a path (for errors the agent reports against its JSON experiment).
//! It also finds the `"<fill: …>"` placeholders a draft leaves for the user.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// A position in an experiment file, 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The experiment file.
    pub file: PathBuf,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// The text of an experiment file with its parsed, spanned tree.
pub(crate) struct Source<'a> {
    file: &'a Path,
    text: &'a str,
    tree: Option<Spanned<DeTable<'a>>>,
}

/// One step of a field path: a table key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// A field path as written in messages: `callins.schedule.args[0]`.
pub(crate) fn render_path(path: &[Segment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    out
}

/// Parses a path such as `experiment.callins.schedule.args[0]` into segments.
pub(crate) fn parse_path(path: &str) -> Vec<Segment> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|it| !it.is_empty()) {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if !key.is_empty() {
            segments.push(Segment::Key(key.to_owned()));
        }
        while let Some(close) = rest.find(']') {
            if let Ok(index) = rest[1..close].parse() {
                segments.push(Segment::Index(index));
            }
            rest = &rest[close + 1..];
        }
    }
    segments
}

impl<'a> Source<'a> {
    /// The file's text; the tree is absent if the text is not valid TOML.
    pub(crate) fn new(file: &'a Path, text: &'a str) -> Source<'a> {
        Source {
            file,
            text,
            tree: DeTable::parse(text).ok(),
        }
    }

    /// The location of a byte offset.
    pub(crate) fn location(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |it| it + 1);
        Location {
            file: self.file.to_owned(),
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }

    /// The location of the deepest field of `path` the file has (the file's start if none).
    pub(crate) fn locate(&self, path: &[Segment]) -> Location {
        self.location(self.span_of(path).map_or(0, |it| it.start))
    }

    fn span_of(&self, path: &[Segment]) -> Option<Range<usize>> {
        let tree = self.tree.as_ref()?;
        let mut span = None;
        let mut table = tree.get_ref();
        let mut current: Option<&Spanned<DeValue<'_>>> = None;
        for segment in path {
            let next = match (segment, current.map(Spanned::get_ref)) {
                (Segment::Key(key), None) => lookup(table, key),
                (Segment::Key(key), Some(DeValue::Table(inner))) => {
                    table = inner;
                    lookup(table, key)
                }
                (Segment::Index(index), Some(DeValue::Array(items))) => items.get(*index),
                _ => None,
            };
            let Some(next) = next else { break };
            span = Some(next.span());
            current = Some(next);
        }
        span
    }

    /// Every `"<fill: …>"` placeholder string, with its path.
    pub(crate) fn placeholders(&self) -> Vec<(Vec<Segment>, Location, String)> {
        let mut found = Vec::new();
        if let Some(tree) = &self.tree {
            for (key, value) in tree.get_ref() {
                let path = vec![Segment::Key(key.get_ref().to_string())];
                self.collect_placeholders(value, path, &mut found);
            }
        }
        found
    }

    fn collect_placeholders(
        &self,
        value: &Spanned<DeValue<'_>>,
        path: Vec<Segment>,
        found: &mut Vec<(Vec<Segment>, Location, String)>,
    ) {
        match value.get_ref() {
            DeValue::String(text) if is_placeholder(text) => {
                found.push((path, self.location(value.span().start), text.to_string()));
            }
            DeValue::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let mut path = path.clone();
                    path.push(Segment::Index(index));
                    self.collect_placeholders(item, path, found);
                }
            }
            DeValue::Table(table) => {
                for (key, item) in table {
                    let mut path = path.clone();
                    path.push(Segment::Key(key.get_ref().to_string()));
                    self.collect_placeholders(item, path, found);
                }
            }
            _ => {}
        }
    }
}

fn lookup<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(name, _)| name.get_ref().as_ref() == key)
        .map(|(_, value)| value)
}

/// The marker a draft writes where the user must supply a value.
pub const PLACEHOLDER_PREFIX: &str = "<fill:";

/// Whether a string is a draft's placeholder.
pub(crate) fn is_placeholder(text: &str) -> bool {
    text.starts_with(PLACEHOLDER_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_and_locate_fields() {
        let path = parse_path("experiment.callins.schedule.args[1]");
        assert_eq!(render_path(&path[1..]), "callins.schedule.args[1]");
        let text = "class = \"C\"\n\n[callins.schedule]\ncall = \"schedule\"\nargs = [1, \"<fill: long>\"]\n";
        let source = Source::new(Path::new("x.toml"), text);
        let at = source.locate(&path[1..]);
        assert_eq!((at.line, at.column), (5, 12));
        let placeholders = source.placeholders();
        assert_eq!(placeholders.len(), 1);
        assert_eq!(render_path(&placeholders[0].0), "callins.schedule.args[1]");
        assert_eq!(source.locate(&parse_path("callins.nothing")).line, 3);
    }
}
