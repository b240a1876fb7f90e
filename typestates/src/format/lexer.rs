//! Splits one line of a `.typestate` file into tokens with their columns.
//!
//! The format is line-oriented, so the lexer works a line at a time.
//! A malformed line is reported and skipped without disturbing the lines around it.

/// A token of the text format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A word: keyword, symbol, state name, qualified Java name or type (`int[]`,
    /// `java.util.List<java.lang.String>`, `java.lang.Object...`).
    Word(String),
    /// A double-quoted string, unescaped.
    Str(String),
    /// `->`
    Arrow,
    /// `(`
    Open,
    /// `)`
    Close,
    /// `,`
    Comma,
    /// `|`
    Bar,
    /// `:`
    Colon,
    /// `=`
    Equals,
    /// `..` standing alone: any parameter list.
    AnyParams,
}

impl Token {
    /// How the token is named in "expected …, found …" messages.
    pub fn describe(&self) -> String {
        match self {
            Token::Word(word) => format!("`{word}`"),
            Token::Str(_) => "a string".to_owned(),
            Token::Arrow => "`->`".to_owned(),
            Token::Open => "`(`".to_owned(),
            Token::Close => "`)`".to_owned(),
            Token::Comma => "`,`".to_owned(),
            Token::Bar => "`|`".to_owned(),
            Token::Colon => "`:`".to_owned(),
            Token::Equals => "`=`".to_owned(),
            Token::AnyParams => "`..`".to_owned(),
        }
    }
}

/// A token and the 1-based column of its first character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned {
    /// The token.
    pub token: Token,
    /// 1-based column, counted in characters.
    pub col: usize,
}

/// A lexical error: the column and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// 1-based column.
    pub col: usize,
    /// What went wrong.
    pub message: String,
}

/// Tokens of one line and its lexical errors; a `#` outside a string starts a comment.
///
/// Lexing never stops early: an unexpected character is reported and skipped, an unknown
/// escape is reported and dropped, and an unterminated string is reported and ends the line, so
/// the parser still sees the declaration and reports nothing that only follows from the typo.
pub fn lex_line(line: &str) -> (Vec<Spanned>, Vec<LexError>) {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let single = match c {
            '(' => Some(Token::Open),
            ')' => Some(Token::Close),
            ',' => Some(Token::Comma),
            '|' => Some(Token::Bar),
            ':' => Some(Token::Colon),
            '=' => Some(Token::Equals),
            _ => None,
        };
        if let Some(token) = single {
            tokens.push(Spanned { token, col });
            i += 1;
        } else if c == '#' {
            break;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            tokens.push(Spanned {
                token: Token::Arrow,
                col,
            });
            i += 2;
        } else if c == '"' {
            let (text, next) = lex_string(&chars, i, &mut errors);
            if let Some(text) = text {
                tokens.push(Spanned {
                    token: Token::Str(text),
                    col,
                });
            }
            i = next;
        } else if is_word_char(c) {
            let start = i;
            while i < chars.len() && (is_word_char(chars[i]) || is_type_char(chars[i])) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let token = if word == ".." {
                Token::AnyParams
            } else {
                Token::Word(word)
            };
            tokens.push(Spanned { token, col });
        } else {
            errors.push(LexError {
                col,
                message: format!("unexpected character `{c}`"),
            });
            i += 1;
        }
    }
    (tokens, errors)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '<' | '*')
}

/// Whether `text` lexes as exactly one [`Token::Word`], so that it can be written unquoted.
pub fn is_word(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(is_word_char)
        && chars.all(|c| is_word_char(c) || is_type_char(c))
        && text != ".."
}

/// Characters allowed inside a word after its first: generic brackets, arrays, varargs.
fn is_type_char(c: char) -> bool {
    matches!(c, '>' | '[' | ']' | '?')
}

/// Reads a string starting at the quote at `start`; returns its text (`None` if unterminated)
/// and the index after it.
fn lex_string(chars: &[char], start: usize, errors: &mut Vec<LexError>) -> (Option<String>, usize) {
    let mut text = String::new();
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '"' => return (Some(text), i + 1),
            '\\' => {
                match chars.get(i + 1) {
                    Some('"') => text.push('"'),
                    Some('\\') => text.push('\\'),
                    Some('n') => text.push('\n'),
                    Some(other) => errors.push(LexError {
                        col: i + 1,
                        message: format!(
                            "unknown escape `\\{other}` (expected `\\\"`, `\\\\` or `\\n`)"
                        ),
                    }),
                    None => break,
                }
                i += 2;
            }
            c => {
                text.push(c);
                i += 1;
            }
        }
    }
    errors.push(LexError {
        col: start + 1,
        message: "unterminated string (expected a closing `\"` on the same line)".to_owned(),
    });
    (None, chars.len())
}

/// Quotes `text` as a string token.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}
