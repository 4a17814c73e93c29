//! The parser's cursor over the token vector: token access, error construction and recovery
//! helpers, shared by both passes ([`super::decls`], [`super::body`]). (The [`Parser`] state
//! itself is defined in `mod.rs`.)

use super::words::{Mnemonic, WordInfo};
use super::{Failure, PResult, ParseError, ParseErrorKind, MAX_PARSE_ERRORS};
use super::{Parser, ScopeSlot};
use crate::inst::Loc;
use crate::lexer::{Lexed, Punct, Symbol, Token, TokenKind};
use rustc_hash::FxHashSet;

impl<'a> Parser<'a> {
    pub(super) fn new(lx: Lexed<'a>) -> Parser<'a> {
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
    pub(super) fn tok(&self, i: usize) -> Token {
        self.lx.token(i)
    }

    #[inline]
    pub(super) fn kind(&self, i: usize) -> TokenKind {
        self.lx.kind(i)
    }

    /// The source text of token `i`.
    #[inline]
    pub(super) fn text(&self, i: usize) -> &'a str {
        let tok = self.tok(i);
        match tok.kind {
            TokenKind::Ident => self.lx.word(tok),
            _ => self.lx.text(tok),
        }
    }

    /// The symbol of word token `i` (meaningless for other tokens).
    #[inline]
    pub(super) fn sym(&self, i: usize) -> Symbol {
        Symbol(self.tok(i).data)
    }

    #[inline]
    pub(super) fn word_info(&self, i: usize) -> WordInfo {
        self.lx.interner.info(self.sym(i))
    }

    pub(super) fn loc(&self, i: usize) -> Loc {
        self.lx.loc_of_token(i)
    }

    #[inline]
    pub(super) fn at_eof(&self) -> bool {
        self.kind(self.pos) == TokenKind::Eof
    }

    /// Consumes the current token (never moves past `Eof`) and returns its index.
    #[inline]
    pub(super) fn bump(&mut self) -> usize {
        let i = self.pos;
        if !self.at_eof() {
            self.pos += 1;
        }
        i
    }

    #[inline]
    pub(super) fn is_punct(&self, i: usize, p: Punct) -> bool {
        self.kind(i) == TokenKind::Punct(p)
    }

    #[inline]
    pub(super) fn is_ident(&self, i: usize) -> bool {
        self.kind(i) == TokenKind::Ident
    }

    #[inline]
    pub(super) fn is_word(&self, i: usize, word: Symbol) -> bool {
        self.is_ident(i) && self.sym(i) == word
    }

    #[inline]
    pub(super) fn is_newline(&self, i: usize) -> bool {
        self.kind(i) == TokenKind::Newline
    }

    /// Whether token `i` is the first of its line.
    pub(super) fn at_line_start(&self, i: usize) -> bool {
        i == 0 || self.is_newline(i - 1)
    }

    pub(super) fn skip_newlines(&mut self) {
        while self.is_newline(self.pos) {
            self.bump();
        }
    }

    // ---- errors -------------------------------------------------------------------------

    pub(super) fn full(&self) -> bool {
        self.errors.len() >= MAX_PARSE_ERRORS
    }

    pub(super) fn report(&mut self, failure: Failure) {
        if let Failure::Report(e) = failure {
            if !self.full() {
                self.errors.push(*e);
            }
        }
    }

    pub(super) fn err_at(&self, i: usize, kind: ParseErrorKind) -> ParseError {
        let tok = self.tok(i);
        ParseError {
            loc: self.lx.loc_of(tok.start),
            span: self.lx.span(tok),
            kind,
            help: None,
        }
    }

    pub(super) fn err_help(
        &self,
        i: usize,
        kind: ParseErrorKind,
        help: Option<String>,
    ) -> ParseError {
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
    pub(super) fn unexpected(&self, i: usize, expected: &str) -> ParseError {
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
    pub(super) fn error_or_lex(&self, i: usize, kind: ParseErrorKind) -> ParseError {
        match self.kind(i) {
            TokenKind::Error => self.err_at(i, self.lex_error(i)),
            _ => self.err_at(i, kind),
        }
    }

    /// Consumes the current token, known not to be `Eof`, and returns its index.
    #[inline]
    pub(super) fn advance(&mut self) -> usize {
        let i = self.pos;
        self.pos += 1;
        i
    }

    #[inline]
    pub(super) fn expect_punct(&mut self, p: Punct) -> PResult<usize> {
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
    pub(super) fn expect_ident(&mut self, what: &str) -> PResult<usize> {
        if self.is_ident(self.pos) {
            Ok(self.advance())
        } else {
            Err(self.expected(what))
        }
    }

    /// The word that starts an instruction (consumed): its index and what it means as a
    /// mnemonic. (The token is read once for both.)
    #[inline]
    pub(super) fn expect_mnemonic(&mut self) -> PResult<(usize, Option<Mnemonic>)> {
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
    pub(super) fn expected(&self, what: &str) -> Failure {
        self.unexpected(self.pos, what).into()
    }

    /// A statement ends at a newline (consumed), or before a `}` or the end of input.
    #[inline]
    pub(super) fn end_of_statement(&mut self) -> PResult<()> {
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
    pub(super) fn skip_line(&mut self) {
        while !matches!(
            self.kind(self.pos),
            TokenKind::Newline | TokenKind::Eof | TokenKind::Punct(Punct::RBrace)
        ) {
            self.bump();
        }
    }
}
