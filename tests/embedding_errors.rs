//! The embedding API's errors compose: builder misuse and verify errors are `std::error::Error`
//! values that name the function, block, instruction and the front end's location, and every
//! step of the pipeline works with `?` into `poolopt::Error`.

use poolopt::{
    BinaryOp, BuildError, ClOpt, Loc, ModuleBuilder, OptLevel, Session, Type, VerifiedModule,
};

#[test]
fn builder_misuse_names_function_block_and_instruction() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).unwrap();
    fb.set_loc(Loc::new(3, 5));
    fb.binary(x, BinaryOp::Add, x, 1i64); // no current block
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.ret(Some(x.into()));
    fb.set_loc(Loc::new(4, 5));
    fb.ret(None); // terminated twice
    let errors = mb.finish().unwrap_err();
    assert_eq!(
        errors.iter().cloned().collect::<Vec<_>>(),
        vec![
            BuildError::NoCurrentBlock {
                func: "f".into(),
                inst: "x = add x, 1".into(),
                loc: Loc::new(3, 5),
            },
            BuildError::DoubleTerminator {
                func: "f".into(),
                block: "entry".into(),
                first: "ret x".into(),
                second: "ret".into(),
                loc: Loc::new(4, 5),
            },
        ]
    );
    let text = errors.to_string();
    assert!(
        text.contains("in function `f` at 3:5: `x = add x, 1` emitted with no current block"),
        "{text}"
    );
    assert!(
        text.contains("block `entry` is terminated twice (already ends in `ret x`, then `ret`)"),
        "{text}"
    );
    let as_error: poolopt::Error = errors.into();
    let _: &dyn std::error::Error = &as_error;
}

#[test]
fn verify_errors_on_builder_ir_name_the_function_and_the_front_end_location() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("g", &[("x", Type::I64)], Some(Type::I64));
    mb.set_function_loc(f, Loc::new(10, 1));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).unwrap();
    let b = fb.local("b", Type::BOOL);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.set_loc(Loc::new(12, 9));
    fb.binary(x, BinaryOp::Add, x, b); // bool operand to an i64 add
    fb.ret(Some(x.into()));
    let module = mb.finish().unwrap();
    let errors = VerifiedModule::new(module).unwrap_err();
    assert!(!errors.is_empty());
    let first = &errors[0];
    assert_eq!(first.func.as_deref(), Some("g"));
    assert_eq!(first.loc, Loc::new(12, 9));
    let text = errors.to_string();
    assert!(text.contains("in function `g` at 12:9: "), "{text}");
    let boxed: Box<dyn std::error::Error> = Box::new(errors);
    assert!(boxed.to_string().starts_with("the module does not verify"));
}

/// Every step, from building to calling, through one `?`.
fn pipeline() -> Result<i64, poolopt::Error> {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("twice", &[("x", Type::I32)], Some(Type::I32));
    let mut fb = mb.define_function(f);
    let x = fb.param(0).unwrap();
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.binary(x, BinaryOp::Add, x, x);
    fb.ret(Some(x.into()));
    let module = VerifiedModule::new(mb.finish()?)?;
    let session = Session::new(module).optimize_level(OptLevel::O2)?;
    let compiled = session.compile(ClOpt::Speed)?;
    let twice = compiled.entry::<(i32,), i32>("twice")?;
    let wrong = compiled.entry::<(i64,), i32>("twice");
    assert!(matches!(
        wrong.map_err(poolopt::Error::from),
        Err(poolopt::Error::Entry(_))
    ));
    Ok(i64::from(twice.call((21,))?))
}

#[test]
fn the_pipeline_composes_with_question_mark() {
    assert_eq!(pipeline().unwrap(), 42);
}
