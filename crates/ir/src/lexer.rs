//! The lexer of the text format: a byte-level scanner that turns source text into a compact
//! vector of tokens, with every identifier interned.
//!
//! Lexing never fails and never panics: a malformed piece of input (an unexpected character,
//! an unterminated string, a bad escape, an integer literal out of range) becomes a
//! [`TokenKind::Error`] token whose [`ParseErrorKind`] is kept in a side table, and lexing goes
//! on. The parser reports such a token when it reaches it.
//!
//! The lexer works on bytes: every character the grammar knows is ASCII, so a non-ASCII byte
//! can only appear inside a string literal or a comment (where it is copied or skipped) or as an
//! unexpected character (decoded once, for the message). A token takes 9 bytes: its kind, its
//! start offset and one `u32` of data (the [`Symbol`] of a word, or an index into the side tables
//! of integers, strings and errors). No `String` is allocated per token: a word's text is a
//! slice of the source, stored once per distinct word in the [`Interner`].
//!
//! Newlines are tokens: the text format has one statement per line. Comments run from `;` to
//! the end of the line and are dropped. Lines and columns are not stored per token: a newline
//! token holds the number of the line after it, which places the tokens near it
//! ([`Lexed::loc_of_token`]), and a table of line starts, made from the newline tokens when first
//! needed ([`Lexed::loc_of`]), turns any byte offset into a 1-based line and a column counted in
//! chars. The vector always ends with one [`TokenKind::Eof`] token.

use crate::inst::Loc;
use crate::parser::{word_info_of_key, ParseErrorKind, WordInfo};
use std::cell::{Cell, OnceCell};
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

/// An interned word: an index into [`Interner`]'s table of distinct words.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(crate) struct Symbol(pub u32);

impl Symbol {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// The words the parser recognizes by identity. They are interned first, in this order, so
/// their symbols are the constants below.
const KEYWORDS: [&str; 10] = [
    "fn",
    "struct",
    "var",
    "packed",
    "true",
    "false",
    "inline",
    "noinline",
    "vec",
    "unchecked",
];

/// Symbols of the keywords (see [`KEYWORDS`]).
pub(crate) mod kw {
    use super::Symbol;
    pub(crate) const FN: Symbol = Symbol(0);
    pub(crate) const STRUCT: Symbol = Symbol(1);
    pub(crate) const VAR: Symbol = Symbol(2);
    pub(crate) const PACKED: Symbol = Symbol(3);
    pub(crate) const TRUE: Symbol = Symbol(4);
    pub(crate) const FALSE: Symbol = Symbol(5);
    pub(crate) const INLINE: Symbol = Symbol(6);
    pub(crate) const NOINLINE: Symbol = Symbol(7);
    pub(crate) const VEC: Symbol = Symbol(8);
    pub(crate) const UNCHECKED: Symbol = Symbol(9);
}

/// Distinct words of one source text. The text of a word borrows from the source.
///
/// A small open-addressing table of symbols, keyed by a word's first sixteen bytes (two
/// unaligned loads) and its length, which are kept per symbol: interning a word of fewer than
/// sixteen bytes costs a multiply or two, a slot load and two compares, with no call into a
/// general-purpose hasher or `memcmp`. A slot is four bytes, so the table (made for every
/// source) is 4 KB, not the 24 KB it was when the keys were stored in the slots.
///
/// A slot holds a symbol itself, and an empty slot [`EMPTY_SLOT`], which is past the end of
/// `keys`: the one bounds check of the key a slot names also tells an empty slot. (The marker
/// is not zero, nor any other value whose four bytes are equal: a table filled with such a
/// value becomes a `memset`, which for 4 KB runs `rep stosb`, one counted instruction a byte;
/// another value is written sixteen bytes a store.)
pub(crate) struct Interner<'a> {
    /// The source text the words come from (held here, so that the inline lookup passes no
    /// more than offsets to the slow path).
    src: &'a str,
    /// The length of `table` minus one; the length is a power of two.
    mask: usize,
    /// 64 minus the log2 of the length of `table`: a hash shifted right by it is a slot.
    shift: u32,
    /// Per slot: the symbol of the word there, or [`EMPTY_SLOT`].
    table: Vec<u32>,
    /// Per symbol: what a lookup compares, the word's text and its meaning. (One vector, so
    /// that a new word is one push and the interner two allocations.)
    keys: Vec<WordKey<'a>>,
}

/// What an empty slot of [`Interner`]'s table holds: larger than any symbol, and not four equal
/// bytes (see [`Interner`]). A source is less than 4 GiB: there are fewer than 14 million
/// distinct words of up to four bytes, and each longer one takes six bytes with the byte after
/// it, so a source has fewer than 10^9 distinct words.
const EMPTY_SLOT: u32 = 0x7fff_fff0;

/// The key of one interned word, with its text and meaning.
#[derive(Copy, Clone)]
struct WordKey<'a> {
    /// Bytes 0..8 of the word, little-endian, zero-padded.
    head: u64,
    /// Bytes 8..16 of the word, little-endian, zero-padded (0 for a word of at most 8 bytes).
    tail: u64,
    /// The length of the word.
    len: u32,
    /// What the word means to the parser (mnemonic, scalar type), computed when the word is
    /// first seen from its first eight bytes (see [`crate::parser::word_info_of_key`]).
    info: WordInfo,
    name: &'a str,
}

/// The bytes `bytes[from..min(from + 8, end)]` as a little-endian `u64`, zero-padded (0 when
/// `from >= end`).
#[inline]
fn word_part(bytes: &[u8], from: usize, end: usize) -> u64 {
    let mut v = 0u64;
    for (i, &c) in bytes
        .get(from..end)
        .unwrap_or(&[])
        .iter()
        .take(8)
        .enumerate()
    {
        v |= u64::from(c) << (8 * i);
    }
    v
}

/// The hash of a word from its first sixteen bytes and (for a word longer than sixteen bytes)
/// the rest of its bytes. A slot is taken from the high bits, which depend on every input bit.
#[inline(always)]
fn word_hash(head: u64, tail: u64, word: &[u8]) -> u64 {
    let mut h = short_word_hash(head, tail, word.len());
    if word.len() > 16 {
        for &c in &word[16..] {
            h = (h ^ u64::from(c)).wrapping_mul(HASH_K);
        }
    }
    h
}

const HASH_K: u64 = 0xf135_7aea_2e62_a9c5;

/// [`word_hash`] of a word of `len <= 16` bytes. The length is not hashed: no word contains a
/// zero byte, so the zero-padded `head` and `tail` of a short word already tell its length.
#[inline(always)]
fn short_word_hash(head: u64, tail: u64, len: usize) -> u64 {
    let h = head.wrapping_mul(HASH_K);
    if len > 8 {
        (h ^ tail).wrapping_mul(HASH_K)
    } else {
        h
    }
}

impl<'a> Interner<'a> {
    /// An interner with room for 256 distinct words before it grows. The table is kept at
    /// most a quarter full, so a word is almost always in its home slot (the inline path).
    fn new(src: &'a str) -> Interner<'a> {
        const SIZE: usize = 1024;
        let mut interner = Interner {
            src,
            mask: SIZE - 1,
            shift: 64 - SIZE.trailing_zeros(),
            table: vec![EMPTY_SLOT; SIZE],
            keys: Vec::with_capacity(SIZE / 4),
        };
        for word in KEYWORDS {
            let (bytes, len) = (word.as_bytes(), word.len());
            let (head, tail) = (word_part(bytes, 0, len), word_part(bytes, 8, len));
            interner.find_or_insert(word, head, tail);
        }
        interner
    }

    /// Interns the word `src[start..end]` (not empty) whose first sixteen bytes are `head` and
    /// `tail` (zero-padded). A word of at most sixteen bytes seen before is found inline, with
    /// one slot compare, or two when another word took its home slot (then it is almost always
    /// in the next one: the table is at most a quarter full).
    #[inline(always)]
    fn intern(&mut self, start: usize, end: usize, head: u64, tail: u64) -> Symbol {
        let len = end - start;
        if len <= 16 {
            let mut slot = (short_word_hash(head, tail, len) >> self.shift) as usize;
            for _ in 0..2 {
                let Some(&entry) = self.table.get(slot) else {
                    break;
                };
                // An empty slot (`EMPTY_SLOT` is past the end of `keys`): a new word, which
                // goes right there.
                let Some(key) = self.keys.get(entry as usize) else {
                    return self.insert_at(slot, start, end, head, tail);
                };
                // Equal first sixteen bytes are the same word unless both are 16 bytes or more
                // (no word contains a zero byte): only then do the lengths need a compare.
                if key.head == head && key.tail == tail && (len < 16 || key.len == len as u32) {
                    return Symbol(entry);
                }
                slot = (slot + 1) & self.mask;
            }
        }
        self.intern_slow(start, end, head, tail)
    }

    /// [`Interner::intern`] for a word of fewer than eight bytes, `head` (its bytes,
    /// zero-padded). Only the heads are compared: `head` has a zero byte, and the head of a
    /// word of eight bytes or more has none, so an equal head is a word of the same length.
    #[inline(always)]
    fn intern_short(&mut self, start: usize, end: usize, head: u64) -> Symbol {
        let mut slot = (short_word_hash(head, 0, end - start) >> self.shift) as usize;
        for _ in 0..2 {
            let Some(&entry) = self.table.get(slot) else {
                break;
            };
            // An empty slot (`EMPTY_SLOT` is past the end of `keys`): a new word, which goes
            // right there.
            let Some(key) = self.keys.get(entry as usize) else {
                return self.insert_at(slot, start, end, head, 0);
            };
            if key.head == head {
                return Symbol(entry);
            }
            slot = (slot + 1) & self.mask;
        }
        self.intern_slow(start, end, head, 0)
    }

    /// Interns the word `src[start..end]` (first sixteen bytes `head` and `tail`, as for
    /// [`Interner::intern`]).
    #[inline(never)]
    fn intern_slow(&mut self, start: usize, end: usize, head: u64, tail: u64) -> Symbol {
        self.find_or_insert(&self.src[start..end], head, tail)
    }

    /// Adds the new word `src[start..end]` (first sixteen bytes `head` and `tail`) at `slot`,
    /// the empty slot where the inline lookup's probe from its home slot ended: no second hash
    /// and probe.
    #[inline(never)]
    fn insert_at(&mut self, slot: usize, start: usize, end: usize, head: u64, tail: u64) -> Symbol {
        self.insert(slot, &self.src[start..end], head, tail)
    }

    /// Interns `name` (first sixteen bytes `head` and `tail`) by probing the table from its
    /// home slot.
    fn find_or_insert(&mut self, name: &'a str, head: u64, tail: u64) -> Symbol {
        let word = name.as_bytes();
        let len = word.len() as u32;
        let mask = self.mask;
        let mut slot = (word_hash(head, tail, word) >> self.shift) as usize;
        loop {
            let entry = self.table[slot];
            if entry == EMPTY_SLOT {
                break;
            }
            let sym = entry as usize;
            let key = self.keys[sym];
            if key.head == head
                && key.tail == tail
                && key.len == len
                && (len <= 16 || key.name.as_bytes()[16..] == word[16..])
            {
                return Symbol(sym as u32);
            }
            slot = (slot + 1) & mask;
        }
        self.insert(slot, name, head, tail)
    }

    /// Adds the new word `name` (first sixteen bytes `head` and `tail`) at the empty `slot`.
    #[inline(always)]
    fn insert(&mut self, slot: usize, name: &'a str, head: u64, tail: u64) -> Symbol {
        let len = name.len() as u32;
        let sym = Symbol(self.keys.len() as u32);
        // Every word with a meaning has one to eight bytes: `head` is then the whole word.
        let info = if len <= 8 {
            word_info_of_key(head)
        } else {
            WordInfo::NONE
        };
        self.keys.push(WordKey {
            head,
            tail,
            len,
            info,
            name,
        });
        self.table[slot] = sym.0;
        if self.keys.len() * 4 > self.table.len() {
            self.grow();
        }
        sym
    }

    /// Doubles the table and re-inserts every symbol.
    #[cold]
    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mask = size - 1;
        let shift = 64 - size.trailing_zeros();
        let mut table = vec![EMPTY_SLOT; size];
        for (sym, key) in self.keys.iter().enumerate() {
            let name = key.name.as_bytes();
            let mut slot = (word_hash(key.head, key.tail, name) >> shift) as usize;
            while table[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            table[slot] = sym as u32;
        }
        self.table = table;
        self.mask = mask;
        self.shift = shift;
    }

    /// The text of a symbol.
    #[inline]
    pub(crate) fn name(&self, sym: Symbol) -> &'a str {
        self.keys[sym.index()].name
    }

    /// What word `sym` means to the parser.
    #[inline]
    pub(crate) fn info(&self, sym: Symbol) -> WordInfo {
        self.keys[sym.index()].info
    }

    /// Number of distinct words.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }
}

/// What a token is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum TokenKind {
    /// A word: `[A-Za-z_][A-Za-z0-9_]*`; its data is its [`Symbol`]. Keywords and mnemonics are
    /// words too; the parser recognizes them by position.
    Ident,
    /// An integer literal; its data indexes [`Lexed::ints`].
    Int,
    /// A string literal, escapes resolved; its data indexes [`Lexed::strings`].
    Str,
    Punct(Punct),
    /// The end of a line; its data is the (0-based) number of the line after it.
    Newline,
    /// Malformed input; its data indexes [`Lexed::errors`].
    Error,
    Eof,
}

/// A token, as [`Lexed::token`] hands it out.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Token {
    pub kind: TokenKind,
    /// Byte offset of the first character.
    pub start: u32,
    /// The symbol or side-table index (see [`TokenKind`]).
    pub data: u32,
}

/// A token as the lexer stores it: packed, 9 bytes, pushed as one record. (Its fields are only
/// ever read by value, which is safe on a packed struct.)
#[derive(Copy, Clone)]
#[repr(C, packed)]
struct StoredToken {
    kind: TokenKind,
    start: u32,
    data: u32,
}

impl StoredToken {
    #[inline]
    fn get(&self) -> Token {
        Token {
            kind: self.kind,
            start: self.start,
            data: self.data,
        }
    }

    #[inline]
    fn kind(&self) -> TokenKind {
        self.kind
    }
}

/// How many tokens [`Lexed::line_index_of_token`] walks back for a newline before it searches
/// the line table: a declaration's line is rarely longer.
const LINE_LOOKBACK: usize = 32;

/// The output of the lexer: tokens, side tables, interned words and line starts.
pub(crate) struct Lexed<'a> {
    pub src: &'a str,
    /// Every token, in order.
    tokens: Vec<StoredToken>,
    pub ints: Vec<i64>,
    /// String literal values and the end offset of their token. (A `String`, which the parser
    /// moves into the instruction that uses it, rather than copying it.)
    pub strings: Vec<(String, u32)>,
    /// Lexical errors and the end offset of their token.
    pub errors: Vec<(ParseErrorKind, u32)>,
    pub interner: Interner<'a>,
    /// Byte offset of the start of every line (see [`Lexed::line_starts`]).
    line_starts: OnceCell<Vec<u32>>,
    /// Token indices of every `}`, in order: where each function body ends.
    pub closers: Vec<u32>,
    /// Token indices of every word followed by `:` that starts a line or follows a `{`, in
    /// order: the labels of the bodies (and, harmlessly, the first field of a one-line struct).
    pub label_candidates: Vec<u32>,
    /// Whether the source is all ASCII (columns are then byte distances). Found on the way,
    /// not by a scan of the whole source: a byte outside ASCII can only be in a comment, a
    /// string literal or an unexpected character, each of which the lexer checks as it skips
    /// or reads it (on slot_pool_8.pir, 1,400 fewer instructions than `str::is_ascii`).
    ascii: bool,
    /// The line of the last [`Lexed::loc_of`] answer: lookups go forward through the source.
    line_hint: Cell<usize>,
}

/// What a byte starts, for the lexer's dispatch: one table load and one jump per token. The
/// classes carry no data (so the dispatch is a plain jump table); a punctuation byte's
/// [`Punct`] is in [`PUNCT_OF`].
#[derive(Copy, Clone, PartialEq, Eq)]
#[repr(u8)]
enum ByteClass {
    Space,
    Newline,
    Comment,
    Quote,
    Minus,
    Digit,
    Word,
    /// Punctuation other than `}` and `:`, which the lexer also records.
    Punct,
    RBrace,
    Colon,
    Other,
}

const fn byte_class(c: u8) -> ByteClass {
    match c {
        b' ' | b'\t' | b'\r' => ByteClass::Space,
        b'\n' => ByteClass::Newline,
        b';' => ByteClass::Comment,
        b'"' => ByteClass::Quote,
        b'-' => ByteClass::Minus,
        b'0'..=b'9' => ByteClass::Digit,
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => ByteClass::Word,
        b'}' => ByteClass::RBrace,
        b':' => ByteClass::Colon,
        _ => match punct_of(c) {
            Some(_) => ByteClass::Punct,
            None => ByteClass::Other,
        },
    }
}

/// The punctuation token a byte is (`->` is two bytes and not here).
const fn punct_of(c: u8) -> Option<Punct> {
    Some(match c {
        b'{' => Punct::LBrace,
        b'}' => Punct::RBrace,
        b'(' => Punct::LParen,
        b')' => Punct::RParen,
        b'[' => Punct::LBracket,
        b']' => Punct::RBracket,
        b'<' => Punct::Lt,
        b'>' => Punct::Gt,
        b',' => Punct::Comma,
        b':' => Punct::Colon,
        b'=' => Punct::Eq,
        b'.' => Punct::Dot,
        _ => return None,
    })
}

static BYTE_CLASS: [ByteClass; 256] = {
    let mut table = [ByteClass::Other; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = byte_class(i as u8);
        i += 1;
    }
    table
};

/// The token kind of every punctuation byte (`Eof` for the others, which never reach it).
static PUNCT_OF: [TokenKind; 256] = {
    let mut table = [TokenKind::Eof; 256];
    let mut i = 0;
    while i < 256 {
        if let Some(p) = punct_of(i as u8) {
            table[i] = TokenKind::Punct(p);
        }
        i += 1;
    }
    table
};

/// Bytes that continue a word: `[A-Za-z0-9_]`.
static WORD_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = c.is_ascii_alphanumeric() || c == b'_';
        i += 1;
    }
    table
};

/// `LOW_BYTES_MASK[len]` keeps the low `len` bytes of a `u64` (`len` in 0..=8).
static LOW_BYTES_MASK: [u64; 9] = {
    let mut table = [u64::MAX; 9];
    let mut len = 0;
    while len < 8 {
        table[len] = (1u64 << (8 * len)) - 1;
        len += 1;
    }
    table
};

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_continue(c: u8) -> bool {
    WORD_CONTINUE[c as usize]
}

/// Whether `name` is a valid identifier of the text format.
pub(crate) fn is_ident(name: &str) -> bool {
    let b = name.as_bytes();
    matches!(b.first(), Some(&c) if is_ident_start(c)) && b.iter().all(|&c| is_ident_continue(c))
}

impl<'a> Lexed<'a> {
    /// Number of tokens (the last is `Eof`).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Token `i`; past the end, the final `Eof`.
    #[inline]
    pub(crate) fn token(&self, i: usize) -> Token {
        match self.tokens.get(i) {
            Some(tok) => tok.get(),
            None => self.eof(),
        }
    }

    /// The final `Eof` token.
    #[cold]
    fn eof(&self) -> Token {
        Token {
            kind: TokenKind::Eof,
            start: self.src.len() as u32,
            data: 0,
        }
    }

    /// The kind of token `i`; past the end, `Eof`.
    #[inline]
    pub(crate) fn kind(&self, i: usize) -> TokenKind {
        self.tokens.get(i).map_or(TokenKind::Eof, StoredToken::kind)
    }

    /// The index of the final `Eof` token.
    pub(crate) fn eof_index(&self) -> usize {
        self.tokens.len() - 1
    }

    /// The text of word token `tok`.
    #[inline]
    pub(crate) fn word(&self, tok: Token) -> &'a str {
        self.interner.name(Symbol(tok.data))
    }

    /// The byte range of a token.
    pub(crate) fn span(&self, tok: Token) -> Range<usize> {
        let start = tok.start as usize;
        let end = match tok.kind {
            TokenKind::Ident => start + self.word(tok).len(),
            TokenKind::Int => {
                let b = self.src.as_bytes();
                let mut end = start + usize::from(b.get(start) == Some(&b'-'));
                while b.get(end).is_some_and(|&c| is_ident_continue(c)) {
                    end += 1;
                }
                end
            }
            TokenKind::Str => self.strings[tok.data as usize].1 as usize,
            TokenKind::Error => self.errors[tok.data as usize].1 as usize,
            TokenKind::Punct(p) => start + p.text().len(),
            TokenKind::Newline => start + 1,
            TokenKind::Eof => start,
        };
        start..end.min(self.src.len())
    }

    /// The location of token `i` (as [`Lexed::loc_of`] its start). A token right after a
    /// newline finds its line in the newline token, without a search.
    #[inline]
    pub(crate) fn loc_of_token(&self, i: usize) -> Loc {
        let prev = self.tokens.get(i.wrapping_sub(1)).map(StoredToken::get);
        if let (Some(prev), Some(tok)) = (prev, self.tokens.get(i).map(StoredToken::get)) {
            if prev.kind == TokenKind::Newline && self.ascii {
                // The line starts right after the newline: the column is the distance to it.
                return Loc::new(prev.data.saturating_add(1), tok.start - prev.start);
            }
        }
        self.loc_of_token_slow(i)
    }

    #[inline(never)]
    fn loc_of_token_slow(&self, i: usize) -> Loc {
        let tok = self.token(i);
        match self.line_index_nearby(i) {
            Some((line, line_start)) => self.loc_in_line(line, line_start, tok.start),
            None => self.loc_of(tok.start),
        }
    }

    /// The 0-based line of token `i`, from the newline token before it: a token a few places
    /// into its line (a parameter, a label, a body's first token or `}`) is placed with a
    /// short backward walk instead of a search of the line table.
    #[inline]
    pub(crate) fn line_index_of_token(&self, i: usize) -> usize {
        // A newline token is on the line before the one its data numbers (the first token of
        // a body, after its `{`, is usually one: no walk back over the function's header).
        let tok = self.token(i);
        if tok.kind == TokenKind::Newline {
            return tok.data as usize - 1;
        }
        match self.line_index_nearby(i) {
            Some((line, _)) => line,
            None => self.line_of(tok.start) - 1,
        }
    }

    /// The 0-based line of token `i` and the offset where that line starts, if a newline
    /// token (whose data is the number of the line after it), or the start of the input, is at
    /// most [`LINE_LOOKBACK`] tokens before it.
    fn line_index_nearby(&self, i: usize) -> Option<(usize, u32)> {
        let first = i.saturating_sub(LINE_LOOKBACK);
        let before = self.tokens.get(first..i)?;
        match before.iter().rposition(|t| t.kind() == TokenKind::Newline) {
            Some(at) => Some((before[at].data as usize, before[at].start + 1)),
            None => (first == 0).then_some((0, 0)),
        }
    }

    /// Byte offset of the start of every line (`[0] == 0`), made from the newline tokens when
    /// first needed: a source that parses is placed by its newline tokens alone (see
    /// [`Lexed::loc_of_token`]), so the lexer does not build the table on the way.
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(
                    self.tokens
                        .iter()
                        .filter(|t| t.kind() == TokenKind::Newline)
                        .map(|t| t.start + 1),
                )
                .collect()
        })
    }

    /// The source text of a token.
    pub(crate) fn text(&self, tok: Token) -> &'a str {
        self.src.get(self.span(tok)).unwrap_or("")
    }

    /// 1-based line and column (in chars) of byte offset `offset`.
    pub(crate) fn loc_of(&self, offset: u32) -> Loc {
        let starts = self.line_starts();
        // Lookups mostly go forward a line or a few from the last answer: walk forward from
        // it (at most eight lines) before a binary search.
        let mut line = self.line_hint.get();
        if starts[line] <= offset {
            let limit = starts.len().min(line + 9);
            while line + 1 < limit && starts[line + 1] <= offset {
                line += 1;
            }
            if line + 1 == limit && limit < starts.len() && starts[limit] <= offset {
                line = starts.partition_point(|&s| s <= offset) - 1;
            }
        } else {
            line = starts.partition_point(|&s| s <= offset).saturating_sub(1);
        }
        self.line_hint.set(line);
        self.loc_in_line(line, starts[line], offset)
    }

    /// The 1-based line of byte offset `offset` (a binary search; the lookup hint is left
    /// alone).
    pub(crate) fn line_of(&self, offset: u32) -> usize {
        self.line_starts().partition_point(|&s| s <= offset)
    }

    /// The location of byte offset `offset` on line `line` (0-based) of the source, which
    /// starts at offset `line_start`.
    fn loc_in_line(&self, line: usize, line_start: u32, offset: u32) -> Loc {
        let line_start = line_start as usize;
        let offset = (offset as usize).min(self.src.len());
        let col = if self.ascii {
            offset.saturating_sub(line_start)
        } else {
            self.src
                .get(line_start..offset)
                .map_or(offset.saturating_sub(line_start), |s| s.chars().count())
        };
        Loc::new(
            u32::try_from(line + 1).unwrap_or(u32::MAX),
            u32::try_from(col + 1).unwrap_or(u32::MAX),
        )
    }
}

struct Lexer<'a> {
    src: &'a str,
    out: Lexed<'a>,
}

/// Appends one token. The vector is a local of [`Lexer::run`] (not a field reached through
/// `self`), so its length stays in a register in the hot loop.
#[inline(always)]
fn push(toks: &mut Vec<StoredToken>, kind: TokenKind, start: usize, data: u32) {
    toks.push(StoredToken {
        kind,
        start: start as u32,
        data,
    });
}

impl<'a> Lexer<'a> {
    /// Before a `:` is pushed: records the word before it as a label candidate when that word
    /// starts a line or follows a `{`.
    fn note_colon(&mut self, toks: &[StoredToken]) {
        let n = toks.len();
        if n >= 1 && toks[n - 1].kind() == TokenKind::Ident {
            let first = n == 1
                || matches!(
                    toks[n - 2].kind(),
                    TokenKind::Newline | TokenKind::Punct(Punct::LBrace)
                );
            if first {
                self.out.label_candidates.push(n as u32 - 1);
            }
        }
    }

    fn push_error(
        &mut self,
        toks: &mut Vec<StoredToken>,
        kind: ParseErrorKind,
        start: usize,
        end: usize,
    ) {
        let index = self.out.errors.len() as u32;
        self.out.errors.push((kind, end as u32));
        push(toks, TokenKind::Error, start, index);
    }

    fn run(mut self) -> Lexed<'a> {
        let b = self.src.as_bytes();
        let n = b.len();
        let mut toks = std::mem::take(&mut self.out.tokens);
        let mut i = 0;
        // The (0-based) number of the line being lexed. (A line takes a byte: no overflow.)
        let mut line = 0u32;
        while i < n {
            let c = b[i];
            match BYTE_CLASS[c as usize] {
                ByteClass::Word => {
                    let start = i;
                    let interner = &mut self.out.interner;
                    let sym;
                    if let Some(&chunk) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
                        // Eight bytes are there: find the word's end in one load, which is
                        // also the word's head.
                        let lo = u64::from_le_bytes(chunk);
                        let mut len = 1;
                        while len < 8 && WORD_CONTINUE[usize::from((lo >> (8 * len)) as u8)] {
                            len += 1;
                        }
                        i += len;
                        if len < 8 {
                            // One load instead of a variable shift. (Interned here, not after
                            // the branches, so that the inlined lookup knows the word is short.)
                            let head = lo & LOW_BYTES_MASK[len];
                            sym = interner.intern_short(start, i, head);
                        } else {
                            while i < n && WORD_CONTINUE[b[i] as usize] {
                                i += 1;
                            }
                            let tail = word_part(b, start + 8, i);
                            sym = interner.intern(start, i, lo, tail);
                        }
                    } else {
                        i += 1;
                        while i < n && WORD_CONTINUE[b[i] as usize] {
                            i += 1;
                        }
                        let (head, tail) = (word_part(b, start, i), word_part(b, start + 8, i));
                        sym = interner.intern(start, i, head, tail);
                    }
                    push(&mut toks, TokenKind::Ident, start, sym.0);
                    // Most tokens are followed by one space: skip it without a dispatch.
                    i += usize::from(i < n && b[i] == b' ');
                }
                ByteClass::Punct => {
                    push(&mut toks, PUNCT_OF[c as usize], i, 0);
                    i += 1;
                    i += usize::from(i < n && b[i] == b' ');
                }
                ByteClass::Space => {
                    i += 1;
                    while i < n && matches!(b[i], b' ' | b'\t') {
                        i += 1;
                    }
                }
                ByteClass::Newline => {
                    line += 1;
                    push(&mut toks, TokenKind::Newline, i, line);
                    i += 1;
                    // The indentation of the next line, without a dispatch: up to eight
                    // spaces in one load, then (tabs, deeper indentation) byte by byte.
                    if let Some(&chunk) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
                        let not_space = u64::from_le_bytes(chunk) ^ u64::from_le_bytes([b' '; 8]);
                        i += not_space.trailing_zeros() as usize / 8;
                    }
                    while i < n && matches!(b[i], b' ' | b'\t') {
                        i += 1;
                    }
                }
                ByteClass::RBrace => {
                    self.out.closers.push(toks.len() as u32);
                    push(&mut toks, TokenKind::Punct(Punct::RBrace), i, 0);
                    i += 1;
                }
                ByteClass::Colon => {
                    self.note_colon(&toks);
                    push(&mut toks, TokenKind::Punct(Punct::Colon), i, 0);
                    i += 1;
                    i += usize::from(i < n && b[i] == b' ');
                }
                ByteClass::Quote => i = self.string(&mut toks, i),
                ByteClass::Digit => {
                    if b.get(i + 1).is_some_and(|&d| WORD_CONTINUE[d as usize]) {
                        i = self.number(&mut toks, i, i, false);
                    } else {
                        // A one-digit literal (the usual one: `0`, `1`, `7`), valued here.
                        let index = self.out.ints.len() as u32;
                        self.out.ints.push(i64::from(c - b'0'));
                        push(&mut toks, TokenKind::Int, i, index);
                        i += 1;
                        i += usize::from(i < n && b[i] == b' ');
                    }
                }
                ByteClass::Comment | ByteClass::Minus | ByteClass::Other => {
                    i = self.comment_minus_or_other(&mut toks, i)
                }
            }
        }
        push(&mut toks, TokenKind::Eof, n, 0);
        self.out.tokens = toks;
        debug_assert_eq!(self.out.ascii, self.src.is_ascii());
        self.out
    }

    /// What starts at `i` with a `;`, a `-` or a byte no token starts with: a comment, `->`, a
    /// negative literal or an error. Returns the offset after it. (Out of line: these are
    /// rare, and the main loop's dispatch is shorter without them.)
    #[inline(never)]
    fn comment_minus_or_other(&mut self, toks: &mut Vec<StoredToken>, i: usize) -> usize {
        let b = self.src.as_bytes();
        match b[i] {
            b';' => {
                let (end, ascii) = newline_at_or_after(b, i);
                self.out.ascii &= ascii;
                end
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                push(toks, TokenKind::Punct(Punct::Arrow), i, 0);
                i + 2
            }
            b'-' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                self.number(toks, i, i + 1, true)
            }
            _ => {
                // `i` is on a char boundary: every other branch stops on ASCII.
                let ch = self.src[i..].chars().next().unwrap_or('\u{fffd}');
                let end = i + ch.len_utf8();
                self.out.ascii &= ch.is_ascii();
                self.push_error(toks, ParseErrorKind::UnexpectedChar(ch), i, end);
                end
            }
        }
    }

    /// An integer literal starting at `start` (its digits at `digits_start`): decimal, or hex
    /// with `0x`. Returns the offset after it.
    #[inline(never)]
    fn number(
        &mut self,
        toks: &mut Vec<StoredToken>,
        start: usize,
        digits_start: usize,
        negative: bool,
    ) -> usize {
        let b = self.src.as_bytes();
        let hex = b.get(digits_start) == Some(&b'0')
            && matches!(b.get(digits_start + 1), Some(b'x' | b'X'));
        let mut end = digits_start + if hex { 2 } else { 0 };
        // Take the whole word so `12ab` is one bad literal, not a number and a name. A decimal
        // literal is valued on the way.
        let mut value = 0u64;
        let mut decimal = !hex;
        while end < b.len() && is_ident_continue(b[end]) {
            let digit = b[end].wrapping_sub(b'0');
            decimal &= digit < 10;
            value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
            end += 1;
        }
        // At most 18 decimal digits always fit an `i64`: no further checks.
        if decimal && end - digits_start <= 18 {
            let value = value as i64;
            let index = self.out.ints.len() as u32;
            self.out.ints.push(if negative { -value } else { value });
            push(toks, TokenKind::Int, start, index);
            return end;
        }
        let text = &self.src[start..end];
        let body = &self.src[digits_start..end];
        match parse_int(body, hex, negative) {
            Ok(v) => {
                let index = self.out.ints.len() as u32;
                self.out.ints.push(v);
                push(toks, TokenKind::Int, start, index);
            }
            Err(IntError::Invalid) => {
                self.push_error(toks, ParseErrorKind::BadInt(text.to_string()), start, end)
            }
            Err(IntError::Range) => self.push_error(
                toks,
                ParseErrorKind::IntOutOfRange(text.to_string()),
                start,
                end,
            ),
        }
        end
    }

    /// A string literal whose opening quote is at `start`. Returns the offset after it.
    #[inline(never)]
    fn string(&mut self, toks: &mut Vec<StoredToken>, start: usize) -> usize {
        let b = self.src.as_bytes();
        let mut i = start + 1;
        let mut value = String::new();
        let mut error = None;
        loop {
            // Copy the run of plain bytes at once (it ends on an ASCII byte or the end).
            let run = b[i..]
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
                .map_or(b.len(), |p| i + p);
            value.push_str(&self.src[i..run]);
            i = run;
            match b.get(i) {
                None | Some(b'\n') => {
                    self.out.ascii &= b[start..i].is_ascii();
                    self.push_error(toks, ParseErrorKind::UnterminatedString, start, i);
                    return i;
                }
                Some(b'"') => {
                    i += 1;
                    break;
                }
                _ => {
                    // A backslash.
                    i += 1;
                    match b.get(i) {
                        Some(b'"') => value.push('"'),
                        Some(b'\\') => value.push('\\'),
                        Some(b'n') => value.push('\n'),
                        Some(b't') => value.push('\t'),
                        // Let the unterminated-string check above see the newline / end.
                        None | Some(b'\n') => continue,
                        Some(_) => {
                            let ch = self.src[i..].chars().next().unwrap_or('\u{fffd}');
                            error.get_or_insert(ParseErrorKind::BadEscape(ch));
                            i += ch.len_utf8();
                            continue;
                        }
                    }
                    i += 1;
                }
            }
        }
        self.out.ascii &= b[start..i].is_ascii();
        match error {
            Some(e) => self.push_error(toks, e, start, i),
            None => {
                let index = self.out.strings.len() as u32;
                self.out.strings.push((value, i as u32));
                push(toks, TokenKind::Str, start, index);
            }
        }
        i
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

/// The offset of the first `\n` at or after `i` in `b`, or `b.len()`, and whether every byte
/// read on the way (those up to it, and maybe a few after it) is ASCII: eight bytes a step (a
/// comment is skipped with it).
fn newline_at_or_after(b: &[u8], mut i: usize) -> (usize, bool) {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_le_bytes([b'\n'; 8]);
    let mut high_bits = 0;
    while let Some(chunk) = b.get(i..).and_then(|r| r.first_chunk::<8>()) {
        let word = u64::from_le_bytes(*chunk);
        high_bits |= word;
        // A zero byte of `x` is a newline; the lowest flagged byte is always a true one.
        let x = word ^ NEWLINES;
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return (
                i + found.trailing_zeros() as usize / 8,
                high_bits & HIGHS == 0,
            );
        }
        i += 8;
    }
    let start = i;
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    (i, high_bits & HIGHS == 0 && b[start..i].is_ascii())
}

/// Splits `src` into tokens; the last one is [`TokenKind::Eof`]. Offsets are `u32`: the parser
/// refuses a source of 4 GiB or more before lexing it.
pub(crate) fn lex(src: &str) -> Lexed<'_> {
    // The side tables are sized for lines of 16 bytes on average (a function body's lines are
    // 20 to 40), so that they rarely grow while lexing; counting the lines first costs more
    // than the growth it saves.
    let lines = src.len() / 16 + 1;
    Lexer {
        src,
        out: Lexed {
            src,
            tokens: Vec::with_capacity(src.len() / 3 + 1),
            ints: Vec::with_capacity(lines / 2),
            strings: Vec::new(),
            errors: Vec::new(),
            interner: Interner::new(src),
            line_starts: OnceCell::new(),
            closers: Vec::with_capacity(lines / 4),
            label_candidates: Vec::with_capacity(lines / 4),
            ascii: true,
            line_hint: Cell::new(0),
        },
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(l: &Lexed) -> Vec<Token> {
        (0..l.len()).map(|i| l.token(i)).collect()
    }

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).tokens.iter().map(StoredToken::kind).collect()
    }

    fn int(src: &str) -> Result<i64, ParseErrorKind> {
        let l = lex(src);
        let t = l.token(0);
        match t.kind {
            TokenKind::Int => Ok(l.ints[t.data as usize]),
            TokenKind::Error => Err(l.errors[t.data as usize].0.clone()),
            other => panic!("{other:?}"),
        }
    }

    fn err(src: &str) -> ParseErrorKind {
        let l = lex(src);
        let t = l.token(0);
        assert_eq!(t.kind, TokenKind::Error, "{src}");
        l.errors[t.data as usize].0.clone()
    }

    #[test]
    fn token_is_compact() {
        assert_eq!(std::mem::size_of::<TokenKind>(), 1);
        assert_eq!(std::mem::size_of::<StoredToken>(), 9);
    }

    #[test]
    fn integers() {
        assert_eq!(int("-5"), Ok(-5));
        assert_eq!(int("0x10"), Ok(16));
        assert_eq!(int("0xffffffffffffffff"), Ok(-1));
        assert_eq!(int("-0x8000000000000000"), Ok(i64::MIN));
        assert_eq!(int("-9223372036854775808"), Ok(i64::MIN));
        assert!(matches!(
            int("9223372036854775808"),
            Err(ParseErrorKind::IntOutOfRange(_))
        ));
        assert!(matches!(int("12ab"), Err(ParseErrorKind::BadInt(_))));
        assert!(matches!(int("0x"), Err(ParseErrorKind::BadInt(_))));
        let l = lex("-0x1f,");
        assert_eq!(l.span(l.token(0)), 0..5);
        // Around the 18-digit fast path: 18 and 19 digits, signs, leading zeros.
        assert_eq!(int("999999999999999999"), Ok(999_999_999_999_999_999));
        assert_eq!(int("-999999999999999999"), Ok(-999_999_999_999_999_999));
        assert_eq!(int("1234567890123456789"), Ok(1_234_567_890_123_456_789));
        assert_eq!(int("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(int("0000000000000000000042"), Ok(42));
        assert_eq!(int("-0"), Ok(0));
        assert!(matches!(
            int("12345678901234567a"),
            Err(ParseErrorKind::BadInt(_))
        ));
        assert!(matches!(
            int("99999999999999999999"),
            Err(ParseErrorKind::IntOutOfRange(_))
        ));
    }

    #[test]
    fn indentation_of_any_depth_and_kind_is_skipped() {
        // No indentation, 4, 8, 9 and 17 spaces, tabs, mixed, and a file ending in spaces.
        let src = "a\n    b\n        c\n         d\n                 e\n\tf\n \t  \tg\n  ";
        let l = lex(src);
        let words: Vec<(String, Loc)> = tokens(&l)
            .into_iter()
            .filter(|t| t.kind == TokenKind::Ident)
            .map(|t| (l.word(t).to_string(), l.loc_of(t.start)))
            .collect();
        let expected = [
            ("a", 1),
            ("b", 5),
            ("c", 9),
            ("d", 10),
            ("e", 18),
            ("f", 2),
            ("g", 6),
        ];
        assert_eq!(words.len(), expected.len());
        for (line, ((word, loc), (name, col))) in words.iter().zip(expected).enumerate() {
            assert_eq!(
                (word.as_str(), *loc),
                (name, Loc::new(line as u32 + 1, col))
            );
        }
        assert_eq!(l.token(l.eof_index()).start as usize, src.len());
    }

    #[test]
    fn positions_count_chars() {
        let l = lex("\"é\" x\n  y ; c\n");
        let toks = &tokens(&l);
        assert_eq!(toks[0].kind, TokenKind::Str);
        assert_eq!(&*l.strings[0].0, "é");
        assert_eq!(l.loc_of(toks[1].start), Loc::new(1, 5));
        assert_eq!(l.span(toks[1]), 5..6);
        assert_eq!(toks[2].kind, TokenKind::Newline);
        assert_eq!(l.loc_of(toks[3].start), Loc::new(2, 3));
        assert_eq!(toks[4].kind, TokenKind::Newline);
        assert_eq!(toks[5].kind, TokenKind::Eof);
        assert_eq!(l.loc_of(toks[5].start), Loc::new(3, 1));
        // Out-of-order lookups are answered too.
        assert_eq!(l.loc_of(0), Loc::new(1, 1));
    }

    #[test]
    fn token_lines_agree_with_the_line_table() {
        // First line without a newline before it, blank lines, CRLF, tabs, a comment, a line
        // of more tokens than the backward walk looks at, non-ASCII text, and the end.
        let long: String = (0..40).map(|i| format!("w{i}, ")).collect();
        let src =
            format!("fn f(a: i64, b: i64) {{\r\n\n\tx = add a, b ; é\n{long}\n\"é\" y: z\n  }}");
        let l = lex(&src);
        for i in 0..l.len() {
            let start = l.token(i).start;
            assert_eq!(l.line_index_of_token(i), l.line_of(start) - 1, "token {i}");
            assert_eq!(l.loc_of_token(i), l.loc_of(start), "token {i}");
        }
    }

    #[test]
    fn words_are_interned_once() {
        let l = lex("abc fn abc x");
        let t = &tokens(&l);
        assert_eq!(t[0].data, t[2].data);
        assert_eq!(Symbol(t[1].data), kw::FN);
        assert_eq!(l.word(t[3]), "x");
        assert_eq!(l.interner.len(), KEYWORDS.len() + 2);
        // Long words and words at the very end of the input (no 8-byte load) intern alike.
        let src = "a_rather_long_name a_rather_long_nam a_rather_long_name fn";
        let l = lex(src);
        let t = &tokens(&l);
        assert_eq!(t[0].data, t[2].data);
        assert_ne!(t[0].data, t[1].data);
        assert_eq!(Symbol(t[3].data), kw::FN);
        // Growing the table keeps every symbol.
        let many: String = (0..5000).map(|i| format!("w{i} ")).collect();
        let again = format!("{many}{many}");
        let l = lex(&again);
        let t = &tokens(&l);
        assert_eq!(l.interner.len(), KEYWORDS.len() + 5000);
        assert!((0..5000).all(|i| t[i].data == t[i + 5000].data));
        assert_eq!(l.word(t[4999]), "w4999");
        // Thousands of words with equal first 8 bytes and length (16 bytes), and with equal
        // first 16 bytes and length (20 bytes): probe chains are shared, so only the full
        // comparison keeps them apart.
        for word in [
            |i| format!("abcdefgh{i:08}"),
            |i| format!("abcdefghijklmnop{i:04}"),
        ] {
            let src: String = (0..3000).map(|i| word(i) + " ").collect();
            let l = lex(&src);
            assert_eq!(l.interner.len(), KEYWORDS.len() + 3000);
            let t = &tokens(&l);
            assert!((0..3000).all(|i| l.word(t[i]) == word(i)));
        }
    }

    #[test]
    fn strings_and_errors() {
        let l = lex(r#""a\"b\\c\nd\te""#);
        assert_eq!(&*l.strings[0].0, "a\"b\\c\nd\te");
        assert_eq!(err("\"abc"), ParseErrorKind::UnterminatedString);
        assert_eq!(err("\"abc\\"), ParseErrorKind::UnterminatedString);
        assert_eq!(err(r#""a\qb""#), ParseErrorKind::BadEscape('q'));
        assert_eq!(err(r#""a\éb""#), ParseErrorKind::BadEscape('é'));
        assert_eq!(err("@"), ParseErrorKind::UnexpectedChar('@'));
        assert_eq!(err("é"), ParseErrorKind::UnexpectedChar('é'));
        assert_eq!(kinds("->")[0], TokenKind::Punct(Punct::Arrow));
        assert!(is_ident("a_1") && !is_ident("1a") && !is_ident("") && !is_ident("a.b"));
    }

    /// The lexer finds whether the source is ASCII on the way: a byte outside ASCII can be in
    /// a comment, a string literal (closed, unterminated or with a bad escape) or an
    /// unexpected character, and nowhere else.
    #[test]
    fn ascii_found_on_the_way() {
        for src in [
            "",
            "fn f() {\n}\n",
            "; é\n",
            "; é",
            "x ; é",
            "\"é\"",
            "\"é",
            "\"a\\é\"",
            "\"a\\\"é\"",
            "é",
            "a é b",
            "aé",
            "1é",
            "-é",
            "\"a\" é",
            "\"é\" x",
            "ab\u{2028}cd",
            "\t\r\n@#\"ok\" ; fine",
        ] {
            assert_eq!(lex(src).ascii, src.is_ascii(), "{src:?}");
        }
    }

    /// One piece of generated source: what the lexer must make of it.
    #[derive(Clone, Debug)]
    enum Piece {
        Word(String),
        Int(i64),
        Punct(&'static str),
        Comment(String),
    }

    fn piece() -> impl proptest::strategy::Strategy<Value = Piece> {
        use proptest::prelude::*;
        prop_oneof![
            // Word lengths around the lexer's 8- and 16-byte boundaries, from a small
            // alphabet so that words repeat and share long prefixes.
            4 => "[ab_][ab0_]{0,20}".prop_map(Piece::Word),
            // Stems of 7, 8, 15, 16 and 17 bytes with short endings: words that share their
            // first 8 or 16 bytes, or differ only past them, with equal or different lengths.
            4 => (
                prop::sample::select(&["", "stem_07", "stem_008", "stem_0000000015", "stem_00000000016", "stem_000000000017"][..]),
                "[ab]{0,3}",
            )
                .prop_map(|(stem, end)| Piece::Word(format!("w{stem}{end}"))),
            1 => "[A-Za-z_][A-Za-z0-9_]{0,9}".prop_map(Piece::Word),
            1 => any::<i64>().prop_map(Piece::Int),
            1 => prop::sample::select(&["{", "}", "(", ")", "[", "]", "<", ">", ",", ":", "=", ".", "->"][..])
                .prop_map(Piece::Punct),
            1 => "[ a-z;é]{0,12}".prop_map(Piece::Comment),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 512,
            failure_persistence: None,
            ..Default::default()
        })]

        /// The byte-level lexer against a model: every generated word, integer and
        /// punctuation comes back as one token with its exact span, equal words (only equal
        /// words) share a symbol, and comments vanish — whatever the spacing and wherever
        /// the input ends (words near the end cannot be read 8 bytes at a time).
        #[test]
        fn lexer_agrees_with_a_model(
            pieces in proptest::collection::vec(
                (piece(), proptest::prop_oneof![proptest::strategy::Just(" "), proptest::strategy::Just("\n"), proptest::strategy::Just("\t "), proptest::strategy::Just("")]),
                0..40,
            )
        ) {
            use proptest::prelude::*;
            let mut src = String::new();
            let mut expected: Vec<(Piece, Range<usize>)> = Vec::new();
            for (piece, sep) in &pieces {
                // A separator is needed between two tokens that would otherwise merge.
                let needs_space = !matches!(piece, Piece::Punct(_))
                    && src.bytes().last().is_some_and(|c| is_ident_continue(c) || c == b'-');
                if needs_space || (matches!(piece, Piece::Punct(">")) && src.ends_with('-')) {
                    src.push(' ');
                }
                let start = src.len();
                match piece {
                    Piece::Word(w) => src.push_str(w),
                    Piece::Int(v) => src.push_str(&v.to_string()),
                    Piece::Punct(p) => src.push_str(p),
                    Piece::Comment(c) => {
                        src.push(';');
                        src.push_str(c);
                        src.push('\n');
                        continue;
                    }
                }
                expected.push((piece.clone(), start..src.len()));
                src.push_str(sep);
            }
            let l = lex(&src);
            let toks: Vec<Token> = tokens(&l)
                .into_iter()
                .filter(|t| !matches!(t.kind, TokenKind::Newline | TokenKind::Eof))
                .collect();
            prop_assert_eq!(toks.len(), expected.len(), "{:?}", src);
            let mut symbol_of: std::collections::HashMap<&str, u32> = Default::default();
            let mut word_of: std::collections::HashMap<u32, &str> = Default::default();
            for (tok, (piece, span)) in toks.iter().zip(&expected) {
                prop_assert_eq!(l.span(*tok), span.clone(), "{:?}", src);
                match piece {
                    Piece::Word(w) => {
                        prop_assert_eq!(tok.kind, TokenKind::Ident);
                        prop_assert_eq!(l.word(*tok), w.as_str());
                        let sym = *symbol_of.entry(w.as_str()).or_insert(tok.data);
                        prop_assert_eq!(sym, tok.data, "one word, two symbols");
                        let word = *word_of.entry(tok.data).or_insert(w.as_str());
                        prop_assert_eq!(word, w.as_str(), "two words, one symbol");
                    }
                    Piece::Int(v) => {
                        prop_assert_eq!(tok.kind, TokenKind::Int);
                        prop_assert_eq!(l.ints[tok.data as usize], *v);
                    }
                    Piece::Punct(p) => {
                        prop_assert!(matches!(tok.kind, TokenKind::Punct(q) if q.text() == *p));
                    }
                    Piece::Comment(_) => unreachable!("comments are not expected tokens"),
                }
            }
            prop_assert_eq!(l.ascii, src.is_ascii(), "{:?}", src);
            // Keywords keep their fixed symbols.
            for (i, kw) in KEYWORDS.iter().enumerate() {
                if let Some(&sym) = symbol_of.get(kw) {
                    prop_assert_eq!(sym as usize, i);
                }
            }
        }
    }
}
