//! Every trap kind with its message and function, the limits (memory, fuel, call depth, with a
//! deep recursion that must not touch the host stack), unchecked-operation violations, and
//! the errors for ill-formed modules and bad calls.

use poolopt_interp::{run, InterpError};
use poolopt_ir::{
    BinaryOp, Check, CmpOp, ElemType, FunctionBuilder, InstKind, Local, Module, ModuleBuilder,
    RunLimits, ScalarType, Trap, TrapKind, Type,
};

fn limits() -> RunLimits {
    RunLimits::default()
}

const VEC_I64: Type = Type::Vec(ElemType::Scalar(ScalarType::I64));

/// A module with `main() -> i64` whose single block is written by `body`, given the locals
/// `v: vec<i64>`, `x: i64`; it returns `x`.
fn main_with(body: impl FnOnce(&mut FunctionBuilder, Local, Local)) -> Module {
    let mut mb = ModuleBuilder::new();
    let main = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let v = fb.local("v", VEC_I64);
    let x = fb.local("x", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    body(&mut fb, v, x);
    fb.ret(Some(x.into()));
    mb.finish().unwrap()
}

fn expect_trap(r: Result<i64, InterpError>, kind: TrapKind, message: &str, function: &str) {
    assert_eq!(
        r,
        Err(InterpError::Trap(Trap::new(kind, message, function)))
    );
}

fn new_v(fb: &mut FunctionBuilder, v: Local) {
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
}

#[test]
fn pop_empty() {
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.pop(Some(x), v);
        fb.pop(Some(x), v);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::PopEmpty,
        poolopt_ir::POP_EMPTY_MESSAGE,
        "main",
    );
}

#[test]
fn index_oob_negative_and_past_the_end() {
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.get(x, v, -1i64, None);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::IndexOob,
        "index -1 out of bounds for length 1",
        "main",
    );
    let m = main_with(|fb, v, _| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.set(v, 1i64, None, 5i64);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::IndexOob,
        "index 1 out of bounds for length 1",
        "main",
    );
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.get(x, v, i64::MIN, None);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::IndexOob,
        &poolopt_ir::index_oob_message(i64::MIN, 0),
        "main",
    );
}

#[test]
fn div_zero_in_a_callee_names_the_callee() {
    let mut mb = ModuleBuilder::new();
    let div = mb.declare_function(
        "div",
        &[("a", Type::I64), ("b", Type::I64)],
        Some(Type::I64),
    );
    {
        let mut fb = mb.define_function(div);
        let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.binary(a, BinaryOp::SDiv, a, b);
        fb.ret(Some(a.into()));
    }
    let main = mb.declare_function("main", &[("d", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(main);
        let d = fb.param(0).unwrap();
        let r = fb.local("r", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.call(Some(r), div, vec![10i64.into(), d.into()]);
        fb.ret(Some(r.into()));
    }
    let m = mb.finish().unwrap();
    assert_eq!(run(&m, "main", &[3], &limits()), Ok(3));
    expect_trap(
        run(&m, "main", &[0], &limits()),
        TrapKind::DivZero,
        poolopt_ir::DIV_ZERO_MESSAGE,
        "div",
    );
}

#[test]
fn explicit_trap() {
    let mut mb = ModuleBuilder::new();
    let main = mb.declare_function("boom", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.trap("index out of range");
    expect_trap(
        run(&mb.finish().unwrap(), "boom", &[], &limits()),
        TrapKind::Explicit,
        "index out of range",
        "boom",
    );
}

#[test]
fn out_of_memory_on_growth_and_on_new() {
    // Header 24 + capacity 4 * 8 = 56 bytes fit; growing to 8 needs 32 more.
    let small = RunLimits {
        max_memory: 56,
        ..RunLimits::default()
    };
    let pushes = |k: i64| {
        main_with(move |fb, v, x| {
            new_v(fb, v);
            for i in 0..k {
                fb.push(v, i);
            }
            fb.vec_len(x, v);
        })
    };
    assert_eq!(run(&pushes(4), "main", &[], &small), Ok(4));
    expect_trap(
        run(&pushes(5), "main", &[], &small),
        TrapKind::OutOfMemory,
        &poolopt_ir::oom_message(32, 56),
        "main",
    );
    // A second header does not fit either.
    let m = main_with(|fb, v, _| {
        new_v(fb, v);
        fb.push(v, 1i64);
        new_v(fb, v);
    });
    expect_trap(
        run(&m, "main", &[], &small),
        TrapKind::OutOfMemory,
        &poolopt_ir::oom_message(poolopt_ir::HEADER_BYTES, 56),
        "main",
    );
    // Dropping refunds the buffer (not the header): 24 + 24 + 32 = 80.
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.drop_vec(v);
        new_v(fb, v);
        fb.push(v, 2i64);
        fb.pop(Some(x), v);
    });
    let eighty = RunLimits {
        max_memory: 80,
        ..RunLimits::default()
    };
    assert_eq!(run(&m, "main", &[], &eighty), Ok(2));
    let seventy_nine = RunLimits {
        max_memory: 79,
        ..RunLimits::default()
    };
    assert_eq!(
        run(&m, "main", &[], &seventy_nine).unwrap_err().trap_kind(),
        Some(TrapKind::OutOfMemory)
    );
}

#[test]
fn use_after_drop_and_dropped_vecs_behave_as_empty() {
    let uad = poolopt_ir::USE_AFTER_DROP_MESSAGE;
    let m = main_with(|fb, v, _| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.drop_vec(v);
        fb.push(v, 1i64);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::UseAfterDrop,
        uad,
        "main",
    );
    let m = main_with(|fb, v, _| {
        new_v(fb, v);
        fb.drop_vec(v);
        fb.drop_vec(v);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::UseAfterDrop,
        uad,
        "main",
    );
    // A never-assigned vec local behaves exactly like a dropped one.
    let m = main_with(|fb, v, _| {
        fb.push(v, 1i64);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::UseAfterDrop,
        uad,
        "main",
    );
    let m = main_with(|fb, v, _| {
        fb.drop_vec(v);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::UseAfterDrop,
        uad,
        "main",
    );
    let m = main_with(|fb, v, x| {
        fb.vec_len(x, v);
    });
    assert_eq!(run(&m, "main", &[], &limits()), Ok(0));
    let m = main_with(|fb, v, x| {
        fb.pop(Some(x), v);
    });
    assert_eq!(
        run(&m, "main", &[], &limits()).unwrap_err().trap_kind(),
        Some(TrapKind::PopEmpty)
    );
    // After a drop: len 0, get is out of bounds, pop is empty.
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.drop_vec(v);
        fb.vec_len(x, v);
    });
    assert_eq!(run(&m, "main", &[], &limits()), Ok(0));
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.push(v, 1i64);
        fb.drop_vec(v);
        fb.get(x, v, 0i64, None);
    });
    expect_trap(
        run(&m, "main", &[], &limits()),
        TrapKind::IndexOob,
        "index 0 out of bounds for length 0",
        "main",
    );
}

/// `fn count(n: i64) -> i64`: a loop of `n` iterations. Blocks entered: entry, then head
/// `n + 1` times, body `n` times, done once: `2n + 3`.
fn loop_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("count", &[("n", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let n = fb.param(0).unwrap();
    let i = fb.local("i", Type::I64);
    let c = fb.local("c", Type::BOOL);
    let entry = fb.create_block("entry");
    let head = fb.create_block("head");
    let body = fb.create_block("body");
    let done = fb.create_block("done");
    fb.switch_to_block(entry);
    fb.br(head);
    fb.switch_to_block(head);
    fb.compare(c, CmpOp::Slt, i, n);
    fb.brif(c, body, done);
    fb.switch_to_block(body);
    fb.binary(i, BinaryOp::Add, i, 1i64);
    fb.br(head);
    fb.switch_to_block(done);
    fb.ret(Some(i.into()));
    mb.finish().unwrap()
}

#[test]
fn fuel_counts_block_entries_exactly() {
    let m = loop_module();
    let fuel = |f| RunLimits {
        fuel: Some(f),
        ..RunLimits::default()
    };
    assert_eq!(run(&m, "count", &[10], &fuel(23)), Ok(10));
    expect_trap(
        run(&m, "count", &[10], &fuel(22)),
        TrapKind::OutOfFuel,
        poolopt_ir::OUT_OF_FUEL_MESSAGE,
        "count",
    );
    // Zero fuel: even the entry block cannot be entered.
    assert_eq!(
        run(&m, "count", &[0], &fuel(0)).unwrap_err().trap_kind(),
        Some(TrapKind::OutOfFuel)
    );
    assert_eq!(run(&m, "count", &[0], &fuel(3)), Ok(0));
    // An infinite loop stops.
    assert_eq!(
        run(&m, "count", &[i64::MAX], &fuel(1000))
            .unwrap_err()
            .trap_kind(),
        Some(TrapKind::OutOfFuel)
    );
}

/// `fn rec(n: i64) -> i64 { if n == 0 { ret 0 } else { ret 1 + rec(n - 1) } }`: depth `n + 1`.
fn rec_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("rec", &[("n", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let n = fb.param(0).unwrap();
    let c = fb.local("c", Type::BOOL);
    let m1 = fb.local("m1", Type::I64);
    let r = fb.local("r", Type::I64);
    let entry = fb.create_block("entry");
    let base = fb.create_block("base");
    let step = fb.create_block("step");
    fb.switch_to_block(entry);
    fb.compare(c, CmpOp::Eq, n, 0i64);
    fb.brif(c, base, step);
    fb.switch_to_block(base);
    fb.ret(Some(0i64.into()));
    fb.switch_to_block(step);
    fb.binary(m1, BinaryOp::Sub, n, 1i64);
    fb.call(Some(r), f, vec![m1.into()]);
    fb.binary(r, BinaryOp::Add, r, 1i64);
    fb.ret(Some(r.into()));
    mb.finish().unwrap()
}

#[test]
fn stack_overflow_at_the_depth_limit() {
    let m = rec_module();
    let depth = |d| RunLimits {
        max_depth: d,
        ..RunLimits::default()
    };
    assert_eq!(run(&m, "rec", &[4], &depth(5)), Ok(4));
    expect_trap(
        run(&m, "rec", &[5], &depth(5)),
        TrapKind::StackOverflow,
        poolopt_ir::STACK_OVERFLOW_MESSAGE,
        "rec",
    );
    assert_eq!(
        run(&m, "rec", &[0], &depth(0)).unwrap_err().trap_kind(),
        Some(TrapKind::StackOverflow)
    );
    // The default limit.
    let default_depth = i64::from(poolopt_ir::DEFAULT_MAX_DEPTH);
    assert_eq!(
        run(&m, "rec", &[default_depth - 1], &limits()),
        Ok(default_depth - 1)
    );
    assert_eq!(
        run(&m, "rec", &[default_depth], &limits())
            .unwrap_err()
            .trap_kind(),
        Some(TrapKind::StackOverflow)
    );
}

#[test]
fn deep_recursion_does_not_use_the_host_stack() {
    // Runs on a deliberately small host stack: the interpreter must not recurse natively.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let m = rec_module();
            let deep = RunLimits {
                max_depth: 100_000,
                ..RunLimits::default()
            };
            let ok = run(&m, "rec", &[99_999], &deep);
            let overflow = run(&m, "rec", &[100_000], &deep);
            (ok, overflow.unwrap_err().trap_kind())
        })
        .unwrap();
    let (ok, overflow) = handle.join().unwrap();
    assert_eq!(ok, Ok(99_999));
    assert_eq!(overflow, Some(TrapKind::StackOverflow));
}

#[test]
fn unchecked_operations_that_would_fail_are_reported() {
    let m = main_with(|fb, v, x| {
        new_v(fb, v);
        fb.ins(InstKind::VecPop {
            dst: Some(x),
            vec: v,
            check: Check::Unchecked,
        });
    });
    assert!(matches!(
        run(&m, "main", &[], &limits()),
        Err(InterpError::UncheckedViolation(_))
    ));
    let get = |i: i64| {
        main_with(move |fb, v, x| {
            new_v(fb, v);
            fb.push(v, 41i64);
            fb.ins(InstKind::VecGet {
                dst: x,
                vec: v,
                index: i.into(),
                field: None,
                check: Check::Unchecked,
            });
        })
    };
    assert_eq!(run(&get(0), "main", &[], &limits()), Ok(41));
    assert!(matches!(
        run(&get(1), "main", &[], &limits()),
        Err(InterpError::UncheckedViolation(_))
    ));
}

#[test]
fn bad_entries_and_arguments() {
    let m = loop_module();
    assert_eq!(
        run(&m, "nope", &[], &limits()),
        Err(InterpError::NoSuchFunction("nope".into()))
    );
    assert!(matches!(
        run(&m, "count", &[], &limits()),
        Err(InterpError::BadArguments { .. })
    ));
    // A vec parameter cannot be passed from the host.
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("v", VEC_I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.ret(Some(0i64.into()));
    assert!(matches!(
        run(&mb.finish().unwrap(), "f", &[0], &limits()),
        Err(InterpError::BadArguments { .. })
    ));
}

#[test]
fn malformed_modules_are_errors_not_panics() {
    // A block without a terminator.
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    assert!(matches!(
        run(&mb.finish().unwrap(), "f", &[], &limits()),
        Err(InterpError::Malformed(_))
    ));

    // A call with the wrong number of arguments, a getfield on a scalar, a dangling block.
    let mut mb = ModuleBuilder::new();
    let g = mb.declare_function("g", &[("a", Type::I64)], Some(Type::I64));
    {
        let mut fb = mb.define_function(g);
        let a = fb.param(0).unwrap();
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.ret(Some(a.into()));
    }
    let bad_call = mb.declare_function("bad_call", &[], Some(Type::I64));
    {
        let mut fb = mb.define_function(bad_call);
        let r = fb.local("r", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.call(Some(r), g, vec![]);
        fb.ret(Some(r.into()));
    }
    let bad_field = mb.declare_function("bad_field", &[], Some(Type::I64));
    {
        let mut fb = mb.define_function(bad_field);
        let r = fb.local("r", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.get_field(r, r, 0);
        fb.ret(Some(r.into()));
    }
    let m = mb.finish().unwrap();
    for name in ["bad_call", "bad_field"] {
        assert!(
            matches!(
                run(&m, name, &[], &limits()),
                Err(InterpError::Malformed(_))
            ),
            "{name}"
        );
    }
    // A well-formed function of the same module still runs.
    assert_eq!(run(&m, "g", &[7], &limits()), Ok(7));

    // A branch to a block that is not in the layout.
    let mut m2 = m.clone();
    let gid = m2.func_by_name("g").unwrap();
    let func = &mut m2.funcs[gid];
    let orphan = func.add_block("orphan");
    func.layout.pop();
    let entry = func.layout[0];
    func.blocks[entry].terminator = Some(poolopt_ir::Terminator::Br(orphan));
    assert!(matches!(
        run(&m2, "g", &[7], &limits()),
        Err(InterpError::Malformed(_))
    ));
}
