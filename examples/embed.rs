//! Embedding poolopt (docs/embedding.md walks through it): build a pool function, optimize it
//! at O2, compile it, call it in a loop through a typed entry, handle a trap. `cargo run
//! --release --example embed`.

use poolopt::{BinaryOp, CmpOp, ElemType, JitOptions, Loc, Module, ModuleBuilder};
use poolopt::{BuildErrors, OptLevel, ScalarType, Session, TrapKind, Type, VerifiedModule};

/// `fn drain(n: i64, k: i64) -> i64`: pushes n, ..., 1 onto a free list, pops k indices and
/// returns their sum (a pop from the empty list traps). `Loc`s are the front end's lines.
fn build() -> Result<Module, BuildErrors> {
    let mut mb = ModuleBuilder::new();
    let params = [("n", Type::I64), ("k", Type::I64)];
    let f = mb.declare_function("drain", &params, Some(Type::I64));
    mb.set_function_loc(f, Loc::new(1, 1));
    let mut fb = mb.define_function(f);
    let (n, k) = (fb.param(0).unwrap(), fb.param(1).unwrap());
    let elem = ElemType::Scalar(ScalarType::I64);
    let free = fb.local("free", Type::Vec(elem));
    let [sum, i] = ["sum", "i"].map(|name| fb.local(name, Type::I64));
    let more = fb.local("more", Type::BOOL);
    let [entry, fill, push, take, pop, done] =
        ["entry", "fill", "push", "take", "pop", "done"].map(|name| fb.create_block(name));
    fb.switch_to_block(entry);
    fb.vec_new(free, elem);
    fb.br(fill);
    fb.switch_to_block(fill); // while n > 0 { free.push(n); n -= 1 }
    fb.compare(more, CmpOp::Sgt, n, 0i64);
    fb.brif(more, push, take);
    fb.switch_to_block(push);
    fb.push(free, n);
    fb.binary(n, BinaryOp::Sub, n, 1i64);
    fb.br(fill);
    fb.switch_to_block(take); // while k > 0 { sum += free.pop(); k -= 1 }
    fb.compare(more, CmpOp::Sgt, k, 0i64);
    fb.brif(more, pop, done);
    fb.switch_to_block(pop);
    fb.set_loc(Loc::new(7, 16)); // the source line of the pop: traps report it
    fb.pop(Some(i), free);
    fb.binary(sum, BinaryOp::Add, sum, i);
    fb.binary(k, BinaryOp::Sub, k, 1i64);
    fb.br(take);
    fb.switch_to_block(done);
    fb.ret(Some(sum.into()));
    mb.finish()
}

fn main() -> Result<(), poolopt::Error> {
    let module = VerifiedModule::new(build()?)?;
    let session = Session::new(module).optimize_level(OptLevel::O2)?;
    let opts = JitOptions::default(); // Cranelift `speed`, no fuel checks
    let compiled = session.compile_for_entry("drain", &opts)?; // only what `drain` reaches
    let drain = compiled.entry::<(i64, i64), i64>("drain")?; // signature checked once, here
    let calls = (0..100_000).map(|c| drain.call((8 + c % 8, 8))); // no thread per call
    let total = calls.sum::<Result<i64, _>>()?; // each call pops 1..=8: 36
    assert_eq!(total, 100_000 * 36);
    let trap = drain.call((3, 4)).expect_err("popping 4 of 3 traps");
    assert_eq!((trap.kind, trap.line), (TrapKind::PopEmpty, 7));
    println!("100000 calls: total {total}; then {trap}"); // ... in drain at line 7
    Ok(())
}
