//! Snapshots of the code the slot pool's `alloc` and `release` lower to: CLIF (before
//! Cranelift's own optimizations) and x86-64 assembly for the fixed target
//! `x86_64-unknown-linux-gnu` with fixed flags (identical on every x86-64 host), at O0 and O2.
//! The O2 text shows the passes' effect on real code: no compare/branch for the guarded pop or
//! the element store, one unsigned compare for the pool's index check, one 8-byte load for the
//! S8 value.

mod common;

use common::*;
use poolopt::{ClOpt, OptLevel};

/// The part of an `emit` listing that belongs to function `name` (each function starts with a
/// `; function <name>` header line).
fn function_section(listing: &str, name: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in listing.lines() {
        if let Some(rest) = line.strip_prefix("; function ") {
            let this = rest.split_whitespace().next().unwrap_or_default();
            inside = this == name;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(!out.is_empty(), "no function {name} in the listing");
    out
}

#[test]
fn alloc_and_release_clif_and_asm() {
    let module = load("examples/workloads/slot_pool_8.pir");
    for level in [OptLevel::O0, OptLevel::O2] {
        let session = optimize(&module, level);
        let clif = session.emit_clif(ClOpt::Speed).unwrap();
        let asm = session.emit_asm(ClOpt::Speed).unwrap();
        assert_eq!(
            asm,
            session.emit_asm(ClOpt::Speed).unwrap(),
            "asm is deterministic"
        );
        for func in ["alloc", "release"] {
            let lvl = level.name();
            insta::assert_snapshot!(format!("clif_{func}_{lvl}"), function_section(&clif, func));
            insta::assert_snapshot!(format!("asm_{func}_{lvl}"), function_section(&asm, func));
        }
    }
}

#[test]
fn o2_removes_the_guarded_pop_check_and_folds_the_index_check() {
    let module = load("examples/workloads/slot_pool_8.pir");
    let o0 = function_section(
        &optimize(&module, OptLevel::O0)
            .emit_clif(ClOpt::Speed)
            .unwrap(),
        "alloc",
    );
    let o2 = function_section(
        &optimize(&module, OptLevel::O2)
            .emit_clif(ClOpt::Speed)
            .unwrap(),
        "alloc",
    );
    let count = |text: &str, what: &str| text.matches(what).count();
    // O0: two signed compares for the index check, plus the checks of pop and set.
    assert!(count(&o0, "icmp slt") + count(&o0, "icmp sge") >= 2, "{o0}");
    // O2: the index check is one unsigned compare and the pop/set checks are gone.
    assert_eq!(count(&o2, "icmp slt"), 0, "{o2}");
    assert!(count(&o2, "icmp uge") >= 1, "{o2}");
    assert!(
        count(&o2, "icmp") < count(&o0, "icmp"),
        "O2 should compare less than O0"
    );
}

/// The owner loops of `lifo` and `scattered` after inlining: the O2 IR (no call of `make8`,
/// `alloc` or `release` is left in them) and their x86-64 assembly.
#[test]
fn owner_loops_after_inlining_ir_and_asm() {
    let module = load("examples/workloads/slot_pool_8.pir");
    let session = optimize(&module, OptLevel::O2);
    let ir = poolopt::ir::print_module(session.module().module());
    let asm = session.emit_asm(ClOpt::Speed).unwrap();
    for owner in ["lifo_owner", "scattered_owner"] {
        let m = session.module().module();
        let id = m.func_by_name(owner).expect("the workload has its owners");
        let text = poolopt::ir::print_function(m, &m.funcs[id]);
        for helper in ["make8", "alloc", "release"] {
            assert!(
                !text.contains(&format!("call {helper}(")),
                "{owner} still calls {helper}:\n{text}"
            );
        }
        assert!(ir.contains(&text));
        insta::assert_snapshot!(format!("ir_{owner}_O2"), text);
        insta::assert_snapshot!(format!("asm_{owner}_O2"), function_section(&asm, owner));
    }
}

/// Cranelift hoists loop-invariant values while it walks the dominator tree, and forgets the
/// loop when it walks the loop's exit before its body (the children of the header's test are
/// visited second successor first). The lowering names the successor inside the loop second,
/// so `n * 13` in the body is computed once, before the loop: its `imul` lies before the loop
/// header (the target of the back edge, the one backward `jmp`). Near miss, checked by hand:
/// with the branch left as written, the `imul` stays in the body, after the header.
#[test]
fn a_loop_invariant_product_is_computed_before_the_loop() {
    let src = "fn main(n: i64) -> i64 {
    var i: i64
    var s: i64
    var t: i64
    var c: bool
entry:
    i = copy 0
    s = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    t = mul n, 13
    s = add s, t
    i = add i, 1
    br head
done:
    ret s
}
";
    let module = load_str("invariant_product", src);
    let asm = function_section(
        &optimize(&module, OptLevel::O0)
            .emit_asm(ClOpt::Speed)
            .unwrap(),
        "main",
    );
    let addr = |line: &str| -> u64 {
        let hex = line.trim().split(':').next().unwrap_or_default();
        u64::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("no address in {line:?}"))
    };
    let imul: Vec<u64> = asm
        .lines()
        .filter(|l| l.contains("imul") && l.contains("$0xd"))
        .map(addr)
        .collect();
    assert_eq!(imul.len(), 1, "one multiply by 13 expected:\n{asm}");
    let headers: Vec<u64> = asm
        .lines()
        .filter(|l| l.contains("jmp 0x"))
        .filter_map(|l| {
            let target = u64::from_str_radix(l.rsplit("0x").next()?.trim(), 16).ok()?;
            (target < addr(l)).then_some(target)
        })
        .collect();
    assert_eq!(headers.len(), 1, "one back edge expected:\n{asm}");
    assert!(
        imul[0] < headers[0],
        "the invariant multiply is inside the loop (header at {:#x}):\n{asm}",
        headers[0]
    );
}

/// A struct too large for one integer is copied through memory 16 bytes at a time (an SSE
/// load and store, x86-64's baseline), the rest in smaller pieces: a 40-byte element read by
/// `get` is two 16-byte loads and one 8-byte load, not five 8-byte loads.
#[test]
fn a_large_struct_is_copied_sixteen_bytes_at_a_time() {
    let src = "struct Q { a: i64, b: i64, c: i64, d: i64, e: i64 }

fn main(x: i64) -> i64 {
    var v: vec<Q>
    var p: Q
    var q: Q
    var y: i64
entry:
    v = new vec<Q>
    p = make Q(x, 2, 3, 4, 5)
    push v, p
    q = get v[0]
    y = getfield q.a
    ret y
}
";
    let module = load_str("large_struct_copy", src);
    let clif = function_section(
        &optimize(&module, OptLevel::O0)
            .emit_clif(ClOpt::Speed)
            .unwrap(),
        "main",
    );
    let wide = clif.lines().filter(|l| l.contains("load.i8x16")).count();
    assert_eq!(
        wide, 2,
        "two 16-byte loads expected for the 40-byte copy:\n{clif}"
    );
}

/// The trap sites of one kind share a cold trap block (its site code a block parameter), 32
/// sites to a block: 32 checked pops make one `pop_empty` trap block, 33 make two (so that the
/// register allocator never sees one block parameter merged over thousands of edges).
#[test]
fn thirty_two_trap_sites_share_one_trap_block() {
    let trap_blocks = |pops: usize| {
        let mut src = String::from("fn main(x: i64) -> i64 {\n    var v: vec<i64>\n    var y: i64\nentry:\n    v = new vec<i64>\n");
        for _ in 0..pops {
            src += "    push v, x\n";
        }
        for _ in 0..pops {
            src += "    y = pop v\n";
        }
        src += "    ret y\n}\n";
        let module = load_str("trap_sites", &src);
        let clif = function_section(
            &optimize(&module, OptLevel::O0)
                .emit_clif(ClOpt::Speed)
                .unwrap(),
            "main",
        );
        // A trap block is a cold block with parameters (here only the pops' blocks, whose one
        // parameter is the site code).
        clif.lines()
            .filter(|l| l.trim_start().starts_with("block") && l.ends_with(": i64) cold:"))
            .count()
    };
    assert_eq!(trap_blocks(32), 1);
    assert_eq!(trap_blocks(33), 2);
}

/// A loop that cannot change any vec header (no `push`, `pop`, `new`, `drop`, call or vec
/// assignment in it) has its vecs' lengths and data pointers loaded once, in the preheader:
/// from the loop header on, the CLIF loads only the element, once. Near miss (the first
/// half): the same loop with a `push` in its body reloads the header in the loop.
#[test]
fn a_loop_that_changes_no_vec_loads_the_vec_header_once_before_it() {
    let program = |body_push: &str| {
        format!(
            "fn main(n: i64) -> i64 {{
    var v: vec<i64>
    var i: i64
    var s: i64
    var t: i64
    var c: bool
entry:
    v = new vec<i64>
    push v, n
    push v, 7
    i = copy 0
    s = copy 0
    br head
head:
    c = slt i, 2
    brif c, body, done
body:
    t = get v[i]
{body_push}    s = add s, t
    i = add i, 1
    br head
done:
    ret s
}}
"
        )
    };
    // The loads from the loop header (the block two jumps pass arguments to: the preheader's
    // and the back edge) to the end of the function.
    let loads_in_loop = |src: &str| {
        let module = load_str("hoisted_header", src);
        let clif = function_section(
            &optimize(&module, OptLevel::O0)
                .emit_clif(ClOpt::None)
                .unwrap(),
            "main",
        );
        let header = clif
            .lines()
            .filter_map(|l| l.trim().strip_prefix("jump "))
            .filter_map(|j| j.split('(').next().filter(|_| j.contains('(')))
            .find(|b| clif.matches(&format!("jump {b}(")).count() >= 2)
            .unwrap_or_else(|| panic!("no loop header:\n{clif}"))
            .to_string();
        let start = clif
            .find(&format!("\n{header}("))
            .unwrap_or_else(|| panic!("no block {header}:\n{clif}"));
        (clif[start..].matches("load.").count(), clif)
    };
    let (with_push, clif) = loads_in_loop(&program("    push v, t\n"));
    assert!(with_push > 1, "the push's loop reloads the header:\n{clif}");
    let (loads, clif) = loads_in_loop(&program(""));
    assert_eq!(loads, 1, "only the element is loaded in the loop:\n{clif}");
}
