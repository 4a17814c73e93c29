//! The shapes of issues 10 and 11 that the statements of `mod.rs` do not write: index arithmetic
//! with constant offsets, strides of ±1/±2 and count-down loops, constant bounds combined with
//! lengths, equal-length vecs, calls that do and do not change lengths, signed division and
//! remainder with non-negative operands, range checks with the bound test first and masked
//! bounds, a `set` then a `get` of the same element, recursion and mutual recursion, calls in
//! loops, struct arguments and results, and callees that trap before returning a value the
//! caller then uses.
//!
//! Every shape comes with its near miss (the same shape with one thing wrong: an offset off by
//! one, a step that may skip the bound, a vec that may alias, a callee that pops, a bound that
//! may be negative, a store through another handle between `set` and `get`), chosen with the
//! same probability as the positive form. Every shape a program contains is recorded by name
//! ([`SHAPES`]), and the differential test prints how many programs reached each one.
//!
//! The helper functions the shapes call ([`Helpers`]) are part of every program; their bodies
//! vary with the input (whether `pp` pops twice, whether `rec` pops, how `bnd` traps, ...).

use super::{FnGen, Src, V, VECS};
use poolopt::ir::{
    BinaryOp, Block, CastOp, CmpOp, ElemType, FuncId, InlineHint, Local, ModuleBuilder, Operand,
    ScalarType, StructId, Type,
};

/// Every shape name the generator records (positive forms and their near misses).
pub const SHAPES: &[&str] = &[
    "a[i-1] under 0 < i < len",
    "a[i-1] near miss: 0 <= i < len",
    "a[i+1] under i+1 < len (temporary)",
    "a[i+1] near miss: i+1 <= len",
    "a[i-k] under k <= i < len, k >= 0",
    "a[i-k] near miss: k may be negative",
    "stride +2 under i+1 < len",
    "stride +2 near miss: a[i+1] under i < len",
    "stride -2 under i > 1",
    "stride -2 near miss: i > 0",
    "count-down i = len; while i > 0",
    "count-down near miss",
    "constant below a known length",
    "constant near miss: bound above the length",
    "scaled index 2*i under i <u 3, len >= 5",
    "scaled index near miss: len >= 4",
    "index below an accessed constant",
    "accessed constant near miss",
    "constant loop bound under a length test",
    "constant loop bound near miss",
    "equal lengths: len(x) == len(y)",
    "equal lengths near miss: len(x) >= len(y)",
    "same pushes on two new vecs",
    "same pushes near miss: index = pushes",
    "len taken before push",
    "len before push near miss: push of the twin",
    "call that only reads the vec",
    "call without vec arguments",
    "call that pops the vec (near miss)",
    "call through an alias that pops (near miss)",
    "sdiv/srem of non-negative operands",
    "sdiv/srem near miss: dividend may be negative",
    "range check, bound test first",
    "range check bound first near miss: i > n",
    "range check, masked bound",
    "range check masked near miss: bound may be negative",
    "set then get of the same element",
    "set then get near miss: store through an alias",
    "set then get near miss: store through the twin",
    "recursion that keeps the length",
    "recursion that changes the length (near miss)",
    "mutual recursion that keeps the length",
    "mutual recursion that changes the length (near miss)",
    "call in a loop that only reads",
    "call in a loop that pops (near miss)",
    "struct arguments, callee reads them",
    "struct arguments, callee writes its copies",
    "callee that may trap returns a vec, used",
    "callee that may trap returns a loop bound, used",
    "callee that may trap returns a struct, used",
    "division in a loop, invariant divisor",
    "division in a loop near miss: divisor assigned in the loop",
    "division under d > 0",
    "division near miss: d >= 0 lets zero through",
    "bitwise range check",
    "bitwise range check near miss: bound test the wrong way",
    "loop back to the entry block",
];

/// How the helper functions' bodies vary (read from the input before anything else).
#[derive(Copy, Clone, Debug)]
pub struct HelperVariants {
    /// `rd`: 0 guarded by `i <u len`, 1 by `0 <= i && i < len`, 2 unguarded (may trap).
    rd: usize,
    /// `pp`: 0 pops once, 1 pops twice, 2 pushes `w` then pops `v`, 3 guarded pop.
    pp: usize,
    /// `bnd`: 0 explicit trap on a small argument, 1 division by zero, 2 `pop_empty`.
    bnd: usize,
    /// `mv`: 0 explicit trap, 1 `pop_empty`.
    mv: usize,
    /// `rec` and `od`: 0 keep the length (read `v[0]`), 1 pop, 2 push.
    pub rec: usize,
    pub od: usize,
    /// The inlining hint of each helper: default, `inline`, `noinline`.
    hints: [usize; HELPER_NAMES.len()],
}

impl HelperVariants {
    pub fn read(src: &mut Src) -> HelperVariants {
        HelperVariants {
            rd: src.pick(3),
            pp: src.pick(4),
            bnd: src.pick(3),
            mv: src.pick(2),
            rec: src.pick(3),
            od: src.pick(3),
            hints: std::array::from_fn(|_| src.pick(3)),
        }
    }

    pub fn rec_changes_len(&self) -> bool {
        self.rec != 0
    }

    pub fn mutual_changes_len(&self) -> bool {
        self.od != 0
    }
}

const HELPER_NAMES: [&str; 9] = ["rd", "pp", "bnd", "mv", "sr", "sw", "rec", "ev", "od"];

/// The helper functions every program has.
#[derive(Copy, Clone, Debug)]
pub struct Helpers {
    /// `rd(v: vec<i64>, i: i64) -> i64`: reads `v[i]` (never changes a length).
    pub rd: FuncId,
    /// `pp(v: vec<i64>, w: vec<i64>, x: i64) -> i64`: pops `v` (changes its length).
    pub pp: FuncId,
    /// `bnd(x: i64) -> i64`: `x & 7`, or a trap when `x < -50`.
    pub bnd: FuncId,
    /// `mv(x: i64) -> vec<i64>`: a new vec of one or two elements, or a trap when `x & 3 == 3`.
    pub mv: FuncId,
    /// `sr(s: S8, g: Big, x: i64) -> Big`: reads its struct parameters; traps when `x == 7`.
    pub sr: FuncId,
    /// `sw(s: S8, g: Big, x: i64) -> S8`: writes its struct parameters (its own copies).
    pub sw: FuncId,
    /// `rec(d: i64, v: vec<i64>) -> i64`: recursion `d` deep.
    pub rec: FuncId,
    /// `ev`/`od(d: i64, v: vec<i64>) -> i64`: mutual recursion `d` deep.
    pub ev: FuncId,
    pub od: FuncId,
    pub variants: HelperVariants,
}

impl Helpers {
    /// Declares the helpers (after `main`, `f1`, `f2`).
    pub fn declare(
        mb: &mut ModuleBuilder,
        s8: StructId,
        big: StructId,
        variants: HelperVariants,
    ) -> Helpers {
        let vi = Type::Vec(ElemType::Scalar(ScalarType::I64));
        let (s8t, bigt) = (Type::Struct(s8), Type::Struct(big));
        let i = Type::I64;
        let mut decl = |name: &str, params: &[(&str, Type)], ret: Type| {
            mb.declare_function(name, params, Some(ret))
        };
        let h = Helpers {
            rd: decl("rd", &[("v", vi), ("i", i)], i),
            pp: decl("pp", &[("v", vi), ("w", vi), ("x", i)], i),
            bnd: decl("bnd", &[("x", i)], i),
            mv: decl("mv", &[("x", i)], vi),
            sr: decl("sr", &[("s", s8t), ("g", bigt), ("x", i)], bigt),
            sw: decl("sw", &[("s", s8t), ("g", bigt), ("x", i)], s8t),
            rec: decl("rec", &[("d", i), ("v", vi)], i),
            ev: decl("ev", &[("d", i), ("v", vi)], i),
            od: decl("od", &[("d", i), ("v", vi)], i),
            variants,
        };
        let ids = [h.rd, h.pp, h.bnd, h.mv, h.sr, h.sw, h.rec, h.ev, h.od];
        for (id, hint) in ids.into_iter().zip(variants.hints) {
            let hint = [InlineHint::Default, InlineHint::Always, InlineHint::Never][hint];
            mb.set_inline_hint(id, hint);
        }
        h
    }

    /// Defines the helpers' bodies.
    pub fn define(&self, mb: &mut ModuleBuilder, s8: StructId, big: StructId) {
        let v = self.variants;
        let vi = Type::Vec(ElemType::Scalar(ScalarType::I64));
        let i = Type::I64;

        // rd(v, i): a read of v[i].
        {
            let mut fb = mb.define_function(self.rd);
            let (vec, ix) = (fb.param(0).unwrap(), fb.param(1).unwrap());
            let (n, c, r) = (
                fb.local("n", i),
                fb.local("c", Type::BOOL),
                fb.local("r", i),
            );
            let entry = fb.create_block("entry");
            let ok = fb.create_block("ok");
            let out = (v.rd != 2).then(|| fb.create_block("out"));
            fb.switch_to_block(entry);
            match out {
                None => fb.br(ok),
                Some(out) if v.rd == 0 => {
                    fb.vec_len(n, vec);
                    fb.compare(c, CmpOp::Ult, ix, n);
                    fb.brif(c, ok, out);
                }
                Some(out) => {
                    let upper = fb.create_block("upper");
                    fb.compare(c, CmpOp::Sge, ix, 0i64);
                    fb.brif(c, upper, out);
                    fb.switch_to_block(upper);
                    fb.vec_len(n, vec);
                    fb.compare(c, CmpOp::Slt, ix, n);
                    fb.brif(c, ok, out);
                }
            }
            fb.switch_to_block(ok);
            fb.get(r, vec, ix, None);
            fb.ret(Some(r.into()));
            if let Some(out) = out {
                fb.switch_to_block(out);
                fb.ret(Some(Operand::Const(-1)));
            }
        }

        // pp(v, w, x): changes the length of v.
        {
            let mut fb = mb.define_function(self.pp);
            let (vec, w, x) = (
                fb.param(0).unwrap(),
                fb.param(1).unwrap(),
                fb.param(2).unwrap(),
            );
            let (n, c, t) = (
                fb.local("n", i),
                fb.local("c", Type::BOOL),
                fb.local("t", i),
            );
            let entry = fb.create_block("entry");
            fb.switch_to_block(entry);
            match v.pp {
                0 => {
                    fb.pop(Some(t), vec);
                    fb.ret(Some(t.into()));
                }
                1 => {
                    fb.pop(None, vec);
                    fb.pop(Some(t), vec);
                    fb.vec_len(n, vec);
                    fb.binary(t, BinaryOp::Add, t, n);
                    fb.ret(Some(t.into()));
                }
                2 => {
                    fb.push(w, x);
                    fb.pop(Some(t), vec);
                    fb.ret(Some(t.into()));
                }
                _ => {
                    let have = fb.create_block("have");
                    let out = fb.create_block("out");
                    fb.vec_len(n, vec);
                    fb.compare(c, CmpOp::Sgt, n, 0i64);
                    fb.brif(c, have, out);
                    fb.switch_to_block(have);
                    fb.pop(Some(t), vec);
                    fb.ret(Some(t.into()));
                    fb.switch_to_block(out);
                    fb.ret(Some(Operand::Const(0)));
                }
            }
        }

        // bnd(x): x & 7, or a trap for x < -50.
        {
            let mut fb = mb.define_function(self.bnd);
            let x = fb.param(0).unwrap();
            let (c, r, z) = (
                fb.local("c", Type::BOOL),
                fb.local("r", i),
                fb.local("z", i),
            );
            let tmp = fb.local("tmp", vi);
            let entry = fb.create_block("entry");
            let bad = fb.create_block("bad");
            let ok = fb.create_block("ok");
            fb.switch_to_block(entry);
            fb.compare(c, CmpOp::Slt, x, -50i64);
            fb.brif(c, bad, ok);
            fb.switch_to_block(bad);
            match v.bnd {
                0 => fb.trap("bad bound"),
                1 => {
                    fb.binary(z, BinaryOp::And, x, 0i64);
                    fb.binary(r, BinaryOp::SDiv, x, z);
                    fb.ret(Some(r.into()));
                }
                _ => {
                    fb.vec_new(tmp, ElemType::Scalar(ScalarType::I64));
                    fb.pop(Some(r), tmp);
                    fb.ret(Some(r.into()));
                }
            }
            fb.switch_to_block(ok);
            fb.binary(r, BinaryOp::And, x, 7i64);
            fb.ret(Some(r.into()));
        }

        // mv(x): a new vec [x, x & 3], or a trap when x & 3 == 3.
        {
            let mut fb = mb.define_function(self.mv);
            let x = fb.param(0).unwrap();
            let (c, m, r) = (
                fb.local("c", Type::BOOL),
                fb.local("m", i),
                fb.local("r", vi),
            );
            let entry = fb.create_block("entry");
            let bad = fb.create_block("bad");
            let ok = fb.create_block("ok");
            fb.switch_to_block(entry);
            fb.vec_new(r, ElemType::Scalar(ScalarType::I64));
            fb.push(r, x);
            fb.binary(m, BinaryOp::And, x, 3i64);
            fb.compare(c, CmpOp::Eq, m, 3i64);
            fb.brif(c, bad, ok);
            fb.switch_to_block(bad);
            if v.mv == 0 {
                fb.trap("no vec");
            } else {
                fb.pop(None, r);
                fb.pop(None, r);
                fb.ret(Some(r.into()));
            }
            fb.switch_to_block(ok);
            fb.push(r, m);
            fb.ret(Some(r.into()));
        }

        // sr(s, g, x): a Big made from its parameters (read only); traps when x == 7.
        {
            let mut fb = mb.define_function(self.sr);
            let (s, g, x) = (
                fb.param(0).unwrap(),
                fb.param(1).unwrap(),
                fb.param(2).unwrap(),
            );
            let r = fb.local("r", Type::Struct(big));
            let (a, y, c) = (
                fb.local("a", Type::I32),
                fb.local("y", i),
                fb.local("c", Type::BOOL),
            );
            let t = fb.local("t", i);
            let entry = fb.create_block("entry");
            let bad = fb.create_block("bad");
            let ok = fb.create_block("ok");
            fb.switch_to_block(entry);
            fb.compare(c, CmpOp::Eq, x, 7i64);
            fb.brif(c, bad, ok);
            fb.switch_to_block(bad);
            fb.trap("bad struct");
            fb.switch_to_block(ok);
            fb.copy(r, g);
            fb.get_field(a, s, 0);
            fb.cast(t, CastOp::Sext, a);
            fb.get_field(y, g, 1);
            fb.binary(y, BinaryOp::Add, y, t);
            fb.binary(y, BinaryOp::Add, y, x);
            fb.set_field(r, 1, y);
            fb.ret(Some(r.into()));
        }

        // sw(s, g, x): writes its own copies of s and g, returns s.
        {
            let mut fb = mb.define_function(self.sw);
            let (s, g, x) = (
                fb.param(0).unwrap(),
                fb.param(1).unwrap(),
                fb.param(2).unwrap(),
            );
            let (a, w) = (fb.local("a", Type::I32), fb.local("w", Type::I32));
            let r = fb.local("r", Type::Struct(s8));
            let entry = fb.create_block("entry");
            fb.switch_to_block(entry);
            fb.cast(a, CastOp::Trunc, x);
            fb.set_field(s, 0, a);
            fb.set_field(g, 4, a);
            fb.get_field(w, g, 4);
            fb.binary(w, BinaryOp::Add, w, 1i64);
            fb.set_field(s, 1, w);
            fb.copy(r, s);
            fb.ret(Some(r.into()));
        }

        // rec(d, v): d deep; keeps, pops or pushes v on the way down.
        {
            let mut fb = mb.define_function(self.rec);
            let (d, vec) = (fb.param(0).unwrap(), fb.param(1).unwrap());
            let (c, d1, r) = (
                fb.local("c", Type::BOOL),
                fb.local("d1", i),
                fb.local("r", i),
            );
            let entry = fb.create_block("entry");
            let base = fb.create_block("base");
            let step = fb.create_block("step");
            fb.switch_to_block(entry);
            fb.compare(c, CmpOp::Sle, d, 0i64);
            fb.brif(c, base, step);
            fb.switch_to_block(base);
            fb.vec_len(r, vec);
            fb.ret(Some(r.into()));
            fb.switch_to_block(step);
            match v.rec {
                0 => {
                    fb.get(r, vec, 0i64, None);
                }
                1 => {
                    fb.pop(Some(r), vec);
                }
                _ => {
                    fb.push(vec, d);
                }
            }
            fb.binary(d1, BinaryOp::Sub, d, 1i64);
            fb.call(Some(r), self.rec, vec![d1.into(), vec.into()]);
            fb.binary(r, BinaryOp::Add, r, d);
            fb.ret(Some(r.into()));
        }

        // ev(d, v) / od(d, v): mutual recursion; od keeps, pops or pushes v.
        for (me, other, base_value) in [(self.ev, self.od, 1i64), (self.od, self.ev, 0)] {
            let mut fb = mb.define_function(me);
            let (d, vec) = (fb.param(0).unwrap(), fb.param(1).unwrap());
            let (c, d1, r) = (
                fb.local("c", Type::BOOL),
                fb.local("d1", i),
                fb.local("r", i),
            );
            let entry = fb.create_block("entry");
            let base = fb.create_block("base");
            let step = fb.create_block("step");
            fb.switch_to_block(entry);
            fb.compare(c, CmpOp::Sle, d, 0i64);
            fb.brif(c, base, step);
            fb.switch_to_block(base);
            fb.ret(Some(Operand::Const(base_value)));
            fb.switch_to_block(step);
            if me == self.od {
                match v.od {
                    0 => {
                        fb.vec_len(r, vec);
                    }
                    1 => {
                        fb.pop(None, vec);
                    }
                    _ => {
                        fb.push(vec, d);
                    }
                }
            }
            fb.binary(d1, BinaryOp::Sub, d, 1i64);
            fb.call(Some(r), other, vec![d1.into(), vec.into()]);
            fb.binary(r, BinaryOp::Add, r, base_value);
            fb.ret(Some(r.into()));
        }
    }
}

/// The statements that write the shapes.
impl FnGen<'_, '_, '_> {
    pub(super) fn mark(&mut self, name: &'static str) {
        debug_assert!(SHAPES.contains(&name), "unknown shape {name}");
        if !self.shapes.contains(&name) {
            self.shapes.push(name);
        }
    }

    /// Marks `near_miss` (true) or `positive`; true with probability 1/2 (false on byte 0).
    pub(super) fn near_or(&mut self, positive: &'static str, near_miss: &'static str) -> bool {
        let near = self.src.pick(2) == 1;
        self.mark(if near { near_miss } else { positive });
        near
    }

    fn i64_vec(&mut self) -> V {
        [V::A, V::B][self.src.pick(2)]
    }

    fn any_vec(&mut self) -> V {
        VECS[self.src.pick(6)]
    }

    /// `c0 = a op b; brif c0, next, join`, and goes on in `next`.
    fn guard(&mut self, join: Block, op: CmpOp, a: impl Into<Operand>, b: impl Into<Operand>) {
        let (c, next) = (self.l.c[0], self.block("ok"));
        self.fb.compare(c, op, a, b);
        self.fb.brif(c, next, join);
        self.fb.switch_to_block(next);
    }

    /// Ends the guarded code: `br join`, and goes on in `join`.
    fn join_at(&mut self, join: Block) {
        self.fb.br(join);
        self.fb.switch_to_block(join);
    }

    /// `head: <head>; brif (a op b), body, exit; body: <body>; br head`, going on in `exit`.
    fn while_loop(
        &mut self,
        head: impl FnOnce(&mut Self) -> (CmpOp, Operand, Operand),
        body: impl FnOnce(&mut Self),
    ) {
        let (c, head_b, body_b, exit) = (
            self.l.c[0],
            self.block("head"),
            self.block("body"),
            self.block("exit"),
        );
        self.fb.br(head_b);
        self.fb.switch_to_block(head_b);
        let (op, a, b) = head(self);
        self.fb.compare(c, op, a, b);
        self.fb.brif(c, body_b, exit);
        self.fb.switch_to_block(body_b);
        body(self);
        self.fb.br(head_b);
        self.fb.switch_to_block(exit);
    }

    /// The loop counter of the next nesting depth, if a loop may be written here.
    fn loop_counter(&self) -> Option<Local> {
        (self.loop_depth < 2).then(|| self.l.k[self.loop_depth])
    }

    /// A shape of issues 10 and 11.
    pub(super) fn new_shape(&mut self) {
        match self.src.pick(17) {
            0 => self.offset_minus_one(),
            1 => self.offset_plus_one(),
            2 => self.offset_minus_k(),
            3 => self.stride_two(),
            4 => self.count_down(),
            5 => self.constant_bounds(),
            6 => self.equal_lengths(),
            7 => self.call_effects(),
            8 => self.signed_div_rem(),
            9 => self.range_check_bound_first(),
            10 => self.set_then_get(),
            11 => self.recursion(),
            12 => self.call_in_loop(),
            13 => self.struct_call(),
            14 => self.trapping_callee_result(),
            15 => self.division_shape(),
            _ => self.masked_bound(),
        }
    }

    /// `if 0 < i && i < len(a) { a[i-1] }`; near miss `0 <= i`.
    fn offset_minus_one(&mut self) {
        let v = self.any_vec();
        let near = self.near_or("a[i-1] under 0 < i < len", "a[i-1] near miss: 0 <= i < len");
        let idx = self.index(false);
        let (n, j, vl, join) = (self.l.n, self.l.j, self.vec(v), self.block("join"));
        let lower = if near { CmpOp::Sge } else { CmpOp::Sgt };
        self.guard(join, lower, idx, 0i64);
        self.fb.vec_len(n, vl);
        self.guard(join, CmpOp::Slt, idx, n);
        self.fb.binary(j, BinaryOp::Sub, idx, 1i64);
        self.do_access(v, j.into());
        self.join_at(join);
    }

    /// `j = i + 1; if 0 <= i && j < len(a) { a[j] }` (or `a[i+1]` recomputed into another
    /// temporary); near miss `j <= len`. The index may be `i64::MAX`, where `i + 1` wraps.
    fn offset_plus_one(&mut self) {
        let v = self.any_vec();
        let near = self.near_or(
            "a[i+1] under i+1 < len (temporary)",
            "a[i+1] near miss: i+1 <= len",
        );
        let idx = self.index(false);
        let (n, j, m, vl, join) = (
            self.l.n,
            self.l.j,
            self.l.m,
            self.vec(v),
            self.block("join"),
        );
        self.guard(join, CmpOp::Sge, idx, 0i64);
        self.fb.binary(j, BinaryOp::Add, idx, 1i64);
        self.fb.vec_len(n, vl);
        if near {
            self.guard(join, CmpOp::Sle, j, n);
        } else if self.src.pick(2) == 0 {
            self.guard(join, CmpOp::Slt, j, n);
        } else {
            self.guard(join, CmpOp::Sgt, n, j);
        }
        if self.src.pick(2) == 0 {
            self.do_access(v, j.into());
        } else {
            // The same expression computed again into another temporary.
            self.fb.binary(m, BinaryOp::Add, idx, 1i64);
            self.do_access(v, m.into());
        }
        self.join_at(join);
    }

    /// `if k <= i && i < len(a) { a[i-k] }` with `k = x & 3` (non-negative); near miss
    /// `k = (x & 3) - 1`, which may be -1.
    fn offset_minus_k(&mut self) {
        let v = self.any_vec();
        let near = self.near_or(
            "a[i-k] under k <= i < len, k >= 0",
            "a[i-k] near miss: k may be negative",
        );
        let idx = self.index(false);
        let x = self.local_of(ScalarType::I64);
        let (n, j, m, vl, join) = (
            self.l.n,
            self.l.j,
            self.l.m,
            self.vec(v),
            self.block("join"),
        );
        self.fb.binary(m, BinaryOp::And, x, 3i64);
        if near {
            self.fb.binary(m, BinaryOp::Sub, m, 1i64);
        }
        self.guard(join, CmpOp::Sle, m, idx);
        self.fb.vec_len(n, vl);
        self.guard(join, CmpOp::Slt, idx, n);
        self.fb.binary(j, BinaryOp::Sub, idx, m);
        self.do_access(v, j.into());
        self.join_at(join);
    }

    /// Step 2 upward: `k = 0; while k + 1 < len(a) { a[k]; a[k+1]; k += 2 }` (near miss: the
    /// test is `k < len`), or downward: `k = len(a); while k > 1 { k -= 2; a[k]; a[k+1] }`
    /// (near miss `k > 0`).
    fn stride_two(&mut self) {
        let Some(k) = self.loop_counter() else {
            return self.access();
        };
        let v = self.any_vec();
        let down = self.src.pick(2) == 1;
        let near = if down {
            self.near_or("stride -2 under i > 1", "stride -2 near miss: i > 0")
        } else {
            self.near_or(
                "stride +2 under i+1 < len",
                "stride +2 near miss: a[i+1] under i < len",
            )
        };
        let (n, j, vl) = (self.l.n, self.l.j, self.vec(v));
        let both = move |g: &mut Self| {
            g.do_access(v, k.into());
            g.do_access(v, j.into());
        };
        if down {
            self.fb.vec_len(k, vl);
            let stop = if near { 0i64 } else { 1 };
            self.while_loop(
                |_| (CmpOp::Sgt, k.into(), stop.into()),
                |g| {
                    g.fb.binary(k, BinaryOp::Sub, k, 2i64);
                    g.fb.binary(j, BinaryOp::Add, k, 1i64);
                    both(g);
                },
            );
        } else {
            self.fb.copy(k, 0i64);
            let tested = if near { k } else { j };
            self.while_loop(
                |g| {
                    g.fb.binary(j, BinaryOp::Add, k, 1i64);
                    g.fb.vec_len(n, vl);
                    (CmpOp::Slt, tested.into(), n.into())
                },
                |g| {
                    both(g);
                    g.fb.binary(k, BinaryOp::Add, k, 2i64);
                },
            );
        }
    }

    /// `k = len(a); while k > 0 { k = k - 1; a[k] }`; near misses: `while k >= 0`, or the
    /// decrement after the access.
    fn count_down(&mut self) {
        let Some(k) = self.loop_counter() else {
            return self.access();
        };
        let v = self.any_vec();
        let near = self.near_or("count-down i = len; while i > 0", "count-down near miss");
        let late = near && self.src.pick(2) == 0;
        let vl = self.vec(v);
        self.fb.vec_len(k, vl);
        let op = if near && !late {
            CmpOp::Sge
        } else {
            CmpOp::Sgt
        };
        self.while_loop(
            |_| (op, k.into(), 0i64.into()),
            |g| {
                if late {
                    g.do_access(v, k.into());
                }
                g.fb.binary(k, BinaryOp::Sub, k, 1i64);
                if !late {
                    g.do_access(v, k.into());
                }
            },
        );
    }

    /// Constant bounds combined with lengths, four ways (each with its near miss).
    fn constant_bounds(&mut self) {
        let v = self.any_vec();
        let (n, j, vl) = (self.l.n, self.l.j, self.vec(v));
        let kc = 1 + self.src.pick(4) as i64;
        let mut choice = self.src.pick(4);
        if choice == 3 && self.loop_counter().is_none() {
            choice = 0;
        }
        let join = self.block("join");
        match choice {
            0 => {
                // len(a) >= K, i <u K (near miss: i <u K + 1).
                let near = self.near_or(
                    "constant below a known length",
                    "constant near miss: bound above the length",
                );
                let idx = self.index(false);
                self.fb.vec_len(n, vl);
                self.guard(join, CmpOp::Sge, n, kc);
                self.guard(join, CmpOp::Ult, idx, kc + near as i64);
                self.do_access(v, idx);
            }
            1 => {
                // 0 <= i < 3 (as i <u 3), len(a) >= 5: a[2*i] (near miss: len >= 4).
                let near = self.near_or(
                    "scaled index 2*i under i <u 3, len >= 5",
                    "scaled index near miss: len >= 4",
                );
                let idx = self.index(false);
                self.guard(join, CmpOp::Ult, idx, 3i64);
                self.fb.vec_len(n, vl);
                self.guard(join, CmpOp::Sge, n, 5 - near as i64);
                if self.src.pick(2) == 0 {
                    self.fb.binary(j, BinaryOp::Mul, idx, 2i64);
                } else {
                    self.fb.binary(j, BinaryOp::Shl, idx, 1i64);
                }
                self.do_access(v, j.into());
            }
            2 => {
                // a[K] accessed (so len > K), then i <u K+1 (near miss: i <u K+2).
                let near = self.near_or(
                    "index below an accessed constant",
                    "accessed constant near miss",
                );
                let idx = self.index(false);
                self.do_access(v, Operand::Const(kc));
                self.guard(join, CmpOp::Ult, idx, kc + 1 + near as i64);
                self.do_access(v, idx);
            }
            _ => {
                // if len(a) >= K { for k in 0..K { a[k] } } (near miss: 0..K+1).
                let k = self
                    .loop_counter()
                    .expect("chosen only where a loop may be written");
                let near = self.near_or(
                    "constant loop bound under a length test",
                    "constant loop bound near miss",
                );
                self.fb.vec_len(n, vl);
                self.guard(join, CmpOp::Sge, n, kc);
                self.fb.copy(k, 0i64);
                let bound = kc + near as i64;
                self.while_loop(
                    |_| (CmpOp::Slt, k.into(), bound.into()),
                    |g| {
                        g.do_access(v, k.into());
                        g.fb.binary(k, BinaryOp::Add, k, 1i64);
                    },
                );
            }
        }
        self.join_at(join);
    }

    /// Two vecs of one length: `if len(x) == len(y) && i <u len(x) { y[i] }` (near miss:
    /// `len(x) >= len(y)`); two new vecs given the same pushes (near miss: the index is the
    /// number of pushes); `n = len(a); push a; a[n]` (near miss: the push goes to the twin).
    fn equal_lengths(&mut self) {
        let (n, m) = (self.l.n, self.l.m);
        match self.src.pick(3) {
            0 => {
                let near = self.near_or(
                    "equal lengths: len(x) == len(y)",
                    "equal lengths near miss: len(x) >= len(y)",
                );
                let y = self.any_vec();
                let x = if self.src.pick(2) == 0 {
                    y.twin()
                } else {
                    self.any_vec()
                };
                let (xl, yl) = (self.vec(x), self.vec(y));
                let idx = self.index(false);
                let join = self.block("join");
                self.fb.vec_len(n, xl);
                self.fb.vec_len(m, yl);
                let op = if near { CmpOp::Sge } else { CmpOp::Eq };
                self.guard(join, op, n, m);
                self.guard(join, CmpOp::Ult, idx, n);
                self.do_access(y, idx);
                self.join_at(join);
            }
            1 => {
                let near = self.near_or(
                    "same pushes on two new vecs",
                    "same pushes near miss: index = pushes",
                );
                let (a, b) = if self.src.pick(2) == 0 {
                    (V::A, V::B)
                } else {
                    (V::S, V::T)
                };
                let pushes = 1 + self.src.pick(3);
                for w in [a, b] {
                    let (wl, elem) = (self.vec(w), self.elem_of(w));
                    self.fb.vec_new(wl, elem);
                }
                for _ in 0..pushes {
                    self.push_value(a, false);
                    self.push_value(b, false);
                }
                let k = if near { pushes } else { self.src.pick(pushes) };
                self.do_access(b, Operand::Const(k as i64));
            }
            _ => {
                let near = self.near_or(
                    "len taken before push",
                    "len before push near miss: push of the twin",
                );
                let v = self.any_vec();
                let vl = self.vec(v);
                self.fb.vec_len(n, vl);
                self.push_value(if near { v.twin() } else { v }, false);
                self.do_access(v, n.into());
            }
        }
    }

    /// `if 0 <= i < len(a) { call f(..); a[i] }`: `f` only reads `a` (`rd`) or gets no vec
    /// (`bnd`); near misses: `f` pops `a` (`pp`), or pops a copy of `a`.
    fn call_effects(&mut self) {
        let v = self.i64_vec();
        let near = self.src.pick(2) == 1;
        let variant = self.src.pick(2);
        self.mark(match (near, variant) {
            (false, 0) => "call that only reads the vec",
            (false, _) => "call without vec arguments",
            (true, 0) => "call that pops the vec (near miss)",
            (true, _) => "call through an alias that pops (near miss)",
        });
        let idx = self.index(false);
        let (n, r, vl, twin, join) = (
            self.l.n,
            self.l.r,
            self.vec(v),
            self.vec(v.twin()),
            self.block("join"),
        );
        self.fb.vec_len(n, vl);
        self.guard(join, CmpOp::Ult, idx, n);
        let x = self.operand(ScalarType::I64);
        let (f, args) = match (near, variant) {
            (false, 0) => (
                self.helpers.rd,
                vec![vl.into(), self.operand(ScalarType::I64)],
            ),
            (false, _) => (self.helpers.bnd, vec![x]),
            (true, 0) => (self.helpers.pp, vec![vl.into(), twin.into(), x]),
            (true, _) => {
                // Aliasing through a copy: the twin becomes another handle of `a`.
                self.fb.copy(twin, vl);
                (self.helpers.pp, vec![twin.into(), vl.into(), x])
            }
        };
        self.fb.call(Some(r), f, args);
        self.mix(r.into());
        self.do_access(v, idx);
        self.join_at(join);
    }

    /// `r = x & 0x7fff; k = (y & 7) + 1; q = r sdiv k; if len(a) > 0 { a[q srem len(a)] }`;
    /// near miss: `r = x` (may be negative, so the remainder may be).
    fn signed_div_rem(&mut self) {
        let v = self.any_vec();
        let near = self.near_or(
            "sdiv/srem of non-negative operands",
            "sdiv/srem near miss: dividend may be negative",
        );
        let x = self.local_of(ScalarType::I64);
        let y = self.local_of(ScalarType::I64);
        let (n, j, m, vl, join) = (
            self.l.n,
            self.l.j,
            self.l.m,
            self.vec(v),
            self.block("join"),
        );
        if near {
            self.fb.copy(j, x);
        } else {
            self.fb.binary(j, BinaryOp::And, x, 0x7fffi64);
        }
        self.fb.binary(m, BinaryOp::And, y, 7i64);
        self.fb.binary(m, BinaryOp::Add, m, 1i64);
        self.fb.binary(j, BinaryOp::SDiv, j, m);
        self.fb.vec_len(n, vl);
        self.guard(join, CmpOp::Sgt, n, 0i64);
        self.fb.binary(j, BinaryOp::SRem, j, n);
        self.do_access(v, j.into());
        self.join_at(join);
    }

    /// Divisions for `div-check-elim`, with a divisor `d = (x & 3) - c` (`c` in 0..3, so `d`
    /// may be 0, -1 or positive, and no fact bounds it away from 0) and a dividend that may be
    /// `MIN`: in a loop of 0 to 3 iterations that never assigns `d` (versioned; near miss: the
    /// loop assigns `d`, before or after the division), or under `if d > 0` (proved; near miss
    /// `d >= 0`).
    fn division_shape(&mut self) {
        let op = super::DIV_OPS[self.src.pick(4)];
        let x = self.local_of(ScalarType::I64);
        let (d, q) = (self.l.m, self.l.j);
        let c = self.src.pick(3) as i64;
        self.fb.binary(d, BinaryOp::And, x, 3i64);
        self.fb.binary(d, BinaryOp::Sub, d, c);
        let dividend = self.operand(ScalarType::I64);
        let Some(k) = self.loop_counter().filter(|_| self.src.pick(3) != 0) else {
            let near = self.near_or(
                "division under d > 0",
                "division near miss: d >= 0 lets zero through",
            );
            let join = self.block("join");
            let test = if near { CmpOp::Sge } else { CmpOp::Sgt };
            self.guard(join, test, d, 0i64);
            self.fb.binary(q, op, dividend, d);
            self.mix(q.into());
            return self.join_at(join);
        };
        let near = self.near_or(
            "division in a loop, invariant divisor",
            "division in a loop near miss: divisor assigned in the loop",
        );
        let late = self.src.pick(2) == 1;
        let trips = self.src.pick(4) as i64;
        self.fb.copy(k, 0i64);
        self.while_loop(
            |_| (CmpOp::Slt, k.into(), trips.into()),
            |g| {
                if near && !late {
                    g.fb.binary(d, BinaryOp::Sub, d, 1i64);
                }
                g.fb.binary(q, op, dividend, d);
                g.mix(q.into());
                if near && late {
                    g.fb.binary(d, BinaryOp::Add, d, 1i64);
                }
                g.fb.binary(k, BinaryOp::Add, k, 1i64);
            },
        );
    }

    /// `if <upper test> || <lower test> { trap }; <then>`: the short-circuit range check with
    /// its two tests given as (op, lhs, rhs, true-means-out-of-range).
    fn range_check(&mut self, tests: [(CmpOp, Operand, Operand, bool); 2]) {
        let (trap, second, ok) = (self.block("oob"), self.block("second"), self.block("ok"));
        for (k, (op, a, b, out_when_true)) in tests.into_iter().enumerate() {
            let (c, next) = (self.l.c[k], if k == 0 { second } else { ok });
            self.fb.compare(c, op, a, b);
            if out_when_true {
                self.fb.brif(c, trap, next);
            } else {
                self.fb.brif(c, next, trap);
            }
            self.fb.switch_to_block(next);
        }
        self.fb.switch_to_block(trap);
        self.fb.trap("index out of range");
        self.fb.switch_to_block(ok);
    }

    /// `if i >= n || i < 0 { trap }` (the bound test first), `n` a length, in the `>=` or
    /// bound-first `<=` spelling; near miss `i > n`.
    fn range_check_bound_first(&mut self) {
        let v = self.any_vec();
        let near = self.near_or(
            "range check, bound test first",
            "range check bound first near miss: i > n",
        );
        let idx = self.index(false);
        let (n, vl) = (self.l.n, self.vec(v));
        self.fb.vec_len(n, vl);
        let nl = Operand::Local(n);
        let upper = match (near, self.src.pick(2)) {
            (true, _) => (CmpOp::Sgt, idx, nl, true),
            (false, 0) => (CmpOp::Sge, idx, nl, true),
            (false, _) => (CmpOp::Sle, nl, idx, true),
        };
        let lower = if self.src.pick(2) == 0 {
            (CmpOp::Slt, idx, Operand::Const(0), true)
        } else {
            (CmpOp::Sge, idx, Operand::Const(0), false)
        };
        self.range_check([upper, lower]);
        self.do_access(v, idx);
    }

    /// `n = x & 0x7fffffff; if i < 0 || i >= n { trap }` (foldable: the mask makes the bound
    /// non-negative); near miss `n = x & -2` (may be negative). The index is then used.
    fn masked_bound(&mut self) {
        let v = self.any_vec();
        let near = self.near_or(
            "range check, masked bound",
            "range check masked near miss: bound may be negative",
        );
        let idx = self.index(false);
        let x = self.local_of(ScalarType::I64);
        let n = self.l.m;
        let mask = if near { -2i64 } else { 0x7fff_ffff };
        self.fb.binary(n, BinaryOp::And, x, mask);
        self.range_check([
            (CmpOp::Slt, idx, Operand::Const(0), true),
            (CmpOp::Sge, idx, Operand::Local(n), true),
        ]);
        self.mix(idx);
        if self.src.pick(2) == 0 {
            self.do_access(v, idx);
        }
    }

    /// `set a[k], x; y = get a[k]`; near misses: a store to `b[k]` in between, where `b` is a
    /// copy of `a` (an alias) or the twin (which may alias).
    fn set_then_get(&mut self) {
        let v = self.i64_vec();
        let near = self.src.pick(2) == 1;
        let alias = near && self.src.pick(2) == 0;
        self.mark(match (near, alias) {
            (false, _) => "set then get of the same element",
            (true, true) => "set then get near miss: store through an alias",
            (true, false) => "set then get near miss: store through the twin",
        });
        let idx = self.index(true);
        let (vl, twin, r) = (self.vec(v), self.vec(v.twin()), self.l.r);
        if alias {
            self.fb.copy(twin, vl);
        }
        let x = self.operand(ScalarType::I64);
        self.fb.set(vl, idx, None, x);
        if near {
            let z = self.operand(ScalarType::I64);
            self.fb.set(twin, idx, None, z);
        }
        self.fb.get(r, vl, idx, None);
        self.mix(r.into());
    }

    /// `if len(a) > 0 { r = call rec(d, a) (or ev); a[0] }`, `d = x & 7`: the recursion keeps
    /// the length, or (near miss, by the helper's variant) changes it.
    fn recursion(&mut self) {
        let v = self.i64_vec();
        let mutual = self.src.pick(2) == 1;
        let hv = self.helpers.variants;
        self.mark(
            match (mutual, hv.rec_changes_len(), hv.mutual_changes_len()) {
                (false, false, _) => "recursion that keeps the length",
                (false, true, _) => "recursion that changes the length (near miss)",
                (true, _, false) => "mutual recursion that keeps the length",
                (true, _, true) => "mutual recursion that changes the length (near miss)",
            },
        );
        let x = self.local_of(ScalarType::I64);
        let (n, j, r, vl, join) = (
            self.l.n,
            self.l.j,
            self.l.r,
            self.vec(v),
            self.block("join"),
        );
        let f = if mutual {
            self.helpers.ev
        } else {
            self.helpers.rec
        };
        self.fb.binary(j, BinaryOp::And, x, 7i64);
        self.fb.vec_len(n, vl);
        self.guard(join, CmpOp::Sgt, n, 0i64);
        self.fb.call(Some(r), f, vec![j.into(), vl.into()]);
        self.mix(r.into());
        if self.src.pick(2) == 0 {
            self.do_access(v, Operand::Const(0));
        } else {
            self.pop_into(v);
        }
        self.join_at(join);
    }

    /// `n = len(a); for k in 0..n { r = call f(a, k); a[k] }` with `f = rd` (reads), or (near
    /// miss) `f = pp` (pops `a`, so `k < n` no longer bounds `k` by the length).
    fn call_in_loop(&mut self) {
        let Some(k) = self.loop_counter() else {
            return self.call_stmt();
        };
        let v = self.i64_vec();
        let near = self.near_or(
            "call in a loop that only reads",
            "call in a loop that pops (near miss)",
        );
        let (n, r, vl, twin) = (self.l.n, self.l.r, self.vec(v), self.vec(v.twin()));
        let (f, args) = if near {
            (self.helpers.pp, vec![vl.into(), twin.into(), k.into()])
        } else {
            (self.helpers.rd, vec![vl.into(), k.into()])
        };
        self.fb.vec_len(n, vl);
        self.fb.copy(k, 0i64);
        self.while_loop(
            |_| (CmpOp::Slt, k.into(), n.into()),
            |g| {
                g.fb.call(Some(r), f, args);
                g.mix(r.into());
                g.do_access(v, k.into());
                g.fb.binary(k, BinaryOp::Add, k, 1i64);
            },
        );
    }

    /// `g = call sr(s, g, x)` (reads its struct parameters) or `s = call sw(s, g, x)` (writes
    /// its own copies: the caller's `g` must not change); the fields are observed after.
    fn struct_call(&mut self) {
        let writes = self.near_or(
            "struct arguments, callee reads them",
            "struct arguments, callee writes its copies",
        );
        let (s, g, ts, tg) = (self.l.s, self.l.g, self.l.ts, self.l.tg);
        let x = self.operand(ScalarType::I64);
        let to_temp = self.src.pick(2) == 1;
        let (f, dst, id) = if writes {
            (self.helpers.sw, if to_temp { ts } else { s }, self.st.s8)
        } else {
            (self.helpers.sr, if to_temp { tg } else { g }, self.st.big)
        };
        self.fb.call(Some(dst), f, vec![s.into(), g.into(), x]);
        self.observe_struct(dst, id);
        self.observe_struct(g, self.st.big);
        self.observe_struct(s, self.st.s8);
    }

    fn observe_struct(&mut self, s: Local, id: StructId) {
        for (f, ty) in self.fields(id).iter().enumerate() {
            let dst = self.scratch(*ty);
            self.fb.get_field(dst, s, f as u32);
            self.observe_local(dst, *ty);
        }
    }

    /// A callee that may trap, whose result the caller then uses: a vec (`mv`: its length and
    /// element 0, then a pop), a loop bound (`bnd`: `for k in 0..r`), or a struct (`sr`: its
    /// fields).
    fn trapping_callee_result(&mut self) {
        let x = self.operand(ScalarType::I64);
        let r = self.l.r;
        match self.src.pick(3) {
            0 => {
                self.mark("callee that may trap returns a vec, used");
                let (vr, n, mv) = (self.l.vr, self.l.n, self.helpers.mv);
                self.fb.call(Some(vr), mv, vec![x]);
                self.fb.vec_len(n, vr);
                self.mix(n.into());
                self.fb.get(r, vr, 0i64, None);
                self.mix(r.into());
                self.fb.pop(Some(r), vr);
                self.mix(r.into());
            }
            1 => {
                let bnd = self.helpers.bnd;
                self.fb.call(Some(r), bnd, vec![x]);
                let Some(k) = self.loop_counter() else {
                    return self.mix(r.into());
                };
                self.mark("callee that may trap returns a loop bound, used");
                let v = self.any_vec();
                let access = self.src.pick(2) == 0;
                self.fb.copy(k, 0i64);
                self.while_loop(
                    |_| (CmpOp::Slt, k.into(), r.into()),
                    |g| {
                        g.mix(k.into());
                        if access {
                            g.do_access(v, k.into());
                        }
                        g.fb.binary(k, BinaryOp::Add, k, 1i64);
                    },
                );
            }
            _ => {
                self.mark("callee that may trap returns a struct, used");
                let (s, g, sr) = (self.l.s, self.l.g, self.helpers.sr);
                self.fb.call(Some(g), sr, vec![s.into(), g.into(), x]);
                self.observe_struct(g, self.st.big);
            }
        }
    }
}
