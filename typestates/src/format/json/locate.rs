//! JSON paths (`states[2].callins.start.target`) and where their values start in the text.
//!
//! serde_json gives line:col for syntax errors only.
//! Once the text has parsed, a name that does not resolve is reported at its JSON path.
//! This module finds the line:col of that value by walking the text.
//! So the error is clickable like every other diagnostic.

use std::fmt;

/// One step of a [`JsonPath`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// A path from the document root to a value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonPath(Vec<Segment>);

impl JsonPath {
    /// The path of a member of this object.
    pub fn key(&self, key: &str) -> JsonPath {
        let mut path = self.clone();
        path.0.push(Segment::Key(key.to_owned()));
        path
    }

    /// The path of an element of this array.
    pub fn index(&self, index: usize) -> JsonPath {
        let mut path = self.clone();
        path.0.push(Segment::Index(index));
        path
    }

    /// The 1-based line and column where the value at this path starts in `text`, if `text`
    /// is JSON and has that value.
    pub fn locate(&self, text: &str) -> Option<(usize, usize)> {
        let mut walker = Walker {
            chars: text.chars().collect(),
            pos: 0,
        };
        walker.find(&self.0)?;
        let before = &walker.chars[..walker.pos];
        let line = 1 + before.iter().filter(|c| **c == '\n').count();
        let col = 1 + before.iter().rev().take_while(|c| **c != '\n').count();
        Some((line, col))
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if i == 0 => write!(f, "{key}")?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// A cursor over JSON text that skips values it does not need.
struct Walker {
    chars: Vec<char>,
    pos: usize,
}

impl Walker {
    /// Moves to the start of the value at `path`, below the value at the cursor.
    fn find(&mut self, path: &[Segment]) -> Option<()> {
        self.skip_whitespace();
        let Some((first, rest)) = path.split_first() else {
            return Some(());
        };
        match (self.next()?, first) {
            ('{', Segment::Key(wanted)) => loop {
                self.skip_whitespace();
                if self.peek()? == '}' {
                    return None;
                }
                let key = self.string()?;
                self.skip_whitespace();
                self.expect(':')?;
                if key == *wanted {
                    return self.find(rest);
                }
                self.skip_value()?;
                self.separator()?;
            },
            ('[', Segment::Index(wanted)) => {
                for _ in 0..*wanted {
                    self.skip_whitespace();
                    self.skip_value()?;
                    self.separator()?;
                }
                self.skip_whitespace();
                if self.peek()? == ']' {
                    return None;
                }
                self.find(rest)
            }
            _ => None,
        }
    }

    /// Consumes the `,` between members or elements; `None` at the closing bracket.
    fn separator(&mut self) -> Option<()> {
        self.skip_whitespace();
        (self.next()? == ',').then_some(())
    }

    fn skip_value(&mut self) -> Option<()> {
        self.skip_whitespace();
        match self.peek()? {
            '"' => self.string().map(drop),
            open @ ('{' | '[') => {
                let close = if open == '{' { '}' } else { ']' };
                self.pos += 1;
                self.skip_whitespace();
                if self.peek()? == close {
                    self.pos += 1;
                    return Some(());
                }
                loop {
                    if open == '{' {
                        self.skip_whitespace();
                        self.string()?;
                        self.skip_whitespace();
                        self.expect(':')?;
                    }
                    self.skip_value()?;
                    self.skip_whitespace();
                    match self.next()? {
                        ',' => continue,
                        c if c == close => return Some(()),
                        _ => return None,
                    }
                }
            }
            _ => {
                // A number or a literal: everything up to the next delimiter.
                while self
                    .peek()
                    .is_some_and(|c| !matches!(c, ',' | '}' | ']') && !c.is_whitespace())
                {
                    self.pos += 1;
                }
                Some(())
            }
        }
    }

    /// Reads a string at the cursor, unescaping only what keys need to compare.
    fn string(&mut self) -> Option<String> {
        self.expect('"')?;
        let mut text = String::new();
        loop {
            match self.next()? {
                '"' => return Some(text),
                '\\' => {
                    let escaped = self.next()?;
                    text.push(match escaped {
                        'n' => '\n',
                        't' => '\t',
                        'u' => {
                            let hex: String = (0..4).map(|_| self.next()).collect::<Option<_>>()?;
                            char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
                                .unwrap_or(char::REPLACEMENT_CHARACTER)
                        }
                        other => other,
                    });
                }
                c => text.push(c),
            }
        }
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn expect(&mut self, wanted: char) -> Option<()> {
        (self.next()? == wanted).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::JsonPath;

    #[test]
    fn locates_nested_values() {
        let text = "{\n  \"a\": [1, {\"b\": \"x\"}],\n  \"c\\\"\": {\"d\": [true, null, \"e\"]}\n}";
        let root = JsonPath::default();
        let cases = [
            (root.key("a"), Some((2, 8))),
            (root.key("a").index(1).key("b"), Some((2, 18))),
            (root.key("c\"").key("d").index(2), Some((3, 29))),
            (root.key("c\"").key("d").index(3), None),
            (root.key("missing"), None),
            (root.key("a").key("b"), None),
        ];
        for (path, expected) in cases {
            assert_eq!(path.locate(text), expected, "{path}");
        }
    }

    #[test]
    fn displays_like_an_accessor() {
        let path = JsonPath::default()
            .key("states")
            .index(2)
            .key("callins")
            .key("start")
            .key("target");
        assert_eq!(path.to_string(), "states[2].callins.start.target");
    }
}
