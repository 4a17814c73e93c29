//! `PassManager::verify_each`: after every pass the function it ran on is verified (not the
//! whole module, which made `--verify-each` quadratic in the number of functions), and a pass
//! that changes its function's signature gets the whole module verified, so that the callers
//! it broke are reported. Two deliberately broken passes show that both are caught.

mod common;

use poolopt_ir::{InstKind, Operand, Type, VerifyErrorKind};
use poolopt_passes::{OptLevel, Pass, PassContext, PassError, PassManager};

const SRC: &str = "
fn leaf(x: i64) -> i64 {
    var t: i64
entry:
    t = add x, 1
    ret t
}

fn main(x: i64) -> i64 {
    var r: i64
entry:
    r = call leaf(x)
    ret r
}
";

/// Makes the first instruction of `leaf` read a bool local as an `i64` operand: a body error.
struct BreakBody;

impl Pass for BreakBody {
    fn name(&self) -> &'static str {
        "break-body"
    }
    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }
    fn run(&self, func: &mut poolopt_ir::Function, _: &mut PassContext<'_>) -> bool {
        if func.name != "leaf" {
            return false;
        }
        let flag = func.locals.push(poolopt_ir::LocalData {
            name: "flag".into(),
            ty: Type::BOOL,
            packed: false,
            loc: func.loc,
        });
        let first = func.blocks[func.layout[0]].insts[0];
        if let InstKind::Binary { lhs, .. } = &mut func.insts[first].kind {
            *lhs = Operand::Local(flag);
        }
        true
    }
}

/// Gives `leaf` a second parameter: its body stays well formed, but `main`'s call no longer
/// matches.
struct BreakSignature;

impl Pass for BreakSignature {
    fn name(&self) -> &'static str {
        "break-signature"
    }
    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }
    fn run(&self, func: &mut poolopt_ir::Function, _: &mut PassContext<'_>) -> bool {
        if func.name != "leaf" {
            return false;
        }
        let y = func.locals.push(poolopt_ir::LocalData {
            name: "y".into(),
            ty: Type::I64,
            packed: false,
            loc: func.loc,
        });
        func.params.push(y);
        true
    }
}

fn run(pass: Box<dyn Pass>) -> Result<(), PassError> {
    let mut module = common::module(SRC);
    PassManager::new(vec![pass])
        .verify_each(true)
        .run(&mut module)
        .map(|_| ())
}

#[test]
fn a_pass_that_breaks_its_function_fails_verification() {
    match run(Box::new(BreakBody)) {
        Err(PassError::VerifyFailed {
            pass,
            function,
            errors,
        }) => {
            assert_eq!((pass, function.as_str()), ("break-body", "leaf"));
            assert!(
                errors
                    .iter()
                    .any(|e| matches!(e.kind, VerifyErrorKind::TypeMismatch { .. })),
                "{errors:?}"
            );
        }
        other => panic!("expected a verification failure, got {other:?}"),
    }
}

#[test]
fn a_pass_that_changes_its_signature_has_the_callers_checked() {
    match run(Box::new(BreakSignature)) {
        Err(PassError::VerifyFailed {
            pass,
            function,
            errors,
        }) => {
            assert_eq!((pass, function.as_str()), ("break-signature", "leaf"));
            assert!(
                errors.iter().any(|e| e.func.as_deref() == Some("main")
                    && matches!(e.kind, VerifyErrorKind::CallArity { .. })),
                "{errors:?}"
            );
        }
        other => panic!("expected a verification failure, got {other:?}"),
    }
}

#[test]
fn the_unbroken_pipeline_verifies_after_every_pass() {
    let mut module = common::module(SRC);
    PassManager::for_level(OptLevel::O2)
        .verify_each(true)
        .run(&mut module)
        .expect("O2 verifies");
}
