//! Every trap kind is delivered as `Err(Trap)` with the right kind, message and function; the
//! host survives, and a module runs again and again, trapping or not.

mod common;

use common::{expect_trap, run, run_limits};
use poolopt_ir::{
    BinaryOp, CmpOp, ElemType, FuncId, Module, ModuleBuilder, RunLimits, ScalarType, TrapKind,
    Type, HEADER_BYTES,
};
use poolopt_jit::{ClOpt, CompiledModule, JitOptions, RunError};

const VI64: Type = Type::Vec(ElemType::Scalar(ScalarType::I64));

/// A module with one small function per trap scenario. `sel` arguments pick the trapping path
/// so the same function also returns normally.
fn trap_module() -> (Module, FuncId) {
    let mut mb = ModuleBuilder::new();
    // pop_empty(n): push n values, pop n + 1 ... when sel = 1; otherwise pop n and return.
    let pop = mb.declare_function("pop_empty", &[("sel", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(pop);
        let sel = fb.param(0).unwrap();
        let v = fb.local("v", VI64);
        let x = fb.local("x", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let e = fb.create_block("entry");
        let more = fb.create_block("more");
        let out = fb.create_block("out");
        fb.switch_to_block(e);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.push(v, 41i64);
        fb.pop(Some(x), v);
        fb.compare(c, CmpOp::Eq, sel, 1i64);
        fb.brif(c, more, out);
        fb.switch_to_block(more);
        fb.pop(Some(x), v);
        fb.br(out);
        fb.switch_to_block(out);
        fb.ret(Some(x.into()));
    }
    // index_oob(i): v = [10, 20, 30]; ret v[i]
    let oob = mb.declare_function("index_oob", &[("i", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(oob);
        let i = fb.param(0).unwrap();
        let v = fb.local("v", VI64);
        let x = fb.local("x", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        for k in [10i64, 20, 30] {
            fb.push(v, k);
        }
        fb.get(x, v, i, None);
        fb.ret(Some(x.into()));
    }
    // explicit(sel): trap "boom" when sel != 0.
    let explicit = mb.declare_function("explicit", &[("sel", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(explicit);
        let sel = fb.param(0).unwrap();
        let c = fb.local("c", Type::BOOL);
        let e = fb.create_block("entry");
        let bad = fb.create_block("bad");
        let ok = fb.create_block("ok");
        fb.switch_to_block(e);
        fb.compare(c, CmpOp::Ne, sel, 0i64);
        fb.brif(c, bad, ok);
        fb.switch_to_block(bad);
        fb.trap("boom");
        fb.switch_to_block(ok);
        fb.ret(Some(7i64.into()));
    }
    // grow(n): push n i64s, return the length.
    let grow = mb.declare_function("grow", &[("n", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(grow);
        let n = fb.param(0).unwrap();
        let v = fb.local("v", VI64);
        let i = fb.local("i", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let e = fb.create_block("entry");
        let head = fb.create_block("head");
        let body = fb.create_block("body");
        let done = fb.create_block("done");
        fb.switch_to_block(e);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.br(head);
        fb.switch_to_block(head);
        fb.compare(c, CmpOp::Slt, i, n);
        fb.brif(c, body, done);
        fb.switch_to_block(body);
        fb.push(v, i);
        fb.binary(i, BinaryOp::Add, i, 1i64);
        fb.br(head);
        fb.switch_to_block(done);
        fb.vec_len(i, v);
        fb.ret(Some(i.into()));
    }
    // after_drop(sel): 0 push after drop; 1 drop twice; 2 push to a never-assigned vec;
    // 3 pop after drop (pop_empty); 4 get after drop (index_oob); other: len after drop = 0.
    let uad = mb.declare_function("after_drop", &[("sel", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(uad);
        let sel = fb.param(0).unwrap();
        let v = fb.local("v", VI64);
        let never = fb.local("never", VI64);
        let x = fb.local("x", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let e = fb.create_block("entry");
        let blocks: Vec<_> = (0..6)
            .map(|k| fb.create_block(&format!("case{k}")))
            .collect();
        let tests: Vec<_> = (0..5)
            .map(|k| fb.create_block(&format!("test{k}")))
            .collect();
        fb.switch_to_block(e);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.push(v, 1i64);
        fb.drop_vec(v);
        fb.br(tests[0]);
        for k in 0..5 {
            fb.switch_to_block(tests[k]);
            fb.compare(c, CmpOp::Eq, sel, k as i64);
            let next = if k + 1 < 5 { tests[k + 1] } else { blocks[5] };
            fb.brif(c, blocks[k], next);
        }
        fb.switch_to_block(blocks[0]);
        fb.push(v, 2i64);
        fb.ret(Some(0i64.into()));
        fb.switch_to_block(blocks[1]);
        fb.drop_vec(v);
        fb.ret(Some(1i64.into()));
        fb.switch_to_block(blocks[2]);
        fb.push(never, 2i64);
        fb.ret(Some(2i64.into()));
        fb.switch_to_block(blocks[3]);
        fb.pop(Some(x), v);
        fb.ret(Some(x.into()));
        fb.switch_to_block(blocks[4]);
        fb.get(x, v, 0i64, None);
        fb.ret(Some(x.into()));
        fb.switch_to_block(blocks[5]);
        fb.vec_len(x, v);
        fb.ret(Some(x.into()));
    }
    // rec(n) = n == 0 ? 0 : n + rec(n - 1)
    let rec = mb.declare_function("rec", &[("n", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(rec);
        let n = fb.param(0).unwrap();
        let c = fb.local("c", Type::BOOL);
        let m = fb.local("m", Type::I64);
        let e = fb.create_block("entry");
        let base = fb.create_block("base");
        let step = fb.create_block("step");
        fb.switch_to_block(e);
        fb.compare(c, CmpOp::Eq, n, 0i64);
        fb.brif(c, base, step);
        fb.switch_to_block(base);
        fb.ret(Some(0i64.into()));
        fb.switch_to_block(step);
        fb.binary(m, BinaryOp::Sub, n, 1i64);
        fb.call(Some(m), rec, vec![m.into()]);
        fb.binary(m, BinaryOp::Add, m, n);
        fb.ret(Some(m.into()));
    }
    // spin(n): count down from n in a loop (n + 2 block entries).
    let spin = mb.declare_function("spin", &[("n", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(spin);
        let n = fb.param(0).unwrap();
        let c = fb.local("c", Type::BOOL);
        let e = fb.create_block("entry");
        let head = fb.create_block("head");
        let done = fb.create_block("done");
        fb.switch_to_block(e);
        fb.br(head);
        fb.switch_to_block(head);
        fb.binary(n, BinaryOp::Sub, n, 1i64);
        fb.compare(c, CmpOp::Sgt, n, 0i64);
        fb.brif(c, head, done);
        fb.switch_to_block(done);
        fb.ret(Some(n.into()));
    }
    // caller(sel): calls index_oob(sel) and pushes to a vec only after it returns; the trap
    // names the callee.
    let caller = mb.declare_function("caller", &[("sel", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(caller);
        let sel = fb.param(0).unwrap();
        let x = fb.local("x", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.call(Some(x), oob, vec![sel.into()]);
        fb.binary(x, BinaryOp::Add, x, 1i64);
        fb.ret(Some(x.into()));
    }
    // div(a, b) = a / b at i32.
    let div = mb.declare_function(
        "div",
        &[("a", Type::I32), ("b", Type::I32)],
        Some(Type::I32),
    );
    {
        let mut fb = mb.define_function(div);
        let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.binary(a, BinaryOp::SRem, a, b);
        fb.ret(Some(a.into()));
    }
    let m = mb.finish().unwrap();
    poolopt_ir::verify(&m).unwrap();
    (m, rec)
}

#[test]
fn pop_empty() {
    let (m, _) = trap_module();
    assert_eq!(run(&m, "pop_empty", &[0]), Ok(41));
    let t = expect_trap(run(&m, "pop_empty", &[1]), TrapKind::PopEmpty);
    assert_eq!(t.function, "pop_empty");
    assert_eq!(t.message, poolopt_ir::POP_EMPTY_MESSAGE);
}

#[test]
fn index_oob() {
    let (m, _) = trap_module();
    assert_eq!(run(&m, "index_oob", &[2]), Ok(30));
    for i in [3, -1, i64::MIN, i64::MAX] {
        let t = expect_trap(run(&m, "index_oob", &[i]), TrapKind::IndexOob);
        assert_eq!(t.message, poolopt_ir::index_oob_message(i, 3));
        assert_eq!(t.function, "index_oob");
    }
}

#[test]
fn div_zero() {
    let (m, _) = trap_module();
    assert_eq!(run(&m, "div", &[7, -2]), Ok(1));
    assert_eq!(run(&m, "div", &[i32::MIN as i64, -1]), Ok(0));
    let t = expect_trap(run(&m, "div", &[7, 0]), TrapKind::DivZero);
    assert_eq!(
        (t.function.as_str(), t.message.as_str()),
        ("div", poolopt_ir::DIV_ZERO_MESSAGE)
    );
}

#[test]
fn explicit() {
    let (m, _) = trap_module();
    assert_eq!(run(&m, "explicit", &[0]), Ok(7));
    let t = expect_trap(run(&m, "explicit", &[1]), TrapKind::Explicit);
    assert_eq!(
        (t.function.as_str(), t.message.as_str()),
        ("explicit", "boom")
    );
    assert_eq!(t.to_string(), "trap: explicit: boom in explicit");
}

#[test]
fn out_of_memory_with_a_small_limit() {
    let (m, _) = trap_module();
    // Header 24 + capacities 4, 8, 16 of i64 = 24 + 128 bytes.
    let limits = RunLimits {
        max_memory: HEADER_BYTES + 128,
        ..RunLimits::default()
    };
    assert_eq!(run_limits(&m, "grow", &[16], &limits, false), Ok(16));
    let t = expect_trap(
        run_limits(&m, "grow", &[17], &limits, false),
        TrapKind::OutOfMemory,
    );
    assert_eq!(t.message, poolopt_ir::oom_message(128, limits.max_memory));
    assert_eq!(t.function, "grow");
    // Even the header does not fit.
    let tiny = RunLimits {
        max_memory: HEADER_BYTES - 1,
        ..RunLimits::default()
    };
    expect_trap(
        run_limits(&m, "grow", &[0], &tiny, false),
        TrapKind::OutOfMemory,
    );
}

#[test]
fn growth_statistics() {
    let (m, _) = trap_module();
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    let (r, stats) = c.run_with_stats("grow", &[17], &RunLimits::default());
    assert_eq!(r, Ok(17));
    // Capacities 4, 8, 16, 32: four growths; copies of 4 + 8 + 16 elements.
    assert_eq!(stats.vec_growths, 4);
    assert_eq!(stats.bytes_allocated, HEADER_BYTES + 8 * (4 + 8 + 16 + 32));
    assert_eq!(stats.bytes_copied, 8 * (4 + 8 + 16));
}

#[test]
fn use_after_drop() {
    let (m, _) = trap_module();
    for sel in [0, 1, 2] {
        let t = expect_trap(run(&m, "after_drop", &[sel]), TrapKind::UseAfterDrop);
        assert_eq!(t.message, poolopt_ir::USE_AFTER_DROP_MESSAGE);
        assert_eq!(t.function, "after_drop");
    }
    expect_trap(run(&m, "after_drop", &[3]), TrapKind::PopEmpty);
    let t = expect_trap(run(&m, "after_drop", &[4]), TrapKind::IndexOob);
    assert_eq!(t.message, poolopt_ir::index_oob_message(0, 0));
    assert_eq!(run(&m, "after_drop", &[5]), Ok(0));
}

#[test]
fn stack_overflow_by_recursion() {
    let (m, _) = trap_module();
    // rec(999) runs at depth 1000, the default limit.
    assert_eq!(run(&m, "rec", &[999]), Ok(999 * 1000 / 2));
    let t = expect_trap(run(&m, "rec", &[1000]), TrapKind::StackOverflow);
    assert_eq!(
        (t.function.as_str(), t.message.as_str()),
        ("rec", poolopt_ir::STACK_OVERFLOW_MESSAGE)
    );
    let t = expect_trap(run(&m, "rec", &[i64::MAX]), TrapKind::StackOverflow);
    assert_eq!(t.function, "rec");
    let shallow = RunLimits {
        max_depth: 10,
        ..RunLimits::default()
    };
    assert_eq!(run_limits(&m, "rec", &[9], &shallow, false), Ok(45));
    expect_trap(
        run_limits(&m, "rec", &[10], &shallow, false),
        TrapKind::StackOverflow,
    );
    let deep = RunLimits {
        max_depth: 100_000,
        ..RunLimits::default()
    };
    assert_eq!(
        run_limits(&m, "rec", &[99_999], &deep, false),
        Ok(99_999 * 100_000 / 2)
    );
}

#[test]
fn out_of_fuel_with_fuel_compiled() {
    let (m, _) = trap_module();
    // spin(n) enters n + 1 blocks: entry, n times head... (entry, head x n, done).
    let fuel = |f| RunLimits {
        fuel: Some(f),
        ..RunLimits::default()
    };
    assert_eq!(run_limits(&m, "spin", &[10], &fuel(12), true), Ok(0));
    let t = expect_trap(
        run_limits(&m, "spin", &[10], &fuel(11), true),
        TrapKind::OutOfFuel,
    );
    assert_eq!(
        (t.function.as_str(), t.message.as_str()),
        ("spin", poolopt_ir::OUT_OF_FUEL_MESSAGE)
    );
    expect_trap(
        run_limits(&m, "spin", &[1 << 40], &fuel(1000), true),
        TrapKind::OutOfFuel,
    );
    // Fuel compiled in, no limit given: unlimited.
    assert_eq!(
        run_limits(&m, "spin", &[1000], &RunLimits::default(), true),
        Ok(0)
    );
    // A fuel limit without fuel compiled is an error, not a silent no-op.
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    assert_eq!(
        c.run("spin", &[10], &fuel(5)),
        Err(RunError::FuelNotCompiled)
    );
}

#[test]
fn a_trap_in_a_callee_unwinds_the_caller() {
    let (m, _) = trap_module();
    assert_eq!(run(&m, "caller", &[1]), Ok(21));
    let t = expect_trap(run(&m, "caller", &[5]), TrapKind::IndexOob);
    assert_eq!(t.function, "index_oob");
}

#[test]
fn runs_on_the_current_thread() {
    let (m, _) = trap_module();
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    let l = RunLimits {
        max_depth: 50,
        ..RunLimits::default()
    };
    assert!(c.required_stack(&l) >= 4 << 20);
    assert_eq!(c.run_on_current_thread("rec", &[40], &l).0, Ok(820));
    let t = expect_trap(
        c.run_on_current_thread("rec", &[50], &l).0,
        TrapKind::StackOverflow,
    );
    assert_eq!(t.function, "rec");
    let (r, stats) = c.run_on_current_thread("grow", &[5], &l);
    assert_eq!((r, stats.vec_growths), (Ok(5), 2));
    assert_eq!(
        c.run_on_current_thread("nope", &[], &l).0,
        Err(RunError::NoSuchFunction("nope".into()))
    );
}

#[test]
fn bad_entries_are_errors() {
    let (m, _) = trap_module();
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    let l = RunLimits::default();
    assert_eq!(
        c.run("nope", &[], &l),
        Err(RunError::NoSuchFunction("nope".into()))
    );
    assert!(matches!(
        c.run("rec", &[], &l),
        Err(RunError::BadArguments { .. })
    ));
    assert!(matches!(
        c.run("rec", &[1, 2], &l),
        Err(RunError::BadArguments { .. })
    ));
}

#[test]
fn a_module_runs_a_thousand_times_trapping_or_not() {
    let (m, _) = trap_module();
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        let c = CompiledModule::compile(
            &m,
            &JitOptions {
                cl_opt,
                fuel: false,
            },
        )
        .unwrap();
        let l = RunLimits::default();
        for i in 0..1000i64 {
            match i % 5 {
                0 => assert_eq!(c.run("grow", &[i], &l), Ok(i)),
                1 => {
                    expect_trap(c.run("index_oob", &[i + 3], &l), TrapKind::IndexOob);
                }
                2 => {
                    expect_trap(c.run("after_drop", &[0], &l), TrapKind::UseAfterDrop);
                }
                3 => {
                    expect_trap(c.run("rec", &[5000], &l), TrapKind::StackOverflow);
                }
                _ => assert_eq!(c.run("rec", &[i], &l), Ok(i * (i + 1) / 2)),
            }
        }
    }
}

#[test]
fn compile_and_drop_many_modules() {
    let (m, _) = trap_module();
    for _ in 0..20 {
        let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
        assert!(c.code_size() > 0);
        assert_eq!(c.run("grow", &[3], &RunLimits::default()), Ok(3));
    }
}

#[test]
#[ignore = "timing probe"]
fn run_overhead_probe() {
    let (m, _) = trap_module();
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    let l = RunLimits::default();
    let t = std::time::Instant::now();
    for _ in 0..2000 {
        c.run("explicit", &[0], &l).unwrap();
    }
    println!("per run: {:?}", t.elapsed() / 2000);
    let t = std::time::Instant::now();
    for _ in 0..2000 {
        c.run_on_current_thread("explicit", &[0], &l).0.unwrap();
    }
    println!("per run on the current thread: {:?}", t.elapsed() / 2000);
}

/// The pool `alloc` of the IR reference, from text.
const ALLOC: &str = r#"
struct S8 { a: i32, b: i32 }

fn alloc(items: vec<S8>, free: vec<i64>, v: S8) -> i64 {
    var n: i64
    var c: bool
    var i: i64
    var t0: i64
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, append
reuse:
    t0 = pop free
    i = copy t0
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    n = len items
    c = sge i, n
    brif c, bad, store
store:
    set items[i], v
    ret i
bad:
    trap "index out of range"
append:
    i = len items
    push items, v
    ret i
}

fn main(k: i64, bogus: i64) -> i64 {
    var items: vec<S8>
    var free: vec<i64>
    var s: S8
    var i: i64
    var h: i64
    var a: i32
entry:
    items = new vec<S8>
    free = new vec<i64>
    s = make S8(-1, 2)
    i = call alloc(items, free, s)
    i = call alloc(items, free, s)
    push free, bogus
    setfield s.a, -9
    i = call alloc(items, free, s)
    s = get items[i]
    a = getfield s.a
    h = sext a
    h = add h, i
    ret h
}
"#;

#[test]
fn the_reference_alloc_from_text() {
    let m = poolopt_ir::parse(ALLOC).unwrap();
    poolopt_ir::verify(&m).unwrap();
    // Reusing slot 0 stores {-9, 2} there: -9 + 0.
    assert_eq!(run(&m, "main", &[0, 0]), Ok(-9));
    assert_eq!(run(&m, "main", &[0, 1]), Ok(-8));
    let t = expect_trap(run(&m, "main", &[0, 2]), TrapKind::Explicit);
    assert_eq!(
        (t.function.as_str(), t.message.as_str()),
        ("alloc", "index out of range")
    );
    expect_trap(run(&m, "main", &[0, -1]), TrapKind::Explicit);
}

/// A recursive function's frames are sized from the lowering's estimate when it is larger
/// than the compiled frame: 16 bytes per local and per instruction, plus 512, plus each stack
/// slot's size and alignment. The run stack of `max_depth` levels is at least that many
/// estimates (a smaller estimate could let a frame that Cranelift's layout undercounts overflow
/// before the depth limit traps) and not far above it (a larger one would refuse depth limits
/// that fit). The depth is large enough for the stack to be above its 8 MiB floor.
fn assert_run_stack_follows_the_estimate(src: &str, slot_bytes: usize) {
    let m = poolopt_ir::parse(src).unwrap();
    let f = &m.funcs[m.func_by_name("rec").unwrap()];
    let estimate = slot_bytes + 16 * (f.locals.len() + f.inst_count()) + 512;
    let c = CompiledModule::compile(&m, &JitOptions::default()).unwrap();
    const DEPTH: usize = 10_000;
    let limits = RunLimits {
        max_depth: DEPTH as u32,
        ..RunLimits::default()
    };
    let stack = c.required_stack(&limits);
    // The frames of the depth limit and two more, as `frames_size` counts them, and the
    // 4 MiB the runtime functions and the entry shim get beyond the JIT frames.
    let levels = DEPTH + 2;
    const RESERVE: usize = 4 << 20;
    assert!(
        stack >= levels * estimate + RESERVE,
        "{stack} bytes for {levels} frames of at least {estimate}"
    );
    assert!(
        stack <= 2 * levels * estimate + RESERVE,
        "{stack} bytes for {levels} frames of about {estimate}"
    );
    assert!(c.run("rec", &[900], &limits).is_ok());
}

/// A chain of 200 `i64` locals: the estimate is above the compiled frame.
#[test]
fn the_run_stack_follows_the_frame_estimate() {
    const CHAIN: usize = 200;
    let mut src =
        String::from("fn rec(n: i64) -> i64 {\n    var c: bool\n    var t: i64\n    var r: i64\n");
    for k in 0..CHAIN {
        src += &format!("    var x{k}: i64\n");
    }
    src += "entry:\n    c = sle n, 0\n    brif c, base, step\nbase:\n    ret 0\nstep:\n    x0 = add n, 1\n";
    for k in 1..CHAIN {
        src += &format!("    x{k} = add x{}, {k}\n", k - 1);
    }
    src += &format!(
        "    t = sub n, 1\n    r = call rec(t)\n    r = add r, x{}\n    ret r\n}}\n",
        CHAIN - 1
    );
    assert_run_stack_follows_the_estimate(&src, 0);
}

/// Eight 256-byte struct locals copied whole (so each lives in a stack slot of its own): each
/// slot adds its size and alignment, 264 bytes, to the estimate.
#[test]
fn the_frame_estimate_counts_the_struct_slots() {
    const STRUCTS: usize = 8;
    const CHAIN: usize = 100;
    let fields: Vec<String> = (0..32).map(|f| format!("f{f}: i64")).collect();
    let mut src = format!("struct S {{ {} }}\n\n", fields.join(", "));
    src += "fn rec(n: i64) -> i64 {\n    var c: bool\n    var t: i64\n    var r: i64\n";
    for k in 0..STRUCTS {
        src += &format!("    var s{k}: S\n");
    }
    for k in 0..CHAIN {
        src += &format!("    var x{k}: i64\n");
    }
    src += "entry:\n    c = sle n, 0\n    brif c, base, step\nbase:\n    ret 0\nstep:\n    setfield s0.f1, n\n";
    for k in 1..STRUCTS {
        src += &format!("    s{k} = copy s{}\n", k - 1);
    }
    src += "    x0 = add n, 1\n";
    for k in 1..CHAIN {
        src += &format!("    x{k} = add x{}, {k}\n", k - 1);
    }
    src += &format!(
        "    t = sub n, 1\n    r = call rec(t)\n    t = getfield s{}.f1\n    r = add r, t\n    r = add r, x{}\n    ret r\n}}\n",
        STRUCTS - 1,
        CHAIN - 1
    );
    assert_run_stack_follows_the_estimate(&src, STRUCTS * (256 + 8));
}
