//! The text format parser: reads what [`crate::print_module`] writes (and a little more: hex
//! literals, `true`/`false`, comments, blank lines, trailing commas).
//!
//! The grammar is specified in `docs/ir.md`. The parser is hand written: the byte-level lexer
//! (`lexer.rs`) produces a compact token vector with every word interned, then two passes run
//! over it. Names are resolved through their symbols (`lexer::Symbol`): tables indexed by
//! symbol map a word to its struct, function, local or block, so no name is hashed or copied
//! after lexing.
//!
//! 1. **Declarations.** Every top-level item is read: struct declarations completely, function
//!    signatures up to the `{` of the body, whose tokens are skipped (a body contains no braces).
//!    Then every struct and function name is registered and every type in a declaration is
//!    resolved, so functions may be called, and structs used, before they are defined.
//! 2. **Bodies.** Each body is parsed in turn. Its labels are collected first (a label is a word
//!    followed by `:` at the start of a line), so a branch may name a block defined later; the
//!    local declarations come before the first label, so the type of every local is known when
//!    an instruction names a field (`getfield s.a`, `get v[i].a`).
//!
//! Every name is resolved here: an undefined or duplicate struct, function, local or block, or
//! an unknown field, is a [`ParseError`] at the offending token, with a "did you mean" hint when
//! a defined name is close to it. Type checking is left to the verifier.
//!
//! **Recovery.** An error does not stop the parser: a bad statement is skipped to the end of its
//! line, a bad item to the next `struct`/`fn` at the start of a line, and parsing goes on, so
//! [`parse_all`] reports every error of a file (up to [`MAX_PARSE_ERRORS`]). Names whose
//! declaration failed are remembered, so their uses do not report follow-on errors. The parser
//! never panics and never recurses on the input (the grammar is flat), so neither byte soup nor
//! huge input can crash it.

// A parse error carries its location (with the inliner's origin), span and hint; it is built
// only on failure, so its size does not matter on the success path.
#![allow(clippy::result_large_err)]

use crate::entities::{Block, FuncId, Local, StructId};
use crate::function::{BlockData, Function, InlineHint, LocalData, Name};
use crate::inst::{BinaryOp, CastOp, Check, CmpOp, InstKind, Loc, Operand, Terminator, UnaryOp};
use crate::lexer::{kw, lex, Lexed, Punct, Symbol, Token, TokenKind};
use crate::module::Module;
use crate::types::{ElemType, FieldDef, ScalarType, StructDef, Type, FIELD_SCAN};
use cranelift_entity::{EntityRef, PrimaryMap};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::ops::Range;
use thiserror::Error;

/// The most errors [`parse_all`] reports for one source text; parsing stops at this many.
pub const MAX_PARSE_ERRORS: usize = 20;

/// A syntax or name-resolution error, with where it happened.
///
/// `Display` is the message alone; a front end renders `FILE:LINE:COL: error: <message>` from
/// [`ParseError::loc`] and can underline [`ParseError::span`] in the source.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct ParseError {
    /// Line and column (1-based; the column counts chars) of the offending token.
    pub loc: Loc,
    /// Byte range of the offending token in the source (empty at the end of input).
    pub span: Range<usize>,
    pub kind: ParseErrorKind,
    /// A hint for the fix (`did you mean `count`?`), if there is one.
    pub help: Option<String>,
}

impl ParseError {
    /// The user-facing message (the same as `to_string()`).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// What is wrong with the input. The `Display` text is the message shown to users.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    #[error("unexpected character `{0}`")]
    UnexpectedChar(char),
    #[error("unterminated string literal")]
    UnterminatedString,
    #[error("unknown escape `\\{0}` in string literal (use \\\", \\\\, \\n or \\t)")]
    BadEscape(char),
    #[error("invalid integer literal `{0}`")]
    BadInt(String),
    #[error("integer literal `{0}` does not fit in 64 bits")]
    IntOutOfRange(String),
    #[error("expected {expected}, found {found}")]
    Expected { expected: String, found: String },
    #[error("unknown instruction `{0}`")]
    UnknownInstruction(String),
    #[error("`{0}` does not produce a value")]
    NoValue(String),
    #[error("undefined local `{0}`")]
    UndefinedLocal(String),
    #[error("undefined block `{0}`")]
    UndefinedBlock(String),
    #[error("undefined function `{0}`")]
    UndefinedFunction(String),
    #[error("unknown type `{0}`")]
    UnknownType(String),
    #[error("duplicate local `{0}`")]
    DuplicateLocal(String),
    #[error("duplicate block `{0}`")]
    DuplicateBlock(String),
    #[error("duplicate function `{0}`")]
    DuplicateFunction(String),
    #[error("duplicate struct `{0}`")]
    DuplicateStruct(String),
    #[error("duplicate field `{field}` in struct `{strukt}`")]
    DuplicateField { strukt: String, field: String },
    #[error("unknown field `{field}` of struct `{strukt}`")]
    UnknownField { strukt: String, field: String },
    #[error("`{local}` has type `{ty}`, which has no field `{field}`")]
    NoFields {
        local: String,
        ty: String,
        field: String,
    },
    #[error("`{0}` is a reserved word and cannot be used as a name here")]
    ReservedName(String),
    #[error("vec elements must be scalars or structs, not vecs")]
    NestedVec,
    #[error("`new` needs a vec type, found `{0}`")]
    NotAVecType(String),
    #[error("expected a local, found the constant `{0}`")]
    NotALocal(String),
    #[error("block `{0}` has no terminator")]
    MissingTerminator(String),
    #[error("instruction outside a block (a block starts with a label such as `entry:`)")]
    OutsideBlock,
    #[error("instruction after the terminator of block `{0}` (expected a label or `}}`)")]
    AfterTerminator(String),
    #[error("local declarations must come before the first block")]
    LateDeclaration,
    #[error("a label must start a line")]
    MisplacedLabel,
    #[error("the source is {0} bytes; the text format is limited to 4 GiB")]
    TooLarge(usize),
}

/// Every error of one source text, in source order (at most [`MAX_PARSE_ERRORS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseErrors(pub Vec<ParseError>);

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {e}", e.loc)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

/// Whether `name` can be written in the text format as a struct, function, local, block or
/// field name: `[A-Za-z_][A-Za-z0-9_]*`. (Locals may not be called `true` or `false`, and
/// structs may not take the name of a built-in type.)
pub fn is_valid_name(name: &str) -> bool {
    crate::lexer::is_ident(name)
}

/// Parses a module from its text form; on failure, the first error (declarations before
/// bodies). [`parse_all`] reports every error.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    parse_in_phase_order(src).map_err(|mut errors| errors.swap_remove(0))
}

/// Parses a module from its text form; on failure, every error of the source (at most
/// [`MAX_PARSE_ERRORS`]), in source order.
///
/// Never inlined: a phase boundary that callgrind's `--toggle-collect` counts by name
/// (docs/benchmarks.md), which the release profile's link-time optimization would otherwise
/// fold into its caller.
#[inline(never)]
pub fn parse_all(src: &str) -> Result<Module, ParseErrors> {
    parse_in_phase_order(src).map_err(|mut errors| {
        errors.sort_by_key(|e| e.span.start);
        ParseErrors(errors)
    })
}

/// Parses; errors come in phase order (syntax of the items, declarations, then each body).
fn parse_in_phase_order(src: &str) -> Result<Module, Vec<ParseError>> {
    if u32::try_from(src.len()).is_err() {
        return Err(vec![ParseError {
            loc: Loc::new(1, 1),
            span: 0..0,
            kind: ParseErrorKind::TooLarge(src.len()),
            help: None,
        }]);
    }
    let mut parser = Parser::new(lex(src));
    let mut items = parser.items();
    let mut module = Module::new();
    let decls = parser.declare(&mut items, &mut module);
    drop(items);
    for (id, decl) in decls.funcs.iter() {
        if parser.full() {
            break;
        }
        let body = parser.body(&module, &decls, decl);
        let func = &mut module.funcs[*id];
        func.locals = body.locals;
        func.blocks = body.blocks;
        func.insts = body.insts;
        func.layout = body.layout;
        func.params = body.params;
    }
    if parser.errors.is_empty() {
        Ok(module)
    } else {
        parser.errors.truncate(MAX_PARSE_ERRORS);
        Err(parser.errors)
    }
}

/// Why a parse step stopped: an error to report, or one already explained by an earlier error
/// (a use of a name whose declaration failed).
enum Failure {
    Report(Box<ParseError>),
    Quiet,
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure::Report(Box::new(e))
    }
}

type PResult<T> = Result<T, Failure>;

/// A type as written, before struct names are resolved; names are token indices.
#[derive(Copy, Clone)]
enum RawType {
    Scalar(ScalarType),
    Named(usize),
    VecScalar(ScalarType),
    VecNamed(usize),
}

/// A top-level item after pass 1 (token indices into the token vector).
enum Item {
    Struct {
        kw: usize,
        name: usize,
        /// Where the fields are in [`Parser::item_parts`].
        fields: Range<usize>,
    },
    Func {
        kw: usize,
        name: usize,
        inline: InlineHint,
        /// Where the parameters are in [`Parser::item_parts`].
        params: Range<usize>,
        ret: Option<RawType>,
        /// Index of the first token after the `{`.
        body: usize,
        scan: BodyScan,
    },
}

/// What a first look at a body finds (see [`Parser::scan_body`]).
#[derive(Clone)]
struct BodyScan {
    /// Index of the `}` (or `Eof`) that ends the body.
    end: usize,
    /// Lines of the body: at most one instruction each.
    lines: usize,
    /// Lines before the first label: at most one `var` each.
    vars: usize,
    /// Where the token indices of the labels, in order, are in [`Parser::labels`].
    labels: Range<usize>,
}

/// The index of the first element of the sorted `v` that is at least `x`, searched forward
/// from `from` when every element before `from` is less than `x` (a binary search otherwise).
fn first_at_least(v: &[u32], from: usize, x: usize) -> usize {
    if from > v.len() || from > 0 && v[from - 1] as usize >= x {
        return v.partition_point(|&c| (c as usize) < x);
    }
    let mut k = from;
    while k < v.len() && (v[k] as usize) < x {
        k += 1;
    }
    k
}

/// A function whose declaration is resolved and whose body is still to be parsed. A parameter
/// whose type did not resolve has `None` (it is declared, so its uses report nothing more).
struct FuncDecl {
    /// Where the parameters are in [`Decls::params`] (in [`Parser::item_parts`], as written,
    /// until [`Parser::declare`] resolves them).
    params: Range<usize>,
    /// The return type as written.
    ret: Option<RawType>,
    body: usize,
    scan: BodyScan,
}

/// The declarations of a module, indexed by symbol.
struct Decls {
    struct_of: Vec<Option<StructId>>,
    /// The fields of every struct of more than [`FIELD_SCAN`] fields: the index of each by
    /// its name's symbol.
    wide_fields: FxHashMap<StructId, FxHashMap<Symbol, u32>>,
    func_of: Vec<Option<FuncId>>,
    funcs: Vec<(FuncId, FuncDecl)>,
    /// The parameters of every function, in order.
    params: Vec<(usize, Option<Type>)>,
}

/// What a word means as an instruction mnemonic.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mnemonic {
    Binary(BinaryOp),
    Compare(CmpOp),
    Unary(UnaryOp),
    Cast(CastOp),
    Copy,
    Make,
    GetField,
    SetField,
    New,
    Len,
    Pop,
    Get,
    Set,
    Push,
    Drop,
    Call,
    Br,
    BrIf,
    Ret,
    Trap,
}

impl Mnemonic {
    /// Whether the instruction writes no destination (`x = push ...` is an error).
    fn without_value(self) -> bool {
        matches!(
            self,
            Mnemonic::SetField
                | Mnemonic::Push
                | Mnemonic::Set
                | Mnemonic::Drop
                | Mnemonic::Br
                | Mnemonic::BrIf
                | Mnemonic::Ret
                | Mnemonic::Trap
        )
    }
}

/// What the parser knows of a word, computed once per distinct word.
#[derive(Copy, Clone, Default)]
pub(crate) struct WordInfo {
    mnemonic: Option<Mnemonic>,
    scalar: Option<ScalarType>,
}

impl WordInfo {
    /// A word that is neither a mnemonic nor a scalar type.
    pub(crate) const NONE: WordInfo = WordInfo {
        mnemonic: None,
        scalar: None,
    };
}

/// A word's first eight bytes as a little-endian integer, zero-padded. Every mnemonic and
/// scalar type name has at most eight bytes, so for those words the key is the word.
const fn word_key(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() && i < 8 {
        key |= (word[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

/// The mnemonics that are not operators.
const PLAIN_MNEMONICS: [(&str, Mnemonic); 16] = [
    ("copy", Mnemonic::Copy),
    ("make", Mnemonic::Make),
    ("getfield", Mnemonic::GetField),
    ("setfield", Mnemonic::SetField),
    ("new", Mnemonic::New),
    ("len", Mnemonic::Len),
    ("pop", Mnemonic::Pop),
    ("get", Mnemonic::Get),
    ("set", Mnemonic::Set),
    ("push", Mnemonic::Push),
    ("drop", Mnemonic::Drop),
    ("call", Mnemonic::Call),
    ("br", Mnemonic::Br),
    ("brif", Mnemonic::BrIf),
    ("ret", Mnemonic::Ret),
    ("trap", Mnemonic::Trap),
];

const WORD_TABLE_LEN: usize = BinaryOp::ALL.len()
    + CmpOp::ALL.len()
    + UnaryOp::ALL.len()
    + CastOp::ALL.len()
    + PLAIN_MNEMONICS.len()
    + ScalarType::ALL.len();

/// Every word that is a mnemonic or a scalar type, as `(word_key, meaning)`, in a table with a
/// slot for each key and no collision (built at compile time from the operators' own names, so
/// the two cannot drift apart): looking a word up is a multiply, a load and a compare.
static WORD_TABLE: WordTable = WordTable::build();

/// A collision-free hash table of the [`WORD_TABLE_LEN`] words with a meaning, keyed by
/// [`word_key`]. An empty slot has key 0, which no word of one to eight bytes has.
struct WordTable {
    /// The multiplier of [`WordTable::slot_of`], found at compile time.
    multiplier: u64,
    slots: [(u64, WordInfo); WordTable::SLOTS],
}

impl WordTable {
    /// A power of two: about ten slots per word, so a collision-free multiplier is found in a
    /// few tries.
    const SLOTS: usize = 512;

    const fn slot_of(key: u64, multiplier: u64) -> usize {
        (key.wrapping_mul(multiplier) >> (64 - WordTable::SLOTS.trailing_zeros())) as usize
    }

    /// Tries multipliers until every word has a slot of its own; a word with two meanings
    /// fails the build.
    const fn build() -> WordTable {
        let words = word_meanings();
        let mut multiplier = 0x9e37_79b9_7f4a_7c15_u64;
        'search: loop {
            let mut slots = [(0, WordInfo::NONE); WordTable::SLOTS];
            let mut i = 0;
            while i < words.len() {
                let (key, info) = words[i];
                let slot = WordTable::slot_of(key, multiplier);
                if slots[slot].0 != 0 {
                    assert!(slots[slot].0 != key, "a word with two meanings");
                    multiplier = multiplier.wrapping_add(0x2545_f491_4f6c_dd1e);
                    continue 'search;
                }
                slots[slot] = (key, info);
                i += 1;
            }
            return WordTable { multiplier, slots };
        }
    }

    /// The meaning of the word whose [`word_key`] is `key` (a word of at most eight bytes).
    #[inline]
    fn get(&self, key: u64) -> WordInfo {
        let (k, info) = self.slots[WordTable::slot_of(key, self.multiplier)];
        if k == key {
            info
        } else {
            WordInfo::NONE
        }
    }
}

/// Every word that is a mnemonic or a scalar type, with its meaning.
const fn word_meanings() -> [(u64, WordInfo); WORD_TABLE_LEN] {
    const fn entry(
        name: &str,
        mnemonic: Option<Mnemonic>,
        scalar: Option<ScalarType>,
    ) -> (u64, WordInfo) {
        (word_key(name.as_bytes()), WordInfo { mnemonic, scalar })
    }
    let mut table = [(0, WordInfo::NONE); WORD_TABLE_LEN];
    let mut n = 0;
    // `const fn` has no iterators: one `while` per list, written once.
    macro_rules! add_each {
        ($list:expr, |$item:pat_param| $entry:expr) => {
            let mut i = 0;
            while i < $list.len() {
                let $item = $list[i];
                table[n] = $entry;
                (n, i) = (n + 1, i + 1);
            }
        };
    }
    add_each!(BinaryOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Binary(op)),
        None
    ));
    add_each!(CmpOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Compare(op)),
        None
    ));
    add_each!(UnaryOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Unary(op)),
        None
    ));
    add_each!(CastOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Cast(op)),
        None
    ));
    add_each!(PLAIN_MNEMONICS, |(name, m)| entry(name, Some(m), None));
    add_each!(ScalarType::ALL, |ty| entry(ty.name(), None, Some(ty)));
    table
}

/// What `word` means as a mnemonic and as a scalar type: one probe of [`WORD_TABLE`], no
/// string compare.
#[cfg(test)]
fn word_info_of(word: &str) -> WordInfo {
    if word.is_empty() || word.len() > 8 {
        return WordInfo::NONE;
    }
    word_info_of_key(word_key(word.as_bytes()))
}

/// [`word_info_of`] a word of one to eight bytes given as its [`word_key`]: the interner
/// computes it once per distinct word from the bytes it has already loaded.
#[inline]
pub(crate) fn word_info_of_key(key: u64) -> WordInfo {
    WORD_TABLE.get(key)
}

/// The "did you mean" hint: the candidate closest to `name` by edit distance, if it is close
/// enough to be a plausible typo.
fn suggest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<String> {
    // As rustc: up to a third of the length, at least 1, and never every char.
    let len = name.chars().count();
    let limit = (len / 3).max(1).min(len.saturating_sub(1));
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

struct Parser<'a> {
    lx: Lexed<'a>,
    pos: usize,
    errors: Vec<ParseError>,
    /// Names of items whose declaration failed: their uses report nothing more.
    poisoned: FxHashSet<Symbol>,
    /// The local and the block each word names in the body being parsed, indexed by symbol.
    /// Allocated once: an entry counts only when its stamp is the current body's.
    scope: Vec<ScopeSlot>,
    /// The stamp of the body being parsed.
    body_stamp: u32,
    /// The fields and parameters of every item, as written (see [`Item`]).
    item_parts: Vec<(usize, RawType)>,
    /// The operands of the list being parsed ([`BodyParser::operand_list`]), kept from list to
    /// list.
    operands: Vec<Operand>,
    /// The label tokens of every body, in order (see [`BodyScan::labels`]).
    labels: Vec<usize>,
    /// The instructions of the block being parsed ([`BodyParser::pending`]), kept from body to
    /// body so that it is allocated once.
    pending_insts: Vec<crate::entities::Inst>,
    /// Which blocks of the body being parsed have had their label, kept from body to body.
    defined_blocks: Vec<bool>,
    /// Where [`Parser::scan_body`]'s last searches of the `}` and the label candidates ended.
    scan_hints: (usize, usize),
}

/// What a word names in one function body.
#[derive(Copy, Clone, Default)]
struct ScopeSlot {
    local_stamp: u32,
    local: u32,
    block_stamp: u32,
    block: u32,
}

impl<'a> Parser<'a> {
    fn new(lx: Lexed<'a>) -> Parser<'a> {
        let scope = vec![ScopeSlot::default(); lx.interner.len()];
        let labels = Vec::with_capacity(lx.label_candidates.len());
        // The scratch vectors start at sizes that rarely grow: a few parts an item (every item
        // ends with a `}`), a dozen operands a list, a few dozen instructions a block, a block
        // a label candidate. (Each growth is a reallocation and a copy.)
        Parser {
            item_parts: Vec::with_capacity(lx.closers.len() * 4),
            operands: Vec::with_capacity(16),
            pending_insts: Vec::with_capacity(64),
            defined_blocks: Vec::with_capacity(lx.label_candidates.len()),
            labels,
            scan_hints: (0, 0),
            lx,
            pos: 0,
            errors: Vec::new(),
            poisoned: FxHashSet::default(),
            scope,
            body_stamp: 0,
        }
    }

    // ---- token access -------------------------------------------------------------------

    /// The token at index `i`, or the final `Eof` past the end.
    #[inline]
    fn tok(&self, i: usize) -> Token {
        self.lx.token(i)
    }

    #[inline]
    fn kind(&self, i: usize) -> TokenKind {
        self.lx.kind(i)
    }

    /// The source text of token `i`.
    #[inline]
    fn text(&self, i: usize) -> &'a str {
        let tok = self.tok(i);
        match tok.kind {
            TokenKind::Ident => self.lx.word(tok),
            _ => self.lx.text(tok),
        }
    }

    /// The symbol of word token `i` (meaningless for other tokens).
    #[inline]
    fn sym(&self, i: usize) -> Symbol {
        Symbol(self.tok(i).data)
    }

    #[inline]
    fn word_info(&self, i: usize) -> WordInfo {
        self.lx.interner.info(self.sym(i))
    }

    fn loc(&self, i: usize) -> Loc {
        self.lx.loc_of_token(i)
    }

    #[inline]
    fn at_eof(&self) -> bool {
        self.kind(self.pos) == TokenKind::Eof
    }

    /// Consumes the current token (never moves past `Eof`) and returns its index.
    #[inline]
    fn bump(&mut self) -> usize {
        let i = self.pos;
        if !self.at_eof() {
            self.pos += 1;
        }
        i
    }

    #[inline]
    fn is_punct(&self, i: usize, p: Punct) -> bool {
        self.kind(i) == TokenKind::Punct(p)
    }

    #[inline]
    fn is_ident(&self, i: usize) -> bool {
        self.kind(i) == TokenKind::Ident
    }

    #[inline]
    fn is_word(&self, i: usize, word: Symbol) -> bool {
        self.is_ident(i) && self.sym(i) == word
    }

    #[inline]
    fn is_newline(&self, i: usize) -> bool {
        self.kind(i) == TokenKind::Newline
    }

    /// Whether token `i` is the first of its line.
    fn at_line_start(&self, i: usize) -> bool {
        i == 0 || self.is_newline(i - 1)
    }

    fn skip_newlines(&mut self) {
        while self.is_newline(self.pos) {
            self.bump();
        }
    }

    // ---- errors -------------------------------------------------------------------------

    fn full(&self) -> bool {
        self.errors.len() >= MAX_PARSE_ERRORS
    }

    fn report(&mut self, failure: Failure) {
        if let Failure::Report(e) = failure {
            if !self.full() {
                self.errors.push(*e);
            }
        }
    }

    fn err_at(&self, i: usize, kind: ParseErrorKind) -> ParseError {
        let tok = self.tok(i);
        ParseError {
            loc: self.lx.loc_of(tok.start),
            span: self.lx.span(tok),
            kind,
            help: None,
        }
    }

    fn err_help(&self, i: usize, kind: ParseErrorKind, help: Option<String>) -> ParseError {
        ParseError {
            help,
            ..self.err_at(i, kind)
        }
    }

    /// The lexical error of an `Error` token.
    fn lex_error(&self, i: usize) -> ParseErrorKind {
        self.lx.errors[self.tok(i).data as usize].0.clone()
    }

    fn describe(&self, i: usize) -> String {
        match self.kind(i) {
            TokenKind::Ident | TokenKind::Int => format!("`{}`", self.text(i)),
            TokenKind::Str => "a string literal".to_string(),
            TokenKind::Punct(p) => format!("`{}`", p.text()),
            TokenKind::Newline => "end of line".to_string(),
            TokenKind::Eof => "end of input".to_string(),
            TokenKind::Error => "invalid input".to_string(),
        }
    }

    /// "expected X, found Y" at token `i`, or the lexical error if `i` is malformed input.
    fn unexpected(&self, i: usize, expected: &str) -> ParseError {
        match self.kind(i) {
            TokenKind::Error => self.err_at(i, self.lex_error(i)),
            _ => self.err_at(
                i,
                ParseErrorKind::Expected {
                    expected: expected.to_string(),
                    found: self.describe(i),
                },
            ),
        }
    }

    /// Reports `kind` at token `i`, unless `i` is malformed input (then that error).
    fn error_or_lex(&self, i: usize, kind: ParseErrorKind) -> ParseError {
        match self.kind(i) {
            TokenKind::Error => self.err_at(i, self.lex_error(i)),
            _ => self.err_at(i, kind),
        }
    }

    /// Consumes the current token, known not to be `Eof`, and returns its index.
    #[inline]
    fn advance(&mut self) -> usize {
        let i = self.pos;
        self.pos += 1;
        i
    }

    #[inline]
    fn expect_punct(&mut self, p: Punct) -> PResult<usize> {
        if self.is_punct(self.pos, p) {
            Ok(self.advance())
        } else {
            Err(self.expected_punct(p))
        }
    }

    #[cold]
    #[inline(never)]
    fn expected_punct(&self, p: Punct) -> Failure {
        self.unexpected(self.pos, &format!("`{}`", p.text())).into()
    }

    #[inline]
    fn expect_ident(&mut self, what: &str) -> PResult<usize> {
        if self.is_ident(self.pos) {
            Ok(self.advance())
        } else {
            Err(self.expected(what))
        }
    }

    /// The word that starts an instruction (consumed): its index and what it means as a
    /// mnemonic. (The token is read once for both.)
    #[inline]
    fn expect_mnemonic(&mut self) -> PResult<(usize, Option<Mnemonic>)> {
        let i = self.pos;
        let tok = self.tok(i);
        if tok.kind != TokenKind::Ident {
            return Err(self.expected("an instruction"));
        }
        self.pos += 1;
        Ok((i, self.lx.interner.info(Symbol(tok.data)).mnemonic))
    }

    /// "expected `what`" at the current token.
    #[cold]
    #[inline(never)]
    fn expected(&self, what: &str) -> Failure {
        self.unexpected(self.pos, what).into()
    }

    /// A statement ends at a newline (consumed), or before a `}` or the end of input.
    #[inline]
    fn end_of_statement(&mut self) -> PResult<()> {
        match self.kind(self.pos) {
            TokenKind::Newline => {
                self.advance();
                Ok(())
            }
            TokenKind::Eof | TokenKind::Punct(Punct::RBrace) => Ok(()),
            _ => Err(self.expected("end of line")),
        }
    }

    /// Recovery inside a body: skips to the end of the line (not past a `}`).
    fn skip_line(&mut self) {
        while !matches!(
            self.kind(self.pos),
            TokenKind::Newline | TokenKind::Eof | TokenKind::Punct(Punct::RBrace)
        ) {
            self.bump();
        }
    }

    // ---- pass 1: declarations -----------------------------------------------------------

    /// Whether an item starts at token `i`: `struct`, `fn`, or `inline`/`noinline` before `fn`.
    fn item_start(&self, i: usize) -> bool {
        if !self.is_ident(i) {
            return false;
        }
        match self.sym(i) {
            kw::STRUCT | kw::FN => true,
            kw::INLINE | kw::NOINLINE => self.is_word(i + 1, kw::FN),
            _ => false,
        }
    }

    fn items(&mut self) -> Vec<Item> {
        // Every item ends with a `}`: room for as many items as there are.
        let mut items = Vec::with_capacity(self.lx.closers.len());
        loop {
            self.skip_newlines();
            if self.at_eof() || self.full() {
                return items;
            }
            let start = self.pos;
            let item = if self.is_word(self.pos, kw::STRUCT) {
                self.struct_decl()
            } else if self.is_word(self.pos, kw::FN)
                || self.is_word(self.pos, kw::INLINE)
                || self.is_word(self.pos, kw::NOINLINE)
            {
                self.func_header()
            } else {
                Err(self.unexpected(self.pos, "`struct` or `fn`").into())
            };
            match item {
                Ok(item) => items.push(item),
                Err(failure) => {
                    self.report(failure);
                    // The item's name, if it was read, is poisoned: uses of it were meant.
                    let name = if self.is_ident(start) && self.item_start(start) {
                        let kw_at =
                            if self.is_word(start, kw::FN) || self.is_word(start, kw::STRUCT) {
                                start
                            } else {
                                start + 1
                            };
                        Some(kw_at + 1).filter(|&n| n < self.pos && self.is_ident(n))
                    } else {
                        None
                    };
                    if let Some(n) = name {
                        self.poisoned.insert(self.sym(n));
                    }
                    // Skip to the next item at the start of a line.
                    self.bump();
                    while !(self.at_eof()
                        || self.at_line_start(self.pos) && self.item_start(self.pos))
                    {
                        self.bump();
                    }
                }
            }
        }
    }

    fn struct_decl(&mut self) -> PResult<Item> {
        let kw = self.bump();
        let name = self.expect_ident("a struct name")?;
        self.expect_punct(Punct::LBrace)?;
        let first = self.item_parts.len();
        self.skip_newlines();
        while !self.is_punct(self.pos, Punct::RBrace) {
            let field = self.expect_ident("a field name or `}`")?;
            self.expect_punct(Punct::Colon)?;
            let ty = self.raw_type()?;
            self.item_parts.push((field, ty));
            self.skip_newlines();
            if self.is_punct(self.pos, Punct::Comma) {
                self.bump();
                self.skip_newlines();
            } else if !self.is_punct(self.pos, Punct::RBrace) {
                return Err(self.unexpected(self.pos, "`,` or `}`").into());
            }
        }
        self.bump();
        Ok(Item::Struct {
            kw,
            name,
            fields: first..self.item_parts.len(),
        })
    }

    fn func_header(&mut self) -> PResult<Item> {
        let first = self.pos;
        let inline = if self.is_word(first, kw::INLINE) {
            self.bump();
            InlineHint::Always
        } else if self.is_word(first, kw::NOINLINE) {
            self.bump();
            InlineHint::Never
        } else {
            InlineHint::Default
        };
        if !self.is_word(self.pos, kw::FN) {
            return Err(self.unexpected(self.pos, "`fn`").into());
        }
        self.bump();
        let name = self.expect_ident("a function name")?;
        self.expect_punct(Punct::LParen)?;
        let first_param = self.item_parts.len();
        self.skip_newlines();
        while !self.is_punct(self.pos, Punct::RParen) {
            let param = self.expect_ident("a parameter name or `)`")?;
            self.expect_punct(Punct::Colon)?;
            let ty = self.raw_type()?;
            self.item_parts.push((param, ty));
            self.skip_newlines();
            if self.is_punct(self.pos, Punct::Comma) {
                self.bump();
                self.skip_newlines();
            } else if !self.is_punct(self.pos, Punct::RParen) {
                return Err(self.unexpected(self.pos, "`,` or `)`").into());
            }
        }
        self.bump();
        let params = first_param..self.item_parts.len();
        let ret = if self.is_punct(self.pos, Punct::Arrow) {
            self.bump();
            Some(self.raw_type()?)
        } else {
            None
        };
        self.expect_punct(Punct::LBrace)?;
        let body = self.pos;
        // Skip the body: it contains no braces. Pass 2 reports whatever is wrong inside.
        let scan = self.scan_body(body);
        self.pos = scan.end;
        self.bump();
        Ok(Item::Func {
            kw: first,
            name,
            inline,
            params,
            ret,
            body,
            scan,
        })
    }

    /// Finds the extent of a body from its first token `start` to its `}` (or the end of
    /// input), how many lines it has, and where its labels are (a word followed by `:` at the
    /// start of a line), from what the lexer recorded: no walk over the body's tokens.
    fn scan_body(&mut self, start: usize) -> BodyScan {
        let lx = &self.lx;
        let eof = lx.eof_index();
        let closers = &lx.closers;
        // Bodies are scanned in source order: each search goes forward from the last one's
        // answer.
        let closer = first_at_least(closers, self.scan_hints.0, start);
        let end = closers.get(closer).map_or(eof, |&c| c as usize).min(eof);
        let candidates = &lx.label_candidates;
        let first = first_at_least(candidates, self.scan_hints.1, start);
        let last = first_at_least(candidates, first, end);
        self.scan_hints = (closer, last.max(first));
        // Every body's labels go to one vector, sized for every candidate of the module.
        let labels_start = self.labels.len();
        self.labels.extend(
            candidates[first..last.max(first)]
                .iter()
                .map(|&c| c as usize)
                .filter(|&i| i == start || lx.kind(i - 1) == TokenKind::Newline),
        );
        let labels = labels_start..self.labels.len();
        let line = |i: usize| lx.line_index_of_token(i);
        let first_line = line(start);
        let lines = line(end) + 1 - first_line;
        // The declarations come before the first label.
        let vars = self
            .labels
            .get(labels.start)
            .filter(|_| !labels.is_empty())
            .map_or(lines, |&l| line(l) + 1 - first_line);
        BodyScan {
            end,
            lines,
            vars,
            labels,
        }
    }

    /// `i8 | i16 | i32 | i64 | bool | NAME | vec<ELEM>` where ELEM is not a vec.
    fn raw_type(&mut self) -> PResult<RawType> {
        let i = self.expect_ident("a type")?;
        if let Some(s) = self.word_info(i).scalar {
            return Ok(RawType::Scalar(s));
        }
        if self.sym(i) != kw::VEC {
            return Ok(RawType::Named(i));
        }
        self.expect_punct(Punct::Lt)?;
        let e = self.expect_ident("an element type")?;
        let ty = if let Some(s) = self.word_info(e).scalar {
            RawType::VecScalar(s)
        } else if self.sym(e) == kw::VEC {
            return Err(self.err_at(e, ParseErrorKind::NestedVec).into());
        } else {
            RawType::VecNamed(e)
        };
        self.expect_punct(Punct::Gt)?;
        Ok(ty)
    }

    /// The struct named by word token `i`.
    fn struct_named(&self, i: usize, struct_of: &[Option<StructId>]) -> PResult<StructId> {
        let sym = self.sym(i);
        if let Some(id) = struct_of[sym.index()] {
            return Ok(id);
        }
        if self.poisoned.contains(&sym) {
            return Err(Failure::Quiet);
        }
        let names = struct_of
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(w, _)| self.lx.interner.name(Symbol(w as u32)));
        let scalars = ["i8", "i16", "i32", "i64", "bool"];
        let help = suggest(self.text(i), names.chain(scalars));
        Err(self
            .err_help(i, ParseErrorKind::UnknownType(self.text(i).into()), help)
            .into())
    }

    fn resolve_type(&self, raw: RawType, struct_of: &[Option<StructId>]) -> PResult<Type> {
        Ok(match raw {
            RawType::Scalar(s) => Type::Scalar(s),
            RawType::VecScalar(s) => Type::Vec(ElemType::Scalar(s)),
            RawType::Named(i) => Type::Struct(self.struct_named(i, struct_of)?),
            RawType::VecNamed(i) => Type::Vec(ElemType::Struct(self.struct_named(i, struct_of)?)),
        })
    }

    fn parse_type(&mut self, struct_of: &[Option<StructId>]) -> PResult<Type> {
        // A scalar type (the usual one) is read here, as `raw_type` would.
        let tok = self.tok(self.pos);
        if tok.kind == TokenKind::Ident {
            if let Some(s) = self.lx.interner.info(Symbol(tok.data)).scalar {
                self.advance();
                return Ok(Type::Scalar(s));
            }
        }
        let raw = self.raw_type()?;
        self.resolve_type(raw, struct_of)
    }

    /// Registers every struct and function and resolves the types of the declarations. All
    /// errors of this phase are collected, in source order.
    fn declare(&mut self, items: &mut [Item], module: &mut Module) -> Decls {
        let mut errors: Vec<Failure> = Vec::new();
        let words = self.lx.interner.len();
        let mut struct_of: Vec<Option<StructId>> = vec![None; words];
        let mut func_of: Vec<Option<FuncId>> = vec![None; words];
        let mut struct_items = Vec::with_capacity(items.len());
        // Each function's declaration, with its parameters still as written (resolved below).
        let mut funcs = Vec::with_capacity(items.len());
        module.funcs.reserve(items.len());
        for item in items {
            match item {
                Item::Struct { kw, name, fields } => {
                    let text = self.text(*name);
                    let sym = self.sym(*name);
                    if self.word_info(*name).scalar.is_some() || sym == kw::VEC {
                        errors.push(
                            self.err_at(*name, ParseErrorKind::ReservedName(text.into()))
                                .into(),
                        );
                    } else if struct_of[sym.index()].is_some() {
                        errors.push(
                            self.err_at(*name, ParseErrorKind::DuplicateStruct(text.into()))
                                .into(),
                        );
                    } else {
                        let id = module.structs.push(StructDef {
                            name: text.to_string(),
                            fields: Vec::new(),
                            loc: self.loc(*kw),
                        });
                        struct_of[sym.index()] = Some(id);
                        struct_items.push((id, fields.clone()));
                    }
                }
                Item::Func {
                    kw,
                    name,
                    inline,
                    params,
                    ret,
                    body,
                    scan,
                } => {
                    let text = self.text(*name);
                    let sym = self.sym(*name);
                    if func_of[sym.index()].is_some() {
                        errors.push(
                            self.err_at(*name, ParseErrorKind::DuplicateFunction(text.into()))
                                .into(),
                        );
                    } else {
                        let mut func = Function::new(text);
                        func.loc = self.loc(*kw);
                        func.inline = *inline;
                        let id = module.funcs.push(func);
                        func_of[sym.index()] = Some(id);
                        funcs.push((
                            id,
                            FuncDecl {
                                params: params.clone(),
                                ret: *ret,
                                body: *body,
                                scan: scan.clone(),
                            },
                        ));
                    }
                }
            }
        }
        let mut wide_fields = FxHashMap::default();
        for (id, fields) in struct_items {
            // A duplicate is a field named as an earlier one: looked for among the earlier
            // fields of a small struct, in a set (allocated) for a larger one.
            let mut seen = FxHashSet::default();
            let mut index: FxHashMap<Symbol, u32> = FxHashMap::default();
            let parts = &self.item_parts[fields];
            let small = parts.len() <= FIELD_SCAN;
            for (k, &(field, raw)) in parts.iter().enumerate() {
                let fname = self.text(field);
                let sym = self.sym(field);
                let duplicate = if small {
                    parts[..k]
                        .iter()
                        .any(|&(earlier, _)| self.sym(earlier) == sym)
                } else {
                    !seen.insert(sym)
                };
                if duplicate {
                    errors.push(
                        self.err_at(
                            field,
                            ParseErrorKind::DuplicateField {
                                strukt: module.structs[id].name.clone(),
                                field: fname.into(),
                            },
                        )
                        .into(),
                    );
                    continue;
                }
                match self.resolve_type(raw, &struct_of) {
                    Ok(ty) => {
                        let fields = &mut module.structs[id].fields;
                        if !small {
                            index.insert(sym, fields.len() as u32);
                        }
                        fields.push(FieldDef {
                            name: fname.to_string(),
                            ty,
                        });
                    }
                    Err(e) => errors.push(e),
                }
            }
            if !small {
                wide_fields.insert(id, index);
            }
        }
        let mut resolved = Vec::with_capacity(self.item_parts.len());
        for (id, decl) in &mut funcs {
            let first = resolved.len();
            for &(param, raw) in &self.item_parts[decl.params.clone()] {
                match self.resolve_type(raw, &struct_of) {
                    Ok(ty) => resolved.push((param, Some(ty))),
                    Err(e) => {
                        errors.push(e);
                        resolved.push((param, None));
                    }
                }
            }
            let ret = match decl
                .ret
                .map(|r| self.resolve_type(r, &struct_of))
                .transpose()
            {
                Ok(ret) => ret,
                Err(e) => {
                    errors.push(e);
                    None
                }
            };
            module.funcs[*id].ret = ret;
            decl.params = first..resolved.len();
        }
        let mut errors: Vec<ParseError> = errors
            .into_iter()
            .filter_map(|f| match f {
                Failure::Report(e) => Some(*e),
                Failure::Quiet => None,
            })
            .collect();
        errors.sort_by_key(|e| e.span.start);
        for e in errors {
            self.report(e.into());
        }
        Decls {
            struct_of,
            wide_fields,
            func_of,
            funcs,
            params: resolved,
        }
    }

    // ---- pass 2: bodies -----------------------------------------------------------------

    /// Parses one body; what it could not parse is reported and left out.
    fn body(&mut self, module: &Module, decls: &Decls, decl: &FuncDecl) -> Function {
        self.body_stamp += 1;
        let mut b = BodyParser {
            module,
            decls,
            func: BodyParser::sized_function(&decl.scan, decl.params.len()),
            poisoned_locals: FxHashSet::default(),
            pending: std::mem::take(&mut self.pending_insts),
            body_start: decl.body,
        };
        let params = &decls.params[decl.params.clone()];
        for &(param, ty) in params {
            let loc = self.loc(param);
            let local = match b.declare_local(self, param, ty.unwrap_or(Type::I64), loc) {
                Ok(local) => local,
                Err(failure) => {
                    self.report(failure);
                    continue;
                }
            };
            if ty.is_none() {
                b.poisoned_locals.insert(local);
            }
            b.func.params.push(local);
        }
        self.pos = decl.body;
        let labels = std::mem::take(&mut self.labels);
        b.create_blocks(self, &labels[decl.scan.labels.clone()]);
        self.labels = labels;
        b.declarations(self);
        let mut defined = std::mem::take(&mut self.defined_blocks);
        defined.clear();
        defined.resize(b.func.blocks.len(), false);
        b.statements(self, &mut defined);
        self.defined_blocks = defined;
        // The buffer is kept for the next body.
        self.pending_insts = b.pending;
        self.pending_insts.clear();
        b.func
    }
}

/// The state of one function body being parsed.
struct BodyParser<'m> {
    module: &'m Module,
    decls: &'m Decls,
    func: Function,
    /// Locals whose declared type did not resolve: their field accesses report nothing more.
    poisoned_locals: FxHashSet<Local>,
    /// The instructions of the block being parsed; moved into the block, at its exact size,
    /// when the block ends.
    pending: Vec<crate::entities::Inst>,
    /// Index of the first token of the body.
    body_start: usize,
}

impl BodyParser<'_> {
    /// The local word `sym` names in this body.
    fn local_of(&self, p: &Parser, sym: Symbol) -> Option<Local> {
        let slot = p.scope[sym.index()];
        (slot.local_stamp == p.body_stamp).then(|| Local::new(slot.local as usize))
    }

    /// The block word `sym` names in this body.
    fn block_of(&self, p: &Parser, sym: Symbol) -> Option<Block> {
        let slot = p.scope[sym.index()];
        (slot.block_stamp == p.body_stamp).then(|| Block::new(slot.block as usize))
    }

    /// Declares the local named by word token `name`, of type `ty`, declared at `loc`.
    #[inline(always)]
    fn declare_local(&mut self, p: &mut Parser, name: usize, ty: Type, loc: Loc) -> PResult<Local> {
        let sym = p.sym(name);
        if sym == kw::TRUE || sym == kw::FALSE || self.local_of(p, sym).is_some() {
            return Err(self.undeclarable(p, name));
        }
        let local = self.func.locals.push(LocalData {
            name: Name::from(p.lx.interner.name(sym)),
            ty,
            packed: false,
            loc,
        });
        let slot = &mut p.scope[sym.index()];
        slot.local_stamp = p.body_stamp;
        slot.local = local.as_u32();
        Ok(local)
    }

    /// Why word token `name` cannot be declared: a reserved word or a duplicate.
    #[cold]
    #[inline(never)]
    fn undeclarable(&self, p: &Parser, name: usize) -> Failure {
        let text = p.text(name);
        let kind = match p.sym(name) {
            kw::TRUE | kw::FALSE => ParseErrorKind::ReservedName(text.into()),
            _ => ParseErrorKind::DuplicateLocal(text.into()),
        };
        p.err_at(name, kind).into()
    }

    /// An empty function with room for the locals, blocks and instructions of the body `scan`
    /// describes. (Made at its capacity: `with_capacity` allocates directly, where `reserve` on
    /// an empty vector takes the slower growth path.)
    fn sized_function(scan: &BodyScan, params: usize) -> Function {
        Function {
            params: Vec::with_capacity(params),
            locals: PrimaryMap::with_capacity(params + scan.vars),
            blocks: PrimaryMap::with_capacity(scan.labels.len()),
            layout: Vec::with_capacity(scan.labels.len()),
            // At most one instruction a line: one allocation for the instruction arena.
            insts: PrimaryMap::with_capacity(scan.lines),
            ..Function::new("")
        }
    }

    /// Creates the blocks, in label order, before the body is parsed.
    fn create_blocks(&mut self, p: &mut Parser, labels: &[usize]) {
        for &i in labels {
            let sym = p.sym(i);
            if self.block_of(p, sym).is_none() {
                // As `Function::add_block`, with the location in the same write.
                let block = self.func.blocks.push(BlockData {
                    name: Name::from(p.lx.interner.name(sym)),
                    insts: Vec::new(),
                    terminator: None,
                    term_loc: Loc::UNKNOWN,
                    loc: p.loc(i),
                });
                self.func.layout.push(block);
                let slot = &mut p.scope[sym.index()];
                slot.block_stamp = p.body_stamp;
                slot.block = block.as_u32();
            }
        }
    }

    /// `var NAME: TYPE [packed]` and `packed NAME` lines, before the first label.
    fn declarations(&mut self, p: &mut Parser) {
        loop {
            p.skip_newlines();
            if p.full() {
                return;
            }
            let result = if p.is_word(p.pos, kw::VAR) && p.is_ident(p.pos + 1) {
                self.var_declaration(p)
            } else if p.is_word(p.pos, kw::PACKED) && p.is_ident(p.pos + 1) {
                p.bump();
                self.local(p).and_then(|local| {
                    self.func.locals[local].packed = true;
                    p.end_of_statement()
                })
            } else {
                return;
            };
            if let Err(failure) = result {
                p.report(failure);
                p.skip_line();
            }
        }
    }

    fn var_declaration(&mut self, p: &mut Parser) -> PResult<()> {
        let kw = p.bump();
        let name = p.bump();
        p.expect_punct(Punct::Colon)?;
        let (ty, resolved) = match p.parse_type(&self.decls.struct_of) {
            Ok(ty) => (ty, true),
            Err(failure) => {
                // Declare the local anyway, so its uses report nothing more.
                p.report(failure);
                (Type::I64, false)
            }
        };
        let loc = p.loc(kw);
        let local = self.declare_local(p, name, ty, loc)?;
        if !resolved {
            self.poisoned_locals.insert(local);
            p.skip_line();
            return Ok(());
        }
        if p.is_word(p.pos, kw::PACKED) {
            p.bump();
            self.func.locals[local].packed = true;
        }
        p.end_of_statement()
    }

    /// Ends the block that `current` holds: gives it its instructions and reports a missing
    /// terminator.
    fn close(&mut self, p: &mut Parser, current: Option<(Block, usize, bool)>) {
        if let Some((block, _, _)) = current {
            self.func.blocks[block].insts = self.pending.as_slice().to_vec();
        }
        self.pending.clear();
        if let Some((block, label, false)) = current {
            let name = self.func.blocks[block].name.clone();
            p.report(
                p.err_at(label, ParseErrorKind::MissingTerminator(name.into()))
                    .into(),
            );
        }
    }

    /// Labels, instructions and terminators up to the closing `}`. `defined` has an entry,
    /// `false`, for every block.
    fn statements(&mut self, p: &mut Parser, defined: &mut [bool]) {
        // The current block, the token of its label, and whether it is terminated.
        let mut current: Option<(Block, usize, bool)> = None;
        // After a duplicate label: the lines of that block are skipped without more errors.
        let mut skipping = false;
        loop {
            // The first token of a line, read once for the checks below.
            let i = p.pos;
            let tok = p.tok(i);
            if tok.kind == TokenKind::Newline {
                p.advance();
                continue;
            }
            if p.full() {
                return;
            }
            if tok.kind == TokenKind::Punct(Punct::RBrace) {
                self.close(p, current);
                p.bump();
                return;
            }
            if tok.kind == TokenKind::Eof {
                if let Some((block, _, _)) = current {
                    self.func.blocks[block].insts = std::mem::take(&mut self.pending);
                }
                let what = match current {
                    Some((_, _, false)) => "an instruction, a terminator or `}`",
                    _ => "a label or `}`",
                };
                p.report(p.unexpected(i, what).into());
                return;
            }
            let word = (tok.kind == TokenKind::Ident).then_some(Symbol(tok.data));
            if word.is_some() && p.is_punct(i + 1, Punct::Colon) {
                self.close(p, current);
                current = None;
                let line_start = i == self.body_start || (i > 0 && p.is_newline(i - 1));
                let block = self.block_of(p, Symbol(tok.data)).filter(|_| line_start);
                let Some(block) = block else {
                    p.report(p.err_at(i, ParseErrorKind::MisplacedLabel).into());
                    p.skip_line();
                    continue;
                };
                if std::mem::replace(&mut defined[block.index()], true) {
                    let name = p.text(i).into();
                    p.report(p.err_at(i, ParseErrorKind::DuplicateBlock(name)).into());
                    p.skip_line();
                    skipping = true;
                    continue;
                }
                skipping = false;
                p.bump();
                p.bump();
                current = Some((block, i, false));
                if let Err(failure) = p.end_of_statement() {
                    p.report(failure);
                    p.skip_line();
                }
                continue;
            }
            if skipping {
                p.skip_line();
                continue;
            }
            let declaration = matches!(word, Some(kw::VAR | kw::PACKED)) && p.is_ident(i + 1);
            let failure = match current {
                None => Some(p.error_or_lex(i, ParseErrorKind::OutsideBlock)),
                Some(_) if declaration => Some(p.err_at(i, ParseErrorKind::LateDeclaration)),
                Some((block, _, true)) => {
                    let name = self.func.blocks[block].name.clone();
                    Some(p.error_or_lex(i, ParseErrorKind::AfterTerminator(name.into())))
                }
                Some(_) => None,
            };
            if let Some(e) = failure {
                p.report(e.into());
                p.skip_line();
                continue;
            }
            let Some((block, label, _)) = current else {
                continue;
            };
            let loc = p.loc(i);
            let result = self.statement(p, loc).and_then(|term| {
                p.end_of_statement()?;
                Ok(term)
            });
            match result {
                Ok(None) => {}
                Ok(Some(term)) => {
                    self.func.blocks[block].terminator = Some(term);
                    self.func.blocks[block].term_loc = loc;
                    current = Some((block, label, true));
                }
                Err(failure) => {
                    p.report(failure);
                    p.skip_line();
                    // A block whose terminator failed to parse is not reported again as
                    // lacking one.
                    if p.errors.last().is_some_and(|e| e.loc.line == loc.line)
                        && self.is_terminator_line(p, i)
                    {
                        current = Some((block, label, true));
                    }
                }
            }
        }
    }

    /// Whether the statement starting at token `i` is a terminator (`br`, `brif`, `ret`, `trap`).
    fn is_terminator_line(&self, p: &Parser, i: usize) -> bool {
        p.is_ident(i)
            && matches!(
                p.word_info(i).mnemonic,
                Some(Mnemonic::Br | Mnemonic::BrIf | Mnemonic::Ret | Mnemonic::Trap)
            )
            && !p.is_punct(i + 1, Punct::Eq)
    }

    // ---- operands -----------------------------------------------------------------------

    /// A local name.
    #[inline]
    fn local(&self, p: &mut Parser) -> PResult<Local> {
        let i = p.pos;
        let tok = p.tok(i);
        if tok.kind == TokenKind::Ident {
            // `true` and `false` are never declared (see `declare_local`).
            if let Some(local) = self.local_of(p, Symbol(tok.data)) {
                p.advance();
                return Ok(local);
            }
        }
        Err(self.not_a_local(p, i))
    }

    /// Why token `i` is not a local.
    #[cold]
    #[inline(never)]
    fn not_a_local(&self, p: &Parser, i: usize) -> Failure {
        match p.kind(i) {
            TokenKind::Ident => {
                let sym = p.sym(i);
                let name = p.text(i);
                if sym == kw::TRUE || sym == kw::FALSE {
                    return p.err_at(i, ParseErrorKind::NotALocal(name.into())).into();
                }
                let help = suggest(name, self.func.locals.values().map(|l| l.name.as_str()));
                p.err_help(i, ParseErrorKind::UndefinedLocal(name.into()), help)
                    .into()
            }
            TokenKind::Int => p
                .err_at(i, ParseErrorKind::NotALocal(p.text(i).into()))
                .into(),
            _ => p.unexpected(i, "a local").into(),
        }
    }

    /// A local or an integer constant (`true`/`false` are 1/0).
    #[inline]
    fn operand(&self, p: &mut Parser) -> PResult<Operand> {
        let i = p.pos;
        let tok = p.tok(i);
        let operand = match tok.kind {
            TokenKind::Ident => {
                // A local first: `true` and `false` are never declared (see `declare_local`).
                match self.local_of(p, Symbol(tok.data)) {
                    Some(local) => Operand::Local(local),
                    None => match Symbol(tok.data) {
                        kw::TRUE => Operand::Const(1),
                        kw::FALSE => Operand::Const(0),
                        _ => return Err(self.not_a_local(p, i)),
                    },
                }
            }
            TokenKind::Int => Operand::Const(p.lx.ints[tok.data as usize]),
            _ => return Err(p.expected("an operand")),
        };
        p.advance();
        Ok(operand)
    }

    /// `op, op, ...` between parentheses (the `(` is next).
    fn operand_list(&self, p: &mut Parser) -> PResult<Vec<Operand>> {
        p.expect_punct(Punct::LParen)?;
        // Collected in a buffer kept from list to list, then copied at the exact size.
        let mut ops = std::mem::take(&mut p.operands);
        ops.clear();
        let result = self.operands_until_paren(p, &mut ops);
        let list = result.map(|()| ops.as_slice().to_vec());
        p.operands = ops;
        list
    }

    /// The operands of a list up to its `)` (consumed), into `ops`.
    fn operands_until_paren(&self, p: &mut Parser, ops: &mut Vec<Operand>) -> PResult<()> {
        while !p.is_punct(p.pos, Punct::RParen) {
            ops.push(self.operand(p)?);
            if p.is_punct(p.pos, Punct::Comma) {
                p.advance();
            } else if !p.is_punct(p.pos, Punct::RParen) {
                return Err(p.expected("`,` or `)`"));
            }
        }
        p.advance();
        Ok(())
    }

    fn block_ref(&self, p: &mut Parser) -> PResult<Block> {
        let i = p.expect_ident("a block name")?;
        match self.block_of(p, p.sym(i)) {
            Some(block) => Ok(block),
            None => {
                let name = p.text(i);
                let help = suggest(name, self.func.blocks.values().map(|b| b.name.as_str()));
                Err(p
                    .err_help(i, ParseErrorKind::UndefinedBlock(name.into()), help)
                    .into())
            }
        }
    }

    /// `.FIELD` of the struct local `local` (`elem`: of the struct elements of vec `local`).
    fn field(&self, p: &mut Parser, local: Local, elem: bool) -> PResult<u32> {
        p.expect_punct(Punct::Dot)?;
        let i = p.expect_ident("a field name")?;
        if self.poisoned_locals.contains(&local) {
            return Err(Failure::Quiet);
        }
        let field = p.text(i);
        let data = &self.func.locals[local];
        let strukt = match (data.ty, elem) {
            (Type::Struct(s), false) | (Type::Vec(ElemType::Struct(s)), true) => Some(s),
            _ => None,
        };
        let module = self.module;
        let Some((sid, def)) = strukt.and_then(|s| Some((s, module.structs.get(s)?))) else {
            return Err(p
                .err_at(
                    i,
                    ParseErrorKind::NoFields {
                        local: data.name.to_string(),
                        ty: self.module.type_name(data.ty),
                        field: field.into(),
                    },
                )
                .into());
        };
        // A wide struct's fields are looked up by symbol (a scan per name made a body that
        // names each of 32,000 fields once take 0.8 s to parse).
        let index = match self.decls.wide_fields.get(&sid) {
            Some(names) => names.get(&p.sym(i)).copied(),
            None => def.field_index(field),
        };
        index.ok_or_else(|| {
            let help = suggest(field, def.fields.iter().map(|f| f.name.as_str()));
            p.err_help(
                i,
                ParseErrorKind::UnknownField {
                    strukt: def.name.clone(),
                    field: field.into(),
                },
                help,
            )
            .into()
        })
    }

    /// An optional `.unchecked` suffix after a mnemonic.
    fn check_suffix(&self, p: &mut Parser) -> PResult<Check> {
        if !p.is_punct(p.pos, Punct::Dot) {
            return Ok(Check::Checked);
        }
        p.bump();
        if p.is_word(p.pos, kw::UNCHECKED) {
            p.bump();
            Ok(Check::Unchecked)
        } else {
            Err(p.unexpected(p.pos, "`unchecked`").into())
        }
    }

    /// `v[i]` and an optional `.field`.
    fn element(&self, p: &mut Parser) -> PResult<(Local, Operand, Option<u32>)> {
        let vec = self.local(p)?;
        p.expect_punct(Punct::LBracket)?;
        let index = self.operand(p)?;
        p.expect_punct(Punct::RBracket)?;
        let field = if p.is_punct(p.pos, Punct::Dot) {
            Some(self.field(p, vec, true)?)
        } else {
            None
        };
        Ok((vec, index, field))
    }

    fn comma(&self, p: &mut Parser) -> PResult<()> {
        p.expect_punct(Punct::Comma).map(|_| ())
    }

    fn callee(&self, p: &mut Parser) -> PResult<FuncId> {
        let i = p.expect_ident("a function name")?;
        let sym = p.sym(i);
        if let Some(func) = self.decls.func_of[sym.index()] {
            return Ok(func);
        }
        if p.poisoned.contains(&sym) {
            return Err(Failure::Quiet);
        }
        let name = p.text(i);
        let help = suggest(name, self.module.funcs.values().map(|f| f.name.as_str()));
        Err(p
            .err_help(i, ParseErrorKind::UndefinedFunction(name.into()), help)
            .into())
    }

    // ---- statements ---------------------------------------------------------------------

    /// Parses the statement at the current token (declared at `loc`): an instruction is
    /// appended to the block being parsed ([`BodyParser::append`]), a terminator returned.
    fn statement(&mut self, p: &mut Parser, loc: Loc) -> PResult<Option<Terminator>> {
        let first = p.tok(p.pos);
        if first.kind == TokenKind::Ident && p.is_punct(p.pos + 1, Punct::Eq) {
            // The token read once: the destination local, then past it and the `=` (neither is
            // `Eof`).
            let Some(dst) = self.local_of(p, Symbol(first.data)) else {
                return Err(self.not_a_local(p, p.pos));
            };
            p.pos += 2;
            let kind = self.assignment(p, dst)?;
            self.append(kind, loc);
            return Ok(None);
        }
        let (m, mnemonic) = p.expect_mnemonic()?;
        let kind = match mnemonic {
            Some(Mnemonic::SetField) => {
                let dst = self.local(p)?;
                let field = self.field(p, dst, false)?;
                self.comma(p)?;
                let value = self.operand(p)?;
                InstKind::SetField { dst, field, value }
            }
            Some(Mnemonic::Push) => {
                let vec = self.local(p)?;
                self.comma(p)?;
                let value = self.operand(p)?;
                InstKind::VecPush { vec, value }
            }
            Some(Mnemonic::Pop) => {
                let check = self.check_suffix(p)?;
                let vec = self.local(p)?;
                InstKind::VecPop {
                    dst: None,
                    vec,
                    check,
                }
            }
            Some(Mnemonic::Set) => {
                let check = self.check_suffix(p)?;
                let (vec, index, field) = self.element(p)?;
                self.comma(p)?;
                let value = self.operand(p)?;
                InstKind::VecSet {
                    vec,
                    index,
                    field,
                    value,
                    check,
                }
            }
            Some(Mnemonic::Drop) => InstKind::VecDrop {
                vec: self.local(p)?,
            },
            Some(Mnemonic::Call) => {
                let func = self.callee(p)?;
                let args = self.operand_list(p)?;
                InstKind::Call {
                    dst: None,
                    func,
                    args,
                }
            }
            Some(Mnemonic::Br) => return Ok(Some(Terminator::Br(self.block_ref(p)?))),
            Some(Mnemonic::BrIf) => {
                let cond = self.operand(p)?;
                self.comma(p)?;
                let then_block = self.block_ref(p)?;
                self.comma(p)?;
                let else_block = self.block_ref(p)?;
                return Ok(Some(Terminator::BrIf {
                    cond,
                    then_block,
                    else_block,
                }));
            }
            Some(Mnemonic::Ret) => {
                let value = match p.kind(p.pos) {
                    TokenKind::Newline | TokenKind::Eof | TokenKind::Punct(Punct::RBrace) => None,
                    _ => Some(self.operand(p)?),
                };
                return Ok(Some(Terminator::Ret(value)));
            }
            Some(Mnemonic::Trap) => {
                let i = p.pos;
                return match p.kind(i) {
                    TokenKind::Str => {
                        // Each string token is parsed once: its value is moved, not copied.
                        let index = p.tok(i).data as usize;
                        let msg = std::mem::take(&mut p.lx.strings[index].0);
                        p.bump();
                        Ok(Some(Terminator::Trap(msg)))
                    }
                    _ => Err(p.unexpected(i, "a string literal").into()),
                };
            }
            _ => {
                let name = p.text(m);
                return Err(p
                    .err_at(m, ParseErrorKind::UnknownInstruction(name.into()))
                    .into());
            }
        };
        self.append(kind, loc);
        Ok(None)
    }

    /// Appends an instruction to the block being parsed. (Made here, where the statement was
    /// parsed, rather than returned through the statement's result: an `InstKind` is 48 bytes,
    /// and each layer it passed through copied it.) When the rest of its line then fails to
    /// parse, the instruction stays in the body, which does not matter: any error fails the
    /// whole parse.
    #[inline]
    fn append(&mut self, kind: InstKind, loc: Loc) {
        let inst = self.func.make_inst(kind, loc);
        self.pending.push(inst);
    }

    /// The right-hand side of `dst = ...` (the `=` is consumed).
    fn assignment(&mut self, p: &mut Parser, dst: Local) -> PResult<InstKind> {
        let (m, mnemonic) = p.expect_mnemonic()?;
        let Some(mnemonic) = mnemonic else {
            let name = p.text(m);
            return Err(p
                .err_at(m, ParseErrorKind::UnknownInstruction(name.into()))
                .into());
        };
        Ok(match mnemonic {
            Mnemonic::Binary(op) => {
                let check = self.check_suffix(p)?;
                if !check.is_checked() && !op.is_division() {
                    // Only the divisions have an unchecked form.
                    let name = format!("{}.unchecked", op.name());
                    return Err(p.err_at(m, ParseErrorKind::UnknownInstruction(name)).into());
                }
                let lhs = self.operand(p)?;
                self.comma(p)?;
                let rhs = self.operand(p)?;
                InstKind::Binary {
                    dst,
                    op,
                    lhs,
                    rhs,
                    check,
                }
            }
            Mnemonic::Compare(op) => {
                let lhs = self.operand(p)?;
                self.comma(p)?;
                let rhs = self.operand(p)?;
                InstKind::Compare { dst, op, lhs, rhs }
            }
            Mnemonic::Unary(op) => InstKind::Unary {
                dst,
                op,
                arg: self.operand(p)?,
            },
            Mnemonic::Cast(op) => InstKind::Cast {
                dst,
                op,
                arg: self.operand(p)?,
            },
            Mnemonic::Copy => InstKind::Copy {
                dst,
                src: self.operand(p)?,
            },
            Mnemonic::Make => {
                let s = p.expect_ident("a struct name")?;
                let ty = p.struct_named(s, &self.decls.struct_of)?;
                let fields = self.operand_list(p)?;
                InstKind::Make { dst, ty, fields }
            }
            Mnemonic::GetField => {
                let src = self.local(p)?;
                let field = self.field(p, src, false)?;
                InstKind::GetField { dst, src, field }
            }
            Mnemonic::New => {
                let t = p.pos;
                let ty = p.parse_type(&self.decls.struct_of)?;
                match ty {
                    Type::Vec(elem) => InstKind::VecNew { dst, elem },
                    other => {
                        return Err(p
                            .err_at(t, ParseErrorKind::NotAVecType(self.module.type_name(other)))
                            .into())
                    }
                }
            }
            Mnemonic::Len => InstKind::VecLen {
                dst,
                vec: self.local(p)?,
            },
            Mnemonic::Pop => {
                let check = self.check_suffix(p)?;
                InstKind::VecPop {
                    dst: Some(dst),
                    vec: self.local(p)?,
                    check,
                }
            }
            Mnemonic::Get => {
                let check = self.check_suffix(p)?;
                let (vec, index, field) = self.element(p)?;
                InstKind::VecGet {
                    dst,
                    vec,
                    index,
                    field,
                    check,
                }
            }
            Mnemonic::Call => {
                let func = self.callee(p)?;
                let args = self.operand_list(p)?;
                InstKind::Call {
                    dst: Some(dst),
                    func,
                    args,
                }
            }
            other => {
                debug_assert!(other.without_value());
                let name = p.text(m);
                return Err(p.err_at(m, ParseErrorKind::NoValue(name.into())).into());
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_table_knows_every_operator_by_its_own_name() {
        for op in BinaryOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Binary(op)));
        }
        for op in CmpOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Compare(op)));
        }
        for op in UnaryOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Unary(op)));
        }
        for op in CastOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Cast(op)));
        }
        for (name, mnemonic) in PLAIN_MNEMONICS {
            assert!(word_info_of(name).mnemonic == Some(mnemonic), "{name}");
            assert!(word_info_of(name).scalar.is_none(), "{name}");
        }
        for ty in ScalarType::ALL {
            assert_eq!(word_info_of(ty.name()).scalar, Some(ty));
            assert!(word_info_of(ty.name()).mnemonic.is_none());
        }
    }

    #[test]
    fn the_word_table_holds_each_word_once() {
        let filled = WORD_TABLE.slots.iter().filter(|(key, _)| *key != 0).count();
        assert_eq!(filled, WORD_TABLE_LEN);
    }

    #[test]
    fn near_miss_words_mean_nothing() {
        // A prefix, an extension, a longer word sharing the first eight bytes, another case.
        for word in [
            "ad",
            "addd",
            "i6",
            "i640",
            "bools",
            "setfieldx",
            "getfield_",
            "Add",
            "I64",
            "x",
            "",
        ] {
            let info = word_info_of(word);
            assert!(info.mnemonic.is_none() && info.scalar.is_none(), "{word}");
        }
    }
}
