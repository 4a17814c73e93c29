//! Which vec lengths a call or a `push` to another local may change: the vec types each
//! callee may change ([`CallEffects`]) and, per vec local, the `new` sites whose vecs it may
//! hold, so that two locals with known, disjoint sites are known never to alias (see
//! [`CallKills`]). The fact analysis's kill rules ([`super::transfer`]) ask it.

use super::driver::room_for;
use super::transfer::may_alias;
use crate::analysis::effects::CallEffects;
use poolopt_ir::{EntityRef, Function, Inst, InstKind, Local, Operand, Type};

/// What may change a vec length in one function: for each function it calls, the vec types
/// whose length the call may change (without a summary every call kills every length fact),
/// and where each vec local's vecs come from.
///
/// The *sites* of a vec local are the `new` instructions whose vecs it may hold: a `new` into
/// it adds that instruction, a copy from another vec local adds that local's sites (to a
/// fixpoint), and any other source — a parameter, a call result — makes them unknown. A local
/// only ever holds what its assignments put there (before the first one it holds no vec, whose
/// length is 0 and cannot change: `push` traps), so two locals whose sites are known and
/// disjoint never hold the same vec, even when their types are equal
/// ([`CallKills::may_alias`]).
///
/// Every table is rebuilt in place ([`CallKills::recompute`]): the analyses of a module's
/// functions, one after the other, reuse the storage of the last recycled one.
#[derive(Clone, Debug, Default)]
pub struct CallKills {
    /// Each function called (with a summary; a callee not found here may change every vec):
    /// the callee and its range of `changed_types`.
    by_callee: Vec<(poolopt_ir::FuncId, u32, u32)>,
    /// The vec types each callee may change, one callee's after another.
    changed_types: Vec<Type>,
    /// The distinct vec types of the function's locals, in the order of the locals: the
    /// *classes* of [`AliasKey`].
    vec_types: Vec<Type>,
    /// Indexed by local: whether its sites are unknown.
    unknown_sites: Vec<bool>,
    /// Indexed by local: its sites, when they are known (each list's storage is kept for the
    /// next function).
    sites: Vec<Vec<Inst>>,
    /// Indexed by local: what [`CallKills::may_alias`] compares, made once from the types
    /// and `sites`, so that a `push` shifting every length in a set asks in O(1).
    alias_keys: Vec<AliasKey>,
    /// Indexed by local: no other local may hold its vecs ([`CallKills::alone`]).
    alone: Vec<bool>,
    /// Work space: the vec locals and their classes.
    vec_locals: Vec<(Local, u32)>,
    /// Work space: the definitions of vec locals, in layout order.
    vec_defs: Vec<(Local, VecDef)>,
    /// Work space: the `(class, site)` of every local with a single site, sorted.
    singles: Vec<(u32, Inst)>,
    /// Work space: per class, whether a local of that type has unknown or several sites.
    mixed: Vec<bool>,
}

/// How an instruction defines a vec local (see [`CallKills`]).
#[derive(Copy, Clone, Debug)]
enum VecDef {
    /// A `new`: its vec.
    New(Inst),
    /// A copy of another vec local: that local's vecs.
    Copy(Local),
    /// Anything else (a call, a `pop`, a `get`): unknown vecs.
    Other,
}

/// A vec local's type and sites in a form compared in O(1) (see [`CallKills::may_alias`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum AliasKey {
    /// Not a vec local.
    NotVec,
    /// A vec local of the `class`-th distinct vec type, whose sites are unknown.
    Unknown { class: u32 },
    /// A vec local whose vecs all come from the one `new` at `site`.
    Single { class: u32, site: Inst },
    /// A vec local with several known sites (compared as sets).
    Several { class: u32 },
}

impl AliasKey {
    fn class(self) -> Option<u32> {
        match self {
            AliasKey::NotVec => None,
            AliasKey::Unknown { class }
            | AliasKey::Single { class, .. }
            | AliasKey::Several { class } => Some(class),
        }
    }
}

/// Past this many sites a local's sites count as unknown.
const MAX_SITES: usize = 16;

/// At most this many rounds of the sites' fixpoint; past them every local's sites count as
/// unknown.
const MAX_SITE_ROUNDS: usize = 64;

impl CallKills {
    /// Whether vec locals `v` and `w` may hold the same vec: the same local, or the same type
    /// and sites that are unknown or overlap.
    pub fn may_alias(&self, func: &Function, v: Local, w: Local) -> bool {
        if v == w {
            return true;
        }
        if let (Some(&kv), Some(&kw)) = (
            self.alias_keys.get(v.index()),
            self.alias_keys.get(w.index()),
        ) {
            match (kv.class(), kw.class()) {
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
            match (kv, kw) {
                (AliasKey::Single { site: a, .. }, AliasKey::Single { site: b, .. }) => {
                    return a == b
                }
                (AliasKey::Unknown { .. }, _) | (_, AliasKey::Unknown { .. }) => return true,
                _ => {} // several sites on one side: compare the sets below
            }
        }
        if !may_alias(func, v, w) {
            return false;
        }
        match (self.known_sites(v), self.known_sites(w)) {
            (Some(a), Some(b)) => a.iter().any(|x| b.contains(x)),
            _ => true,
        }
    }

    /// The sites of `v`, when they are known.
    fn known_sites(&self, v: Local) -> Option<&[Inst]> {
        match self.unknown_sites.get(v.index()) {
            Some(false) => self.sites.get(v.index()).map(Vec::as_slice),
            _ => None,
        }
    }

    /// Whether no local other than `v` may hold `v`'s vecs ([`CallKills::may_alias`] is false
    /// for every other local), so a `push v` changes no other length.
    pub fn alone(&self, v: Local) -> bool {
        self.alone.get(v.index()).copied().unwrap_or(false)
    }

    /// The kills of `func`'s calls under `effects`.
    pub fn of(func: &Function, effects: Option<&CallEffects>) -> CallKills {
        let mut calls = CallKills::default();
        calls.recompute(func, effects);
        calls
    }

    /// Makes `self` the kills of `func`'s calls under `effects` ([`CallKills::of`]), in the
    /// storage of what it was.
    pub fn recompute(&mut self, func: &Function, effects: Option<&CallEffects>) {
        let n = func.locals.len();
        // Tables by local with room for the next functions too (see `room_for`).
        room_for(&mut self.alias_keys, n);
        room_for(&mut self.alone, n);
        room_for(&mut self.unknown_sites, n);
        room_for(&mut self.vec_locals, n);
        // The vec locals with their classes, in one walk over the locals; the tables of the
        // others are filled whole (not a vec, not alone).
        self.vec_types.clear();
        self.vec_locals.clear();
        for (local, data) in func.locals.iter() {
            if matches!(data.ty, Type::Vec(_)) {
                let class = match self.vec_types.iter().position(|&t| t == data.ty) {
                    Some(c) => c,
                    None => {
                        self.vec_types.push(data.ty);
                        self.vec_types.len() - 1
                    }
                };
                self.vec_locals.push((local, class as u32));
            }
        }
        self.by_callee.clear();
        self.changed_types.clear();
        self.compute_sites(func, effects);
        self.alias_keys.clear();
        self.alias_keys.resize(n, AliasKey::NotVec);
        for &(local, class) in &self.vec_locals {
            self.alias_keys[local.index()] = match self.known_sites(local) {
                None => AliasKey::Unknown { class },
                Some(&[site]) => AliasKey::Single { class, site },
                Some(_) => AliasKey::Several { class },
            };
        }
        self.compute_alone(n);
    }

    /// Whether a call of `callee` may change the length of a vec of type `ty`.
    pub fn may_change(&self, callee: poolopt_ir::FuncId, ty: Type) -> bool {
        match self.by_callee.iter().find(|&&(c, ..)| c == callee) {
            Some(&(_, start, end)) => {
                self.changed_types[start as usize..end as usize].contains(&ty)
            }
            None => true,
        }
    }

    /// The sites of every vec local of `func` (see [`CallKills`]): the definitions of vec
    /// locals are listed in one walk (which also records what each callee may change under
    /// `effects`), then applied in layout order, round after round, until
    /// a round changes nothing (one round without a vec copy: only a copy reads other
    /// locals' sites).
    fn compute_sites(&mut self, func: &Function, effects: Option<&CallEffects>) {
        let n = func.locals.len();
        let (unknown, sites) = (&mut self.unknown_sites, &mut self.sites);
        unknown.clear();
        unknown.resize(n, false);
        sites.truncate(n);
        sites.iter_mut().for_each(Vec::clear);
        sites.resize_with(n, Vec::new);
        for &p in &func.params {
            if let Some(u) = unknown.get_mut(p.index()) {
                *u = true;
            }
        }
        let defs = &mut self.vec_defs;
        defs.clear();
        let mut copies = false;
        for &b in &func.layout {
            for &inst in &func.blocks[b].insts {
                let kind = func.inst(inst);
                if let (InstKind::Call { func: callee, .. }, Some(effects)) = (kind, effects) {
                    let kills = (&mut self.by_callee, &mut self.changed_types);
                    add_callee(kills, &self.vec_types, *callee, effects);
                }
                let Some(d) = kind.def() else { continue };
                if !matches!(func.local_ty(d), Type::Vec(_)) {
                    continue;
                }
                let def = match *kind {
                    InstKind::VecNew { .. } => VecDef::New(inst),
                    InstKind::Copy {
                        src: Operand::Local(w),
                        ..
                    } => {
                        copies = true;
                        VecDef::Copy(w)
                    }
                    _ => VecDef::Other,
                };
                defs.push((d, def));
            }
        }
        let mut changed = true;
        let mut rounds = 0;
        while changed && rounds < MAX_SITE_ROUNDS {
            changed = false;
            rounds += 1;
            for &(d, def) in defs.iter() {
                changed |= add_sites(unknown, sites, d, def);
            }
            if !copies {
                break;
            }
        }
        if changed && copies {
            // No fixpoint within the bound: know nothing.
            unknown.iter_mut().for_each(|u| *u = true);
        }
    }

    /// Which vec locals no other local may alias: a single known site that no other local's
    /// sites include, in a vec type no local with unknown or several sites has.
    fn compute_alone(&mut self, n: usize) {
        self.singles.clear();
        self.mixed.clear();
        self.mixed.resize(self.vec_types.len(), false);
        for &(local, _) in &self.vec_locals {
            match self.alias_keys[local.index()] {
                AliasKey::Single { class, site } => self.singles.push((class, site)),
                AliasKey::Unknown { class } | AliasKey::Several { class } => {
                    if let Some(m) = self.mixed.get_mut(class as usize) {
                        *m = true;
                    }
                }
                AliasKey::NotVec => {}
            }
        }
        self.singles.sort_unstable();
        self.alone.clear();
        self.alone.resize(n, false);
        for &(local, _) in &self.vec_locals {
            if let AliasKey::Single { class, site } = self.alias_keys[local.index()] {
                let first = self.singles.partition_point(|&s| s < (class, site));
                let shared = self.singles.get(first + 1) == Some(&(class, site));
                let mixed = self.mixed.get(class as usize).copied().unwrap_or(false);
                self.alone[local.index()] = !shared && !mixed;
            }
        }
    }
}

/// Records in `by_callee` and `changed_types` (see [`CallKills`]) which of `vec_types` a call
/// of `callee` may change under `effects`, unless it is recorded.
fn add_callee(
    (by_callee, changed_types): (&mut Vec<(poolopt_ir::FuncId, u32, u32)>, &mut Vec<Type>),
    vec_types: &[Type],
    callee: poolopt_ir::FuncId,
    effects: &CallEffects,
) {
    if by_callee.iter().any(|&(c, ..)| c == callee) {
        return;
    }
    let start = changed_types.len() as u32;
    let changed = vec_types.iter().copied();
    changed_types.extend(changed.filter(|&ty| effects.may_change(callee, ty)));
    by_callee.push((callee, start, changed_types.len() as u32));
}

/// Applies the definition `def` of vec local `d` to its sites (`unknown`, `sites`: see
/// [`CallKills`]); returns whether they changed.
fn add_sites(unknown: &mut [bool], sites: &mut [Vec<Inst>], d: Local, def: VecDef) -> bool {
    let d = d.index();
    if unknown.get(d) != Some(&false) {
        return false; // unknown already (or not a local)
    }
    let mut changed = false;
    let mut add = |set: &mut Vec<Inst>, site: Inst| {
        if !set.contains(&site) {
            set.push(site);
            changed = true;
        }
    };
    match def {
        VecDef::New(inst) => add(&mut sites[d], inst),
        // Its own sites: nothing new.
        VecDef::Copy(w) if w.index() == d => {}
        VecDef::Copy(w) if unknown.get(w.index()) == Some(&false) => {
            let w = w.index();
            let (set, source) = if d < w {
                let (low, high) = sites.split_at_mut(w);
                (&mut low[d], &high[0])
            } else {
                let (low, high) = sites.split_at_mut(d);
                (&mut high[0], &low[w])
            };
            for &site in source {
                add(set, site);
            }
        }
        VecDef::Copy(_) | VecDef::Other => {
            unknown[d] = true;
            return true;
        }
    }
    if sites[d].len() > MAX_SITES {
        unknown[d] = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::CallGraph;
    use rustc_hash::FxHashMap as HashMap;

    /// The earlier sites: a set per local, `None` when unknown, the function's instructions
    /// walked round after round.
    fn sites_as_before(func: &Function) -> Vec<Option<Vec<Inst>>> {
        let mut sites: Vec<Option<Vec<Inst>>> =
            func.locals.values().map(|_| Some(Vec::new())).collect();
        for &p in &func.params {
            if let Some(s) = sites.get_mut(p.index()) {
                *s = None;
            }
        }
        let (mut changed, mut rounds, mut copies) = (true, 0, true);
        while changed && copies && rounds < 64 {
            changed = false;
            copies = false;
            rounds += 1;
            for &b in &func.layout {
                for &inst in &func.blocks[b].insts {
                    let kind = func.inst(inst);
                    let Some(d) = kind.def() else { continue };
                    if !matches!(func.local_ty(d), Type::Vec(_)) {
                        continue;
                    }
                    let add: Option<Vec<Inst>> = match *kind {
                        InstKind::VecNew { .. } => Some(vec![inst]),
                        InstKind::Copy {
                            src: Operand::Local(w),
                            ..
                        } => {
                            copies = true;
                            sites.get(w.index()).cloned().flatten()
                        }
                        _ => None,
                    };
                    let cur = &mut sites[d.index()];
                    match (cur.as_mut(), add) {
                        (None, _) => {}
                        (Some(_), None) => {
                            *cur = None;
                            changed = true;
                        }
                        (Some(set), Some(add)) => {
                            for a in add {
                                if !set.contains(&a) {
                                    set.push(a);
                                    changed = true;
                                }
                            }
                            if set.len() > MAX_SITES {
                                *cur = None;
                            }
                        }
                    }
                }
            }
        }
        if changed && copies {
            sites.iter_mut().for_each(|s| *s = None);
        }
        sites
    }

    /// The earlier alias keys and lone locals, from the earlier sites (`alone` counted the
    /// single sites in a hash map).
    fn keys_as_before(func: &Function, sites: &[Option<Vec<Inst>>]) -> (Vec<AliasKey>, Vec<bool>) {
        let mut classes: Vec<Type> = Vec::new();
        let keys: Vec<AliasKey> = func
            .locals
            .iter()
            .map(|(local, data)| {
                if !matches!(data.ty, Type::Vec(_)) {
                    return AliasKey::NotVec;
                }
                let class = match classes.iter().position(|&t| t == data.ty) {
                    Some(c) => c as u32,
                    None => {
                        classes.push(data.ty);
                        classes.len() as u32 - 1
                    }
                };
                match sites.get(local.index()).and_then(|s| s.as_deref()) {
                    None => AliasKey::Unknown { class },
                    Some([site]) => AliasKey::Single { class, site: *site },
                    Some(_) => AliasKey::Several { class },
                }
            })
            .collect();
        let mut singles: HashMap<(u32, Inst), u32> = HashMap::default();
        let mut mixed: Vec<u32> = Vec::new();
        for key in &keys {
            match *key {
                AliasKey::Single { class, site } => *singles.entry((class, site)).or_default() += 1,
                AliasKey::Unknown { class } | AliasKey::Several { class } => mixed.push(class),
                AliasKey::NotVec => {}
            }
        }
        let alone = keys
            .iter()
            .map(|key| match *key {
                AliasKey::Single { class, site } => {
                    singles[&(class, site)] == 1 && !mixed.contains(&class)
                }
                _ => false,
            })
            .collect();
        (keys, alone)
    }

    /// The call kills rebuilt in place (one `CallKills` reused from function to function, as
    /// the analyses reuse it) have the sites, alias keys and lone locals of the earlier
    /// version, and the same kills per callee and vec type, on every function of the
    /// repository's programs, with and without the module's call effects.
    #[test]
    fn call_kills_rebuilt_in_place_are_those_of_the_earlier_version() {
        let mut calls = CallKills::default();
        let (mut functions, mut with_sites, mut several, mut shared) = (0, 0, 0, 0);
        for module in crate::test_programs::modules() {
            let graph = CallGraph::compute(&module);
            let effects = CallEffects::compute(&module, &graph);
            for func in module.funcs.values() {
                for fx in [None, Some(&effects)] {
                    calls.recompute(func, fx);
                    let sites = sites_as_before(func);
                    for (l, before) in sites.iter().enumerate() {
                        let now = calls.known_sites(Local::new(l));
                        assert_eq!(now, before.as_deref(), "{} local {l}", func.name);
                    }
                    let (keys, alone) = keys_as_before(func, &sites);
                    assert_eq!(calls.alias_keys, keys, "{}", func.name);
                    assert_eq!(calls.alone, alone, "{}", func.name);
                    let vec_types: Vec<Type> = func
                        .locals
                        .values()
                        .map(|l| l.ty)
                        .filter(|ty| matches!(ty, Type::Vec(_)))
                        .collect();
                    let insts = func.layout.iter().flat_map(|&b| &func.blocks[b].insts);
                    for &inst in insts {
                        if let InstKind::Call { func: callee, .. } = *func.inst(inst) {
                            for &ty in &vec_types {
                                let before = fx.is_none_or(|fx| fx.may_change(callee, ty));
                                assert_eq!(calls.may_change(callee, ty), before, "{}", func.name);
                            }
                        }
                    }
                    functions += 1;
                    with_sites += usize::from(sites.iter().flatten().any(|s| !s.is_empty()));
                    several += usize::from(sites.iter().flatten().any(|s| s.len() > 1));
                    shared += usize::from(
                        alone
                            .iter()
                            .zip(&keys)
                            .any(|(&a, k)| !a && matches!(k, AliasKey::Single { .. })),
                    );
                }
            }
        }
        assert!(
            functions > 400 && with_sites > 50 && several > 0 && shared > 0,
            "{functions} functions, {with_sites} with sites, {several} with several, {shared}"
        );
    }
}
