//! Positions in source text as the analysis sees them: zero-based lines and UTF-8 byte columns.
//! Also the few lexical lookups the server needs without a parser (the word under the cursor).

/// A position: zero-based line, zero-based byte column within the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based byte offset within the line.
    pub col: u32,
}

impl Pos {
    /// The position at `line`, `col`.
    pub fn new(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }
}

/// A half-open range of text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first position inside.
    pub start: Pos,
    /// The first position after.
    pub end: Pos,
}

impl Span {
    /// The span from `start` to `end`.
    pub fn new(start: Pos, end: Pos) -> Span {
        Span { start, end }
    }

    /// Whether `pos` is inside, ends included (a cursor right after a word still hovers it).
    pub fn contains(&self, pos: Pos) -> bool {
        self.start <= pos && pos <= self.end
    }

    /// Whether the two spans share at least one position.
    pub fn touches(&self, other: &Span) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}

/// Line starts of a text, for converting many positions of one text.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`, whose lines end at `\n`, `\r\n` or a lone `\r` (as LSP counts them).
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = checker::ir::line_starts(text);
        LineIndex { text, starts }
    }

    /// Line `line` without its terminator; empty past the end.
    pub fn line(&self, line: u32) -> &'a str {
        let Some(&start) = self.starts.get(line as usize) else {
            return "";
        };
        let end = self
            .starts
            .get(line as usize + 1)
            .map_or(self.text.len(), |&next| next);
        let l = &self.text[start..end];
        let l = l.strip_suffix('\n').unwrap_or(l);
        l.strip_suffix('\r').unwrap_or(l)
    }

    /// The byte offset of `pos` in the text, clamped to the line and the text, and moved back
    /// to the start of the character it falls inside.
    pub fn offset(&self, pos: Pos) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        start + floor_char_boundary(self.line(pos.line), pos.col as usize)
    }
}

/// `index` clamped to `text` and moved back to the start of the character it falls inside.
pub fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// Line `line` of `text`, without its line terminator; empty past the end.
pub fn line(text: &str, line: u32) -> &str {
    LineIndex::new(text).line(line)
}

/// The name at `pos`: the identifier under the cursor together with any qualifier before it
/// (`android.os.CountDownTimer` when the cursor is on `CountDownTimer`, `android.os` when it is
/// on `os`).
pub fn word_at(text: &str, pos: Pos) -> Option<(&str, Span)> {
    let line_text = line(text, pos.line);
    let col = (pos.col as usize).min(line_text.len());
    if !line_text.is_char_boundary(col) {
        return None;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let is_word = |c: char| is_ident(c) || c == '.';
    let start = line_text[..col]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(col, |(i, _)| i);
    let end = line_text[col..]
        .char_indices()
        .find(|(_, c)| !is_ident(*c))
        .map_or(line_text.len(), |(i, _)| col + i);
    let word = line_text[start..end].trim_matches('.');
    if word.is_empty() {
        return None;
    }
    let offset = line_text[start..end].find(word).unwrap_or(0);
    let start = start + offset;
    let span = Span::new(
        Pos::new(pos.line, start as u32),
        Pos::new(pos.line, (start + word.len()) as u32),
    );
    Some((word, span))
}

/// The fully qualified form of a class name used in `text`: itself when qualified, else what an
/// `import` line names, else the file's package and the name when the file declares the class
/// or `in_package(name)` says another file of its package does, else the name as written.
pub fn qualify(text: &str, name: &str, in_package: impl Fn(&str) -> bool) -> String {
    if name.contains('.') {
        return name.to_string();
    }
    let suffix = format!(".{name}");
    let lines = || text.lines().map(str::trim);
    let imported = lines()
        .filter_map(|l| l.strip_prefix("import "))
        .map(|imported| imported.trim().trim_end_matches(';').trim())
        .find(|imported| imported.ends_with(&suffix));
    if let Some(imported) = imported {
        return imported.to_string();
    }
    let declared = lines().any(|l| {
        l.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| matches!(w[0], "class" | "interface" | "object") && w[1] == name)
    }) || in_package(name);
    let package = lines()
        .find_map(|l| l.strip_prefix("package "))
        .map(|package| package.trim().trim_end_matches(';').trim());
    match package {
        Some(package) if declared && !package.is_empty() => format!("{package}.{name}"),
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let index = LineIndex::new("a\rb\r\nc\nd");
        let lines: Vec<&str> = (0..5).map(|n| index.line(n)).collect();
        assert_eq!(lines, ["a", "b", "c", "d", ""]);
        assert_eq!(index.offset(Pos::new(1, 1)), 3);
        assert_eq!(index.offset(Pos::new(3, 0)), 7);
    }

    #[test]
    fn word_at_finds_simple_and_qualified_names() {
        let text = "class A {\n  new android.os.CountDownTimer(1, 2);\n}";
        let (word, span) = word_at(text, Pos::new(1, 20)).unwrap();
        assert_eq!(word, "android.os.CountDownTimer");
        assert_eq!(span.start, Pos::new(1, 6));
        assert_eq!(word_at(text, Pos::new(1, 15)).unwrap().0, "android.os");
        assert_eq!(word_at(text, Pos::new(0, 1)).unwrap().0, "class");
        assert_eq!(word_at(text, Pos::new(1, 0)), None);
        assert_eq!(word_at(text, Pos::new(9, 0)), None);
    }

    #[test]
    fn qualify_uses_imports() {
        let text = "import android.media.MediaPlayer;\nimport android.os.CountDownTimer\n";
        let nowhere = |_: &str| false;
        assert_eq!(
            qualify(text, "MediaPlayer", nowhere),
            "android.media.MediaPlayer"
        );
        assert_eq!(
            qualify(text, "CountDownTimer", nowhere),
            "android.os.CountDownTimer"
        );
        assert_eq!(qualify(text, "Timer", nowhere), "Timer");
        assert_eq!(qualify(text, "a.b.C", nowhere), "a.b.C");
        let declared = "package com.example;\n\npublic class Task extends Base {}\n";
        assert_eq!(qualify(declared, "Task", nowhere), "com.example.Task");
        assert_eq!(qualify(declared, "Base", nowhere), "Base");
        assert_eq!(
            qualify(declared, "Base", |name| name == "Base"),
            "com.example.Base"
        );
        let kotlin = "package com.example\nobject Registry\n";
        assert_eq!(qualify(kotlin, "Registry", nowhere), "com.example.Registry");
    }

    #[test]
    fn line_index_agrees_with_line() {
        let text = "ab\r\ncd\n\nxyz";
        let index = LineIndex::new(text);
        for n in 0..5 {
            assert_eq!(index.line(n), line(text, n), "line {n}");
        }
        assert_eq!(index.offset(Pos::new(1, 1)), 5);
        assert_eq!(index.offset(Pos::new(1, 99)), 6);
        assert_eq!(index.offset(Pos::new(9, 0)), text.len());
    }

    #[test]
    fn offsets_inside_a_character_move_to_its_start() {
        let text = "aé😀\nb";
        let index = LineIndex::new(text);
        let offsets: Vec<usize> = (0..9).map(|col| index.offset(Pos::new(0, col))).collect();
        assert_eq!(offsets, [0, 1, 1, 3, 3, 3, 3, 7, 7]);
    }

    #[test]
    fn line_strips_carriage_returns() {
        assert_eq!(line("a\r\nb", 0), "a");
        assert_eq!(line("a\r\nb", 1), "b");
        assert_eq!(line("a", 3), "");
    }
}
