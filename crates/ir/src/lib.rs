//! The poolopt IR: a small, typed, non-SSA intermediate representation for pool-style array
//! code, with its builder API, text format (printer and parser) and verifier.
//!
//! A function is a CFG of basic blocks over mutable typed locals; instructions include integer
//! arithmetic and compares, small structs, and checked vec operations (`push`, `pop`, `len`,
//! element and element-field `get`/`set`). `docs/ir.md` is the complete reference.
//!
//! # Building IR from a front end
//!
//! ```
//! use poolopt_ir::{ModuleBuilder, Type, CmpOp, ElemType, ScalarType};
//!
//! let mut mb = ModuleBuilder::new();
//! let vec_i64 = Type::Vec(ElemType::Scalar(ScalarType::I64));
//! let f = mb.declare_function("take", &[("free", vec_i64)], Some(Type::I64));
//! let mut fb = mb.define_function(f);
//! let free = fb.param(0).unwrap();
//! let n = fb.local("n", Type::I64);
//! let c = fb.local("c", Type::BOOL);
//! let i = fb.local("i", Type::I64);
//! let entry = fb.create_block("entry");
//! let have = fb.create_block("have");
//! let empty = fb.create_block("empty");
//! fb.switch_to_block(entry);
//! fb.vec_len(n, free);
//! fb.compare(c, CmpOp::Sgt, n, 0i64);
//! fb.brif(c, have, empty);
//! fb.switch_to_block(have);
//! fb.pop(Some(i), free); // checked; a pass may prove the check redundant
//! fb.ret(Some(i.into()));
//! fb.switch_to_block(empty);
//! fb.ret(Some((-1i64).into()));
//! let module = mb.finish().unwrap();
//! poolopt_ir::verify(&module).unwrap();
//! assert!(poolopt_ir::print_module(&module).contains("i = pop free"));
//! ```

mod builder;
pub mod call_graph;
pub mod cfg;
pub mod components;
pub mod dominators;
mod entities;
pub mod field_wise;
mod function;
mod inst;
mod lexer;
mod module;
pub mod parser;
mod printer;
pub mod room;
mod semantics;
mod types;
pub mod verifier;

pub use builder::{BuildError, BuildErrors, FunctionBuilder, ModuleBuilder};
pub use entities::{Block, FuncId, Inst, Local, StructId};
pub use function::{BlockData, Function, InlineHint, LocalData, Name};
pub use inst::{
    BinaryOp, CastOp, Check, CmpOp, InstData, InstKind, Loc, Operand, Terminator, UnaryOp,
};
pub use module::{Module, NotPackable};
pub use parser::{
    is_valid_name, parse, parse_all, ParseError, ParseErrorKind, ParseErrors, MAX_PARSE_ERRORS,
};
pub use printer::{
    display_inst, display_inst_kind, display_operand, display_signature, display_terminator,
    print_function, print_module, print_module_with, quote, write_module_with,
};
pub use types::{ElemType, FieldDef, ScalarType, StructDef, StructLayout, Type};
pub use verifier::{
    verify, verify_entry, verify_function_with, verify_with, VerifyError, VerifyErrorKind,
    VerifyOptions,
};

/// Re-exported so users can keep side tables keyed by IR entities.
pub use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};
pub use semantics::{
    charge_for_growth, grown_capacity, index_oob_message, oom_message, RunLimits, Trap, TrapKind,
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_MEMORY, DIV_ZERO_MESSAGE, HEADER_BYTES, OUT_OF_FUEL_MESSAGE,
    POP_EMPTY_MESSAGE, STACK_OVERFLOW_MESSAGE, USE_AFTER_DROP_MESSAGE,
};
