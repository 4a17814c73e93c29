//! `global-copy-prop`: forwards copies whose destination has one definition across blocks, so
//! every read of `d` after `d = copy s` reads `s` itself.
//!
//! The inliner binds each callee parameter with a copy (`alloc_items = copy items`), and front
//! ends copy values into fresh temporaries; `copy-prop` only forwards within a block. Here a
//! copy `d = copy s` at point `P` is forwarded when
//!
//! 1. `P` is the only instruction that writes `d` (a `setfield` counts), and `d` is not a
//!    parameter;
//! 2. every read of `d` is dominated by `P` (in `P`'s own block: after `P`), so no read can see
//!    `d`'s zero initial value or a value from an earlier trip around a loop;
//! 3. `s` is a constant; or a parameter no instruction writes; or a local (a parameter too)
//!    written by exactly one instruction `Q` that fully defines it (not a `setfield`) and
//!    dominates `P` — a parameter's incoming value then never reaches `P`;
//! 4. `d` and `s` have the same type and representation (`packed` flag).
//!
//! Chains (`a = copy b; c = copy a`) forward to the root (`c`'s reads read `b`). The copies
//! themselves stay; `dead-local-elim` removes the ones nobody reads any more.
//!
//! Soundness. Take a read `U` of `d`. By (2) every path from the entry to `U` passes `P`; on the
//! path's last visit of `P`, `d` takes `s`'s value, and by (1) nothing writes `d` afterwards, so
//! at `U`, `d` holds the value `s` had at that visit. `s` holds the same value at `U`: a
//! constant or a never-written parameter cannot change; otherwise `s`'s only write `Q`
//! dominates `P`, and if `Q` ran between the last visit of `P` and `U` there would be a path
//! from the entry to `Q` avoiding `P` (one exists because `Q` dominates `P` and `Q != P`)
//! followed by a path from `Q` to `U` avoiding `P` — a path from the entry to `U` that avoids
//! `P`, contradicting (2). For a chain, each link holds at every read, so the root's value is
//! read. Only operands are renamed; no instruction moves, appears or disappears, so traps and
//! memory effects are untouched. Constants go only where the verifier accepts one (the
//! substitution of `copy-prop`).

use super::copy_prop::{substitute_inst, substitute_term};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{display_operand, Block, EntityRef, Function, InstKind, Loc, Local, Operand};

/// The global copy propagation pass.
pub struct GlobalCopyProp;

/// Where a local is written: nowhere yet, once (block, position, whether fully), or more.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Defs {
    None,
    Once { block: Block, pos: u32, full: bool },
    Many,
}

impl Pass for GlobalCopyProp {
    fn name(&self) -> &'static str {
        "global-copy-prop"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let n = func.locals.len();
        // Without a `copy` in the function there is nothing to forward (nor to report): no
        // table is built.
        let any_copy = func.layout.iter().any(|&block| {
            func.blocks[block]
                .insts
                .iter()
                .any(|&inst| matches!(func.insts[inst].kind, InstKind::Copy { .. }))
        });
        if !any_copy {
            return false;
        }
        let mut defs = vec![Defs::None; n];
        // A function has a few parameters: looked for in its list, no table.
        let params = &func.params;
        let is_param = |l: Local| params.contains(&l);
        // Every write, in every block of the layout (reachable or not: more writes only make
        // the pass more careful).
        for &block in &func.layout {
            for (pos, &inst) in func.blocks[block].insts.iter().enumerate() {
                let kind = &func.insts[inst].kind;
                if let Some(d) = kind.def() {
                    let full = !matches!(kind, InstKind::SetField { .. });
                    if let Some(slot) = defs.get_mut(d.index()) {
                        *slot = match *slot {
                            Defs::None => Defs::Once {
                                block,
                                pos: pos as u32,
                                full,
                            },
                            _ => Defs::Many,
                        };
                    }
                }
            }
        }

        // Candidates in reverse post-order (a dominating copy is seen before the copies it
        // dominates, so chains resolve to their root), checked for (1), (3) and (4).
        // The cached CFG's shared handle: the walks ask for the dominator tree as they go.
        let cfg = cx.shared_cfg(func);
        let rpo = cfg.rpo();
        // Per local, the root its reads read and the copy into it: sized at the first
        // candidate (a function whose copies all fail (1), (3) or (4) needs neither).
        let mut forward: Vec<Option<Operand>> = Vec::new();
        let mut site: Vec<Option<(Block, u32, Loc)>> = Vec::new();
        let mut any = false;
        for &block in rpo {
            for (pos, &inst) in func.blocks[block].insts.iter().enumerate() {
                let InstKind::Copy { dst, src } = func.insts[inst].kind else {
                    continue;
                };
                if is_param(dst) || !matches!(defs[dst.index()], Defs::Once { .. }) {
                    continue;
                }
                let source_ok = match src {
                    Operand::Const(_) => true,
                    Operand::Local(s) if s == dst => false,
                    Operand::Local(s) => {
                        let (a, b) = (&func.locals[s], &func.locals[dst]);
                        a.ty == b.ty
                            && a.packed == b.packed
                            && match defs[s.index()] {
                                Defs::None => is_param(s),
                                Defs::Once {
                                    block: qb,
                                    pos: qp,
                                    full: true,
                                } => {
                                    if qb == block {
                                        (qp as usize) < pos
                                    } else {
                                        cx.domtree(func).dominates(qb, block)
                                    }
                                }
                                _ => false,
                            }
                    }
                };
                if !source_ok {
                    cx.missed_with(func, block, func.insts[inst].loc, || {
                        format!(
                            "copy into `{}` kept: its source `{}` may change before `{}` is read \
                             (it is written more than once, partially, or not before the copy)",
                            func.locals[dst].name,
                            display_operand(func, src),
                            func.locals[dst].name
                        )
                    });
                    continue;
                }
                if !any {
                    forward.resize(n, None);
                    site.resize(n, None);
                }
                let root = match src {
                    Operand::Local(s) => forward[s.index()].unwrap_or(src),
                    c => c,
                };
                forward[dst.index()] = Some(root);
                site[dst.index()] = Some((block, pos as u32, func.insts[inst].loc));
                any = true;
            }
        }
        if !any {
            return false;
        }

        // (2): every read of a candidate is dominated by its copy; otherwise it stays.
        let mut refuted = vec![false; n];
        for &block in rpo {
            let data = &func.blocks[block];
            let mut check = |l: Local, pos: u32, refuted: &mut Vec<bool>| {
                if let Some((pb, pp, _)) = site[l.index()] {
                    let dominated = if pb == block {
                        pp < pos
                    } else {
                        cx.domtree(func).dominates(pb, block)
                    };
                    if !dominated {
                        refuted[l.index()] = true;
                    }
                }
            };
            for (pos, &inst) in data.insts.iter().enumerate() {
                func.insts[inst].kind.for_each_use(|op| {
                    if let Operand::Local(l) = op {
                        check(l, pos as u32, &mut refuted);
                    }
                });
            }
            if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand())
            {
                check(l, u32::MAX, &mut refuted);
            }
        }
        // A refuted copy cannot serve as a link either: a chain through it falls back to it.
        for &block in rpo {
            for &inst in &func.blocks[block].insts {
                let InstKind::Copy { dst, src } = func.insts[inst].kind else {
                    continue;
                };
                if forward[dst.index()].is_none() {
                    continue;
                }
                if refuted[dst.index()] {
                    forward[dst.index()] = None;
                    if let Some((block, _, loc)) = site[dst.index()] {
                        cx.missed_with(func, block, loc, || {
                            format!(
                                "copy into `{}` kept: `{}` is read where this copy does not \
                                 dominate (that read may see an older value)",
                                func.locals[dst].name, func.locals[dst].name
                            )
                        });
                    }
                    continue;
                }
                // Re-resolve through links that survived.
                forward[dst.index()] = Some(match src {
                    Operand::Local(s) if !refuted[s.index()] => forward[s.index()].unwrap_or(src),
                    other => other,
                });
            }
        }

        let mut uses = vec![0u32; n];
        let mut map = |l: Local| {
            let new = forward.get(l.index()).copied().flatten();
            if new.is_some() {
                uses[l.index()] += 1;
            }
            new
        };
        let mut changed = false;
        for &block in rpo {
            for i in 0..func.blocks[block].insts.len() {
                let inst = func.blocks[block].insts[i];
                changed |= substitute_inst(&mut func.insts[inst].kind, &mut map) > 0;
            }
            if let Some(term) = func.blocks[block].terminator.as_mut() {
                changed |= substitute_term(term, &mut map) > 0;
            }
        }
        for index in 0..n {
            let (Some(root), Some((block, _, loc))) = (forward[index], site[index]) else {
                continue;
            };
            if uses[index] == 0 {
                continue;
            }
            let d = Local::new(index);
            cx.stat("copies_forwarded", 1);
            cx.applied_with(func, block, loc, || {
                format!(
                    "reads of `{}` read `{}` directly: `{}` is written only by this copy, \
                     which dominates every read",
                    func.locals[d].name,
                    display_operand(func, root),
                    func.locals[d].name,
                )
            });
        }
        changed
    }
}
