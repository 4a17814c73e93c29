//! The toy language's lexer: source text to tokens, each with its 1-based line and column.
//!
//! Whitespace and `//` comments separate tokens. The lexer never panics: an unexpected
//! character, an unterminated string or an integer literal out of range is a [`CompileError`].

use crate::error::CompileError;
use poolopt::ir::Loc;

/// The kinds of token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    /// An integer literal without its sign: up to `u64::MAX` (the checker fits it to a type).
    Int(u64),
    Str(String),
    // Keywords.
    Fn,
    Let,
    Struct,
    If,
    Else,
    While,
    Return,
    True,
    False,
    New,
    As,
    Trap,
    Break,
    Continue,
    // Punctuation and operators.
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Colon,
    Semi,
    Dot,
    Arrow,
    Assign,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Shl,
    Shr,
    Bang,
    Tilde,
    AndAnd,
    OrOr,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    Eof,
}

impl Tok {
    /// How the token is written in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(name) => format!("identifier `{name}`"),
            Tok::Int(v) => format!("integer `{v}`"),
            Tok::Str(_) => "a string".to_string(),
            Tok::Eof => "end of file".to_string(),
            other => format!("`{}`", other.spelling()),
        }
    }

    fn spelling(&self) -> &'static str {
        match self {
            Tok::Fn => "fn",
            Tok::Let => "let",
            Tok::Struct => "struct",
            Tok::If => "if",
            Tok::Else => "else",
            Tok::While => "while",
            Tok::Return => "return",
            Tok::True => "true",
            Tok::False => "false",
            Tok::New => "new",
            Tok::As => "as",
            Tok::Trap => "trap",
            Tok::Break => "break",
            Tok::Continue => "continue",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Semi => ";",
            Tok::Dot => ".",
            Tok::Arrow => "->",
            Tok::Assign => "=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Amp => "&",
            Tok::Pipe => "|",
            Tok::Caret => "^",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::Bang => "!",
            Tok::Tilde => "~",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Ident(_) | Tok::Int(_) | Tok::Str(_) | Tok::Eof => "",
        }
    }
}

/// A token, where it starts and where it ends (the column just past its last character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub loc: Loc,
    pub end: Loc,
}

/// Splits `source` into tokens, ending with [`Tok::Eof`].
pub fn lex(source: &str) -> Result<Vec<Token>, CompileError> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    while i < chars.len() {
        let c = chars[i];
        let loc = Loc::new(line, col);
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            keyword(&word).unwrap_or(Tok::Ident(word))
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            Tok::Int(parse_int(&text).ok_or_else(|| {
                CompileError::new(loc, format!("invalid integer literal `{text}`"))
            })?)
        } else if c == '"' {
            i += 1;
            let mut text = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => {
                        return Err(CompileError::new(loc, "unterminated string literal"))
                    }
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let escaped = match chars.get(i + 1) {
                            Some('n') => '\n',
                            Some('t') => '\t',
                            Some('"') => '"',
                            Some('\\') => '\\',
                            _ => {
                                let at = Loc::new(line, col + (i - start) as u32);
                                return Err(CompileError::new(at, "unknown escape in string"));
                            }
                        };
                        text.push(escaped);
                        i += 2;
                    }
                    Some(&other) => {
                        text.push(other);
                        i += 1;
                    }
                }
            }
            Tok::Str(text)
        } else {
            let (tok, len) = punct(c, next).ok_or_else(|| {
                CompileError::new(loc, format!("unexpected character `{}`", c.escape_debug()))
            })?;
            i += len;
            tok
        };
        col += (i - start) as u32;
        let end = Loc::new(line, col);
        tokens.push(Token { tok, loc, end });
    }
    tokens.push(Token {
        tok: Tok::Eof,
        loc: Loc::new(line, col),
        end: Loc::new(line, col),
    });
    Ok(tokens)
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "fn" => Tok::Fn,
        "let" => Tok::Let,
        "struct" => Tok::Struct,
        "if" => Tok::If,
        "else" => Tok::Else,
        "while" => Tok::While,
        "return" => Tok::Return,
        "true" => Tok::True,
        "false" => Tok::False,
        "new" => Tok::New,
        "as" => Tok::As,
        "trap" => Tok::Trap,
        "break" => Tok::Break,
        "continue" => Tok::Continue,
        _ => return None,
    })
}

/// Decimal or `0x` hexadecimal, up to `u64::MAX` (whether it fits its type, `i64` or `u64`,
/// negated or not, is the checker's question).
fn parse_int(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse::<u64>().ok(),
    }
}

fn punct(c: char, next: Option<char>) -> Option<(Tok, usize)> {
    let two = match (c, next) {
        ('-', Some('>')) => Some(Tok::Arrow),
        ('&', Some('&')) => Some(Tok::AndAnd),
        ('|', Some('|')) => Some(Tok::OrOr),
        ('=', Some('=')) => Some(Tok::EqEq),
        ('!', Some('=')) => Some(Tok::NotEq),
        ('<', Some('=')) => Some(Tok::Le),
        ('>', Some('=')) => Some(Tok::Ge),
        ('<', Some('<')) => Some(Tok::Shl),
        ('>', Some('>')) => Some(Tok::Shr),
        _ => None,
    };
    if let Some(tok) = two {
        return Some((tok, 2));
    }
    let tok = match c {
        '(' => Tok::LParen,
        ')' => Tok::RParen,
        '{' => Tok::LBrace,
        '}' => Tok::RBrace,
        '[' => Tok::LBracket,
        ']' => Tok::RBracket,
        ',' => Tok::Comma,
        ':' => Tok::Colon,
        ';' => Tok::Semi,
        '.' => Tok::Dot,
        '=' => Tok::Assign,
        '+' => Tok::Plus,
        '-' => Tok::Minus,
        '*' => Tok::Star,
        '/' => Tok::Slash,
        '%' => Tok::Percent,
        '&' => Tok::Amp,
        '|' => Tok::Pipe,
        '^' => Tok::Caret,
        '!' => Tok::Bang,
        '~' => Tok::Tilde,
        '<' => Tok::Lt,
        '>' => Tok::Gt,
        _ => return None,
    };
    Some((tok, 1))
}
