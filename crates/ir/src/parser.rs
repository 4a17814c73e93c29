//! The text format parser: reads what [`crate::print_module`] writes (and a little more: hex
//! literals, `true`/`false`, comments, blank lines, trailing commas).
//!
//! The grammar is specified in `docs/ir.md`. The parser is hand written: a lexer
//! (`lexer.rs`) produces a flat token vector, then two passes run over it.
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
//! an unknown field, is a [`ParseError`] at the offending token. Type checking is left to the
//! verifier. Errors in declarations are reported before errors in bodies; within a pass, the
//! first error in source order is reported. The parser never panics and never recurses on the
//! input (the grammar is flat), so neither byte soup nor huge input can crash it.

use crate::entities::{Block, FuncId, Local, StructId};
use crate::function::Function;
use crate::inst::{BinaryOp, CastOp, Check, CmpOp, InstKind, Loc, Operand, Terminator, UnaryOp};
use crate::lexer::{lex, Punct, Token, TokenKind};
use crate::module::Module;
use crate::types::{ElemType, FieldDef, ScalarType, StructDef, Type};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use thiserror::Error;

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
}

/// Whether `name` can be written in the text format as a struct, function, local, block or
/// field name: `[A-Za-z_][A-Za-z0-9_]*`. (Locals may not be called `true` or `false`, and
/// structs may not take the name of a built-in type.)
pub fn is_valid_name(name: &str) -> bool {
    crate::lexer::is_ident(name)
}

/// Parses a module from its text form.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    let mut parser = Parser {
        src,
        toks: lex(src),
        pos: 0,
    };
    let items = parser.items()?;
    let mut module = Module::new();
    let decls = parser.declare(&items, &mut module)?;
    for (id, func) in decls.funcs {
        let body = parser.body(&module, &decls.structs, &decls.func_ids, func)?;
        module.funcs[id] = body;
    }
    Ok(module)
}

type PResult<T> = Result<T, ParseError>;

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
        fields: Vec<(usize, RawType)>,
    },
    Func {
        kw: usize,
        name: usize,
        params: Vec<(usize, RawType)>,
        ret: Option<RawType>,
        /// Index of the first token after the `{`.
        body: usize,
    },
}

/// A function whose declaration is resolved and whose body is still to be parsed.
struct FuncDecl {
    name: usize,
    kw: usize,
    params: Vec<(usize, Type)>,
    ret: Option<Type>,
    body: usize,
}

struct Decls<'a> {
    structs: HashMap<&'a str, StructId>,
    func_ids: HashMap<&'a str, FuncId>,
    funcs: Vec<(FuncId, FuncDecl)>,
}

/// One parsed statement of a body.
enum Stmt {
    Inst(InstKind),
    Term(Terminator),
}

const MNEMONICS_WITHOUT_VALUE: [&str; 8] = [
    "setfield", "push", "set", "drop", "br", "brif", "ret", "trap",
];

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
}

impl<'a> Parser<'a> {
    // ---- token access -------------------------------------------------------------------

    /// The token at index `i`, or the final `Eof` past the end.
    fn tok(&self, i: usize) -> &Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[i.min(last)]
    }

    fn kind(&self, i: usize) -> &TokenKind {
        &self.tok(i).kind
    }

    fn text(&self, i: usize) -> &'a str {
        self.src.get(self.tok(i).span.clone()).unwrap_or("")
    }

    fn at_eof(&self) -> bool {
        matches!(self.kind(self.pos), TokenKind::Eof)
    }

    /// Consumes the current token (never moves past `Eof`) and returns its index.
    fn bump(&mut self) -> usize {
        let i = self.pos;
        if !self.at_eof() {
            self.pos += 1;
        }
        i
    }

    fn is_punct(&self, i: usize, p: Punct) -> bool {
        *self.kind(i) == TokenKind::Punct(p)
    }

    fn is_ident(&self, i: usize) -> bool {
        *self.kind(i) == TokenKind::Ident
    }

    fn is_word(&self, i: usize, word: &str) -> bool {
        self.is_ident(i) && self.text(i) == word
    }

    fn is_newline(&self, i: usize) -> bool {
        *self.kind(i) == TokenKind::Newline
    }

    fn skip_newlines(&mut self) {
        while self.is_newline(self.pos) {
            self.bump();
        }
    }

    // ---- errors -------------------------------------------------------------------------

    fn err_at(&self, i: usize, kind: ParseErrorKind) -> ParseError {
        let tok = self.tok(i);
        ParseError {
            loc: tok.loc,
            span: tok.span.clone(),
            kind,
        }
    }

    fn describe(&self, i: usize) -> String {
        match self.kind(i) {
            TokenKind::Ident | TokenKind::Int(_) => format!("`{}`", self.text(i)),
            TokenKind::Str(_) => "a string literal".to_string(),
            TokenKind::Punct(p) => format!("`{}`", p.text()),
            TokenKind::Newline => "end of line".to_string(),
            TokenKind::Eof => "end of input".to_string(),
            TokenKind::Error(_) => "invalid input".to_string(),
        }
    }

    /// "expected X, found Y" at token `i`, or the lexical error if `i` is malformed input.
    fn unexpected(&self, i: usize, expected: &str) -> ParseError {
        match self.kind(i) {
            TokenKind::Error(kind) => self.err_at(i, kind.clone()),
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
            TokenKind::Error(lex_kind) => self.err_at(i, lex_kind.clone()),
            _ => self.err_at(i, kind),
        }
    }

    fn expect_punct(&mut self, p: Punct) -> PResult<usize> {
        if self.is_punct(self.pos, p) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(self.pos, &format!("`{}`", p.text())))
        }
    }

    fn expect_ident(&mut self, what: &str) -> PResult<usize> {
        if self.is_ident(self.pos) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(self.pos, what))
        }
    }

    /// A statement ends at a newline (consumed), or before a `}` or the end of input.
    fn end_of_statement(&mut self) -> PResult<()> {
        match self.kind(self.pos) {
            TokenKind::Newline => {
                self.bump();
                Ok(())
            }
            TokenKind::Eof | TokenKind::Punct(Punct::RBrace) => Ok(()),
            _ => Err(self.unexpected(self.pos, "end of line")),
        }
    }

    // ---- pass 1: declarations -----------------------------------------------------------

    fn items(&mut self) -> PResult<Vec<Item>> {
        let mut items = Vec::new();
        loop {
            self.skip_newlines();
            if self.at_eof() {
                return Ok(items);
            }
            if self.is_word(self.pos, "struct") {
                items.push(self.struct_decl()?);
            } else if self.is_word(self.pos, "fn") {
                items.push(self.func_header()?);
            } else {
                return Err(self.unexpected(self.pos, "`struct` or `fn`"));
            }
        }
    }

    fn struct_decl(&mut self) -> PResult<Item> {
        let kw = self.bump();
        let name = self.expect_ident("a struct name")?;
        self.expect_punct(Punct::LBrace)?;
        let mut fields = Vec::new();
        self.skip_newlines();
        while !self.is_punct(self.pos, Punct::RBrace) {
            let field = self.expect_ident("a field name or `}`")?;
            self.expect_punct(Punct::Colon)?;
            let ty = self.raw_type()?;
            fields.push((field, ty));
            self.skip_newlines();
            if self.is_punct(self.pos, Punct::Comma) {
                self.bump();
                self.skip_newlines();
            } else if !self.is_punct(self.pos, Punct::RBrace) {
                return Err(self.unexpected(self.pos, "`,` or `}`"));
            }
        }
        self.bump();
        Ok(Item::Struct { kw, name, fields })
    }

    fn func_header(&mut self) -> PResult<Item> {
        let kw = self.bump();
        let name = self.expect_ident("a function name")?;
        self.expect_punct(Punct::LParen)?;
        let mut params = Vec::new();
        self.skip_newlines();
        while !self.is_punct(self.pos, Punct::RParen) {
            let param = self.expect_ident("a parameter name or `)`")?;
            self.expect_punct(Punct::Colon)?;
            let ty = self.raw_type()?;
            params.push((param, ty));
            self.skip_newlines();
            if self.is_punct(self.pos, Punct::Comma) {
                self.bump();
                self.skip_newlines();
            } else if !self.is_punct(self.pos, Punct::RParen) {
                return Err(self.unexpected(self.pos, "`,` or `)`"));
            }
        }
        self.bump();
        let ret = if self.is_punct(self.pos, Punct::Arrow) {
            self.bump();
            Some(self.raw_type()?)
        } else {
            None
        };
        self.expect_punct(Punct::LBrace)?;
        let body = self.pos;
        // Skip the body: it contains no braces. Pass 2 reports whatever is wrong inside.
        while !self.at_eof() && !self.is_punct(self.pos, Punct::RBrace) {
            self.bump();
        }
        self.bump();
        Ok(Item::Func {
            kw,
            name,
            params,
            ret,
            body,
        })
    }

    /// `i8 | i16 | i32 | i64 | bool | NAME | vec<ELEM>` where ELEM is not a vec.
    fn raw_type(&mut self) -> PResult<RawType> {
        let i = self.expect_ident("a type")?;
        let word = self.text(i);
        if let Some(s) = ScalarType::from_name(word) {
            return Ok(RawType::Scalar(s));
        }
        if word != "vec" {
            return Ok(RawType::Named(i));
        }
        self.expect_punct(Punct::Lt)?;
        let e = self.expect_ident("an element type")?;
        let elem_word = self.text(e);
        let ty = if let Some(s) = ScalarType::from_name(elem_word) {
            RawType::VecScalar(s)
        } else if elem_word == "vec" {
            return Err(self.err_at(e, ParseErrorKind::NestedVec));
        } else {
            RawType::VecNamed(e)
        };
        self.expect_punct(Punct::Gt)?;
        Ok(ty)
    }

    fn resolve_type(&self, raw: RawType, structs: &HashMap<&str, StructId>) -> PResult<Type> {
        let lookup = |i: usize| {
            structs
                .get(self.text(i))
                .copied()
                .ok_or_else(|| self.err_at(i, ParseErrorKind::UnknownType(self.text(i).into())))
        };
        Ok(match raw {
            RawType::Scalar(s) => Type::Scalar(s),
            RawType::VecScalar(s) => Type::Vec(ElemType::Scalar(s)),
            RawType::Named(i) => Type::Struct(lookup(i)?),
            RawType::VecNamed(i) => Type::Vec(ElemType::Struct(lookup(i)?)),
        })
    }

    fn parse_type(&mut self, structs: &HashMap<&str, StructId>) -> PResult<Type> {
        let raw = self.raw_type()?;
        self.resolve_type(raw, structs)
    }

    /// Registers every struct and function and resolves the types of the declarations. All
    /// errors of this phase are collected; the first in source order is reported.
    fn declare(&self, items: &[Item], module: &mut Module) -> PResult<Decls<'a>> {
        let mut errors = Vec::new();
        let mut structs: HashMap<&'a str, StructId> = HashMap::new();
        let mut func_ids: HashMap<&'a str, FuncId> = HashMap::new();
        let mut struct_items = Vec::new();
        let mut func_items = Vec::new();
        for item in items {
            match item {
                Item::Struct { kw, name, fields } => {
                    let text = self.text(*name);
                    if ScalarType::from_name(text).is_some() || text == "vec" {
                        errors.push(self.err_at(*name, ParseErrorKind::ReservedName(text.into())));
                    } else if structs.contains_key(text) {
                        errors
                            .push(self.err_at(*name, ParseErrorKind::DuplicateStruct(text.into())));
                    } else {
                        let id = module.structs.push(StructDef {
                            name: text.to_string(),
                            fields: Vec::new(),
                            loc: self.tok(*kw).loc,
                        });
                        structs.insert(text, id);
                        struct_items.push((id, fields));
                    }
                }
                Item::Func {
                    kw,
                    name,
                    params,
                    ret,
                    body,
                } => {
                    let text = self.text(*name);
                    if func_ids.contains_key(text) {
                        errors.push(
                            self.err_at(*name, ParseErrorKind::DuplicateFunction(text.into())),
                        );
                    } else {
                        let mut func = Function::new(text);
                        func.loc = self.tok(*kw).loc;
                        let id = module.funcs.push(func);
                        func_ids.insert(text, id);
                        func_items.push((id, *kw, *name, params, *ret, *body));
                    }
                }
            }
        }
        for (id, fields) in struct_items {
            let mut seen = HashSet::new();
            for &(field, raw) in fields {
                let fname = self.text(field);
                if !seen.insert(fname) {
                    errors.push(self.err_at(
                        field,
                        ParseErrorKind::DuplicateField {
                            strukt: module.structs[id].name.clone(),
                            field: fname.into(),
                        },
                    ));
                    continue;
                }
                match self.resolve_type(raw, &structs) {
                    Ok(ty) => module.structs[id].fields.push(FieldDef {
                        name: fname.to_string(),
                        ty,
                    }),
                    Err(e) => errors.push(e),
                }
            }
        }
        let mut funcs = Vec::new();
        for (id, kw, name, params, ret, body) in func_items {
            let mut resolved = Vec::new();
            for &(param, raw) in params.iter() {
                match self.resolve_type(raw, &structs) {
                    Ok(ty) => resolved.push((param, ty)),
                    Err(e) => errors.push(e),
                }
            }
            let ret = match ret.map(|r| self.resolve_type(r, &structs)).transpose() {
                Ok(ret) => ret,
                Err(e) => {
                    errors.push(e);
                    None
                }
            };
            module.funcs[id].ret = ret;
            funcs.push((
                id,
                FuncDecl {
                    name,
                    kw,
                    params: resolved,
                    ret,
                    body,
                },
            ));
        }
        match errors.into_iter().min_by_key(|e| e.span.start) {
            Some(e) => Err(e),
            None => Ok(Decls {
                structs,
                func_ids,
                funcs,
            }),
        }
    }

    // ---- pass 2: bodies -----------------------------------------------------------------

    fn body(
        &mut self,
        module: &Module,
        structs: &HashMap<&'a str, StructId>,
        func_ids: &HashMap<&'a str, FuncId>,
        decl: FuncDecl,
    ) -> PResult<Function> {
        let mut b = BodyParser {
            module,
            structs,
            func_ids,
            func: Function::new(self.text(decl.name)),
            locals: HashMap::new(),
            blocks: HashMap::new(),
            body_start: decl.body,
        };
        b.func.loc = self.tok(decl.kw).loc;
        b.func.ret = decl.ret;
        for &(param, ty) in &decl.params {
            let local = b.declare_local(self, param, ty)?;
            b.func.locals[local].loc = self.tok(param).loc;
            b.func.params.push(local);
        }
        self.pos = decl.body;
        b.collect_labels(self);
        b.declarations(self)?;
        b.statements(self)?;
        Ok(b.func)
    }
}

/// The state of one function body being parsed.
struct BodyParser<'m, 'a> {
    module: &'m Module,
    structs: &'m HashMap<&'a str, StructId>,
    func_ids: &'m HashMap<&'a str, FuncId>,
    func: Function,
    locals: HashMap<&'a str, Local>,
    blocks: HashMap<&'a str, Block>,
    /// Index of the first token of the body.
    body_start: usize,
}

impl<'a> BodyParser<'_, 'a> {
    fn declare_local(&mut self, p: &Parser<'a>, name: usize, ty: Type) -> PResult<Local> {
        let text = p.text(name);
        if text == "true" || text == "false" {
            return Err(p.err_at(name, ParseErrorKind::ReservedName(text.into())));
        }
        if self.locals.contains_key(text) {
            return Err(p.err_at(name, ParseErrorKind::DuplicateLocal(text.into())));
        }
        let local = self.func.add_local(text, ty);
        self.locals.insert(text, local);
        Ok(local)
    }

    /// Creates the blocks, in label order, before the body is parsed.
    fn collect_labels(&mut self, p: &Parser<'a>) {
        let start = self.body_start;
        let mut i = start;
        while !matches!(p.kind(i), TokenKind::Eof | TokenKind::Punct(Punct::RBrace)) {
            let line_start = i == start || p.is_newline(i - 1);
            if line_start && p.is_ident(i) && p.is_punct(i + 1, Punct::Colon) {
                let name = p.text(i);
                if !self.blocks.contains_key(name) {
                    let block = self.func.add_block(name);
                    self.func.blocks[block].loc = p.tok(i).loc;
                    self.blocks.insert(name, block);
                }
            }
            i += 1;
        }
    }

    /// `var NAME: TYPE [packed]` and `packed NAME` lines, before the first label.
    fn declarations(&mut self, p: &mut Parser<'a>) -> PResult<()> {
        loop {
            p.skip_newlines();
            if p.is_word(p.pos, "var") && p.is_ident(p.pos + 1) {
                let kw = p.bump();
                let name = p.bump();
                p.expect_punct(Punct::Colon)?;
                let ty = p.parse_type(self.structs)?;
                let local = self.declare_local(p, name, ty)?;
                self.func.locals[local].loc = p.tok(kw).loc;
                if p.is_word(p.pos, "packed") {
                    p.bump();
                    self.func.locals[local].packed = true;
                }
                p.end_of_statement()?;
            } else if p.is_word(p.pos, "packed") && p.is_ident(p.pos + 1) {
                p.bump();
                let local = self.local(p)?;
                self.func.locals[local].packed = true;
                p.end_of_statement()?;
            } else {
                return Ok(());
            }
        }
    }

    fn is_declaration(&self, p: &Parser<'a>) -> bool {
        (p.is_word(p.pos, "var") || p.is_word(p.pos, "packed")) && p.is_ident(p.pos + 1)
    }

    /// Labels, instructions and terminators up to the closing `}`.
    fn statements(&mut self, p: &mut Parser<'a>) -> PResult<()> {
        let mut defined = HashSet::new();
        // The current block, the token of its label, and whether it is terminated.
        let mut current: Option<(Block, usize, bool)> = None;
        fn close(
            p: &Parser,
            func: &Function,
            current: Option<(Block, usize, bool)>,
        ) -> PResult<()> {
            match current {
                Some((block, label, false)) => Err(p.err_at(
                    label,
                    ParseErrorKind::MissingTerminator(func.blocks[block].name.clone()),
                )),
                _ => Ok(()),
            }
        }
        loop {
            p.skip_newlines();
            let i = p.pos;
            if p.is_punct(i, Punct::RBrace) {
                close(p, &self.func, current)?;
                p.bump();
                return Ok(());
            }
            if p.at_eof() {
                let what = match current {
                    Some((_, _, false)) => "an instruction, a terminator or `}`",
                    _ => "a label or `}`",
                };
                return Err(p.unexpected(i, what));
            }
            if p.is_ident(i) && p.is_punct(i + 1, Punct::Colon) {
                close(p, &self.func, current)?;
                let name = p.text(i);
                let line_start = i == self.body_start || (i > 0 && p.is_newline(i - 1));
                let Some(&block) = self.blocks.get(name).filter(|_| line_start) else {
                    return Err(p.err_at(i, ParseErrorKind::MisplacedLabel));
                };
                if !defined.insert(block) {
                    return Err(p.err_at(i, ParseErrorKind::DuplicateBlock(name.into())));
                }
                p.bump();
                p.bump();
                current = Some((block, i, false));
                p.end_of_statement()?;
                continue;
            }
            let Some((block, label, terminated)) = current else {
                return Err(p.error_or_lex(i, ParseErrorKind::OutsideBlock));
            };
            if self.is_declaration(p) {
                return Err(p.err_at(i, ParseErrorKind::LateDeclaration));
            }
            if terminated {
                let name = self.func.blocks[block].name.clone();
                return Err(p.error_or_lex(i, ParseErrorKind::AfterTerminator(name)));
            }
            let loc = p.tok(i).loc;
            match self.statement(p)? {
                Stmt::Inst(kind) => {
                    let inst = self.func.make_inst(kind, loc);
                    self.func.blocks[block].insts.push(inst);
                }
                Stmt::Term(term) => {
                    self.func.blocks[block].terminator = Some(term);
                    self.func.blocks[block].term_loc = loc;
                    current = Some((block, label, true));
                }
            }
            p.end_of_statement()?;
        }
    }

    // ---- operands -----------------------------------------------------------------------

    /// A local name.
    fn local(&self, p: &mut Parser<'a>) -> PResult<Local> {
        let i = p.pos;
        match p.kind(i) {
            TokenKind::Ident => {
                let name = p.text(i);
                if name == "true" || name == "false" {
                    return Err(p.err_at(i, ParseErrorKind::NotALocal(name.into())));
                }
                let local = self
                    .locals
                    .get(name)
                    .copied()
                    .ok_or_else(|| p.err_at(i, ParseErrorKind::UndefinedLocal(name.into())))?;
                p.bump();
                Ok(local)
            }
            TokenKind::Int(_) => Err(p.err_at(i, ParseErrorKind::NotALocal(p.text(i).into()))),
            _ => Err(p.unexpected(i, "a local")),
        }
    }

    /// A local or an integer constant (`true`/`false` are 1/0).
    fn operand(&self, p: &mut Parser<'a>) -> PResult<Operand> {
        let i = p.pos;
        match *p.kind(i) {
            TokenKind::Int(v) => {
                p.bump();
                Ok(Operand::Const(v))
            }
            TokenKind::Ident if p.text(i) == "true" => {
                p.bump();
                Ok(Operand::Const(1))
            }
            TokenKind::Ident if p.text(i) == "false" => {
                p.bump();
                Ok(Operand::Const(0))
            }
            TokenKind::Ident => Ok(Operand::Local(self.local(p)?)),
            _ => Err(p.unexpected(i, "an operand")),
        }
    }

    /// `op, op, ...` between parentheses (the `(` is next).
    fn operand_list(&self, p: &mut Parser<'a>) -> PResult<Vec<Operand>> {
        p.expect_punct(Punct::LParen)?;
        let mut ops = Vec::new();
        while !p.is_punct(p.pos, Punct::RParen) {
            ops.push(self.operand(p)?);
            if p.is_punct(p.pos, Punct::Comma) {
                p.bump();
            } else if !p.is_punct(p.pos, Punct::RParen) {
                return Err(p.unexpected(p.pos, "`,` or `)`"));
            }
        }
        p.bump();
        Ok(ops)
    }

    fn block_ref(&self, p: &mut Parser<'a>) -> PResult<Block> {
        let i = p.expect_ident("a block name")?;
        let name = p.text(i);
        self.blocks
            .get(name)
            .copied()
            .ok_or_else(|| p.err_at(i, ParseErrorKind::UndefinedBlock(name.into())))
    }

    /// `.FIELD` of the struct local `local` (`elem`: of the struct elements of vec `local`).
    fn field(&self, p: &mut Parser<'a>, local: Local, elem: bool) -> PResult<u32> {
        p.expect_punct(Punct::Dot)?;
        let i = p.expect_ident("a field name")?;
        let field = p.text(i);
        let data = &self.func.locals[local];
        let strukt = match (data.ty, elem) {
            (Type::Struct(s), false) | (Type::Vec(ElemType::Struct(s)), true) => Some(s),
            _ => None,
        };
        let Some(def) = strukt.and_then(|s| self.module.structs.get(s)) else {
            return Err(p.err_at(
                i,
                ParseErrorKind::NoFields {
                    local: data.name.clone(),
                    ty: self.module.type_name(data.ty),
                    field: field.into(),
                },
            ));
        };
        def.field_index(field).ok_or_else(|| {
            p.err_at(
                i,
                ParseErrorKind::UnknownField {
                    strukt: def.name.clone(),
                    field: field.into(),
                },
            )
        })
    }

    /// An optional `.unchecked` suffix after a mnemonic.
    fn check_suffix(&self, p: &mut Parser<'a>) -> PResult<Check> {
        if !p.is_punct(p.pos, Punct::Dot) {
            return Ok(Check::Checked);
        }
        p.bump();
        if p.is_word(p.pos, "unchecked") {
            p.bump();
            Ok(Check::Unchecked)
        } else {
            Err(p.unexpected(p.pos, "`unchecked`"))
        }
    }

    /// `v[i]` and an optional `.field`.
    fn element(&self, p: &mut Parser<'a>) -> PResult<(Local, Operand, Option<u32>)> {
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

    fn comma(&self, p: &mut Parser<'a>) -> PResult<()> {
        p.expect_punct(Punct::Comma).map(|_| ())
    }

    fn callee(&self, p: &mut Parser<'a>) -> PResult<FuncId> {
        let i = p.expect_ident("a function name")?;
        let name = p.text(i);
        self.func_ids
            .get(name)
            .copied()
            .ok_or_else(|| p.err_at(i, ParseErrorKind::UndefinedFunction(name.into())))
    }

    // ---- statements ---------------------------------------------------------------------

    fn statement(&mut self, p: &mut Parser<'a>) -> PResult<Stmt> {
        if p.is_ident(p.pos) && p.is_punct(p.pos + 1, Punct::Eq) {
            let dst = self.local(p)?;
            p.bump();
            return self.assignment(p, dst).map(Stmt::Inst);
        }
        let m = p.expect_ident("an instruction")?;
        let mnemonic = p.text(m);
        let kind = match mnemonic {
            "setfield" => {
                let dst = self.local(p)?;
                let field = self.field(p, dst, false)?;
                self.comma(p)?;
                let value = self.operand(p)?;
                InstKind::SetField { dst, field, value }
            }
            "push" => {
                let vec = self.local(p)?;
                self.comma(p)?;
                let value = self.operand(p)?;
                InstKind::VecPush { vec, value }
            }
            "pop" => {
                let check = self.check_suffix(p)?;
                let vec = self.local(p)?;
                InstKind::VecPop {
                    dst: None,
                    vec,
                    check,
                }
            }
            "set" => {
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
            "drop" => InstKind::VecDrop {
                vec: self.local(p)?,
            },
            "call" => {
                let func = self.callee(p)?;
                let args = self.operand_list(p)?;
                InstKind::Call {
                    dst: None,
                    func,
                    args,
                }
            }
            "br" => return Ok(Stmt::Term(Terminator::Br(self.block_ref(p)?))),
            "brif" => {
                let cond = self.operand(p)?;
                self.comma(p)?;
                let then_block = self.block_ref(p)?;
                self.comma(p)?;
                let else_block = self.block_ref(p)?;
                return Ok(Stmt::Term(Terminator::BrIf {
                    cond,
                    then_block,
                    else_block,
                }));
            }
            "ret" => {
                let value = match p.kind(p.pos) {
                    TokenKind::Newline | TokenKind::Eof | TokenKind::Punct(Punct::RBrace) => None,
                    _ => Some(self.operand(p)?),
                };
                return Ok(Stmt::Term(Terminator::Ret(value)));
            }
            "trap" => {
                let i = p.pos;
                return match p.kind(i) {
                    TokenKind::Str(msg) => {
                        let msg = msg.clone();
                        p.bump();
                        Ok(Stmt::Term(Terminator::Trap(msg)))
                    }
                    _ => Err(p.unexpected(i, "a string literal")),
                };
            }
            _ => return Err(p.err_at(m, ParseErrorKind::UnknownInstruction(mnemonic.into()))),
        };
        Ok(Stmt::Inst(kind))
    }

    /// The right-hand side of `dst = ...` (the `=` is consumed).
    fn assignment(&mut self, p: &mut Parser<'a>, dst: Local) -> PResult<InstKind> {
        let m = p.expect_ident("an instruction")?;
        let mnemonic = p.text(m);
        if let Some(op) = BinaryOp::from_name(mnemonic) {
            let lhs = self.operand(p)?;
            self.comma(p)?;
            let rhs = self.operand(p)?;
            return Ok(InstKind::Binary { dst, op, lhs, rhs });
        }
        if let Some(op) = CmpOp::from_name(mnemonic) {
            let lhs = self.operand(p)?;
            self.comma(p)?;
            let rhs = self.operand(p)?;
            return Ok(InstKind::Compare { dst, op, lhs, rhs });
        }
        if let Some(op) = UnaryOp::from_name(mnemonic) {
            let arg = self.operand(p)?;
            return Ok(InstKind::Unary { dst, op, arg });
        }
        if let Some(op) = CastOp::from_name(mnemonic) {
            let arg = self.operand(p)?;
            return Ok(InstKind::Cast { dst, op, arg });
        }
        Ok(match mnemonic {
            "copy" => InstKind::Copy {
                dst,
                src: self.operand(p)?,
            },
            "make" => {
                let s = p.expect_ident("a struct name")?;
                let name = p.text(s);
                let Some(&ty) = self.structs.get(name) else {
                    return Err(p.err_at(s, ParseErrorKind::UnknownType(name.into())));
                };
                let fields = self.operand_list(p)?;
                InstKind::Make { dst, ty, fields }
            }
            "getfield" => {
                let src = self.local(p)?;
                let field = self.field(p, src, false)?;
                InstKind::GetField { dst, src, field }
            }
            "new" => {
                let t = p.pos;
                let ty = p.parse_type(self.structs)?;
                match ty {
                    Type::Vec(elem) => InstKind::VecNew { dst, elem },
                    other => {
                        return Err(
                            p.err_at(t, ParseErrorKind::NotAVecType(self.module.type_name(other)))
                        )
                    }
                }
            }
            "len" => InstKind::VecLen {
                dst,
                vec: self.local(p)?,
            },
            "pop" => {
                let check = self.check_suffix(p)?;
                InstKind::VecPop {
                    dst: Some(dst),
                    vec: self.local(p)?,
                    check,
                }
            }
            "get" => {
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
            "call" => {
                let func = self.callee(p)?;
                let args = self.operand_list(p)?;
                InstKind::Call {
                    dst: Some(dst),
                    func,
                    args,
                }
            }
            other if MNEMONICS_WITHOUT_VALUE.contains(&other) => {
                return Err(p.err_at(m, ParseErrorKind::NoValue(other.into())))
            }
            other => return Err(p.err_at(m, ParseErrorKind::UnknownInstruction(other.into()))),
        })
    }
}
