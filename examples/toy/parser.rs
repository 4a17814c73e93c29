//! A hand-written recursive-descent parser from tokens to the [`crate::ast`] tree.
//!
//! Prefix operators are `-`, `!` and `~`. Binary operators use precedence climbing (Rust's
//! precedence: `as`, then `* / %`, `+ -`,
//! `<< >>`, `&`, `^`, `|`, comparisons, `&&`, `||`). As in Rust, a struct literal is not allowed
//! directly in the condition of `if`/`while` (`if x { ... }` opens the body). Nesting and the
//! length of operator chains are bounded ([`MAX_DEPTH`], [`MAX_CHAIN_LINKS`]), so no input can
//! overflow the stack.

use crate::ast::{BinOp, Expr, ExprKind, FnDecl, IfArm, Program, Stmt, StructDecl, TypeExpr, UnOp};
use crate::error::CompileError;
use crate::lexer::{Tok, Token};
use poolopt::ir::Loc;

/// The deepest nesting of expressions and blocks the parser accepts (each level is several
/// frames of the recursive descent).
pub const MAX_DEPTH: u32 = 100;

/// The most links of left-deep chains (`a + b + c`, `x as T as U`, `a.b[i]`) an expression
/// may hold on its way down, counted along the current path. The parser builds a chain in a
/// loop, but the tree is one level deeper per link, and the checker, the lowering and even
/// dropping the tree recurse over it (a sum of 100,000 terms overflowed the stack). The front
/// end runs on a thread with a stack of its own (`driver::FRONT_END_STACK`, 64 MiB); a debug
/// build needs about 25 KB a level, so 100 levels of nesting and 1,000 links fit.
pub const MAX_CHAIN_LINKS: u32 = 1000;

/// Parses a whole program.
pub fn parse(tokens: &[Token]) -> Result<Program, CompileError> {
    let mut p = Parser {
        tokens,
        pos: 0,
        depth: 0,
        links: 0,
    };
    let mut program = Program::default();
    loop {
        match p.peek() {
            Tok::Eof => return Ok(program),
            Tok::Struct => program.structs.push(p.struct_decl()?),
            Tok::Fn => program.fns.push(p.fn_decl()?),
            other => {
                return Err(p.error_here(format!(
                    "expected `fn` or `struct`, found {}",
                    other.describe()
                )))
            }
        }
    }
}

struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
    depth: u32,
    /// Chain links on the current path ([`MAX_CHAIN_LINKS`]).
    links: u32,
}

impl Parser<'_> {
    fn token(&self) -> &Token {
        // The token list always ends with Eof, and `bump` never moves past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek(&self) -> &Tok {
        &self.token().tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let i = (self.pos + ahead).min(self.tokens.len() - 1);
        &self.tokens[i].tok
    }

    fn loc(&self) -> Loc {
        self.token().loc
    }

    /// Where the last consumed token ends.
    fn prev_end(&self) -> Loc {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(t) => t.end,
            None => self.loc(),
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.token().clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error_here(&self, message: impl Into<String>) -> CompileError {
        CompileError::new(self.loc(), message)
    }

    fn expect(&mut self, tok: Tok) -> Result<Loc, CompileError> {
        if self.peek() == &tok {
            Ok(self.bump().loc)
        } else {
            Err(self.error_here(format!(
                "expected {}, found {}",
                tok.describe(),
                self.peek().describe()
            )))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Loc), CompileError> {
        match self.peek().clone() {
            Tok::Ident(name) => Ok((name, self.bump().loc)),
            other => Err(self.error_here(format!("expected {what}, found {}", other.describe()))),
        }
    }

    fn enter(&mut self) -> Result<(), CompileError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// One more link of a left-deep chain (`a + b + c`, `x as T as U`, `a.b[i].c()`): the
    /// loop that builds it does not recurse, but the tree it builds is one level deeper for
    /// each link ([`MAX_CHAIN_LINKS`]). `links` counts the chain's own for
    /// [`Parser::leave_links`].
    fn link(&mut self, links: &mut u32) -> Result<(), CompileError> {
        *links += 1;
        self.links += 1;
        if self.links > MAX_CHAIN_LINKS {
            return Err(self.error_here(format!(
                "an expression chains more than {MAX_CHAIN_LINKS} operators (split it with `let`)"
            )));
        }
        Ok(())
    }

    /// Leaves a chain's `links`.
    fn leave_links(&mut self, links: u32) {
        self.links -= links;
    }

    fn struct_decl(&mut self) -> Result<StructDecl, CompileError> {
        let loc = self.expect(Tok::Struct)?;
        let (name, _) = self.ident("a struct name")?;
        self.expect(Tok::LBrace)?;
        let mut fields = Vec::new();
        while self.peek() != &Tok::RBrace {
            let (field, floc) = self.ident("a field name")?;
            self.expect(Tok::Colon)?;
            let ty = self.type_expr()?;
            fields.push((field, ty, floc));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(StructDecl { name, fields, loc })
    }

    fn fn_decl(&mut self) -> Result<FnDecl, CompileError> {
        let loc = self.expect(Tok::Fn)?;
        let (name, _) = self.ident("a function name")?;
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        while self.peek() != &Tok::RParen {
            let (pname, ploc) = self.ident("a parameter name")?;
            self.expect(Tok::Colon)?;
            let ty = self.type_expr()?;
            params.push((pname, ty, ploc));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen)?;
        let ret = if self.eat(&Tok::Arrow) {
            Some(self.type_expr()?)
        } else {
            None
        };
        let (body, end) = self.block()?;
        Ok(FnDecl {
            name,
            params,
            ret,
            body,
            loc,
            end,
        })
    }

    fn type_expr(&mut self) -> Result<TypeExpr, CompileError> {
        if self.peek() == &Tok::LParen {
            self.enter()?;
            self.bump();
            let mut parts = Vec::new();
            while self.peek() != &Tok::RParen {
                parts.push(self.type_expr()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
            self.leave();
            return Ok(TypeExpr::Tuple(parts));
        }
        let (name, _) = self.ident("a type")?;
        Ok(match name.as_str() {
            "i64" => TypeExpr::I64,
            "i32" => TypeExpr::I32,
            "u64" => TypeExpr::U64,
            "u32" => TypeExpr::U32,
            "bool" => TypeExpr::Bool,
            "vec" => {
                self.expect(Tok::Lt)?;
                let elem = self.type_expr()?;
                if self.peek() == &Tok::Shr {
                    return Err(self.error_here("a vec cannot hold vecs"));
                }
                self.expect(Tok::Gt)?;
                TypeExpr::Vec(Box::new(elem))
            }
            _ => TypeExpr::Named(name),
        })
    }

    /// `{ stmt* }`; returns the statements and the location of the closing brace.
    fn block(&mut self) -> Result<(Vec<Stmt>, Loc), CompileError> {
        self.enter()?;
        self.expect(Tok::LBrace)?;
        let mut stmts = Vec::new();
        while !matches!(self.peek(), Tok::RBrace | Tok::Eof) {
            stmts.push(self.stmt()?);
        }
        let end = self.expect(Tok::RBrace)?;
        self.leave();
        Ok((stmts, end))
    }

    fn stmt(&mut self) -> Result<Stmt, CompileError> {
        let loc = self.loc();
        match self.peek() {
            Tok::Let if self.peek_at(1) == &Tok::LParen => {
                self.bump();
                self.bump();
                let mut names = Vec::new();
                while self.peek() != &Tok::RParen {
                    names.push(self.ident("a variable name")?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RParen)?;
                self.expect(Tok::Assign)?;
                let init = self.expr(true)?;
                self.expect(Tok::Semi)?;
                Ok(Stmt::LetTuple { names, init, loc })
            }
            Tok::Break | Tok::Continue => {
                let is_break = self.bump().tok == Tok::Break;
                self.expect(Tok::Semi)?;
                Ok(if is_break {
                    Stmt::Break { loc }
                } else {
                    Stmt::Continue { loc }
                })
            }
            Tok::Let => {
                self.bump();
                let (name, _) = self.ident("a variable name")?;
                let ty = if self.eat(&Tok::Colon) {
                    Some(self.type_expr()?)
                } else {
                    None
                };
                self.expect(Tok::Assign)?;
                let init = self.expr(true)?;
                self.expect(Tok::Semi)?;
                Ok(Stmt::Let {
                    name,
                    ty,
                    init,
                    loc,
                })
            }
            Tok::If => self.if_stmt(),
            Tok::While => {
                self.bump();
                let cond = self.expr(false)?;
                let (body, _) = self.block()?;
                Ok(Stmt::While { cond, body, loc })
            }
            Tok::Return => {
                self.bump();
                let value = if self.peek() == &Tok::Semi {
                    None
                } else {
                    Some(self.expr(true)?)
                };
                self.expect(Tok::Semi)?;
                Ok(Stmt::Return { value, loc })
            }
            Tok::Trap => {
                self.bump();
                self.expect(Tok::LParen)?;
                let message = match self.peek().clone() {
                    Tok::Str(s) => {
                        self.bump();
                        s
                    }
                    other => {
                        return Err(self.error_here(format!(
                            "expected a string message, found {}",
                            other.describe()
                        )))
                    }
                };
                self.expect(Tok::RParen)?;
                self.expect(Tok::Semi)?;
                Ok(Stmt::Trap { message, loc })
            }
            _ => {
                let expr = self.expr(true)?;
                if self.eat(&Tok::Assign) {
                    let value = self.expr(true)?;
                    self.expect(Tok::Semi)?;
                    Ok(Stmt::Assign {
                        place: expr,
                        value,
                        loc,
                    })
                } else {
                    self.expect(Tok::Semi)?;
                    Ok(Stmt::Expr(expr))
                }
            }
        }
    }

    /// An `if` with its `else if` arms, read in a loop: the chain is one statement, one level
    /// of nesting however long it is.
    fn if_stmt(&mut self) -> Result<Stmt, CompileError> {
        self.enter()?;
        let mut arms = Vec::new();
        let mut else_body = Vec::new();
        loop {
            let loc = self.expect(Tok::If)?;
            let cond = self.expr(false)?;
            let (body, _) = self.block()?;
            arms.push(IfArm { cond, body, loc });
            if !self.eat(&Tok::Else) {
                break;
            }
            if self.peek() != &Tok::If {
                else_body = self.block()?.0;
                break;
            }
        }
        self.leave();
        Ok(Stmt::If { arms, else_body })
    }

    /// An expression; `struct_ok` is false in `if`/`while` conditions.
    fn expr(&mut self, struct_ok: bool) -> Result<Expr, CompileError> {
        self.binary(0, struct_ok)
    }

    fn binary(&mut self, min_prec: u8, struct_ok: bool) -> Result<Expr, CompileError> {
        self.enter()?;
        let mut lhs = self.unary(struct_ok)?;
        let mut links = 0;
        while let Some((op, prec)) = binop(self.peek()) {
            if prec < min_prec {
                break;
            }
            self.link(&mut links)?;
            let op_loc = self.bump().loc;
            let rhs = self.binary(prec + 1, struct_ok)?;
            let (loc, start, end) = (lhs.loc, lhs.start, rhs.end);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs), op_loc),
                loc,
                start,
                end,
            };
        }
        self.leave_links(links);
        self.leave();
        Ok(lhs)
    }

    fn unary(&mut self, struct_ok: bool) -> Result<Expr, CompileError> {
        let loc = self.loc();
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            Tok::Tilde => UnOp::BitNot,
            _ => return self.cast(struct_ok),
        };
        self.bump();
        if op == UnOp::Neg {
            if let Tok::Int(v) = *self.peek() {
                // A negative literal is one constant (so `-9223372036854775808` is allowed).
                self.bump();
                return self.cast_suffix(Expr {
                    kind: ExprKind::Int(-i128::from(v)),
                    loc,
                    start: loc,
                    end: self.prev_end(),
                });
            }
        }
        self.enter()?;
        let arg = self.unary(struct_ok)?;
        self.leave();
        let end = arg.end;
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(arg)),
            loc,
            start: loc,
            end,
        })
    }

    fn cast(&mut self, struct_ok: bool) -> Result<Expr, CompileError> {
        let expr = self.postfix(struct_ok)?;
        self.cast_suffix(expr)
    }

    fn cast_suffix(&mut self, mut expr: Expr) -> Result<Expr, CompileError> {
        let mut links = 0;
        while self.peek() == &Tok::As {
            self.link(&mut links)?;
            self.bump();
            let (loc, start) = (expr.loc, expr.start);
            let ty = self.type_expr()?;
            expr = Expr {
                kind: ExprKind::Cast(Box::new(expr), ty),
                loc,
                start,
                end: self.prev_end(),
            };
        }
        self.leave_links(links);
        Ok(expr)
    }

    fn postfix(&mut self, struct_ok: bool) -> Result<Expr, CompileError> {
        let mut expr = self.primary(struct_ok)?;
        let mut links = 0;
        loop {
            match self.peek() {
                Tok::Dot => {
                    self.link(&mut links)?;
                    self.bump();
                    let (name, loc) = self.ident("a field or method name")?;
                    if self.peek() == &Tok::LParen {
                        let args = self.args()?;
                        let start = expr.start;
                        expr = Expr {
                            kind: ExprKind::Method(Box::new(expr), name, args),
                            loc,
                            start,
                            end: self.prev_end(),
                        };
                    } else {
                        let start = expr.start;
                        expr = Expr {
                            kind: ExprKind::Field(Box::new(expr), name),
                            loc,
                            start,
                            end: self.prev_end(),
                        };
                    }
                }
                Tok::LBracket => {
                    self.link(&mut links)?;
                    let loc = self.bump().loc;
                    let index = self.expr(true)?;
                    self.expect(Tok::RBracket)?;
                    let start = expr.start;
                    expr = Expr {
                        kind: ExprKind::Index(Box::new(expr), Box::new(index)),
                        loc,
                        start,
                        end: self.prev_end(),
                    };
                }
                _ => {
                    self.leave_links(links);
                    return Ok(expr);
                }
            }
        }
    }

    fn args(&mut self) -> Result<Vec<Expr>, CompileError> {
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        while self.peek() != &Tok::RParen {
            args.push(self.expr(true)?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen)?;
        Ok(args)
    }

    fn primary(&mut self, struct_ok: bool) -> Result<Expr, CompileError> {
        let loc = self.loc();
        let kind = match self.peek().clone() {
            Tok::Int(v) => {
                self.bump();
                ExprKind::Int(i128::from(v))
            }
            Tok::True => {
                self.bump();
                ExprKind::Bool(true)
            }
            Tok::False => {
                self.bump();
                ExprKind::Bool(false)
            }
            Tok::New => {
                self.bump();
                match self.type_expr()? {
                    TypeExpr::Vec(elem) => ExprKind::NewVec(*elem),
                    _ => return Err(CompileError::new(loc, "`new` makes vecs: `new vec<T>`")),
                }
            }
            Tok::LParen => {
                self.bump();
                let inner = self.expr(true)?;
                if self.peek() != &Tok::Comma {
                    self.expect(Tok::RParen)?;
                    return Ok(inner);
                }
                let mut parts = vec![inner];
                while self.eat(&Tok::Comma) && self.peek() != &Tok::RParen {
                    parts.push(self.expr(true)?);
                }
                self.expect(Tok::RParen)?;
                ExprKind::Tuple(parts)
            }
            Tok::Ident(name) => {
                self.bump();
                if self.peek() == &Tok::LParen {
                    ExprKind::Call(name, self.args()?)
                } else if struct_ok && self.peek() == &Tok::LBrace && self.looks_like_struct_lit() {
                    ExprKind::StructLit(name, self.struct_fields()?)
                } else {
                    ExprKind::Var(name)
                }
            }
            other => {
                return Err(self.error_here(format!(
                    "expected an expression, found {}",
                    other.describe()
                )))
            }
        };
        Ok(Expr {
            kind,
            loc,
            start: loc,
            end: self.prev_end(),
        })
    }

    /// After `Name`, `{` starts a struct literal if it is followed by `}` or `field:`.
    fn looks_like_struct_lit(&self) -> bool {
        matches!(
            (self.peek_at(1), self.peek_at(2)),
            (Tok::RBrace, _) | (Tok::Ident(_), Tok::Colon)
        )
    }

    fn struct_fields(&mut self) -> Result<Vec<(String, Expr, Loc)>, CompileError> {
        self.expect(Tok::LBrace)?;
        let mut fields = Vec::new();
        while self.peek() != &Tok::RBrace {
            let (name, loc) = self.ident("a field name")?;
            self.expect(Tok::Colon)?;
            let value = self.expr(true)?;
            fields.push((name, value, loc));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(fields)
    }
}

/// The operator a token stands for, and its precedence (higher binds tighter).
fn binop(tok: &Tok) -> Option<(BinOp, u8)> {
    Some(match tok {
        Tok::OrOr => (BinOp::OrOr, 1),
        Tok::AndAnd => (BinOp::AndAnd, 2),
        Tok::EqEq => (BinOp::Eq, 3),
        Tok::NotEq => (BinOp::Ne, 3),
        Tok::Lt => (BinOp::Lt, 3),
        Tok::Le => (BinOp::Le, 3),
        Tok::Gt => (BinOp::Gt, 3),
        Tok::Ge => (BinOp::Ge, 3),
        Tok::Pipe => (BinOp::BitOr, 4),
        Tok::Caret => (BinOp::BitXor, 5),
        Tok::Amp => (BinOp::BitAnd, 6),
        Tok::Shl => (BinOp::Shl, 7),
        Tok::Shr => (BinOp::Shr, 7),
        Tok::Plus => (BinOp::Add, 8),
        Tok::Minus => (BinOp::Sub, 8),
        Tok::Star => (BinOp::Mul, 9),
        Tok::Slash => (BinOp::Div, 9),
        Tok::Percent => (BinOp::Rem, 9),
        _ => return None,
    })
}
