//! Splits one line of a `.typestate` file into tokens with their columns.
//!
//! The format is line-oriented, so the lexer works a line at a time: a malformed line is
//! reported and skipped without disturbing the lines around it.

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

/// Tokens of one line; a `#` outside a string starts a comment.
pub fn lex_line(line: &str) -> Result<Vec<Spanned>, LexError> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
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
            let (text, next) = lex_string(&chars, i)?;
            tokens.push(Spanned {
                token: Token::Str(text),
                col,
            });
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
            return Err(LexError {
                col,
                message: format!("unexpected character `{c}`"),
            });
        }
    }
    Ok(tokens)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '<' | '*')
}

/// Characters allowed inside a word after its first: generic brackets, arrays, varargs.
fn is_type_char(c: char) -> bool {
    matches!(c, '>' | '[' | ']' | '?')
}

/// Reads a string starting at the quote at `start`; returns its text and the index after it.
fn lex_string(chars: &[char], start: usize) -> Result<(String, usize), LexError> {
    let mut text = String::new();
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '"' => return Ok((text, i + 1)),
            '\\' => {
                let escaped = match chars.get(i + 1) {
                    Some('"') => '"',
                    Some('\\') => '\\',
                    Some('n') => '\n',
                    Some(other) => {
                        return Err(LexError {
                            col: i + 1,
                            message: format!(
                                "unknown escape `\\{other}` (expected `\\\"`, `\\\\` or `\\n`)"
                            ),
                        })
                    }
                    None => break,
                };
                text.push(escaped);
                i += 2;
            }
            c => {
                text.push(c);
                i += 1;
            }
        }
    }
    Err(LexError {
        col: start + 1,
        message: "unterminated string (expected a closing `\"` on the same line)".to_owned(),
    })
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
