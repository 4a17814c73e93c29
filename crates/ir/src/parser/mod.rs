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
//!
//! The parser is split along its concepts: `cursor.rs` holds the token access and the error
//! helpers, `decls.rs` the first pass, `body.rs` the second, `words.rs` the table of mnemonics
//! and scalar type names, and `suggest.rs` the "did you mean" hints. This module has the public
//! interface, the errors, the phase driver and the parser's state.

// A parse error carries its location (with the inliner's origin), span and hint; it is built
// only on failure, so its size does not matter on the success path.
#![allow(clippy::result_large_err)]

mod body;
mod cursor;
mod decls;
mod suggest;
mod words;

pub(crate) use words::{word_info_of_key, WordInfo};

use crate::entities::Local;
use crate::function::Function;
use crate::inst::{Loc, Operand};
use crate::lexer::{lex, Lexed, Symbol};
use crate::module::Module;
use decls::{Decls, RawType};
use rustc_hash::FxHashSet;
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

// The parser's state is defined here, its methods in the submodules (`cursor.rs`, `decls.rs`,
// `body.rs`). rustc places a method in the codegen unit of its self type's module, so this keeps
// both passes in one codegen unit with the driver, as before the split: a build without
// link-time optimization still inlines them into one another (with `Parser` and `BodyParser`
// defined in their own modules, `parse_all` took 1 % more instructions on slot_pool_8.pir).

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
