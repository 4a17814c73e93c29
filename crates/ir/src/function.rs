//! Functions: locals, blocks, instructions and the block layout.
//!
//! As in Cranelift, what exists (the `blocks`, `insts` and `locals` arenas) is kept apart from the
//! order it is laid out in (`layout`, and each block's `insts` list). Removing an instruction or
//! a block means removing it from the layout; its arena entry stays and is never printed.

use crate::entities::{Block, Inst, Local};
use crate::inst::{InstData, InstKind, Loc, Terminator};
use crate::types::Type;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};

/// The name of a local or a block: up to 24 bytes held inline (no allocation), as almost every
/// name is; a longer one on the heap.
pub type Name = compact_str::CompactString;

/// A map with `len` default entries, made in one allocation.
pub(crate) fn dense_map<K: EntityRef, V: Clone + Default>(len: usize) -> SecondaryMap<K, V> {
    let mut map = SecondaryMap::with_capacity(len);
    map.resize(len);
    map
}

/// A declared local variable (parameters included).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LocalData {
    pub name: Name,
    pub ty: Type,
    /// Set by small-struct scalarization: this struct local is held as one 64-bit integer.
    pub packed: bool,
    pub loc: Loc,
}

/// A basic block: a name, its instructions in order, and a terminator.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockData {
    pub name: Name,
    pub insts: Vec<Inst>,
    /// `None` only while a block is being built; the verifier rejects it.
    pub terminator: Option<Terminator>,
    /// Where the terminator came from.
    pub term_loc: Loc,
    pub loc: Loc,
}

/// A function: signature, locals, and a CFG of blocks. The first block of the layout is the
/// entry block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Function {
    pub name: String,
    /// Parameters, in order; each is also a local.
    pub params: Vec<Local>,
    pub ret: Option<Type>,
    pub locals: PrimaryMap<Local, LocalData>,
    pub blocks: PrimaryMap<Block, BlockData>,
    pub insts: PrimaryMap<Inst, InstData>,
    /// The blocks in print order; `layout[0]` is the entry block.
    pub layout: Vec<Block>,
    pub loc: Loc,
    /// The front end's inlining hint for calls of this function (text: a keyword before `fn`,
    /// `inline fn f(...)` or `noinline fn f(...)`).
    pub inline: InlineHint,
}

/// What the front end says about inlining calls of a function. The inliner decides by its
/// size/benefit heuristic under [`InlineHint::Default`]; the other two override it (a call on a
/// cycle of the call graph is never inlined, whatever the hint).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum InlineHint {
    /// No hint: the heuristic decides.
    #[default]
    Default,
    /// `inline`: inline every non-recursive call, whatever its size.
    Always,
    /// `noinline`: keep every call out of line.
    Never,
}

impl InlineHint {
    /// The keyword in the text format (`None` for the default).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            InlineHint::Default => None,
            InlineHint::Always => Some("inline"),
            InlineHint::Never => Some("noinline"),
        }
    }
}

impl Function {
    /// An empty function with no parameters and no blocks.
    pub fn new(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret: None,
            locals: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            insts: PrimaryMap::new(),
            layout: Vec::new(),
            loc: Loc::UNKNOWN,
            inline: InlineHint::Default,
        }
    }

    /// The entry block, if the function has any block.
    #[inline]
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// The type of a local.
    #[inline]
    pub fn local_ty(&self, local: Local) -> Type {
        self.locals[local].ty
    }

    /// The name of a local.
    #[inline]
    pub fn local_name(&self, local: Local) -> &str {
        &self.locals[local].name
    }

    /// A map with an entry, `V::default()`, for every block the function has now: filled in
    /// one allocation, where a `SecondaryMap::new()` written in block order would grow (and
    /// reallocate) at every new index.
    pub fn block_map<V: Clone + Default>(&self) -> SecondaryMap<Block, V> {
        dense_map(self.blocks.len())
    }

    /// Like [`Function::block_map`], with an entry for every local.
    pub fn local_map<V: Clone + Default>(&self) -> SecondaryMap<Local, V> {
        dense_map(self.locals.len())
    }

    /// The instruction data of `inst`.
    #[inline]
    pub fn inst(&self, inst: Inst) -> &InstKind {
        &self.insts[inst].kind
    }

    /// The terminator of `block`. Verified functions always have one.
    #[inline]
    pub fn terminator(&self, block: Block) -> Option<&Terminator> {
        self.blocks[block].terminator.as_ref()
    }

    /// Adds a local and returns its id.
    pub fn add_local(&mut self, name: impl Into<Name>, ty: Type) -> Local {
        self.locals.push(LocalData {
            name: name.into(),
            ty,
            packed: false,
            loc: Loc::UNKNOWN,
        })
    }

    /// A fresh local name starting with `prefix` that no local of this function has.
    pub fn fresh_local_name(&self, prefix: &str) -> String {
        let taken: std::collections::HashSet<&str> =
            self.locals.values().map(|l| l.name.as_str()).collect();
        (0..)
            .map(|i| format!("{prefix}{i}"))
            .find(|n| !taken.contains(n.as_str()))
            .expect("unbounded range")
    }

    /// Creates an instruction (not yet placed in any block).
    #[inline]
    pub fn make_inst(&mut self, kind: InstKind, loc: Loc) -> Inst {
        self.insts.push(InstData { kind, loc })
    }

    /// Appends a new, empty block to the layout.
    pub fn add_block(&mut self, name: impl Into<Name>) -> Block {
        let block = self.blocks.push(BlockData {
            name: name.into(),
            insts: Vec::new(),
            terminator: None,
            term_loc: Loc::UNKNOWN,
            loc: Loc::UNKNOWN,
        });
        self.layout.push(block);
        block
    }

    /// Number of instructions currently in the layout (terminators included).
    pub fn inst_count(&self) -> usize {
        self.layout
            .iter()
            .map(|&b| self.blocks[b].insts.len() + 1)
            .sum()
    }

    /// Finds a block in the layout by name.
    pub fn block_by_name(&self, name: &str) -> Option<Block> {
        self.layout
            .iter()
            .copied()
            .find(|&b| self.blocks[b].name == name)
    }

    /// Finds a local by name.
    pub fn local_by_name(&self, name: &str) -> Option<Local> {
        self.locals
            .iter()
            .find(|(_, l)| l.name == name)
            .map(|(id, _)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    /// The maps have one default entry per block (or local) of the function when made, in one
    /// allocation, and still grow past it as a `SecondaryMap` does.
    #[test]
    fn block_and_local_maps_start_at_the_function_size() {
        let mut func = Function::new("f");
        for k in 0..37 {
            func.add_block(format!("b{k}"));
        }
        for k in 0..5 {
            func.add_local(format!("l{k}"), Type::I64);
        }
        let mut blocks: SecondaryMap<Block, u32> = func.block_map();
        assert_eq!(blocks.as_values_slice(), &[0; 37][..]);
        assert!(blocks.capacity() >= 37);
        blocks[Block::new(36)] = 7;
        blocks[Block::new(40)] = 9;
        assert_eq!(blocks.as_values_slice().len(), 41);
        assert_eq!((blocks[Block::new(36)], blocks[Block::new(40)]), (7, 9));
        let locals: SecondaryMap<Local, Option<u8>> = func.local_map();
        assert_eq!(locals.as_values_slice(), &[None; 5][..]);
    }
}
