//! Tests of the text parser: structure of a parsed sample, print/parse round trips, malformed
//! inputs (error kind and location), and a no-panic mutation test.

use poolopt_ir::{
    parse, print_module, BinaryOp, Check, CmpOp, ElemType, InstKind, Loc, ModuleBuilder, Operand,
    ParseErrorKind, Terminator, Type,
};

const SAMPLE: &str = r#"; comment to end of line
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
    t0 = pop free            ; checked pop; pop.unchecked exists too
    i = copy t0
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    n = len items
    c = sge i, n
    brif c, bad, store
store:
    set items[i], v          ; checked element store; set items[i].a, x writes one field
    ret i
bad:
    trap "index out of range"
append:
    i = len items
    push items, v
    ret i
}

fn main() -> i64 {
    var items: vec<S8>
    var free: vec<i64>
    var s: S8 packed         ; `packed` is set by a pass; parsed and printed
    var r: i64
    var x: i32
entry:
    items = new vec<S8>
    free = new vec<i64>
    s = make S8(1, 7)
    setfield s.b, 9
    x = getfield s.a
    r = call alloc(items, free, s)
    x = get items[0].b       ; also: s = get items[0]; get.unchecked ...; set.unchecked ...
    r = sext x
    ret r
}
"#;

/// Every instruction form, in the canonical (printed) syntax.
const ALL_FORMS: &str = r#"struct P { x: i8, y: i16, z: i64, f: bool }

struct Q { a: i32 }

fn callee(v: vec<P>, w: Q) {
    packed w
    var k: i64
entry:
    k = len v
    ret
}

fn all(a: i64, b: i32, v: vec<P>, u: vec<i64>) -> i64 {
    var c: bool
    var d: i64
    var e: i32
    var s: P
    var q: Q packed
    var n: i8
    var w: vec<i64>
entry:
    d = copy a
    d = copy -9223372036854775808
    d = neg d
    c = not c
    d = add a, 1
    d = sub a, d
    d = mul d, -3
    d = sdiv d, 7
    d = udiv d, 7
    d = srem d, 7
    d = urem d, 7
    d = sdiv.unchecked d, a
    d = udiv.unchecked d, 3
    d = srem.unchecked d, a
    d = urem.unchecked d, a
    d = and d, 255
    d = or d, 1
    d = xor d, a
    d = shl d, 3
    d = lshr d, 1
    d = ashr d, 1
    c = eq a, d
    c = ne a, d
    c = slt a, d
    c = sle a, d
    c = sgt a, d
    c = sge a, d
    c = ult a, d
    c = ule a, d
    c = ugt a, d
    c = uge a, d
    d = sext b
    e = zext c
    n = trunc d
    s = make P(1, 2, 3, 1)
    q = make Q(b)
    d = getfield s.z
    setfield s.x, n
    w = new vec<i64>
    push w, d
    push u, 5
    d = pop w
    pop w
    d = pop.unchecked u
    pop.unchecked u
    s = get v[0]
    n = get v[d].x
    s = get.unchecked v[d]
    e = getfield q.a
    set v[0], s
    set v[a].f, c
    set.unchecked v[a], s
    set.unchecked v[1].y, 4
    d = get.unchecked u[0]
    drop w
    call callee(v, q)
    d = call all(a, b, v, u)
    brif c, next, other
next:
    br done
other:
    trap "say \"hi\"\n\tback\\slash"
done:
    ret d
}
"#;

fn parse_ok(src: &str) -> poolopt_ir::Module {
    match parse(src) {
        Ok(m) => m,
        Err(e) => panic!("{}: {}\n{src}", e.loc, e),
    }
}

#[test]
fn sample_structure() {
    let m = parse_ok(SAMPLE);
    assert_eq!(m.structs.len(), 1);
    let (sid, s8) = m.structs.iter().next().unwrap();
    assert_eq!(s8.name, "S8");
    assert_eq!(s8.loc, Loc::new(2, 1));
    assert_eq!(
        s8.fields
            .iter()
            .map(|f| (f.name.as_str(), f.ty))
            .collect::<Vec<_>>(),
        vec![("a", Type::I32), ("b", Type::I32)]
    );
    assert_eq!(m.funcs.len(), 2);

    let alloc = &m.funcs[m.func_by_name("alloc").unwrap()];
    assert_eq!(alloc.loc, Loc::new(4, 1));
    assert_eq!(alloc.ret, Some(Type::I64));
    assert_eq!(alloc.params.len(), 3);
    assert_eq!(alloc.locals.len(), 7);
    let items = alloc.params[0];
    assert_eq!(alloc.locals[items].ty, Type::Vec(ElemType::Struct(sid)));
    assert_eq!(alloc.locals[items].loc, Loc::new(4, 10));
    assert_eq!(alloc.locals[alloc.params[2]].ty, Type::Struct(sid));
    let n = alloc.local_by_name("n").unwrap();
    assert_eq!(alloc.locals[n].loc, Loc::new(5, 5));
    let names: Vec<&str> = alloc
        .layout
        .iter()
        .map(|&b| alloc.blocks[b].name.as_str())
        .collect();
    assert_eq!(
        names,
        ["entry", "reuse", "check_hi", "store", "bad", "append"]
    );
    let entry = alloc.entry().unwrap();
    assert_eq!(alloc.blocks[entry].loc, Loc::new(9, 1));
    assert_eq!(alloc.blocks[entry].insts.len(), 2);
    let first = alloc.blocks[entry].insts[0];
    assert_eq!(alloc.insts[first].loc, Loc::new(10, 5));
    assert_eq!(
        alloc.insts[first].kind,
        InstKind::VecLen {
            dst: n,
            vec: alloc.params[1]
        }
    );
    let c = alloc.local_by_name("c").unwrap();
    assert_eq!(
        alloc.insts[alloc.blocks[entry].insts[1]].kind,
        InstKind::Compare {
            dst: c,
            op: CmpOp::Sgt,
            lhs: Operand::Local(n),
            rhs: Operand::Const(0)
        }
    );
    // `brif c, reuse, append` refers to blocks defined after it.
    assert_eq!(
        alloc.blocks[entry].terminator,
        Some(Terminator::BrIf {
            cond: Operand::Local(c),
            then_block: alloc.block_by_name("reuse").unwrap(),
            else_block: alloc.block_by_name("append").unwrap(),
        })
    );
    assert_eq!(alloc.blocks[entry].term_loc, Loc::new(12, 5));
    let reuse = alloc.block_by_name("reuse").unwrap();
    assert!(matches!(
        alloc.insts[alloc.blocks[reuse].insts[0]].kind,
        InstKind::VecPop {
            dst: Some(_),
            check: Check::Checked,
            ..
        }
    ));
    let bad = alloc.block_by_name("bad").unwrap();
    assert_eq!(
        alloc.blocks[bad].terminator,
        Some(Terminator::Trap("index out of range".into()))
    );

    let main = &m.funcs[m.func_by_name("main").unwrap()];
    assert!(main.params.is_empty());
    let s = main.local_by_name("s").unwrap();
    assert!(main.locals[s].packed);
    let entry = main.entry().unwrap();
    let kinds: Vec<&InstKind> = main.blocks[entry]
        .insts
        .iter()
        .map(|&i| &main.insts[i].kind)
        .collect();
    assert_eq!(
        *kinds[2],
        InstKind::Make {
            dst: s,
            ty: sid,
            fields: vec![Operand::Const(1), Operand::Const(7)]
        }
    );
    assert_eq!(
        *kinds[3],
        InstKind::SetField {
            dst: s,
            field: 1,
            value: Operand::Const(9)
        }
    );
    assert!(matches!(*kinds[4], InstKind::GetField { field: 0, .. }));
    assert!(matches!(
        *kinds[5],
        InstKind::Call { dst: Some(_), func, ref args } if func == m.func_by_name("alloc").unwrap() && args.len() == 3
    ));
    assert!(matches!(
        *kinds[6],
        InstKind::VecGet {
            field: Some(1),
            index: Operand::Const(0),
            check: Check::Checked,
            ..
        }
    ));
}

#[test]
fn sample_verifies() {
    let m = parse_ok(SAMPLE);
    if let Err(errors) = poolopt_ir::verify(&m) {
        panic!("{errors:?}");
    }
}

/// parse → print → parse → print is a fixed point, and the first print of canonical text is
/// the text itself.
fn assert_fixed_point(src: &str) {
    let module = parse_ok(src);
    let once = print_module(&module);
    let twice = print_module(&parse_ok(&once));
    assert_eq!(once, twice);
    // Written one function at a time, the same bytes; a subset too.
    let mut streamed = Vec::new();
    poolopt_ir::write_module_with(&mut streamed, &module, |_| true).expect("a Vec takes any write");
    assert_eq!(String::from_utf8(streamed).as_deref(), Ok(once.as_str()));
    let keep = |f: poolopt_ir::FuncId| poolopt_ir::EntityRef::index(f) % 2 == 1;
    let mut some = Vec::new();
    poolopt_ir::write_module_with(&mut some, &module, keep).expect("a Vec takes any write");
    let expected = poolopt_ir::print_module_with(&module, keep);
    assert_eq!(String::from_utf8(some).as_deref(), Ok(expected.as_str()));
}

#[test]
fn sample_round_trips() {
    assert_fixed_point(SAMPLE);
}

#[test]
fn all_forms_round_trip_exactly() {
    let m = parse_ok(ALL_FORMS);
    assert_eq!(print_module(&m), ALL_FORMS);
    // ALL_FORMS has unchecked operations: only trusted IR may hold them.
    assert!(poolopt_ir::verify(&m).is_err());
    if let Err(errors) = poolopt_ir::verify_with(&m, &poolopt_ir::VerifyOptions::TRUSTED) {
        panic!("{errors:?}");
    }
    assert_fixed_point(ALL_FORMS);
    let all = &m.funcs[m.func_by_name("all").unwrap()];
    let callee = &m.funcs[m.func_by_name("callee").unwrap()];
    assert!(callee.locals[callee.params[1]].packed);
    let unchecked = all
        .insts
        .values()
        .filter(|d| {
            matches!(
                d.kind,
                InstKind::VecPop {
                    check: Check::Unchecked,
                    ..
                } | InstKind::VecGet {
                    check: Check::Unchecked,
                    ..
                } | InstKind::VecSet {
                    check: Check::Unchecked,
                    ..
                } | InstKind::Binary {
                    check: Check::Unchecked,
                    ..
                }
            )
        })
        .count();
    assert_eq!(unchecked, 10);
    // The divisions' unchecked forms parse to the operator with `Check::Unchecked`.
    assert!(all.insts.values().any(|d| matches!(
        d.kind,
        InstKind::Binary {
            op: poolopt_ir::BinaryOp::SDiv,
            check: Check::Unchecked,
            ..
        }
    )));
    let other = all.block_by_name("other").unwrap();
    assert_eq!(
        all.blocks[other].terminator,
        Some(Terminator::Trap("say \"hi\"\n\tback\\slash".into()))
    );
}

#[test]
fn non_canonical_syntax_is_accepted() {
    let src = "struct S {\n  a: i8,\n  b: i64,\n}\n\n\n; c\nfn f(\n  x: i64,\n) -> i64 { ; c\n    var c: bool\nentry:   ; c\n\n    c = eq x, true\n    brif false, a, b\na:\n    ret 0x10\nb:\n    ret -0x1 }\nfn g() {\nentry:\n    ret\n}";
    let m = parse_ok(src);
    let f = &m.funcs[m.func_by_name("f").unwrap()];
    let a = f.block_by_name("a").unwrap();
    assert_eq!(
        f.blocks[a].terminator,
        Some(Terminator::Ret(Some(Operand::Const(16))))
    );
    let b = f.block_by_name("b").unwrap();
    assert_eq!(
        f.blocks[b].terminator,
        Some(Terminator::Ret(Some(Operand::Const(-1))))
    );
    let entry = f.entry().unwrap();
    assert!(matches!(
        f.insts[f.blocks[entry].insts[0]].kind,
        InstKind::Compare {
            rhs: Operand::Const(1),
            ..
        }
    ));
    assert_fixed_point(src);
}

#[test]
fn builder_module_round_trips() {
    let mut mb = ModuleBuilder::new();
    let s = mb.add_struct("Pair", &[("lo", Type::I16), ("hi", Type::I64)]);
    let vec_s = Type::Vec(ElemType::Struct(s));
    let f = mb.declare_function("sum", &[("v", vec_s)], Some(Type::I64));
    let g = mb.declare_function("main", &[], Some(Type::I64));
    {
        let mut fb = mb.define_function(f);
        let v = fb.param(0).unwrap();
        let acc = fb.local("acc", Type::I64);
        let i = fb.local("i", Type::I64);
        let n = fb.local("n", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let t = fb.temp(Type::I64);
        let entry = fb.create_block("entry");
        let head = fb.create_block("head");
        let body = fb.create_block("body");
        let exit = fb.create_block("exit");
        fb.switch_to_block(entry);
        fb.copy(acc, 0i64);
        fb.copy(i, 0i64);
        fb.br(head);
        fb.switch_to_block(head);
        fb.vec_len(n, v);
        fb.compare(c, CmpOp::Slt, i, n);
        fb.brif(c, body, exit);
        fb.switch_to_block(body);
        fb.get(t, v, i, Some(1));
        fb.binary(acc, BinaryOp::Add, acc, t);
        fb.binary(i, BinaryOp::Add, i, 1i64);
        fb.br(head);
        fb.switch_to_block(exit);
        fb.ret(Some(acc.into()));
    }
    {
        let mut fb = mb.define_function(g);
        let v = fb.local("v", vec_s);
        let p = fb.local("p", Type::Struct(s));
        let r = fb.local("r", Type::I64);
        let entry = fb.create_block("entry");
        fb.switch_to_block(entry);
        fb.vec_new(v, ElemType::Struct(s));
        fb.make(p, s, vec![Operand::Const(3), Operand::Const(40)]);
        fb.push(v, p);
        fb.call(Some(r), f, vec![v.into()]);
        fb.ret(Some(r.into()));
    }
    let m = mb.finish().unwrap();
    let text = print_module(&m);
    let parsed = parse_ok(&text);
    assert_eq!(print_module(&parsed), text);
    // Same structure, up to source locations.
    assert_eq!(parsed.structs.len(), m.structs.len());
    for (a, b) in parsed.funcs.values().zip(m.funcs.values()) {
        assert_eq!(a.params, b.params);
        assert_eq!(a.layout.len(), b.layout.len());
        let kinds_a: Vec<_> = a.insts.values().map(|d| &d.kind).collect();
        let kinds_b: Vec<_> = b.insts.values().map(|d| &d.kind).collect();
        assert_eq!(kinds_a, kinds_b);
        let terms_a: Vec<_> = a.blocks.values().map(|d| &d.terminator).collect();
        let terms_b: Vec<_> = b.blocks.values().map(|d| &d.terminator).collect();
        assert_eq!(terms_a, terms_b);
    }
}

#[test]
fn error_display_is_the_message_only() {
    let e = parse("fn f() {\nentry:\n    x = copy 1\n    ret\n}\n").unwrap_err();
    assert_eq!(e.to_string(), "undefined local `x`");
    assert_eq!(e.message(), "undefined local `x`");
    assert_eq!(e.loc, Loc::new(3, 5));
    assert_eq!(e.span, 20..21);
}

/// Parses `src`, expects an error, and checks its kind (by a predicate) and `line:col`.
fn expect_err(src: &str, line: u32, col: u32, pred: impl Fn(&ParseErrorKind) -> bool) {
    match parse(src) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => {
            assert!(pred(&e.kind), "wrong kind {:?} ({e}) for:\n{src}", e.kind);
            assert_eq!(
                (e.loc.line, e.loc.col),
                (line, col),
                "wrong location for {e}:\n{src}"
            );
            // The span starts at the reported column.
            let line_start: usize = src
                .split_inclusive('\n')
                .take(line as usize - 1)
                .map(str::len)
                .sum();
            let col_bytes: usize = src[line_start..]
                .chars()
                .take(col as usize - 1)
                .map(char::len_utf8)
                .sum();
            assert_eq!(e.span.start, line_start + col_bytes, "span of {e}");
        }
    }
}

fn body(lines: &str) -> String {
    format!("fn f(a: i64, v: vec<i64>) -> i64 {{\n    var x: i64\n{lines}}}\n")
}

#[test]
fn malformed_inputs() {
    use ParseErrorKind as K;
    // 1. undefined local
    expect_err(&body("entry:\n    x = add y, 1\n    ret x\n"), 4, 13, |k| {
        *k == K::UndefinedLocal("y".into())
    });
    // 2. duplicate local (a var shadowing a parameter)
    expect_err(
        "fn f(a: i64) {\n    var a: i32\nentry:\n    ret\n}\n",
        2,
        9,
        |k| *k == K::DuplicateLocal("a".into()),
    );
    // 3. undefined block
    expect_err(&body("entry:\n    br nowhere\n"), 4, 8, |k| {
        *k == K::UndefinedBlock("nowhere".into())
    });
    // 4. duplicate block
    expect_err(
        &body("entry:\n    br b\nb:\n    ret 0\nb:\n    ret 1\n"),
        7,
        1,
        |k| *k == K::DuplicateBlock("b".into()),
    );
    // 5. undefined function
    expect_err(
        &body("entry:\n    x = call g(a)\n    ret x\n"),
        4,
        14,
        |k| *k == K::UndefinedFunction("g".into()),
    );
    // 6. duplicate function
    expect_err(
        "fn f() {\nentry:\n    ret\n}\nfn f() {\nentry:\n    ret\n}\n",
        5,
        4,
        |k| *k == K::DuplicateFunction("f".into()),
    );
    // 7. duplicate struct
    expect_err("struct S { a: i8 }\nstruct S { b: i8 }\n", 2, 8, |k| {
        *k == K::DuplicateStruct("S".into())
    });
    // 8. unknown field of a struct local
    expect_err(
        "struct S8 { a: i32, b: i32 }\nfn f(s: S8) -> i32 {\n    var x: i32\nentry:\n    x = getfield s.z\n    ret x\n}\n",
        5,
        20,
        |k| {
            *k == K::UnknownField {
                strukt: "S8".into(),
                field: "z".into(),
            }
        },
    );
    // 9. field of a vec of scalars
    expect_err(
        &body("entry:\n    x = get v[0].a\n    ret x\n"),
        4,
        18,
        |k| matches!(k, K::NoFields { local, ty, field } if local == "v" && ty == "vec<i64>" && field == "a"),
    );
    // 10. block without terminator (reported at its label)
    expect_err(
        &body("entry:\n    x = copy 1\nnext:\n    ret x\n"),
        3,
        1,
        |k| *k == K::MissingTerminator("entry".into()),
    );
    // 11. last block without terminator before `}`
    expect_err(
        &body("entry:\n    br last\nlast:\n    x = copy 1\n"),
        5,
        1,
        |k| *k == K::MissingTerminator("last".into()),
    );
    // 12. unknown type
    expect_err("fn f(a: Foo) {\nentry:\n    ret\n}\n", 1, 9, |k| {
        *k == K::UnknownType("Foo".into())
    });
    // 13. unterminated string
    expect_err(&body("entry:\n    trap \"oops\n"), 4, 10, |k| {
        *k == K::UnterminatedString
    });
    // 14. unexpected character
    expect_err(&body("entry:\n    x = copy 1 @\n    ret x\n"), 4, 16, |k| {
        *k == K::UnexpectedChar('@')
    });
    // 15. integer out of range
    expect_err(
        &body("entry:\n    x = copy 9223372036854775808\n    ret x\n"),
        4,
        14,
        |k| matches!(k, K::IntOutOfRange(t) if t == "9223372036854775808"),
    );
    // 16. unknown instruction
    expect_err(&body("entry:\n    x = frob a\n    ret x\n"), 4, 9, |k| {
        *k == K::UnknownInstruction("frob".into())
    });
    // 16b. only the divisions have an unchecked form
    expect_err(
        &body("entry:\n    x = add.unchecked a, 1\n    ret x\n"),
        4,
        9,
        |k| *k == K::UnknownInstruction("add.unchecked".into()),
    );
    // 17. missing comma
    expect_err(
        &body("entry:\n    x = add a 1\n    ret x\n"),
        4,
        15,
        |k| matches!(k, K::Expected { expected, found } if expected == "`,`" && found == "`1`"),
    );
    // 18. instruction before any label
    expect_err(&body("    x = copy 1\nentry:\n    ret x\n"), 3, 5, |k| {
        *k == K::OutsideBlock
    });
    // 19. instruction after a terminator
    expect_err(&body("entry:\n    ret a\n    x = copy 1\n"), 5, 5, |k| {
        *k == K::AfterTerminator("entry".into())
    });
    // 20. nested vec
    expect_err(
        "fn f(a: vec<vec<i64>>) {\nentry:\n    ret\n}\n",
        1,
        13,
        |k| *k == K::NestedVec,
    );
    // 21. constant where a local is needed
    expect_err(&body("entry:\n    push 3, a\n    ret a\n"), 4, 10, |k| {
        *k == K::NotALocal("3".into())
    });
    // 22. missing closing brace (the body runs into the end of input)
    expect_err(
        "fn f() {\nentry:\n    ret\n",
        4,
        1,
        |k| matches!(k, K::Expected { found, .. } if found == "end of input"),
    );
    // 23. declaration after the first block
    expect_err(&body("entry:\n    var y: i64\n    ret a\n"), 4, 5, |k| {
        *k == K::LateDeclaration
    });
    // 24. bad escape, column counted in chars (é is two bytes)
    expect_err(&body("entry:\n    trap \"é\\q\"\n"), 4, 10, |k| {
        *k == K::BadEscape('q')
    });
    // 25. garbage at top level
    expect_err(
        "\n\n  let x = 1\n",
        3,
        3,
        |k| matches!(k, K::Expected { expected, .. } if expected == "`struct` or `fn`"),
    );
    // 26. value-less instruction used as a value
    expect_err(&body("entry:\n    x = push v, 1\n    ret x\n"), 4, 9, |k| {
        *k == K::NoValue("push".into())
    });
    // 27. `new` of a non-vec type
    expect_err(&body("entry:\n    x = new i64\n    ret x\n"), 4, 13, |k| {
        *k == K::NotAVecType("i64".into())
    });
    // 28. reserved local name
    expect_err("fn f(true: i64) {\nentry:\n    ret\n}\n", 1, 6, |k| {
        *k == K::ReservedName("true".into())
    });
    // 29. bad `.unchecked` suffix
    expect_err(
        &body("entry:\n    x = pop.fast v\n    ret x\n"),
        4,
        13,
        |k| matches!(k, K::Expected { expected, .. } if expected == "`unchecked`"),
    );
    // 30. trailing tokens after a statement
    expect_err(
        &body("entry:\n    ret a a\n"),
        4,
        11,
        |k| matches!(k, K::Expected { expected, .. } if expected == "end of line"),
    );
    // 31. duplicate field
    expect_err(
        "struct S { a: i8, a: i16 }\n",
        1,
        19,
        |k| matches!(k, K::DuplicateField { strukt, field } if strukt == "S" && field == "a"),
    );
}

/// A small deterministic PRNG (xorshift64*), so the mutation test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const INTERESTING: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"<",
    b">",
    b",",
    b":",
    b"=",
    b".",
    b"->",
    b"\n",
    b"\"",
    b"\\",
    b";",
    b"-",
    b"0x",
    b"99999999999999999999",
    b"vec<",
    b"true",
    b"fn ",
    b"struct ",
    b"var ",
    b"packed ",
    b".unchecked",
    b"entry:",
    b"ret",
    b"br ",
    b"\xff",
    b"\xc3\xa9",
    b"\0",
];

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = out.len();
        match rng.below(7) {
            0 => {
                // Flip a byte.
                if len > 0 {
                    let i = rng.below(len);
                    out[i] ^= 1 << rng.below(8);
                }
            }
            1 => out.truncate(rng.below(len + 1)),
            2 => {
                // Delete a range.
                let a = rng.below(len + 1);
                let b = (a + rng.below(20)).min(len);
                out.drain(a..b);
            }
            3 => {
                // Insert an interesting token.
                let tok = INTERESTING[rng.below(INTERESTING.len())];
                let at = rng.below(len + 1);
                out.splice(at..at, tok.iter().copied());
            }
            4 => {
                // Swap two whitespace-separated words.
                let words: Vec<(usize, usize)> = word_spans(&out);
                if words.len() >= 2 {
                    let (a, b) = (rng.below(words.len()), rng.below(words.len()));
                    let (x, y) = (words[a.min(b)], words[a.max(b)]);
                    if x.1 <= y.0 {
                        let mut next = out[..x.0].to_vec();
                        next.extend_from_slice(&out[y.0..y.1]);
                        next.extend_from_slice(&out[x.1..y.0]);
                        next.extend_from_slice(&out[x.0..x.1]);
                        next.extend_from_slice(&out[y.1..]);
                        out = next;
                    }
                }
            }
            5 => {
                // Duplicate a line.
                let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len());
                    let mut next: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                    next.insert(i, lines[i].to_vec());
                    out = next.join(&b'\n');
                }
            }
            _ => {
                // Replace a byte with a random one.
                if len > 0 {
                    let i = rng.below(len);
                    out[i] = rng.next() as u8;
                }
            }
        }
    }
    out
}

fn word_spans(s: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &b) in s.iter().enumerate() {
        let ws = b.is_ascii_whitespace();
        match (start, ws) {
            (None, false) => start = Some(i),
            (Some(st), true) => {
                spans.push((st, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        spans.push((st, s.len()));
    }
    spans
}

#[test]
fn mutations_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let seeds = [SAMPLE, ALL_FORMS];
    let mut ok = 0;
    let mut errors = 0;
    for round in 0..4000 {
        let seed = seeds[round % seeds.len()].as_bytes();
        let bytes = mutate(&mut rng, seed);
        let text = String::from_utf8_lossy(&bytes);
        match parse(&text) {
            Ok(m) => {
                ok += 1;
                // Whatever parses must print and re-parse to the same text.
                let printed = print_module(&m);
                let again = parse(&printed)
                    .unwrap_or_else(|e| panic!("reparse failed: {e} at {}\n{printed}", e.loc));
                assert_eq!(print_module(&again), printed);
                // And the verifier must not panic on it either.
                let _ = poolopt_ir::verify(&m);
            }
            Err(e) => {
                errors += 1;
                assert!(e.span.start <= text.len() && e.span.end <= text.len());
                assert!(text.is_char_boundary(e.span.start));
                assert!(e.loc.line >= 1 && e.loc.col >= 1);
                assert!(!e.to_string().is_empty());
            }
        }
    }
    eprintln!("mutants: {ok} parsed, {errors} rejected");
    // The mutations exercise both outcomes.
    assert!(ok > 50, "only {ok} mutants parsed");
    assert!(errors > 1000, "only {errors} mutants were rejected");
}

#[test]
fn huge_and_deep_inputs_do_not_overflow() {
    // Many blocks and instructions.
    let mut src = String::from("fn f() -> i64 {\n    var x: i64\nentry:\n");
    for i in 0..20_000 {
        src.push_str(&format!("    x = add x, {i}\n    br b{i}\nb{i}:\n"));
    }
    src.push_str("    ret x\n}\n");
    let m = parse_ok(&src);
    assert_eq!(m.funcs.values().next().unwrap().layout.len(), 20_001);
    // Deep nesting of brackets is not a grammar construct, but must fail cleanly.
    let deep = format!(
        "fn f(a: {}i64{}) {{\n}}\n",
        "vec<".repeat(100_000),
        ">".repeat(100_000)
    );
    assert!(matches!(
        parse(&deep).unwrap_err().kind,
        ParseErrorKind::NestedVec
    ));
    let parens = format!("fn f() {{\nentry:\n    call f{}\n}}\n", "(".repeat(100_000));
    assert!(parse(&parens).is_err());
    let long_line = format!("fn f() {{\nentry:\n    {}\n}}\n", "x ".repeat(100_000));
    assert!(parse(&long_line).is_err());
}

#[test]
fn inline_hints_round_trip() {
    use poolopt_ir::InlineHint;
    let src = "inline fn small(a: i64) -> i64 {\nentry:\n    ret a\n}\n\nnoinline fn cold() {\nentry:\n    ret\n}\n\nfn plain() {\nentry:\n    ret\n}\n";
    let m = parse_ok(src);
    let hints: Vec<InlineHint> = m.funcs.values().map(|f| f.inline).collect();
    assert_eq!(
        hints,
        [InlineHint::Always, InlineHint::Never, InlineHint::Default]
    );
    assert_eq!(print_module(&m), src);
    // The hint is a keyword before `fn` only.
    expect_err(
        "inline struct S { a: i8 }\n",
        1,
        8,
        |k| matches!(k, ParseErrorKind::Expected { expected, .. } if expected == "`fn`"),
    );
    expect_err(
        "inline f() {\nentry:\n    ret\n}\n",
        1,
        8,
        |k| matches!(k, ParseErrorKind::Expected { expected, .. } if expected == "`fn`"),
    );
    // `inline` and `noinline` stay usable as names.
    parse_ok("fn inline(noinline: i64) -> i64 {\nentry:\n    ret noinline\n}\n");
}

#[test]
fn every_error_of_a_file_is_reported_in_source_order() {
    use poolopt_ir::{parse_all, MAX_PARSE_ERRORS};
    let src = "struct S { a: i32, bb: i32 }\n\
               fn g(x: i64) -> i64 {\nentry:\n    ret x\n}\n\
               fn f(a: i64, s: S) -> i64 {\n    var total: i64\n    var t: Strct\n\
               entry:\n    total = add totl, 1\n    total = getfield s.b\n    total = call gg(a)\n\
               \x20   total = frob a\n    br exti\nexit:\n    ret total\n}\n";
    let errors = parse_all(src).unwrap_err().0;
    let summary: Vec<(u32, String, Option<String>)> = errors
        .iter()
        .map(|e| (e.loc.line, e.to_string(), e.help.clone()))
        .collect();
    let hint = |s: &str| Some(format!("did you mean `{s}`?"));
    assert_eq!(
        summary,
        [
            (8, "unknown type `Strct`".to_string(), None),
            (10, "undefined local `totl`".to_string(), hint("total")),
            (11, "unknown field `b` of struct `S`".to_string(), None),
            (12, "undefined function `gg`".to_string(), hint("g")),
            (13, "unknown instruction `frob`".to_string(), None),
            (14, "undefined block `exti`".to_string(), hint("exit")),
        ]
    );
    // `parse` reports the first of them.
    assert_eq!(parse(src).unwrap_err().to_string(), "unknown type `Strct`");

    // A file with many errors stops at the bound.
    let mut many = String::from("fn f() {\nentry:\n");
    for i in 0..100 {
        many.push_str(&format!("    x{i} = copy 1\n"));
    }
    many.push_str("    ret\n}\n");
    let errors = parse_all(&many).unwrap_err().0;
    assert_eq!(errors.len(), MAX_PARSE_ERRORS);
    assert_eq!(errors[19].loc.line, 22);
}

#[test]
fn recovery_skips_a_broken_item_and_reports_nothing_about_its_uses() {
    use poolopt_ir::parse_all;
    // `h`'s header is broken: the body is skipped, the call of `h` reports nothing more; the
    // struct whose field type is unknown is still declared.
    let src = "fn h(a i64) {\nentry:\n    ret\n}\nstruct T { a: Nope }\n\
               fn main() -> i64 {\n    var t: T\n    var y: Missing\n    var r: i64\n\
               entry:\n    call h(1)\n    r = getfield y.a\n    ret 0\n}\n";
    let errors = parse_all(src).unwrap_err().0;
    let messages: Vec<String> = errors.iter().map(|e| format!("{}: {e}", e.loc)).collect();
    assert_eq!(
        messages,
        [
            "1:8: expected `:`, found `i64`",
            "5:15: unknown type `Nope`",
            "8:12: unknown type `Missing`",
        ]
    );
    // A duplicate block is reported once; its lines are skipped without more errors.
    let src =
        "fn f() -> i64 {\nentry:\n    br b\nb:\n    ret 0\nb:\n    x = copy 1\n    ret 1\n}\n";
    let errors = parse_all(src).unwrap_err().0;
    let messages: Vec<String> = errors.iter().map(|e| format!("{}: {e}", e.loc)).collect();
    assert_eq!(messages, ["6:1: duplicate block `b`"]);
}

#[test]
fn labels_are_found_wherever_a_body_starts_them() {
    // A label right after the `{`, a one-line struct before it (its `a:` is no label), a body
    // whose `}` closes the last line, and a last function without its `}`.
    let src = "struct S { a: i64 }\nfn f(s: S) -> i64 { entry:\n    brif true, a, b\na:\n    ret 1\nb:\n    ret 2 }\nfn g() -> i64 {\nentry:\n    ret 3\n}\n";
    let m = parse_ok(src);
    let f = &m.funcs[m.func_by_name("f").unwrap()];
    let names: Vec<&str> = f
        .layout
        .iter()
        .map(|&b| f.blocks[b].name.as_str())
        .collect();
    assert_eq!(names, ["entry", "a", "b"]);
    assert_eq!(f.blocks[f.entry().unwrap()].loc, Loc::new(2, 21));
    let g = &m.funcs[m.func_by_name("g").unwrap()];
    assert_eq!(g.blocks[g.entry().unwrap()].loc, Loc::new(9, 1));
    let unclosed = "fn g() -> i64 {\nentry:\n    ret 3\n";
    let errors = poolopt_ir::parse_all(unclosed).unwrap_err().0;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].loc.line, errors[0].loc.col), (4, 1));
}

/// A struct of more fields than the parser scans per lookup (it then looks names up in the
/// map it made while reading the declarations): every field of a struct local and of a vec's
/// struct elements resolves to its own index, and an unknown name is still an error.
#[test]
fn fields_of_wide_structs_resolve_by_name() {
    let n = 40;
    let fields: Vec<String> = (0..n).map(|k| format!("f{k}: i64")).collect();
    let mut src = format!(
        "struct W {{ {} }}\nfn f(s: W, v: vec<W>) -> i64 {{\n    var x: i64\nentry:\n",
        fields.join(", ")
    );
    for k in (0..n).rev() {
        src += &format!("    x = getfield s.f{k}\n    x = get v[0].f{k}\n");
    }
    src += "    ret x\n}\n";
    let module = parse_ok(&src);
    let f = module.funcs.values().next().unwrap();
    let entry = f.layout[0];
    let read: Vec<u32> = f.blocks[entry]
        .insts
        .iter()
        .filter_map(|&i| match f.inst(i) {
            InstKind::GetField { field, .. } => Some(*field),
            InstKind::VecGet { field, .. } => *field,
            _ => None,
        })
        .collect();
    let want: Vec<u32> = (0..n as u32).rev().flat_map(|k| [k, k]).collect();
    assert_eq!(read, want);
    let bad = src.replace("getfield s.f7\n", "getfield s.f77\n");
    let e = parse(&bad).expect_err("f77 is not a field");
    assert_eq!(
        e.kind,
        ParseErrorKind::UnknownField {
            strukt: "W".into(),
            field: "f77".into()
        }
    );
}
