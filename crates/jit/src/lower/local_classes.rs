//! Which locals need no variable or no stack slot, decided before lowering: the block-local
//! ones ([`block_local_locals`]: every read follows a write in the same IR block) and the
//! struct locals held field by field ([`field_struct_locals`]).

use poolopt_ir::field_wise::{field_wise_struct, for_each_barred};
use poolopt_ir::SecondaryMap;
use poolopt_ir::{Function, Local, Module, Operand, Type};

/// Per local, whether it is *block-local*: every read of it is preceded by a write in the
/// same IR block, so its value never crosses a block boundary (and its initial zero is never
/// seen). Parameters are not. Values read and written within one block are all the lowering
/// needs for such a local: no SSA construction, no memory.
///
/// Within an IR block, locals are read and written only on its main line of Cranelift blocks
/// (each dominated by the one before; the cold paths of traps touch no local, and a push's
/// two stores only read the pushed value: a field-wise local's variables, which are never in
/// the huge tier's memory form and so remember nothing there), so a value remembered there
/// dominates every later access in the same IR block.
pub fn block_local_locals(ir: &Function) -> SecondaryMap<Local, bool> {
    let mut local_only = SecondaryMap::new();
    block_local_locals_into(ir, &mut SecondaryMap::new(), &mut local_only, u32::MAX);
    local_only
}

/// [`block_local_locals`] into `local_only` (emptied first), with `written` as working
/// storage (both kept from one function to the next), except that a local is also left out
/// when some read of it comes more than `max_span` instructions after the write it reads
/// (the terminator counts as the block's last instruction). The huge tier passes
/// [`crate::tier::MAX_BLOCK_LOCAL_SPAN`]: a block-local value is a Cranelift value, live
/// across every check between its write and its last read, and each check ends a Cranelift
/// block; the single-pass allocator visits every live value at every block start, so
/// thousands of values loaded and then summed (`x_k = get v[k]` for every `k`, then the
/// sums) cost the product of the two. Bounded spans bound how many such values are live at
/// once; a local past the bound lives in the huge tier's slot like every other local.
pub fn block_local_locals_into(
    ir: &Function,
    written: &mut SecondaryMap<Local, u64>,
    local_only: &mut SecondaryMap<Local, bool>,
    max_span: u32,
) {
    // First per local whether some read of it may see a value from outside its block (or,
    // past `max_span`, from far back in it).
    let exposed = local_only;
    exposed.clear();
    exposed.resize(ir.locals.len());
    // The 1-based index of the block in which the local was last written (high half) and
    // the write's position in it (low half).
    written.clear();
    written.resize(ir.locals.len());
    for &l in &ir.params {
        exposed[l] = true;
    }
    for (n, &blk) in ir.layout.iter().enumerate() {
        let stamp = n as u64 + 1;
        let Some(data) = ir.blocks.get(blk) else {
            continue;
        };
        let mut read = |op: Operand, pos: usize, written: &SecondaryMap<Local, u64>| {
            if let Operand::Local(l) = op {
                let w = written[l];
                let span = (pos as u64).saturating_sub(w & u64::from(u32::MAX));
                if w >> 32 != stamp || span > u64::from(max_span) {
                    exposed[l] = true;
                }
            }
        };
        for (pos, &inst) in data.insts.iter().enumerate() {
            let Some(d) = ir.insts.get(inst) else {
                continue;
            };
            d.kind.for_each_use(|op| read(op, pos, written));
            if let Some(l) = d.kind.def() {
                written[l] = stamp << 32 | pos as u64;
            }
        }
        if let Some(op) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            read(op, data.insts.len(), written);
        }
    }
    // Then the complement.
    for flag in exposed.values_mut() {
        *flag = !*flag;
    }
}

/// Per local, whether the lowering holds it field by field (`Repr::Fields`): a struct local
/// that is not packed, not a parameter, has at most `MAX_FIELD_WISE_FIELDS` fields, and is only
/// built (`make`), read or written one field at a time (`getfield`, `setfield`) and stored
/// whole into a vec element (`set v[i], s`, `push v, s`). Such a local needs no stack slot:
/// `make` + `push` stores the field values straight into the element instead of storing them
/// into a slot and copying the slot.
pub fn field_struct_locals(ir: &Function, module: &Module) -> SecondaryMap<Local, bool> {
    let mut out = SecondaryMap::new();
    field_struct_locals_into(ir, module, &mut SecondaryMap::new(), &mut out);
    out
}

/// [`field_struct_locals`] into `out` (emptied first), with `bad` as working storage (both
/// kept from one function to the next).
pub fn field_struct_locals_into(
    ir: &Function,
    module: &Module,
    bad: &mut SecondaryMap<Local, bool>,
    out: &mut SecondaryMap<Local, bool>,
) {
    if !has_field_wise_candidate(ir) {
        out.clear();
        out.resize(ir.locals.len());
        return;
    }
    bad.clear();
    bad.resize(ir.locals.len());
    for &l in &ir.params {
        bad[l] = true;
    }
    for &blk in &ir.layout {
        let Some(data) = ir.blocks.get(blk) else {
            continue;
        };
        for &inst in &data.insts {
            let Some(d) = ir.insts.get(inst) else {
                continue;
            };
            for_each_barred(&d.kind, |l| bad[l] = true);
        }
        if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            bad[l] = true;
        }
    }
    field_struct_locals_from(ir, module, bad, out);
}

/// Whether `ir` has a local [`field_struct_locals`] might admit: an unpacked struct local.
/// Without one the scan for barring mentions can be skipped.
pub(crate) fn has_field_wise_candidate(ir: &Function) -> bool {
    ir.locals
        .values()
        .any(|d| matches!(d.ty, Type::Struct(_)) && !d.packed)
}

/// [`field_struct_locals`] into `out` (emptied first), given per local whether some mention
/// bars it (`barred`, see [`poolopt_ir::field_wise::for_each_barred`]).
pub(crate) fn field_struct_locals_from(
    ir: &Function,
    module: &Module,
    barred: &SecondaryMap<Local, bool>,
    out: &mut SecondaryMap<Local, bool>,
) {
    out.clear();
    out.resize(ir.locals.len());
    for (l, data) in ir.locals.iter() {
        out[l] = match data.ty {
            Type::Struct(sid) if !data.packed && !barred[l] => field_wise_struct(module, sid),
            _ => false,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block-local locals of the one function of `src` whose reads come at most
    /// `max_span` instructions after their writes, by name.
    fn block_local_names(src: &str, max_span: u32) -> Vec<String> {
        let module = poolopt_ir::parse(src).expect("parses");
        let f = module.funcs.values().next().expect("one function");
        let mut flags = SecondaryMap::new();
        block_local_locals_into(f, &mut SecondaryMap::new(), &mut flags, max_span);
        f.locals
            .iter()
            .filter(|&(l, _)| flags[l])
            .map(|(_, d)| d.name.to_string())
            .collect()
    }

    #[test]
    fn a_read_past_the_span_bound_leaves_a_local_out_of_the_block_local_ones() {
        // `a` is written at 0 and read at 1 and 3, `b` written at 1 and read by the
        // terminator at 4, `c` written at 2 and read at 3.
        let src = "fn f(x: i64) -> i64 {
            var a: i64
            var b: i64
            var c: i64
        entry:
            a = add x, 1
            b = add a, 2
            c = add x, 3
            c = add c, a
            ret b
        }";
        let all = vec!["a", "b", "c"];
        assert_eq!(block_local_names(src, u32::MAX), all);
        assert_eq!(block_local_names(src, 3), all);
        // The bound is inclusive: `a`'s span is 3, `b`'s 3.
        assert_eq!(block_local_names(src, 2), vec!["c"]);
        assert_eq!(block_local_names(src, 1), vec!["c"]);
        assert_eq!(block_local_names(src, 0), Vec::<String>::new());
    }
}
