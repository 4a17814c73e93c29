//! Pass 2, the bodies: [`BodyParser`] parses one function body, its local declarations, then
//! its labels, instructions and terminators. The body's labels are known before it is parsed
//! (from [`Parser::scan_body`]), so a branch may name a block defined later; the local
//! declarations come before the first label, so the type of every local is known when an
//! instruction names a field (`getfield s.a`, `get v[i].a`).

use super::decls::{BodyScan, Decls, FuncDecl};
use super::suggest::suggest;
use super::words::Mnemonic;
use super::{BodyParser, Parser};
use super::{Failure, PResult, ParseErrorKind};
use crate::entities::{Block, FuncId, Local};
use crate::function::{BlockData, Function, LocalData, Name};
use crate::inst::{Check, InstKind, Loc, Operand, Terminator};
use crate::lexer::{kw, Punct, Symbol, TokenKind};
use crate::module::Module;
use crate::types::{ElemType, Type};
use cranelift_entity::{EntityRef, PrimaryMap};
use rustc_hash::FxHashSet;

impl Parser<'_> {
    /// Parses one body; what it could not parse is reported and left out.
    pub(super) fn body(&mut self, module: &Module, decls: &Decls, decl: &FuncDecl) -> Function {
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

    /// A block name. (The usual case, a block of the body, is read inline; anything else,
    /// out of line: as a call, a block name cost `parse_all` 44 instructions.)
    #[inline]
    fn block_ref(&self, p: &mut Parser) -> PResult<Block> {
        let tok = p.tok(p.pos);
        if tok.kind == TokenKind::Ident {
            if let Some(block) = self.block_of(p, Symbol(tok.data)) {
                p.advance();
                return Ok(block);
            }
        }
        Err(self.not_a_block(p))
    }

    /// Why the current token is not the name of a block of the body (consumed if it is a
    /// word).
    #[cold]
    #[inline(never)]
    fn not_a_block(&self, p: &mut Parser) -> Failure {
        let i = match p.expect_ident("a block name") {
            Ok(i) => i,
            Err(failure) => return failure,
        };
        let name = p.text(i);
        let help = suggest(name, self.func.blocks.values().map(|b| b.name.as_str()));
        p.err_help(i, ParseErrorKind::UndefinedBlock(name.into()), help)
            .into()
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

    /// An optional `.unchecked` suffix after a mnemonic. (Inline: most instructions have
    /// none, and the check is shorter than a call.)
    #[inline]
    fn check_suffix(&self, p: &mut Parser) -> PResult<Check> {
        if !p.is_punct(p.pos, Punct::Dot) {
            return Ok(Check::Checked);
        }
        self.unchecked_suffix(p)
    }

    /// The `.unchecked` suffix of [`BodyParser::check_suffix`] (the `.` is next).
    #[inline(never)]
    fn unchecked_suffix(&self, p: &mut Parser) -> PResult<Check> {
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

    #[inline]
    fn comma(&self, p: &mut Parser) -> PResult<()> {
        p.expect_punct(Punct::Comma).map(|_| ())
    }

    /// The function a call names. (A declared function, the usual case, is read inline, the
    /// rest out of line.)
    #[inline]
    fn callee(&self, p: &mut Parser) -> PResult<FuncId> {
        let tok = p.tok(p.pos);
        if tok.kind == TokenKind::Ident {
            if let Some(func) = self.decls.func_of[tok.data as usize] {
                p.advance();
                return Ok(func);
            }
        }
        self.not_a_callee(p)
    }

    /// [`BodyParser::callee`] of a token that does not name a declared function: the error.
    #[cold]
    #[inline(never)]
    fn not_a_callee(&self, p: &mut Parser) -> PResult<FuncId> {
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
                let ty = p.parse_type_out_of_line(&self.decls.struct_of)?;
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
