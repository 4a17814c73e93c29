//! Pass 1, the declarations: every top-level item is read, struct declarations completely,
//! function signatures up to the `{` of the body, whose extent and labels are found without a
//! walk over its tokens ([`Parser::scan_body`]). Then every struct and function name is
//! registered and every type in a declaration is resolved ([`Parser::declare`]), so functions
//! may be called, and structs used, before they are defined.

use super::suggest::suggest;
use super::Parser;
use super::{Failure, PResult, ParseError, ParseErrorKind};
use crate::entities::{FuncId, StructId};
use crate::function::{Function, InlineHint};
use crate::lexer::{kw, Punct, Symbol, TokenKind};
use crate::module::Module;
use crate::types::{ElemType, FieldDef, ScalarType, StructDef, Type, FIELD_SCAN};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;

/// A type as written, before struct names are resolved; names are token indices.
#[derive(Copy, Clone)]
pub(super) enum RawType {
    Scalar(ScalarType),
    Named(usize),
    VecScalar(ScalarType),
    VecNamed(usize),
}

/// A top-level item after pass 1 (token indices into the token vector).
pub(super) enum Item {
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
pub(super) struct BodyScan {
    /// Index of the `}` (or `Eof`) that ends the body.
    end: usize,
    /// Lines of the body: at most one instruction each.
    pub(super) lines: usize,
    /// Lines before the first label: at most one `var` each.
    pub(super) vars: usize,
    /// Where the token indices of the labels, in order, are in [`Parser::labels`].
    pub(super) labels: Range<usize>,
}

/// The index of the first element of the sorted `v` that is at least `x`, searched forward
/// from `from` when every element before `from` is less than `x` (a binary search otherwise).
#[inline]
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
pub(super) struct FuncDecl {
    /// Where the parameters are in [`Decls::params`] (in [`Parser::item_parts`], as written,
    /// until [`Parser::declare`] resolves them).
    pub(super) params: Range<usize>,
    /// The return type as written.
    ret: Option<RawType>,
    pub(super) body: usize,
    pub(super) scan: BodyScan,
}

/// The declarations of a module, indexed by symbol.
pub(super) struct Decls {
    pub(super) struct_of: Vec<Option<StructId>>,
    /// The fields of every struct of more than [`FIELD_SCAN`] fields: the index of each by
    /// its name's symbol.
    pub(super) wide_fields: FxHashMap<StructId, FxHashMap<Symbol, u32>>,
    pub(super) func_of: Vec<Option<FuncId>>,
    pub(super) funcs: Vec<(FuncId, FuncDecl)>,
    /// The parameters of every function, in order.
    pub(super) params: Vec<(usize, Option<Type>)>,
}

impl<'a> Parser<'a> {
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

    pub(super) fn items(&mut self) -> Vec<Item> {
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
        let fields = self.typed_names(Punct::RBrace, "a field name or `}`", "`,` or `}`")?;
        Ok(Item::Struct { kw, name, fields })
    }

    /// `name: type` pairs separated by commas (a trailing one allowed, newlines anywhere), up
    /// to and including `close`, pushed onto `item_parts`: their range there. `what` and
    /// `expected` name what a missing name and a missing separator were expected to be.
    /// Inlined into its two callers: as a call it cost `parse_all` 350 instructions on
    /// slot_pool_8 (fat LTO), more than the margin of the parse target (docs/benchmarks.md).
    #[inline(always)]
    fn typed_names(&mut self, close: Punct, what: &str, expected: &str) -> PResult<Range<usize>> {
        let first = self.item_parts.len();
        self.skip_newlines();
        while !self.is_punct(self.pos, close) {
            let name = self.expect_ident(what)?;
            self.expect_punct(Punct::Colon)?;
            let ty = self.raw_type()?;
            self.item_parts.push((name, ty));
            self.skip_newlines();
            if self.is_punct(self.pos, Punct::Comma) {
                self.bump();
                self.skip_newlines();
            } else if !self.is_punct(self.pos, close) {
                return Err(self.unexpected(self.pos, expected).into());
            }
        }
        self.bump();
        Ok(first..self.item_parts.len())
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
        let params = self.typed_names(Punct::RParen, "a parameter name or `)`", "`,` or `)`")?;
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

    /// The scalar type named by the current token, consumed (`None`, and nothing consumed,
    /// if it names none): the usual type, read inline by [`Parser::raw_type`], whose other
    /// cases are out of line.
    #[inline]
    fn scalar_type(&mut self) -> Option<ScalarType> {
        let tok = self.tok(self.pos);
        if tok.kind != TokenKind::Ident {
            return None;
        }
        let scalar = self.lx.interner.info(Symbol(tok.data)).scalar?;
        self.advance();
        Some(scalar)
    }

    /// `i8 | i16 | i32 | i64 | bool | NAME | vec<ELEM>` where ELEM is not a vec.
    #[inline]
    fn raw_type(&mut self) -> PResult<RawType> {
        match self.scalar_type() {
            Some(s) => Ok(RawType::Scalar(s)),
            None => self.raw_named_type(),
        }
    }

    /// [`Parser::raw_type`] of a type other than a scalar (or of no type).
    #[inline(never)]
    fn raw_named_type(&mut self) -> PResult<RawType> {
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
    pub(super) fn struct_named(
        &self,
        i: usize,
        struct_of: &[Option<StructId>],
    ) -> PResult<StructId> {
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

    /// The type of a `var` declaration, resolved. (A scalar or a declared struct is read
    /// inline, a vec type or an error out of line: as a call, a scalar type cost `parse_all`
    /// 40 instructions a `var` line.)
    #[inline]
    pub(super) fn parse_type(&mut self, struct_of: &[Option<StructId>]) -> PResult<Type> {
        let tok = self.tok(self.pos);
        if tok.kind == TokenKind::Ident {
            let sym = Symbol(tok.data);
            // (No struct is named `vec`, a reserved word: `vec<...>` is never taken here.)
            let ty = match self.lx.interner.info(sym).scalar {
                Some(s) => Some(Type::Scalar(s)),
                None => struct_of[sym.index()].map(Type::Struct),
            };
            if let Some(ty) = ty {
                self.advance();
                return Ok(ty);
            }
        }
        self.parse_type_out_of_line(struct_of)
    }

    /// [`Parser::parse_type`], all of it out of line: for a vec type or an error, and for
    /// `new`, whose type is a vec type (the inline cases would only make its caller longer).
    #[inline(never)]
    pub(super) fn parse_type_out_of_line(
        &mut self,
        struct_of: &[Option<StructId>],
    ) -> PResult<Type> {
        let raw = self.raw_named_type()?;
        self.resolve_type(raw, struct_of)
    }

    /// Registers every struct and function and resolves the types of the declarations. All
    /// errors of this phase are collected, in source order.
    pub(super) fn declare(&mut self, items: &mut [Item], module: &mut Module) -> Decls {
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
}
