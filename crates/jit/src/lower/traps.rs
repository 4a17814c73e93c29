//! Traps and bail-outs: each trap site branches to a small cold edge block that jumps, with
//! the site's code (and for `index_oob` the index and length, for `explicit` the message) as
//! block arguments, to a shared cold block per trap kind ([`FnLower::trap_block`]), which calls
//! `rt_trap` and jumps to the bail block; the bail block ([`FnLower::fill_bail`]) returns a
//! dummy result and the status 1.

use super::{FnLower, R};
use crate::abi;
use crate::runtime::RtFunc;
use crate::tier::Tier;
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::{self as cl, types, InstBuilder, Value};
use poolopt_ir::{TrapKind, Type};

/// How many trap sites share one trap block (see [`FnLower::trap_block`]).
const TRAP_BLOCK_SITES: u32 = 32;

impl FnLower<'_, '_, '_, '_> {
    /// The site code a trap record carries for a trap raised here: the index of the IR
    /// function the trapping code was written in (the trap record's `func`; after inlining,
    /// the callee's) and, above it, the source line ([`crate::runtime::site_code`]).
    pub(super) fn site_code(&self) -> i64 {
        crate::runtime::site_code(self.site, self.site_line)
    }

    /// The function's shared cold block for traps of `kind`, created on first use (and
    /// filled by [`FnLower::fill_trap_blocks`] once the body is lowered). Its block parameters
    /// are the site code and, for `index_oob`, the index and the length, for `explicit`, the
    /// message index; it calls `rt_trap` and jumps to the bail block. One such block per kind
    /// replaces a call sequence per trap site; after [`TRAP_BLOCK_SITES`] sites a fresh one is
    /// started, so that the register allocator never sees a block parameter merged over
    /// thousands of edges (which made huge functions compile 2.6 times slower).
    fn trap_block(&mut self, kind: TrapKind) -> cl::Block {
        if let Some((blk, uses)) = &mut self.trap_blocks[kind.code() as usize] {
            if *uses < TRAP_BLOCK_SITES {
                *uses += 1;
                return *blk;
            }
        }
        let blk = self.b.create_block();
        self.b.set_cold_block(blk);
        let nparams = match kind {
            TrapKind::IndexOob => 3,
            TrapKind::Explicit => 2,
            _ => 1,
        };
        for _ in 0..nparams {
            self.b.append_block_param(blk, types::I64);
        }
        self.trap_blocks[kind.code() as usize] = Some((blk, 1));
        self.t.all_trap_blocks.push((kind, blk));
        blk
    }

    /// Emits the bodies of the trap blocks used (the current block must be filled).
    pub(super) fn fill_trap_blocks(&mut self) -> R<()> {
        let ctx = self.ctx()?;
        let bail = self.bail()?;
        let trap_blocks = std::mem::take(&mut self.t.all_trap_blocks);
        for &(kind, blk) in &trap_blocks {
            self.b.switch_to_block(blk);
            let (site, a, b) = match *self.b.block_params(blk) {
                [site, a, b] => (site, Some(a), Some(b)),
                [site, a] => (site, Some(a), None),
                [site] => (site, None, None),
                _ => return Err(self.malformed("a trap block without its site parameter")),
            };
            let kind_v = self.i64c(i64::from(kind.code()));
            // Kind 0's code is itself the zero the unused arguments take.
            let zero = |s: &mut Self| match kind.code() {
                0 => kind_v,
                _ => s.i64c(0),
            };
            let (a, b) = match (a, b) {
                (Some(a), Some(b)) => (a, b),
                (Some(a), None) => (a, zero(self)),
                _ => {
                    let z = zero(self);
                    (z, z)
                }
            };
            let rt = self.rt_ref(RtFunc::Trap);
            self.ins().call(rt, &[ctx, kind_v, site, a, b]);
            self.b.ins().jump(bail, &[]);
        }
        // Handed back, so that the next function reuses its storage.
        self.t.all_trap_blocks = trap_blocks;
        Ok(())
    }

    /// The arguments of a jump to the trap block of `kind` from this site, and how many of
    /// the three there are.
    fn trap_args(
        &mut self,
        kind: TrapKind,
        a: Option<Value>,
        b: Option<Value>,
    ) -> R<([cl::BlockArg; 3], usize)> {
        let site = cl::BlockArg::Value(self.i64c(self.site_code()));
        match kind {
            TrapKind::IndexOob => {
                let (Some(a), Some(b)) = (a, b) else {
                    return Err(self.malformed("an index_oob trap needs the index and length"));
                };
                Ok(([site, cl::BlockArg::Value(a), cl::BlockArg::Value(b)], 3))
            }
            TrapKind::Explicit => {
                let Some(a) = a else {
                    return Err(self.malformed("an explicit trap needs its message"));
                };
                Ok(([site, cl::BlockArg::Value(a), site], 2))
            }
            _ => Ok(([site; 3], 1)),
        }
    }

    /// Branches to the trap block of `kind` when `x cc y` holds, through a small cold edge
    /// block that supplies this site's code (so the hot path carries no trap constants).
    ///
    /// In the huge tier the branch tests the complement (`brif ok, cont, edge`): Cranelift's
    /// block order (a reverse postorder whose depth-first walk takes a branch's first
    /// successor first) then places the edge block right after its site instead of after
    /// the rest of the function, so the index and length it passes are not live across
    /// everything in between (which made register allocation quadratic in huge functions).
    pub(super) fn trap_if(
        &mut self,
        cc: IntCC,
        x: Value,
        y: Value,
        kind: TrapKind,
        a: Option<Value>,
        b: Option<Value>,
    ) -> R<()> {
        let edge = self.b.create_block();
        self.b.set_cold_block(edge);
        let cont = self.b.create_block();
        if self.tier == Tier::Huge {
            let ok = self.ins().icmp(cc.complement(), x, y);
            self.b.ins().brif(ok, cont, &[], edge, &[]);
        } else {
            let fail = self.ins().icmp(cc, x, y);
            self.b.ins().brif(fail, edge, &[], cont, &[]);
        }
        self.b.switch_to_block(edge);
        self.emit_trap_call(kind, a, b)?;
        self.b.switch_to_block(cont);
        Ok(())
    }

    /// Jumps to the trap block of `kind` (terminates the current block).
    pub(super) fn emit_trap_call(
        &mut self,
        kind: TrapKind,
        a: Option<Value>,
        b: Option<Value>,
    ) -> R<()> {
        let (args, n) = self.trap_args(kind, a, b)?;
        let blk = self.trap_block(kind);
        self.b.ins().jump(blk, &args[..n]);
        Ok(())
    }

    /// Returns at once when `status` is nonzero (a callee or the runtime recorded a trap).
    pub(super) fn bail_if(&mut self, status: Value) -> R<()> {
        self.bail_when(status, true)
    }

    /// Returns at once when `value` is zero (the runtime recorded a trap).
    pub(super) fn bail_unless(&mut self, value: Value) -> R<()> {
        self.bail_when(value, false)
    }

    /// Returns at once when `value` is nonzero (`nonzero`) or zero (`!nonzero`); otherwise
    /// goes on in a new block.
    fn bail_when(&mut self, value: Value, nonzero: bool) -> R<()> {
        let bail = self.bail()?;
        let cont = self.b.create_block();
        let (then_block, else_block) = if nonzero { (bail, cont) } else { (cont, bail) };
        self.b.ins().brif(value, then_block, &[], else_block, &[]);
        self.b.switch_to_block(cont);
        Ok(())
    }

    /// Fills `bail` with the bail-out return: a dummy result and the status 1 (trapped).
    pub(super) fn fill_bail(&mut self, bail: cl::Block) {
        self.b.switch_to_block(bail);
        let ir = self.ir;
        let trapped = self.ins().iconst(abi::STATUS, 1);
        match ir.ret {
            Some(Type::Scalar(s)) => {
                let z = self.iconst(s, 0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Vec(_)) => {
                let z = self.i64c(0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Struct(sid)) if self.env.is_small_struct(sid) => {
                let z = self.i64c(0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Struct(_)) | None => {
                self.b.ins().return_(&[trapped]);
            }
        }
    }
}
