//! The lexer of the text format: turns source text into a flat vector of tokens.
//!
//! Lexing never fails and never panics: a malformed piece of input (an unexpected character,
//! an unterminated string, a bad escape, an integer literal out of range) becomes an
//! [`TokenKind::Error`] token carrying the [`ParseErrorKind`] to report, and lexing goes on. The
//! parser reports such a token when it reaches it, so errors come out in source order.
//!
//! Newlines are tokens: the text format has one statement per line. Comments run from `;` to
//! the end of the line and are dropped. Every token records its byte span and the 1-based line
//! and column (counted in chars) of its first character. The vector always ends with one
//! [`TokenKind::Eof`] token.

use crate::inst::Loc;
use crate::parser::ParseErrorKind;
use std::ops::Range;

/// Punctuation tokens.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Punct {
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Lt,
    Gt,
    Comma,
    Colon,
    Eq,
    Dot,
    Arrow,
}

impl Punct {
    /// The source text of the token.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
            Punct::Lt => "<",
            Punct::Gt => ">",
            Punct::Comma => ",",
            Punct::Colon => ":",
            Punct::Eq => "=",
            Punct::Dot => ".",
            Punct::Arrow => "->",
        }
    }
}

/// What a token is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum TokenKind {
    /// A word: `[A-Za-z_][A-Za-z0-9_]*`. Keywords and mnemonics are words too; the parser
    /// recognizes them by position.
    Ident,
    /// An integer literal and its value.
    Int(i64),
    /// A string literal, escapes resolved.
    Str(String),
    Punct(Punct),
    Newline,
    /// Malformed input, with the error to report.
    Error(ParseErrorKind),
    Eof,
}

/// A token with its position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Token {
    pub kind: TokenKind,
    /// Byte range in the source.
    pub span: Range<usize>,
    /// Line and column (1-based, chars) of the first character.
    pub loc: Loc,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `name` is a valid identifier of the text format.
pub(crate) fn is_ident(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if is_ident_start(c)) && chars.all(is_ident_continue)
}

struct Lexer<'a> {
    src: &'a str,
    /// Byte offset of the next char.
    pos: usize,
    line: u32,
    col: u32,
    tokens: Vec<Token>,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn peek2(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().nth(1))
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }

    fn push(&mut self, kind: TokenKind, start: usize, loc: Loc) {
        self.tokens.push(Token {
            kind,
            span: start..self.pos,
            loc,
        });
    }

    fn run(mut self) -> Vec<Token> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            let loc = Loc::new(self.line, self.col);
            match c {
                ' ' | '\t' | '\r' => {
                    self.bump();
                }
                '\n' => {
                    self.bump();
                    self.push(TokenKind::Newline, start, loc);
                }
                ';' => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                '"' => self.string(start, loc),
                '-' if self.peek2() == Some('>') => {
                    self.bump();
                    self.bump();
                    self.push(TokenKind::Punct(Punct::Arrow), start, loc);
                }
                '-' if self.peek2().is_some_and(|c| c.is_ascii_digit()) => {
                    self.bump();
                    self.number(start, loc, true);
                }
                c if c.is_ascii_digit() => self.number(start, loc, false),
                c if is_ident_start(c) => {
                    while self.peek().is_some_and(is_ident_continue) {
                        self.bump();
                    }
                    self.push(TokenKind::Ident, start, loc);
                }
                c => {
                    self.bump();
                    let kind = match c {
                        '{' => TokenKind::Punct(Punct::LBrace),
                        '}' => TokenKind::Punct(Punct::RBrace),
                        '(' => TokenKind::Punct(Punct::LParen),
                        ')' => TokenKind::Punct(Punct::RParen),
                        '[' => TokenKind::Punct(Punct::LBracket),
                        ']' => TokenKind::Punct(Punct::RBracket),
                        '<' => TokenKind::Punct(Punct::Lt),
                        '>' => TokenKind::Punct(Punct::Gt),
                        ',' => TokenKind::Punct(Punct::Comma),
                        ':' => TokenKind::Punct(Punct::Colon),
                        '=' => TokenKind::Punct(Punct::Eq),
                        '.' => TokenKind::Punct(Punct::Dot),
                        other => TokenKind::Error(ParseErrorKind::UnexpectedChar(other)),
                    };
                    self.push(kind, start, loc);
                }
            }
        }
        let end = self.src.len();
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: end..end,
            loc: Loc::new(self.line, self.col),
        });
        self.tokens
    }

    /// An integer literal: decimal, or hex with `0x`; the sign (if any) is already consumed.
    fn number(&mut self, start: usize, loc: Loc, negative: bool) {
        let digits_start = self.pos;
        let hex = self.peek() == Some('0') && matches!(self.peek2(), Some('x' | 'X'));
        if hex {
            self.bump();
            self.bump();
        }
        // Take the whole word so `12ab` is one bad literal, not a number and a name.
        while self.peek().is_some_and(is_ident_continue) {
            self.bump();
        }
        let text = &self.src[start..self.pos];
        let body = &self.src[digits_start..self.pos];
        let kind = match parse_int(body, hex, negative) {
            Ok(v) => TokenKind::Int(v),
            Err(IntError::Invalid) => TokenKind::Error(ParseErrorKind::BadInt(text.to_string())),
            Err(IntError::Range) => {
                TokenKind::Error(ParseErrorKind::IntOutOfRange(text.to_string()))
            }
        };
        self.push(kind, start, loc);
    }

    /// A string literal; the opening quote is at the current position.
    fn string(&mut self, start: usize, loc: Loc) {
        self.bump();
        let mut value = String::new();
        let mut error = None;
        loop {
            match self.peek() {
                None | Some('\n') => {
                    self.push(
                        TokenKind::Error(ParseErrorKind::UnterminatedString),
                        start,
                        loc,
                    );
                    return;
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some('"') => value.push('"'),
                        Some('\\') => value.push('\\'),
                        Some('n') => value.push('\n'),
                        Some('t') => value.push('\t'),
                        // Let the unterminated-string check above see the newline / end.
                        None | Some('\n') => continue,
                        Some(other) => {
                            error.get_or_insert(ParseErrorKind::BadEscape(other));
                        }
                    }
                    self.bump();
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        let kind = match error {
            Some(e) => TokenKind::Error(e),
            None => TokenKind::Str(value),
        };
        self.push(kind, start, loc);
    }
}

enum IntError {
    Invalid,
    Range,
}

/// Parses the digits of a literal. Decimal literals must fit `i64`; hex literals may use all
/// 64 bits (`0xffffffffffffffff` is -1) and a negated hex literal must be at most `2^63`.
fn parse_int(body: &str, hex: bool, negative: bool) -> Result<i64, IntError> {
    let (digits, radix) = if hex {
        (body.get(2..).unwrap_or(""), 16)
    } else {
        (body, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(IntError::Invalid);
    }
    let magnitude = u64::from_str_radix(digits, radix).map_err(|_| IntError::Range)?;
    const MIN_MAGNITUDE: u64 = 1 << 63;
    match (negative, hex) {
        (false, false) => i64::try_from(magnitude).map_err(|_| IntError::Range),
        (false, true) => Ok(magnitude as i64),
        (true, _) if magnitude <= MIN_MAGNITUDE => Ok((magnitude as i64).wrapping_neg()),
        (true, _) => Err(IntError::Range),
    }
}

/// Splits `src` into tokens; the last one is [`TokenKind::Eof`].
pub(crate) fn lex(src: &str) -> Vec<Token> {
    Lexer {
        src,
        pos: 0,
        line: 1,
        col: 1,
        tokens: Vec::new(),
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn integers() {
        assert_eq!(kinds("-5")[0], TokenKind::Int(-5));
        assert_eq!(kinds("0x10")[0], TokenKind::Int(16));
        assert_eq!(kinds("0xffffffffffffffff")[0], TokenKind::Int(-1));
        assert_eq!(kinds("-0x8000000000000000")[0], TokenKind::Int(i64::MIN));
        assert_eq!(kinds("-9223372036854775808")[0], TokenKind::Int(i64::MIN));
        assert!(matches!(
            kinds("9223372036854775808")[0],
            TokenKind::Error(ParseErrorKind::IntOutOfRange(_))
        ));
        assert!(matches!(
            kinds("12ab")[0],
            TokenKind::Error(ParseErrorKind::BadInt(_))
        ));
        assert!(matches!(
            kinds("0x")[0],
            TokenKind::Error(ParseErrorKind::BadInt(_))
        ));
    }

    #[test]
    fn positions_count_chars() {
        let toks = lex("\"é\" x\n  y ; c\n");
        assert_eq!(toks[0].kind, TokenKind::Str("é".into()));
        assert_eq!(toks[1].loc, Loc::new(1, 5));
        assert_eq!(toks[1].span, 5..6);
        assert_eq!(toks[2].kind, TokenKind::Newline);
        assert_eq!(toks[3].loc, Loc::new(2, 3));
        assert_eq!(toks[4].kind, TokenKind::Newline);
        assert_eq!(toks[5].kind, TokenKind::Eof);
        assert_eq!(toks[5].loc, Loc::new(3, 1));
    }

    #[test]
    fn strings_and_errors() {
        assert_eq!(
            kinds(r#""a\"b\\c\nd\te""#)[0],
            TokenKind::Str("a\"b\\c\nd\te".into())
        );
        assert_eq!(
            kinds("\"abc")[0],
            TokenKind::Error(ParseErrorKind::UnterminatedString)
        );
        assert_eq!(
            kinds("\"abc\\")[0],
            TokenKind::Error(ParseErrorKind::UnterminatedString)
        );
        assert_eq!(
            kinds(r#""a\qb""#)[0],
            TokenKind::Error(ParseErrorKind::BadEscape('q'))
        );
        assert_eq!(
            kinds("@")[0],
            TokenKind::Error(ParseErrorKind::UnexpectedChar('@'))
        );
        assert_eq!(kinds("->")[0], TokenKind::Punct(Punct::Arrow));
        assert!(is_ident("a_1") && !is_ident("1a") && !is_ident("") && !is_ident("a.b"));
    }
}
