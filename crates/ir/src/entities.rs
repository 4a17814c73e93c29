//! Typed entity references: the ids of structs, functions, blocks, locals and instructions.
//!
//! As in Cranelift, each id is a `u32` newtype whose `Display` is a stable text form
//! (`block3`, `local2`, ...). The text format prints user-facing *names* instead, but these ids
//! are what analyses key their side tables (`SecondaryMap`) on.

use cranelift_entity::entity_impl;

/// A struct type declared in a [`crate::Module`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(u32);
entity_impl!(StructId, "struct");

/// A function of a [`crate::Module`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(u32);
entity_impl!(FuncId, "fn");

impl FuncId {
    /// The reserved value that stands for "no function" in a `PackedOption<FuncId>`.
    pub(crate) const RESERVED: FuncId = FuncId(u32::MAX);
}

/// A basic block of a [`crate::Function`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// A mutable, typed local variable of a [`crate::Function`] (parameters are locals too).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Local(u32);
entity_impl!(Local, "local");

/// An instruction of a [`crate::Function`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");
