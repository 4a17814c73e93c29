//! A generator of random, well-typed poolopt IR programs for differential testing, and the
//! differential check itself ([`check`]).
//!
//! The generator reads a byte string and emits IR through the builder API while it reads
//! ([`generate`]). Every choice is one byte, and byte 0 (also what an exhausted input reads as)
//! is always the simplest choice, so shrinking the byte string (removing bytes, lowering them
//! toward 0) shrinks the program. proptest drives it with a `Vec<u8>` (tests/differential.rs),
//! cargo-fuzz with its raw input (fuzz/fuzz_targets/differential.rs).
//!
//! The programs are shaped like pool code written by a simple front end, biased toward what the
//! passes transform and their near misses: free-list pops guarded by `len > 0` (or by the length
//! of the *other* vec of the same type, or by `len >= 0`), index checks in short-circuit (two
//! branches to a trap block), bitwise (`or` of two compares), unsigned and guard-and-skip forms,
//! with a push/pop/call/redefinition of the index between the check and the access, signed
//! bounds that may be negative, off-by-one compares, `t = pop v; x = copy t` temporaries, struct
//! locals of 8 bytes (`S8`), 6 bytes (`P`, odd-sized) and 24 bytes (`Big`) with signed fields,
//! vecs of scalars and structs, calls that pass the same vec twice (aliasing), loops over
//! `0..min(len, N)`, and traps of every kind the checks can raise.
//!
//! Well-formedness: every program verifies (the caller asserts it). Boundedness: loops run at
//! most 5 times, nest at most twice, calls go only to functions defined later (no recursion)
//! and only outside doubly nested loops, so a run enters at most a few tens of thousands of
//! blocks: [`LIMITS`]' fuel never runs out (an `out_of_fuel` is reported as a generator bug).

#![allow(dead_code)]

pub mod check;
pub mod coverage;
pub mod shapes;

use poolopt::ir::{
    BinaryOp, Block, CastOp, CmpOp, ElemType, FuncId, FunctionBuilder, Local, ModuleBuilder,
    Operand, ScalarType, StructId, Type,
};
use poolopt::{Module, RunLimits};

/// The limits of every differential run: fuel that the generated programs never exhaust, a
/// small memory limit (exercised by pushes in loops), a call depth well above what they use.
pub const LIMITS: RunLimits = RunLimits {
    max_memory: 1 << 20,
    fuel: Some(1_000_000),
    max_depth: 64,
};

/// A generated program and how to run it.
#[derive(Clone, Debug)]
pub struct Case {
    pub module: Module,
    pub entry: &'static str,
    pub args: Vec<i64>,
    /// The shapes of [`shapes::SHAPES`] the program contains.
    pub shapes: Vec<&'static str>,
}

/// Reads choices from bytes; an exhausted input reads as zeros.
pub struct Src<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Src<'a> {
    pub fn new(bytes: &'a [u8]) -> Src<'a> {
        Src { bytes, pos: 0 }
    }

    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn exhausted(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// A choice in `0..n` (n > 0).
    fn pick(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }

    /// True with probability about 1/n, false on byte 0.
    fn one_in(&mut self, n: u8) -> bool {
        let b = self.byte();
        b != 0 && b.is_multiple_of(n)
    }
}

/// Interesting constants (wrapped to the operand's width when used).
const CONSTS: [i64; 16] = [
    0,
    1,
    2,
    3,
    -1,
    5,
    7,
    4,
    -2,
    100,
    -100,
    255,
    i64::MIN,
    i64::MAX,
    -128,
    65536,
];

fn wrap(ty: ScalarType, v: i64) -> i64 {
    match ty {
        ScalarType::I8 => v as i8 as i64,
        ScalarType::I16 => v as i16 as i64,
        ScalarType::I32 => v as i32 as i64,
        ScalarType::I64 => v,
        ScalarType::Bool => v & 1,
    }
}

const SAFE_OPS: [BinaryOp; 9] = [
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::And,
    BinaryOp::Or,
    BinaryOp::Xor,
    BinaryOp::Shl,
    BinaryOp::LShr,
    BinaryOp::AShr,
];
const DIV_OPS: [BinaryOp; 4] = [
    BinaryOp::SDiv,
    BinaryOp::UDiv,
    BinaryOp::SRem,
    BinaryOp::URem,
];

/// The structs of every program.
#[derive(Copy, Clone)]
struct Structs {
    /// `S8 { a: i32, b: i32 }`: 8 bytes, packable.
    s8: StructId,
    /// `P { a: i8, b: i16, c: bool }`: 6 bytes (odd-sized), packable.
    p: StructId,
    /// `Big { x: i8, y: i64, z: i16, f: bool, w: i32 }`: 24 bytes, signed fields.
    big: StructId,
}

const S8_FIELDS: [ScalarType; 2] = [ScalarType::I32, ScalarType::I32];
const P_FIELDS: [ScalarType; 3] = [ScalarType::I8, ScalarType::I16, ScalarType::Bool];
const BIG_FIELDS: [ScalarType; 5] = [
    ScalarType::I8,
    ScalarType::I64,
    ScalarType::I16,
    ScalarType::Bool,
    ScalarType::I32,
];

/// Which vec: `va`, `vb`: vec<i64>; `vs`, `vt`: vec<S8>; `vp`: vec<P>; `vg`: vec<Big>.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum V {
    A,
    B,
    S,
    T,
    P,
    G,
}

const VECS: [V; 6] = [V::A, V::B, V::S, V::T, V::P, V::G];

impl V {
    /// The other vec of the same element type (itself if there is none).
    fn twin(self) -> V {
        match self {
            V::A => V::B,
            V::B => V::A,
            V::S => V::T,
            V::T => V::S,
            other => other,
        }
    }
}

/// The locals of one generated function.
struct Locals {
    /// i64 locals; `x[0]` is a parameter (main: `x[0]`, `x[1]`).
    x: Vec<Local>,
    /// The index local.
    ix: Local,
    /// A length / bound local.
    n: Local,
    /// An i64 temporary (`t = pop v; x = copy t`).
    t: Local,
    acc: Local,
    y: [Local; 2],
    h: Local,
    z: Local,
    c: [Local; 3],
    vecs: [Local; 6],
    s: Local,
    s2: Local,
    ts: Local,
    p: Local,
    tp: Local,
    g: Local,
    tg: Local,
    /// Loop counters, one per nesting depth.
    k: [Local; 2],
    /// i64 temporaries of the shapes: an offset index (`j = i + 1`), a second bound or offset,
    /// a call result.
    j: Local,
    m: Local,
    r: Local,
    /// A vec returned by a callee.
    vr: Local,
    /// The counter of the loop back to the entry block (`entry_loop`), written nowhere else.
    e: Local,
}

const NFUNCS: usize = 3;
const FUNC_NAMES: [&str; NFUNCS] = ["main", "f1", "f2"];

/// Generates a program from `bytes`.
pub fn generate(bytes: &[u8]) -> Case {
    let mut src = Src::new(bytes);
    let mut mb = ModuleBuilder::new();
    let structs = Structs {
        s8: mb.add_struct("S8", &[("a", Type::I32), ("b", Type::I32)]),
        p: mb.add_struct("P", &[("a", Type::I8), ("b", Type::I16), ("c", Type::BOOL)]),
        big: mb.add_struct(
            "Big",
            &[
                ("x", Type::I8),
                ("y", Type::I64),
                ("z", Type::I16),
                ("f", Type::BOOL),
                ("w", Type::I32),
            ],
        ),
    };
    let vec_tys = [
        Type::Vec(ElemType::Scalar(ScalarType::I64)),
        Type::Vec(ElemType::Scalar(ScalarType::I64)),
        Type::Vec(ElemType::Struct(structs.s8)),
        Type::Vec(ElemType::Struct(structs.s8)),
        Type::Vec(ElemType::Struct(structs.p)),
        Type::Vec(ElemType::Struct(structs.big)),
    ];
    let vec_names = ["va", "vb", "vs", "vt", "vp", "vg"];
    let mut funcs = Vec::new();
    funcs.push(mb.declare_function(
        "main",
        &[("x0", Type::I64), ("x1", Type::I64)],
        Some(Type::I64),
    ));
    for name in &FUNC_NAMES[1..] {
        let mut params: Vec<(&str, Type)> = vec_names
            .iter()
            .copied()
            .zip(vec_tys.iter().copied())
            .collect();
        params.push(("x0", Type::I64));
        funcs.push(mb.declare_function(name, &params, Some(Type::I64)));
    }
    let helpers = shapes::Helpers::declare(
        &mut mb,
        structs.s8,
        structs.big,
        shapes::HelperVariants::read(&mut src),
    );
    let args = vec![
        wrap(ScalarType::I64, arg_value(&mut src)),
        wrap(ScalarType::I64, arg_value(&mut src)),
    ];
    // Bodies are generated callee-first so that the main body, which has most statements, comes
    // last in the byte string... no: main first, so the prologue sizes come first.
    let mut shapes = Vec::new();
    for (fidx, &fid) in funcs.iter().enumerate() {
        let fb = mb.define_function(fid);
        let gen = FnGen::new(fb, &mut src, structs, &funcs, helpers, fidx, vec_tys);
        for shape in gen.body() {
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
    }
    helpers.define(&mut mb, structs.s8, structs.big);
    let module = mb.finish().expect("generator misused the builder");
    Case {
        module,
        entry: "main",
        args,
        shapes,
    }
}

fn arg_value(src: &mut Src) -> i64 {
    match src.pick(4) {
        0 => src.pick(8) as i64,
        1 => src.pick(8) as i64 - 4,
        2 => CONSTS[src.pick(CONSTS.len())],
        _ => (src.byte() as i8 as i64) * 1_000_003,
    }
}

struct FnGen<'a, 'b, 'c> {
    fb: FunctionBuilder<'a>,
    src: &'b mut Src<'c>,
    st: Structs,
    funcs: Vec<FuncId>,
    helpers: shapes::Helpers,
    fidx: usize,
    l: Locals,
    /// The shapes written so far.
    shapes: Vec<&'static str>,
    nblocks: usize,
    loop_depth: usize,
    if_depth: usize,
    /// Statements left in this function (bounds the program size).
    budget: usize,
}

impl<'a, 'b, 'c> FnGen<'a, 'b, 'c> {
    fn new(
        mut fb: FunctionBuilder<'a>,
        src: &'b mut Src<'c>,
        st: Structs,
        funcs: &[FuncId],
        helpers: shapes::Helpers,
        fidx: usize,
        vec_tys: [Type; 6],
    ) -> Self {
        let main = fidx == 0;
        let mut x = vec![fb.param(0).unwrap()];
        let vecs: [Local; 6] = if main {
            x.push(fb.param(1).unwrap());
            let names = ["va", "vb", "vs", "vt", "vp", "vg"];
            std::array::from_fn(|i| fb.local(names[i], vec_tys[i]))
        } else {
            std::array::from_fn(|i| fb.param(i).unwrap())
        };
        if !main {
            x[0] = fb.param(6).unwrap();
        }
        while x.len() < 4 {
            let name = format!("x{}", x.len());
            x.push(fb.local(&name, Type::I64));
        }
        let s8 = Type::Struct(st.s8);
        let p = Type::Struct(st.p);
        let big = Type::Struct(st.big);
        let l = Locals {
            x,
            ix: fb.local("ix", Type::I64),
            n: fb.local("n", Type::I64),
            t: fb.local("t", Type::I64),
            acc: fb.local("acc", Type::I64),
            y: [fb.local("y0", Type::I32), fb.local("y1", Type::I32)],
            h: fb.local("h", Type::I16),
            z: fb.local("z", Type::I8),
            c: [
                fb.local("c0", Type::BOOL),
                fb.local("c1", Type::BOOL),
                fb.local("c2", Type::BOOL),
            ],
            vecs,
            s: fb.local("s", s8),
            s2: fb.local("s2", s8),
            ts: fb.local("ts", s8),
            p: fb.local("p", p),
            tp: fb.local("tp", p),
            g: fb.local("g", big),
            tg: fb.local("tg", big),
            k: [fb.local("k0", Type::I64), fb.local("k1", Type::I64)],
            j: fb.local("j", Type::I64),
            m: fb.local("m", Type::I64),
            r: fb.local("r", Type::I64),
            vr: fb.local("vr", vec_tys[0]),
            e: fb.local("e", Type::I64),
        };
        FnGen {
            fb,
            src,
            st,
            funcs: funcs.to_vec(),
            helpers,
            fidx,
            l,
            shapes: Vec::new(),
            nblocks: 0,
            loop_depth: 0,
            if_depth: 0,
            budget: if main { 14 } else { 8 },
        }
    }

    fn block(&mut self, hint: &str) -> Block {
        self.nblocks += 1;
        let name = format!("{hint}{}", self.nblocks);
        self.fb.create_block(&name)
    }

    fn vec(&self, v: V) -> Local {
        self.l.vecs[v as usize]
    }

    fn elem_struct(&self, v: V) -> Option<StructId> {
        match v {
            V::A | V::B => None,
            V::S | V::T => Some(self.st.s8),
            V::P => Some(self.st.p),
            V::G => Some(self.st.big),
        }
    }

    fn fields(&self, id: StructId) -> &'static [ScalarType] {
        if id == self.st.s8 {
            &S8_FIELDS
        } else if id == self.st.p {
            &P_FIELDS
        } else {
            &BIG_FIELDS
        }
    }

    /// The struct local, its temporary, for a struct type.
    fn struct_locals(&self, id: StructId) -> (Local, Local) {
        if id == self.st.s8 {
            (self.l.s, self.l.ts)
        } else if id == self.st.p {
            (self.l.p, self.l.tp)
        } else {
            (self.l.g, self.l.tg)
        }
    }

    /// Scalar locals of a type that statements may assign.
    fn scalar_locals(&self, ty: ScalarType) -> Vec<Local> {
        match ty {
            ScalarType::I64 => {
                let mut v = self.l.x.clone();
                v.push(self.l.ix);
                v
            }
            ScalarType::I32 => self.l.y.to_vec(),
            ScalarType::I16 => vec![self.l.h],
            ScalarType::I8 => vec![self.l.z],
            ScalarType::Bool => self.l.c.to_vec(),
        }
    }

    fn local_of(&mut self, ty: ScalarType) -> Local {
        let ls = self.scalar_locals(ty);
        ls[self.src.pick(ls.len())]
    }

    /// An operand of a scalar type: a local, or a constant wrapped to the type's width.
    fn operand(&mut self, ty: ScalarType) -> Operand {
        if self.src.pick(3) == 2 {
            let c = CONSTS[self.src.pick(CONSTS.len())];
            Operand::Const(wrap(ty, c))
        } else {
            Operand::Local(self.local_of(ty))
        }
    }

    /// A small non-negative or slightly negative value, mostly a valid index.
    fn small(&mut self) -> i64 {
        self.src.pick(8) as i64 - 1
    }

    fn mix(&mut self, value: Operand) {
        let acc = self.l.acc;
        self.fb.binary(acc, BinaryOp::Mul, acc, 31i64);
        self.fb.binary(acc, BinaryOp::Add, acc, value);
    }

    /// Mixes a scalar local of any type into the accumulator.
    fn observe_local(&mut self, local: Local, ty: ScalarType) {
        let t = self.l.t;
        match ty {
            ScalarType::I64 => self.mix(local.into()),
            ScalarType::Bool => {
                self.fb.cast(t, CastOp::Zext, local);
                self.mix(t.into());
            }
            _ => {
                self.fb.cast(t, CastOp::Sext, local);
                self.mix(t.into());
            }
        }
    }

    /// Writes the function; returns the shapes it contains.
    fn body(mut self) -> Vec<&'static str> {
        let entry = self.block("entry");
        self.fb.switch_to_block(entry);
        if self.fidx == 0 {
            self.prologue();
        }
        let entry_loop = self.src.one_in(5).then(|| self.src.pick(3));
        let n = 1 + self.src.pick(self.budget);
        if let Some(which) = entry_loop {
            // An `if` on another condition ends the entry block; its join then asks "not the
            // first time round?", false on the first run (locals start zeroed). The join's
            // edges are where a walk back through the entry block would meet the latch.
            let other = self.l.c[(which + 1) % 3];
            self.compare_into(other);
            self.branch_on(other);
            self.branch_on(self.l.c[which]);
        }
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt();
        }
        if let Some(which) = entry_loop {
            self.entry_latch(entry, self.l.c[which]);
        }
        self.epilogue();
        self.shapes
    }

    /// Ends the body with a loop back to the function's entry block, which the function's start
    /// also enters without any edge saying so (a miscompile class of branch threading: a walk
    /// back from the entry into its only predecessor, the latch, took the latch's condition as
    /// known on the first run too). The latch's condition is `again`, which the second `if`
    /// of the body and any `if` that reuses it read; it is false on the first run. The counter
    /// `e` is written only here, so the loop runs `trip` times (1 to 3).
    fn entry_latch(&mut self, entry: Block, again: Local) {
        let e = self.l.e;
        let trip = 1 + self.src.pick(3) as i64;
        let tail = self.block("tail");
        self.fb.binary(e, BinaryOp::Add, e, 1i64);
        self.fb.compare(again, CmpOp::Slt, e, trip);
        self.fb.brif(again, entry, tail);
        self.fb.switch_to_block(tail);
        self.mark("loop back to the entry block");
    }

    /// main: creates the vecs and fills them with a few elements.
    fn prologue(&mut self) {
        for (i, v) in VECS.iter().enumerate() {
            let vl = self.vec(*v);
            let elem = match self.elem_struct(*v) {
                None => ElemType::Scalar(ScalarType::I64),
                Some(id) => ElemType::Struct(id),
            };
            self.fb.vec_new(vl, elem);
            // The twins start out with different lengths more often than not.
            let count = (self.src.pick(6) + i) % 6;
            for _ in 0..count {
                self.push_value(*v, true);
            }
        }
    }

    fn epilogue(&mut self) {
        for x in self.l.x.clone() {
            self.observe_local(x, ScalarType::I64);
        }
        self.observe_local(self.l.ix, ScalarType::I64);
        for y in self.l.y {
            self.observe_local(y, ScalarType::I32);
        }
        self.observe_local(self.l.h, ScalarType::I16);
        self.observe_local(self.l.z, ScalarType::I8);
        for c in self.l.c {
            self.observe_local(c, ScalarType::Bool);
        }
        for v in VECS {
            let n = self.l.n;
            let vl = self.vec(v);
            self.fb.vec_len(n, vl);
            self.mix(n.into());
        }
        for id in [self.st.s8, self.st.p, self.st.big] {
            let (s, _) = self.struct_locals(id);
            for (f, ty) in self.fields(id).iter().enumerate() {
                let dst = self.scratch(*ty);
                self.fb.get_field(dst, s, f as u32);
                self.observe_local(dst, *ty);
            }
        }
        let acc = self.l.acc;
        self.fb.ret(Some(acc.into()));
    }

    /// A local of `ty` to receive a value (one of the statement-visible locals).
    fn scratch(&mut self, ty: ScalarType) -> Local {
        match ty {
            ScalarType::I64 => self.l.t,
            ScalarType::I32 => self.l.y[1],
            ScalarType::I16 => self.l.h,
            ScalarType::I8 => self.l.z,
            ScalarType::Bool => self.l.c[2],
        }
    }

    /// Pushes a value onto `v`: a small value (`init`) or an operand; for struct vecs a struct
    /// made from operands.
    fn push_value(&mut self, v: V, init: bool) {
        let vl = self.vec(v);
        match self.elem_struct(v) {
            None => {
                let val = if init {
                    Operand::Const(self.small())
                } else {
                    self.operand(ScalarType::I64)
                };
                self.fb.push(vl, val);
            }
            Some(id) => {
                let (s, _) = self.struct_locals(id);
                let fields: Vec<Operand> = self
                    .fields(id)
                    .iter()
                    .map(|ty| {
                        if init {
                            Operand::Const(wrap(*ty, self.src.pick(8) as i64 - 1))
                        } else {
                            self.operand(*ty)
                        }
                    })
                    .collect();
                self.fb.make(s, id, fields);
                self.fb.push(vl, s);
            }
        }
    }

    fn stmt(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        match self.src.pick(44) {
            0 | 1 => self.arith_i64(),
            2 => self.arith_narrow(),
            3 => self.div(),
            4 => {
                let l = self.local_of_any();
                self.observe_local(l.0, l.1);
            }
            5 | 6 => {
                let v = VECS[self.src.pick(6)];
                self.push_value(v, false);
            }
            7..=9 => self.guarded_pop(),
            10 => self.unguarded_pop(),
            11..=14 => self.access(),
            15 => self.struct_op(),
            16 => self.cast(),
            17 | 18 => self.if_stmt(),
            19..=21 => self.loop_stmt(),
            22 | 23 => self.call_stmt(),
            24 => self.explicit_trap(),
            25 => {
                if self.src.one_in(3) {
                    let v = VECS[self.src.pick(6)];
                    let vl = self.vec(v);
                    self.fb.drop_vec(vl);
                } else {
                    self.observe_len();
                }
            }
            26 => self.observe_len(),
            27..=29 => self.alloc_pattern(),
            30 => self.access(),
            31 => self.rule_shape(),
            _ => self.new_shape(),
        }
    }

    fn local_of_any(&mut self) -> (Local, ScalarType) {
        let ty = [
            ScalarType::I64,
            ScalarType::I32,
            ScalarType::I16,
            ScalarType::I8,
            ScalarType::Bool,
        ][self.src.pick(5)];
        (self.local_of(ty), ty)
    }

    fn observe_len(&mut self) {
        let v = VECS[self.src.pick(6)];
        let (n, vl) = (self.l.n, self.vec(v));
        self.fb.vec_len(n, vl);
        self.mix(n.into());
    }

    fn arith_i64(&mut self) {
        let dst = self.local_of(ScalarType::I64);
        let op = SAFE_OPS[self.src.pick(SAFE_OPS.len())];
        let a = self.operand(ScalarType::I64);
        let b = self.operand(ScalarType::I64);
        if self.src.one_in(4) {
            use poolopt::ir::UnaryOp;
            let uop = [UnaryOp::Neg, UnaryOp::Ctz, UnaryOp::Clz, UnaryOp::Popcnt][self.src.pick(4)];
            self.fb.unary(dst, uop, a);
        } else {
            self.fb.binary(dst, op, a, b);
        }
    }

    fn arith_narrow(&mut self) {
        let ty = [
            ScalarType::I32,
            ScalarType::I16,
            ScalarType::I8,
            ScalarType::Bool,
        ][self.src.pick(4)];
        let dst = self.local_of(ty);
        if ty == ScalarType::Bool {
            let op = [BinaryOp::And, BinaryOp::Or, BinaryOp::Xor][self.src.pick(3)];
            let a = self.operand(ty);
            let b = self.operand(ty);
            self.fb.binary(dst, op, a, b);
            return;
        }
        if self.src.one_in(8) {
            use poolopt::ir::UnaryOp;
            let uop = [UnaryOp::Ctz, UnaryOp::Clz, UnaryOp::Popcnt][self.src.pick(3)];
            let a = self.operand(ty);
            self.fb.unary(dst, uop, a);
            return;
        }
        let all: Vec<BinaryOp> = SAFE_OPS.iter().chain(DIV_OPS.iter()).copied().collect();
        let op = all[self.src.pick(all.len())];
        let a = self.operand(ty);
        let b = self.operand(ty);
        self.fb.binary(dst, op, a, b);
    }

    fn div(&mut self) {
        let ty = [ScalarType::I64, ScalarType::I32][self.src.pick(2)];
        let dst = self.local_of(ty);
        let op = DIV_OPS[self.src.pick(4)];
        let a = self.operand(ty);
        let b = self.operand(ty);
        self.fb.binary(dst, op, a, b);
    }

    fn cast(&mut self) {
        let (x, y, h, z, c) = (
            self.local_of(ScalarType::I64),
            self.local_of(ScalarType::I32),
            self.l.h,
            self.l.z,
            self.local_of(ScalarType::Bool),
        );
        match self.src.pick(8) {
            0 => self.fb.cast(y, CastOp::Trunc, x),
            1 => self.fb.cast(x, CastOp::Sext, y),
            2 => self.fb.cast(x, CastOp::Zext, y),
            3 => self.fb.cast(z, CastOp::Trunc, y),
            4 => self.fb.cast(h, CastOp::Sext, z),
            5 => self.fb.cast(x, CastOp::Zext, h),
            6 => self.fb.cast(c, CastOp::Trunc, x),
            _ => self.fb.cast(x, CastOp::Zext, c),
        };
    }

    fn struct_op(&mut self) {
        let id = [self.st.s8, self.st.p, self.st.big][self.src.pick(3)];
        let (s, ts) = self.struct_locals(id);
        let fields = self.fields(id);
        match self.src.pick(6) {
            0 => {
                let ops: Vec<Operand> = fields.iter().map(|t| self.operand(*t)).collect();
                self.fb.make(s, id, ops);
            }
            1 => {
                let f = self.src.pick(fields.len());
                let dst = self.local_of(fields[f]);
                self.fb.get_field(dst, s, f as u32);
            }
            2 => {
                let f = self.src.pick(fields.len());
                let val = self.operand(fields[f]);
                self.fb.set_field(s, f as u32, val);
            }
            3 => {
                // A struct temporary, the way a front end copies a value.
                let ops: Vec<Operand> = fields.iter().map(|t| self.operand(*t)).collect();
                self.fb.make(ts, id, ops);
                self.fb.copy(s, ts);
            }
            4 if id == self.st.s8 => {
                let s2 = self.l.s2;
                if self.src.pick(2) == 0 {
                    self.fb.copy(s2, s);
                } else {
                    self.fb.copy(s, s2);
                }
            }
            _ => {
                let f = self.src.pick(fields.len());
                let dst = self.scratch(fields[f]);
                self.fb.get_field(dst, s, f as u32);
                self.observe_local(dst, fields[f]);
            }
        }
    }

    /// Computes an index, mostly into `ix`; returns the operand to index with.
    fn index(&mut self, allow_direct: bool) -> Operand {
        let ix = self.l.ix;
        match self.src.pick(9) {
            0 => {
                let k = [0i64, 1, 2, 3, -1, 5][self.src.pick(6)];
                if allow_direct && self.src.pick(2) == 0 {
                    return Operand::Const(k);
                }
                self.fb.copy(ix, k);
            }
            1 => {
                let x = self.local_of(ScalarType::I64);
                self.fb.copy(ix, x);
            }
            2 => {
                let x = self.local_of(ScalarType::I64);
                self.fb.binary(ix, BinaryOp::And, x, 7i64);
            }
            3 => {
                let x = self.local_of(ScalarType::I64);
                self.fb.binary(ix, BinaryOp::SRem, x, 4i64);
            }
            4 | 5 if self.loop_depth > 0 => {
                let k = self.l.k[self.loop_depth - 1];
                if allow_direct && self.src.pick(2) == 0 {
                    return Operand::Local(k);
                }
                self.fb.copy(ix, k);
            }
            6 => {
                let v = VECS[self.src.pick(6)];
                let (n, vl) = (self.l.n, self.vec(v));
                self.fb.vec_len(n, vl);
                self.fb.binary(ix, BinaryOp::Sub, n, 1i64);
            }
            7 => {
                // An index popped from a free list: nothing bounds it.
                let free = [V::A, V::B][self.src.pick(2)];
                let (t, fl) = (self.l.t, self.vec(free));
                self.fb.pop(Some(t), fl);
                self.fb.copy(ix, t);
            }
            _ => {
                let x = self.local_of(ScalarType::I64);
                self.fb.binary(ix, BinaryOp::URem, x, 6i64);
            }
        }
        Operand::Local(ix)
    }

    /// Something that happens between a check and the access it guards (usually nothing).
    fn between(&mut self, v: V, idx: Operand) {
        match self.src.pick(12) {
            0..=5 => {}
            6 => self.push_value(v.twin(), false),
            7 => {
                let which = if self.src.pick(2) == 0 { v } else { v.twin() };
                let vl = self.vec(which);
                self.fb.pop(None, vl);
            }
            8 => self.call_stmt(),
            9 => {
                if let Operand::Local(i) = idx {
                    if i == self.l.ix {
                        self.fb.binary(i, BinaryOp::Add, i, 1i64);
                    }
                }
            }
            10 => self.push_value(v, false),
            _ => self.arith_i64(),
        }
    }

    /// An element access (get or set, whole element or one field) with one of the check forms
    /// a front end emits before it, or none.
    fn access(&mut self) {
        let v = VECS[self.src.pick(6)];
        let form = self.src.pick(9);
        let idx = self.index(form == 0);
        // The vec whose length bounds the index: usually `v`, sometimes its twin (a near miss).
        let w = if self.src.one_in(5) { v.twin() } else { v };
        let (wl, n) = (self.vec(w), self.l.n);
        let [c0, c1, c2] = self.l.c;
        // A bound: the length of `w`, or (a near miss) a signed local that may be negative.
        let bound = |g: &mut Self| {
            if g.src.one_in(6) {
                let x = g.local_of(ScalarType::I64);
                g.fb.copy(n, x);
            } else {
                g.fb.vec_len(n, wl);
            }
        };
        match form {
            0 => {
                self.between(v, idx);
                self.do_access(v, idx);
            }
            1 | 2 => {
                // Short-circuit: two branches to one trap block.
                let trap = self.block("oob");
                let upper = self.block("upper");
                let ok = self.block("ok");
                if self.src.pick(2) == 0 {
                    self.fb.compare(c0, CmpOp::Slt, idx, 0i64);
                    self.fb.brif(c0, trap, upper);
                } else {
                    self.fb.compare(c0, CmpOp::Sge, idx, 0i64);
                    self.fb.brif(c0, upper, trap);
                }
                self.fb.switch_to_block(upper);
                bound(self);
                // Off by one now and then (`i > n` lets `i == n` through).
                let op = if self.src.one_in(7) {
                    CmpOp::Sgt
                } else {
                    CmpOp::Sge
                };
                self.fb.compare(c1, op, idx, n);
                self.fb.brif(c1, trap, ok);
                self.fb.switch_to_block(trap);
                self.fb.trap("index out of range");
                self.fb.switch_to_block(ok);
                self.between(v, idx);
                self.do_access(v, idx);
            }
            3 => {
                // Bitwise: `or` of the two compares, one branch.
                let trap = self.block("oob");
                let ok = self.block("ok");
                self.fb.compare(c0, CmpOp::Slt, idx, 0i64);
                bound(self);
                self.fb.compare(c1, CmpOp::Sge, idx, n);
                self.fb.binary(c2, BinaryOp::Or, c0, c1);
                self.fb.brif(c2, trap, ok);
                self.fb.switch_to_block(trap);
                self.fb.trap("index out of range");
                self.fb.switch_to_block(ok);
                self.between(v, idx);
                self.do_access(v, idx);
            }
            4..=7 => {
                // Guard and skip: `if 0 <= i && i < n { access }`, in several spellings.
                let ok = self.block("inb");
                let join = self.block("join");
                match form {
                    4 => {
                        let upper = self.block("upper");
                        self.fb.compare(c0, CmpOp::Sge, idx, 0i64);
                        self.fb.brif(c0, upper, join);
                        self.fb.switch_to_block(upper);
                        bound(self);
                        self.fb.compare(c1, CmpOp::Slt, idx, n);
                        self.fb.brif(c1, ok, join);
                    }
                    5 => {
                        self.fb.compare(c0, CmpOp::Sge, idx, 0i64);
                        bound(self);
                        self.fb.compare(c1, CmpOp::Slt, idx, n);
                        self.fb.binary(c2, BinaryOp::And, c0, c1);
                        self.fb.brif(c2, ok, join);
                    }
                    6 => {
                        // Already folded by the front end: one unsigned compare.
                        bound(self);
                        self.fb.compare(c0, CmpOp::Ult, idx, n);
                        self.fb.brif(c0, ok, join);
                    }
                    _ => {
                        // Only an upper bound (a negative index gets through), or only
                        // `len >= 0`, which proves nothing.
                        bound(self);
                        if self.src.pick(2) == 0 {
                            self.fb.compare(c0, CmpOp::Slt, idx, n);
                        } else {
                            self.fb.compare(c0, CmpOp::Sge, n, 0i64);
                        }
                        self.fb.brif(c0, ok, join);
                    }
                }
                self.fb.switch_to_block(ok);
                self.between(v, idx);
                self.do_access(v, idx);
                self.fb.br(join);
                self.fb.switch_to_block(join);
            }
            _ => {
                // `len >= 0` or `len > k` guarding a constant or computed index.
                let ok = self.block("inb");
                let join = self.block("join");
                bound(self);
                let k = self.small();
                let op = [CmpOp::Sgt, CmpOp::Sge, CmpOp::Ugt][self.src.pick(3)];
                self.fb.compare(c0, op, n, k);
                self.fb.brif(c0, ok, join);
                self.fb.switch_to_block(ok);
                self.between(v, idx);
                self.do_access(v, idx);
                self.fb.br(join);
                self.fb.switch_to_block(join);
            }
        }
    }

    /// The access itself: a get (maybe through a temporary) or a set, of the element or of one
    /// field.
    fn do_access(&mut self, v: V, idx: Operand) {
        let vl = self.vec(v);
        match self.elem_struct(v) {
            None => match self.src.pick(4) {
                0 => {
                    let dst = self.local_of(ScalarType::I64);
                    self.fb.get(dst, vl, idx, None);
                }
                1 => {
                    let (t, dst) = (self.l.t, self.local_of(ScalarType::I64));
                    self.fb.get(t, vl, idx, None);
                    self.fb.copy(dst, t);
                    self.mix(dst.into());
                }
                _ => {
                    let val = self.operand(ScalarType::I64);
                    self.fb.set(vl, idx, None, val);
                    // Read back (store-to-load forwarding), sometimes past a push, pop or call.
                    if self.src.one_in(3) {
                        self.between(v, idx);
                        let dst = self.local_of(ScalarType::I64);
                        self.fb.get(dst, vl, idx, None);
                        self.observe_local(dst, ScalarType::I64);
                    }
                }
            },
            Some(id) => {
                let fields = self.fields(id);
                let (s, ts) = self.struct_locals(id);
                match self.src.pick(5) {
                    0 => {
                        self.fb.get(ts, vl, idx, None);
                        self.fb.copy(s, ts);
                    }
                    1 => {
                        let f = self.src.pick(fields.len());
                        let dst = self.local_of(fields[f]);
                        self.fb.get(dst, vl, idx, Some(f as u32));
                        self.observe_local(dst, fields[f]);
                    }
                    2 => {
                        let f = self.src.pick(fields.len());
                        let val = self.operand(fields[f]);
                        self.fb.set(vl, idx, Some(f as u32), val);
                    }
                    3 => {
                        self.fb.set(vl, idx, None, s);
                    }
                    _ => {
                        self.fb.get(s, vl, idx, None);
                        let f = self.src.pick(fields.len());
                        let dst = self.scratch(fields[f]);
                        self.fb.get_field(dst, s, f as u32);
                        self.observe_local(dst, fields[f]);
                    }
                }
            }
        }
    }

    /// Pops into a local through a temporary, the way a front end does.
    fn pop_into(&mut self, v: V) {
        let vl = self.vec(v);
        match self.elem_struct(v) {
            None => match self.src.pick(3) {
                0 => {
                    let (t, dst) = (self.l.t, self.local_of(ScalarType::I64));
                    self.fb.pop(Some(t), vl);
                    self.fb.copy(dst, t);
                }
                1 => {
                    let dst = self.local_of(ScalarType::I64);
                    self.fb.pop(Some(dst), vl);
                }
                _ => {
                    self.fb.pop(None, vl);
                }
            },
            Some(id) => {
                let (s, ts) = self.struct_locals(id);
                if self.src.pick(2) == 0 {
                    self.fb.pop(Some(ts), vl);
                    self.fb.copy(s, ts);
                } else {
                    self.fb.pop(Some(s), vl);
                }
            }
        }
    }

    fn unguarded_pop(&mut self) {
        let v = VECS[self.src.pick(6)];
        self.pop_into(v);
    }

    /// `if len(w) > 0 { [between]; t = pop v; x = copy t }` in several spellings.
    fn guarded_pop(&mut self) {
        let v = VECS[self.src.pick(6)];
        let w = if self.src.one_in(5) { v.twin() } else { v };
        let (n, c0, wl) = (self.l.n, self.l.c[0], self.vec(w));
        let ok = self.block("have");
        let join = self.block("join");
        self.fb.vec_len(n, wl);
        match self.src.pick(5) {
            0 => self.fb.compare(c0, CmpOp::Sgt, n, 0i64),
            1 => self.fb.compare(c0, CmpOp::Ne, n, 0i64),
            2 => self.fb.compare(c0, CmpOp::Sge, n, 1i64),
            3 => self.fb.compare(c0, CmpOp::Ugt, n, 0i64),
            _ => self.fb.compare(c0, CmpOp::Sge, n, 0i64),
        };
        self.fb.brif(c0, ok, join);
        self.fb.switch_to_block(ok);
        match self.src.pick(8) {
            0 => self.push_value(v, false),
            1 => {
                let vl = self.vec(v.twin());
                self.fb.pop(None, vl);
            }
            2 => self.call_stmt(),
            _ => {}
        }
        self.pop_into(v);
        self.fb.br(join);
        self.fb.switch_to_block(join);
    }

    /// The pool allocation shape: reuse a slot from the free list, or append.
    fn alloc_pattern(&mut self) {
        let items = [V::A, V::S, V::G, V::P][self.src.pick(4)];
        let free = if items == V::A { V::B } else { V::A };
        let (n, c0, ix, t) = (self.l.n, self.l.c[0], self.l.ix, self.l.t);
        let (il, fl) = (self.vec(items), self.vec(free));
        let reuse = self.block("reuse");
        let append = self.block("append");
        let join = self.block("join");
        self.fb.vec_len(n, fl);
        self.fb.compare(c0, CmpOp::Sgt, n, 0i64);
        self.fb.brif(c0, reuse, append);
        self.fb.switch_to_block(reuse);
        self.fb.pop(Some(t), fl);
        self.fb.copy(ix, t);
        if self.src.pick(3) == 0 {
            // A checked front end: `if i >= len(items) { trap }`.
            let bad = self.block("bad");
            let ok = self.block("ok");
            self.fb.vec_len(n, il);
            self.fb.compare(c0, CmpOp::Uge, ix, n);
            self.fb.brif(c0, bad, ok);
            self.fb.switch_to_block(bad);
            self.fb.trap("corrupt free list");
            self.fb.switch_to_block(ok);
        }
        self.do_set_value(items, ix.into());
        self.fb.br(join);
        self.fb.switch_to_block(append);
        self.fb.vec_len(ix, il);
        self.push_value(items, false);
        self.fb.br(join);
        self.fb.switch_to_block(join);
        self.mix(ix.into());
    }

    fn do_set_value(&mut self, v: V, idx: Operand) {
        let vl = self.vec(v);
        match self.elem_struct(v) {
            None => {
                let val = self.operand(ScalarType::I64);
                self.fb.set(vl, idx, None, val);
            }
            Some(id) => {
                let (s, _) = self.struct_locals(id);
                self.fb.set(vl, idx, None, s);
            }
        }
    }

    fn compare_into(&mut self, c: Local) {
        let ty = [ScalarType::I64, ScalarType::I32, ScalarType::I8][self.src.pick(3)];
        let a = self.local_of(ty);
        let b = self.operand(ty);
        let op = CmpOp::ALL[self.src.pick(CmpOp::ALL.len())];
        self.fb.compare(c, op, a, b);
    }

    fn if_stmt(&mut self) {
        if self.if_depth >= 2 {
            return self.arith_i64();
        }
        let c = self.l.c[self.src.pick(3)];
        if self.src.pick(3) != 0 {
            self.compare_into(c);
        }
        self.branch_on(c);
    }

    /// `if c { stmts } else { stmts }` on `c` as it is.
    fn branch_on(&mut self, c: Local) {
        let then_b = self.block("then");
        let else_b = self.block("else");
        let join = self.block("join");
        self.fb.brif(c, then_b, else_b);
        self.if_depth += 1;
        for b in [then_b, else_b] {
            self.fb.switch_to_block(b);
            let n = self.src.pick(4);
            for _ in 0..n {
                self.stmt();
            }
            self.fb.br(join);
        }
        self.if_depth -= 1;
        self.fb.switch_to_block(join);
    }

    fn loop_stmt(&mut self) {
        if self.loop_depth >= 2 {
            return self.access();
        }
        let k = self.l.k[self.loop_depth];
        let c = self.l.c[0];
        let trip = self.src.pick(6) as i64;
        let head = self.block("head");
        let body = self.block("body");
        let exit = self.block("exit");
        let kind = self.src.pick(3);
        match kind {
            0 => {
                self.fb.copy(k, 0i64);
                self.fb.br(head);
                self.fb.switch_to_block(head);
                self.fb.compare(c, CmpOp::Slt, k, trip);
                self.fb.brif(c, body, exit);
            }
            1 => {
                // for k in 0..min(len v, trip): the bounds-check-elim shape.
                let v = VECS[self.src.pick(6)];
                let (n, vl) = (self.l.n, self.vec(v));
                let head2 = self.block("head");
                self.fb.copy(k, 0i64);
                self.fb.br(head);
                self.fb.switch_to_block(head);
                self.fb.compare(c, CmpOp::Slt, k, trip);
                self.fb.brif(c, head2, exit);
                self.fb.switch_to_block(head2);
                self.fb.vec_len(n, vl);
                self.fb.compare(c, CmpOp::Slt, k, n);
                self.fb.brif(c, body, exit);
            }
            _ => {
                self.fb.copy(k, trip);
                self.fb.br(head);
                self.fb.switch_to_block(head);
                self.fb.compare(c, CmpOp::Sgt, k, 0i64);
                self.fb.brif(c, body, exit);
            }
        }
        self.fb.switch_to_block(body);
        if kind == 2 {
            self.fb.binary(k, BinaryOp::Sub, k, 1i64);
        }
        self.loop_depth += 1;
        let n = 1 + self.src.pick(3);
        for _ in 0..n {
            self.stmt();
        }
        self.loop_depth -= 1;
        if kind != 2 {
            self.fb.binary(k, BinaryOp::Add, k, 1i64);
        }
        self.fb.br(head);
        self.fb.switch_to_block(exit);
    }

    /// A call to a later function (none from the last one, none inside doubly nested loops),
    /// sometimes passing the same vec for both vec parameters of a type.
    fn call_stmt(&mut self) {
        if self.fidx + 1 >= NFUNCS || self.loop_depth >= 2 {
            return self.observe_len();
        }
        let callee = self.fidx + 1 + self.src.pick(NFUNCS - 1 - self.fidx);
        let mut vecs = self.l.vecs;
        match self.src.pick(4) {
            0 | 1 => {}
            2 => {
                vecs[1] = vecs[0];
                vecs[3] = vecs[2];
            }
            _ => {
                vecs.swap(0, 1);
                vecs.swap(2, 3);
            }
        }
        let mut args: Vec<Operand> = vecs.iter().map(|&l| Operand::Local(l)).collect();
        args.push(self.operand(ScalarType::I64));
        let dst = if self.src.pick(3) == 0 {
            None
        } else {
            Some(self.local_of(ScalarType::I64))
        };
        let f = self.funcs[callee];
        self.fb.call(dst, f, args);
        if let Some(d) = dst {
            self.mix(d.into());
        }
    }

    fn explicit_trap(&mut self) {
        let c = self.l.c[1];
        if self.src.pick(4) == 0 {
            self.compare_into(c);
        } else {
            // Rarely true: the run mostly goes on.
            let a = self.local_of(ScalarType::I64);
            let b = self.operand(ScalarType::I64);
            self.fb.compare(c, CmpOp::Eq, a, b);
        }
        let trap = self.block("boom");
        let cont = self.block("cont");
        self.fb.brif(c, trap, cont);
        self.fb.switch_to_block(trap);
        self.fb.trap("boom");
        self.fb.switch_to_block(cont);
    }
}

/// Shapes that reach the pass rules the other statements miss (issue 14): constant indices
/// after pushes, index, bound and vec locals reassigned between a compare and its branch or
/// after a length is known, every spelling of the zero and bound tests, and constant bounds
/// (negative, zero, positive, narrow), and the bitwise range check with its bound test either
/// way round.
impl FnGen<'_, '_, '_> {
    fn rule_shape(&mut self) {
        match self.src.pick(5) {
            0 => self.constant_index_after_pushes(),
            1 => self.reassigned_before_branch(),
            2 => self.spelled_range_check(),
            3 => self.bitwise_range_check(),
            _ => self.vec_reassigned_after_len(),
        }
    }

    /// The bitwise range check `(i < 0) | (i >= len v)` branching to a trap (or
    /// `(i >= 0) & (i < len v)` branching to the access), then `v[i]`; near miss: the bound test
    /// points the wrong way (`(i < 0) | (i < n)`, `(i >= 0) & (i >= n)`), which is no range
    /// check and must not fold to one unsigned compare (a negative `i` would then pass).
    fn bitwise_range_check(&mut self) {
        let v = VECS[self.src.pick(6)];
        let [c0, c1, c2] = self.l.c;
        let (i, n) = (self.l.ix, self.l.n);
        let x = self.local_of(ScalarType::I64);
        self.fb.copy(i, x);
        let vl = self.vec(v);
        self.fb.vec_len(n, vl);
        let near = self.near_or(
            "bitwise range check",
            "bitwise range check near miss: bound test the wrong way",
        );
        let trap = self.block("oob");
        let ok = self.block("ok");
        if self.src.pick(2) == 0 {
            self.fb.compare(c0, CmpOp::Slt, i, 0i64);
            let op = if near { CmpOp::Slt } else { CmpOp::Sge };
            self.fb.compare(c1, op, i, n);
            self.fb.binary(c2, BinaryOp::Or, c0, c1);
            self.fb.brif(c2, trap, ok);
        } else {
            self.fb.compare(c0, CmpOp::Sge, i, 0i64);
            let op = if near { CmpOp::Sge } else { CmpOp::Slt };
            self.fb.compare(c1, op, i, n);
            self.fb.binary(c2, BinaryOp::And, c0, c1);
            self.fb.brif(c2, ok, trap);
        }
        self.fb.switch_to_block(trap);
        self.fb.trap("index out of range");
        self.fb.switch_to_block(ok);
        self.do_access(v, Operand::Local(i));
    }

    fn elem_of(&self, v: V) -> ElemType {
        match self.elem_struct(v) {
            None => ElemType::Scalar(ScalarType::I64),
            Some(id) => ElemType::Struct(id),
        }
    }

    /// `push v` k times, then an access at a constant index around k (-1 and k included: near
    /// misses), sometimes with a push, pop or call between.
    fn constant_index_after_pushes(&mut self) {
        let v = VECS[self.src.pick(6)];
        let pushes = 1 + self.src.pick(3);
        for _ in 0..pushes {
            self.push_value(v, false);
        }
        let k = [-1, 0, 1, pushes as i64 - 1, pushes as i64][self.src.pick(5)];
        let idx = Operand::Const(k);
        self.between(v, idx);
        self.do_access(v, idx);
    }

    /// `c = <test of i against len v>`, then `i` (or the bound, or `v`) reassigned before
    /// `brif c`: the compare says nothing about the new value, so the check must stay.
    fn reassigned_before_branch(&mut self) {
        let v = VECS[self.src.pick(6)];
        let (ix, n, c0, vl) = (self.l.ix, self.l.n, self.l.c[0], self.vec(v));
        let x = self.local_of(ScalarType::I64);
        self.fb.copy(ix, x);
        self.fb.vec_len(n, vl);
        let ok = self.block("inb");
        let join = self.block("join");
        self.fb.compare(c0, CmpOp::Ult, ix, n);
        match self.src.pick(4) {
            0 => {
                let k = self.small();
                self.fb.copy(ix, k);
            }
            1 => {
                self.fb.binary(ix, BinaryOp::Add, ix, 1i64);
            }
            2 => {
                let twin = self.vec(v.twin());
                self.fb.copy(vl, twin);
            }
            _ => {
                let elem = self.elem_of(v);
                self.fb.vec_new(vl, elem);
            }
        }
        self.fb.brif(c0, ok, join);
        self.fb.switch_to_block(ok);
        self.do_access(v, Operand::Local(ix));
        self.fb.br(join);
        self.fb.switch_to_block(join);
    }

    /// `n = len v; c = n > 0` (so `len v > 0` is known), then `v` reassigned (a copy of its
    /// twin, or a new vec) or dropped, then a pop or a constant-index access of `v`.
    fn vec_reassigned_after_len(&mut self) {
        let v = VECS[self.src.pick(6)];
        let (n, c0, vl) = (self.l.n, self.l.c[0], self.vec(v));
        let ok = self.block("have");
        let join = self.block("join");
        self.fb.vec_len(n, vl);
        self.fb.compare(c0, CmpOp::Sgt, n, 0i64);
        self.fb.brif(c0, ok, join);
        self.fb.switch_to_block(ok);
        match self.src.pick(4) {
            0 => {
                let twin = self.vec(v.twin());
                self.fb.copy(vl, twin);
            }
            1 => {
                let elem = self.elem_of(v);
                self.fb.vec_new(vl, elem);
            }
            2 => {
                self.fb.drop_vec(vl);
            }
            _ => {}
        }
        if self.src.pick(2) == 0 {
            self.pop_into(v);
        } else {
            self.do_access(v, Operand::Const(0));
        }
        self.fb.br(join);
        self.fb.switch_to_block(join);
    }

    /// The short-circuit range check `lower(i) || upper(i, n)` branching to one trap block, with
    /// the lower test in every spelling (and the near misses `i > 0`, `i <= 0`), the bound test
    /// `>=`, `>` (near miss), `<=`/`<` with the bound first, and the bound a length, a constant
    /// local (negative, zero or positive, i64 or narrow), a constant operand, or a local
    /// reassigned in the upper block.
    fn spelled_range_check(&mut self) {
        let v = VECS[self.src.pick(6)];
        let [c0, c1, _] = self.l.c;
        let narrow = self.src.one_in(4);
        // Narrow: index and bound both i32 (the fold needs one type).
        let (i, n, nty) = if narrow {
            (self.l.y[0], self.l.y[1], ScalarType::I32)
        } else {
            (self.l.ix, self.l.n, ScalarType::I64)
        };
        let x = self.local_of(ScalarType::I64);
        if narrow {
            self.fb.cast(i, CastOp::Trunc, x);
        } else {
            self.fb.copy(i, x);
        }
        let trap = self.block("oob");
        let upper = self.block("upper");
        let ok = self.block("ok");
        // The lower test: (op, lhs, rhs, true-means-negative).
        let zero = |k: i64| Operand::Const(k);
        let il = Operand::Local(i);
        let (op, lhs, rhs, neg) = match self.src.pick(10) {
            0 => (CmpOp::Slt, il, zero(0), true),
            1 => (CmpOp::Sle, il, zero(-1), true),
            2 => (CmpOp::Sge, il, zero(0), false),
            3 => (CmpOp::Sgt, il, zero(-1), false),
            4 => (CmpOp::Sgt, zero(0), il, true),
            5 => (CmpOp::Sle, zero(0), il, false),
            6 => (CmpOp::Sge, zero(-1), il, true),
            7 => (CmpOp::Slt, zero(-1), il, false),
            // Near misses: `i > 0` is not `i >= 0`; `i <= 0` is not `i < 0`.
            8 => (CmpOp::Sgt, il, zero(0), false),
            _ => (CmpOp::Sle, il, zero(0), true),
        };
        self.fb.compare(c0, op, lhs, rhs);
        if neg {
            self.fb.brif(c0, trap, upper);
        } else {
            self.fb.brif(c0, upper, trap);
        }
        self.fb.switch_to_block(upper);
        // The bound.
        let bound: Operand = match self.src.pick(6) {
            0 | 1 if !narrow => {
                let vl = self.vec(v);
                self.fb.vec_len(n, vl);
                Operand::Local(n)
            }
            2 => Operand::Const([-5i64, -1, 0, 1, 3][self.src.pick(5)]),
            5 => {
                // The index reassigned in the upper block: no fold.
                let k = self.small();
                self.fb.copy(n, 2i64);
                self.fb.copy(i, wrap(nty, k));
                Operand::Local(n)
            }
            _ => {
                let k = [-5i64, -1, 0, 1, 3][self.src.pick(5)];
                self.fb.copy(n, k);
                Operand::Local(n)
            }
        };
        let il = Operand::Local(i);
        let (op, lhs, rhs) = match self.src.pick(6) {
            0 | 1 => (CmpOp::Sge, il, bound),
            2 => (CmpOp::Sle, bound, il),
            3 => (CmpOp::Sgt, il, bound),
            4 => (CmpOp::Slt, bound, il),
            _ => (CmpOp::Uge, il, bound),
        };
        self.fb.compare(c1, op, lhs, rhs);
        self.fb.brif(c1, trap, ok);
        self.fb.switch_to_block(trap);
        self.fb.trap("index out of range");
        self.fb.switch_to_block(ok);
        if narrow {
            let ix = self.l.ix;
            self.fb.cast(ix, CastOp::Sext, i);
            self.do_access(v, Operand::Local(ix));
        } else {
            self.do_access(v, il);
        }
    }
}
