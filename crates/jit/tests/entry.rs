//! Typed entries (signature checked at lookup, every host scalar type, traps with lines, deep
//! recursion on a small caller stack) and lazy compilation (only the functions reachable from
//! the requested entries are compiled).

use poolopt_ir::{parse, Module, RunLimits, TrapKind};
use poolopt_jit::{ClOpt, CompiledModule, EntryError, JitError, JitOptions, RunError};

const SRC: &str = "\
fn add(x: i64, y: i32) -> i64 {
    var w: i64
entry:
    w = sext y
    x = add x, w
    ret x
}

fn narrow(a: i8, b: i16, c: bool) -> i16 {
    var w: i16
    var r: i16
entry:
    w = sext a
    r = add w, b
    brif c, neg, done
neg:
    r = sub 0, r
    br done
done:
    ret r
}

fn is_pos(x: i32) -> bool {
    var r: bool
entry:
    r = sgt x, 0
    ret r
}

fn nothing() {
entry:
    ret
}

fn get(i: i64) -> i64 {
    var v: vec<i64>
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    x = get v[i]
    ret x
}

fn down(n: i64) -> i64 {
    var c: bool
    var r: i64
entry:
    c = sle n, 0
    brif c, base, rec
base:
    ret 0
rec:
    n = sub n, 1
    r = call down(n)
    r = add r, 1
    ret r
}
";

fn module() -> Module {
    let m = parse(SRC).expect("test module parses");
    poolopt_ir::verify(&m).expect("test module verifies");
    m
}

fn both() -> Vec<CompiledModule> {
    let m = module();
    [ClOpt::None, ClOpt::Speed]
        .into_iter()
        .map(|cl_opt| {
            CompiledModule::compile(
                &m,
                &JitOptions {
                    cl_opt,
                    fuel: false,
                },
            )
            .expect("compiles")
        })
        .collect()
}

#[test]
fn typed_entries_agree_with_run() {
    for c in both() {
        let add = c.entry::<(i64, i32), i64>("add").unwrap();
        for (x, y) in [(1i64, 2i32), (-5, i32::MIN), (i64::MAX, 1)] {
            let expected = c.run("add", &[x, i64::from(y)], &RunLimits::default());
            assert_eq!(add.call((x, y)).map_err(RunError::Trap), expected);
        }
        let narrow = c.entry::<(i8, i16, bool), i16>("narrow").unwrap();
        assert_eq!(narrow.call((-3, 10, false)), Ok(7));
        assert_eq!(narrow.call((-3, 10, true)), Ok(-7));
        assert_eq!(narrow.call((i8::MIN, i16::MIN, false)), Ok(i16::MAX - 127));
        let is_pos = c.entry::<(i32,), bool>("is_pos").unwrap();
        assert_eq!(is_pos.call((5,)), Ok(true));
        assert_eq!(is_pos.call((-5,)), Ok(false));
        let nothing = c.entry::<(), ()>("nothing").unwrap();
        assert_eq!(nothing.call(()), Ok(()));
    }
}

#[test]
fn signatures_are_checked_at_lookup() {
    let c = &both()[0];
    let err = c.entry::<(i64,), i64>("add").unwrap_err();
    assert_eq!(
        err,
        EntryError::Signature {
            function: "add".into(),
            expected: "fn(i64) -> i64".into(),
            found: "fn(i64, i32) -> i64".into(),
        }
    );
    assert!(matches!(
        c.entry::<(i64, i64), i64>("add"),
        Err(EntryError::Signature { .. })
    ));
    assert!(matches!(
        c.entry::<(i64, i32), i32>("add"),
        Err(EntryError::Signature { .. })
    ));
    assert!(matches!(
        c.entry::<(i64, i32), ()>("add"),
        Err(EntryError::Signature { .. })
    ));
    assert!(matches!(
        c.entry::<(), i64>("nothing"),
        Err(EntryError::Signature { .. })
    ));
    assert!(matches!(
        c.entry::<(i32,), i64>("is_pos"),
        Err(EntryError::Signature { .. })
    ));
    assert_eq!(
        c.entry::<(), ()>("missing").unwrap_err(),
        EntryError::NoSuchFunction("missing".into())
    );
    let fuel = RunLimits {
        fuel: Some(10),
        ..RunLimits::default()
    };
    assert_eq!(
        c.entry_with_limits::<(i64,), i64>("get", &fuel)
            .unwrap_err(),
        EntryError::FuelNotCompiled
    );
    // Errors compose with `?`.
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(boxed.to_string().contains("fn(i64, i32) -> i64"));
}

#[test]
fn traps_are_results_with_lines() {
    for c in both() {
        let get = c.entry::<(i64,), i64>("get").unwrap();
        assert_eq!(get.call((0,)), Ok(7));
        let trap = get.call((1,)).unwrap_err();
        assert_eq!(trap.kind, TrapKind::IndexOob);
        assert_eq!(trap.line, 41, "the line of `x = get v[i]`");
        assert_eq!(
            trap.to_string(),
            "trap: index_oob: index 1 out of bounds for length 1 in get at line 41"
        );
        // The entry is reusable after a trap.
        assert_eq!(get.call((0,)), Ok(7));
    }
}

#[test]
fn depth_limit_keeps_a_small_caller_stack_safe() {
    let limits = RunLimits {
        max_depth: 100_000,
        ..RunLimits::default()
    };
    // 2 MiB (Rust's default for a spawned thread; compiling needs some of it) is far less than
    // 100,000 frames need: the entry switches to a stack of its own for the call, on this
    // same thread, instead of overflowing the caller's.
    const CALLER_STACK: usize = 2 << 20;
    std::thread::Builder::new()
        .stack_size(CALLER_STACK)
        .spawn(move || {
            for c in both() {
                let down = c.entry_with_limits::<(i64,), i64>("down", &limits).unwrap();
                assert!(down.required_stack() > 10 * CALLER_STACK);
                assert_eq!(down.call((50_000,)), Ok(50_000));
                let trap = down.call((200_000,)).unwrap_err();
                assert_eq!(trap.kind, TrapKind::StackOverflow);
                assert_eq!(trap.line, 45, "the line of `fn down`");
                let shallow = c.entry::<(i64,), i64>("down").unwrap();
                assert_eq!(shallow.call((10,)), Ok(10));
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn lazy_compilation_compiles_only_reachable_functions() {
    let mut m = module();
    // An unused function the JIT would reject (no blocks): a full compile fails on it, a
    // compile for `down` never looks at it.
    m.funcs.push(poolopt_ir::Function::new("broken"));
    let opts = JitOptions::default();
    assert!(matches!(
        CompiledModule::compile(&m, &opts),
        Err(JitError::Malformed { .. })
    ));
    let lazy = CompiledModule::compile_for_entry(&m, "down", &opts).unwrap();
    assert_eq!(lazy.compiled_function_count(), 1);
    assert!(lazy.is_compiled("down") && !lazy.is_compiled("add"));
    assert_eq!(lazy.run("down", &[3], &RunLimits::default()), Ok(3));
    assert_eq!(
        lazy.run("add", &[1, 2], &RunLimits::default()),
        Err(RunError::NotCompiled("add".into()))
    );
    assert_eq!(
        lazy.entry::<(i64, i32), i64>("add").unwrap_err(),
        EntryError::NotCompiled("add".into())
    );
    assert_eq!(
        lazy.run("nope", &[], &RunLimits::default()),
        Err(RunError::NoSuchFunction("nope".into()))
    );
    let two = CompiledModule::compile_for_entries(&m, &["add", "get"], &opts).unwrap();
    assert_eq!(two.compiled_function_count(), 2);
    let full = CompiledModule::compile(&module(), &opts).unwrap();
    assert_eq!(full.compiled_function_count(), 6);
    assert!(lazy.code_size() < full.code_size());
}
