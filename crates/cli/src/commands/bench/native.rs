//! The native reference: the workloads of workloads.md in plain Rust (a `Pool<S>` of a
//! `Vec<S>` and a `Vec<i64>` free stack, with the pool's own index checks, the `i == k` checks
//! and the checksum), compiled by rustc at the binary's optimization level. Its results must
//! equal the expected ones like every other implementation's.

use super::workloads::{CallMode, Case, ElemSize, Workload};
use std::hint::black_box;

/// A failed check: what the IR programs report as a trap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeTrap(pub &'static str);

type Result<T> = std::result::Result<T, NativeTrap>;

fn mix(h: i64, x: i64) -> i64 {
    h.wrapping_mul(31).wrapping_add(x)
}

/// A slot type: how to make one from a key and how it enters the checksum.
trait Slot: Copy {
    fn make(k: i64) -> Self;
    /// Folds `mix` over the fields in declaration order.
    fn fold(&self, h: i64) -> i64;
}

/// `S8 = struct { a: i32, b: i32 }`.
#[derive(Copy, Clone)]
struct S8 {
    a: i32,
    b: i32,
}

impl Slot for S8 {
    fn make(k: i64) -> S8 {
        S8 {
            a: k as i32,
            b: k.wrapping_mul(7) as i32,
        }
    }

    fn fold(&self, h: i64) -> i64 {
        mix(mix(h, i64::from(self.a)), i64::from(self.b))
    }
}

/// `S128 = struct { f0: i64, ..., f15: i64 }`.
#[derive(Copy, Clone)]
struct S128 {
    f: [i64; 16],
}

impl Slot for S128 {
    fn make(k: i64) -> S128 {
        let mut f = [0i64; 16];
        for (j, field) in f.iter_mut().enumerate() {
            *field = k.wrapping_add(j as i64);
        }
        S128 { f }
    }

    fn fold(&self, h: i64) -> i64 {
        self.f.iter().fold(h, |h, &x| mix(h, x))
    }
}

/// The slot pool with the LIFO free-index policy.
struct Pool<S> {
    items: Vec<S>,
    free: Vec<i64>,
}

const BAD_INDEX: NativeTrap = NativeTrap("slot index out of range");

impl<S: Slot> Pool<S> {
    fn new() -> Pool<S> {
        Pool {
            items: Vec::new(),
            free: Vec::new(),
        }
    }

    fn alloc(&mut self, v: S) -> Result<i64> {
        if let Some(i) = self.free.pop() {
            if i < 0 || i >= self.items.len() as i64 {
                return Err(BAD_INDEX);
            }
            self.items[i as usize] = v;
            return Ok(i);
        }
        let i = self.items.len() as i64;
        self.items.push(v);
        Ok(i)
    }

    fn release(&mut self, i: i64) -> Result<()> {
        if i < 0 || i >= self.items.len() as i64 {
            return Err(BAD_INDEX);
        }
        self.free.push(i);
        Ok(())
    }

    fn checksum(&self) -> i64 {
        self.items.iter().fold(0, |h, item| item.fold(h))
    }
}

/// How the owners call the pool helpers: one implementation per [`CallMode`], differing only
/// in the inlining attributes of the three helpers.
trait Calls {
    fn make<S: Slot>(k: i64) -> S;
    fn alloc<S: Slot>(pool: &mut Pool<S>, v: S) -> Result<i64>;
    fn release<S: Slot>(pool: &mut Pool<S>, i: i64) -> Result<()>;
}

/// As written: rustc decides.
struct Natural;
/// The helpers out of line.
struct Boundary;
/// The helpers always inlined.
struct Inlined;

impl Calls for Natural {
    fn make<S: Slot>(k: i64) -> S {
        S::make(k)
    }
    fn alloc<S: Slot>(pool: &mut Pool<S>, v: S) -> Result<i64> {
        pool.alloc(v)
    }
    fn release<S: Slot>(pool: &mut Pool<S>, i: i64) -> Result<()> {
        pool.release(i)
    }
}

impl Calls for Boundary {
    #[inline(never)]
    fn make<S: Slot>(k: i64) -> S {
        S::make(k)
    }
    #[inline(never)]
    fn alloc<S: Slot>(pool: &mut Pool<S>, v: S) -> Result<i64> {
        pool.alloc(v)
    }
    #[inline(never)]
    fn release<S: Slot>(pool: &mut Pool<S>, i: i64) -> Result<()> {
        pool.release(i)
    }
}

impl Calls for Inlined {
    #[inline(always)]
    fn make<S: Slot>(k: i64) -> S {
        S::make(k)
    }
    #[inline(always)]
    fn alloc<S: Slot>(pool: &mut Pool<S>, v: S) -> Result<i64> {
        pool.alloc(v)
    }
    #[inline(always)]
    fn release<S: Slot>(pool: &mut Pool<S>, i: i64) -> Result<()> {
        pool.release(i)
    }
}

fn append_owner<S: Slot, C: Calls>(n: i64, rounds: i64, seed: i64) -> Result<i64> {
    let mut h = 0;
    for r in 0..rounds {
        let mut pool = Pool::<S>::new();
        for k in 0..n {
            let key = seed.wrapping_add(r.wrapping_mul(n)).wrapping_add(k);
            if C::alloc(&mut pool, C::make(key))? != k {
                return Err(NativeTrap("append: alloc returned an unexpected index"));
            }
        }
        h = mix(h, pool.checksum());
    }
    Ok(h)
}

fn lifo_owner<S: Slot, C: Calls>(n: i64, rounds: i64, seed: i64) -> Result<i64> {
    let mut pool = Pool::<S>::new();
    let mut idx = vec![0i64; n.max(0) as usize];
    for r in 0..rounds {
        for k in 0..n {
            let key = seed.wrapping_add(r.wrapping_mul(n)).wrapping_add(k);
            idx[k as usize] = C::alloc(&mut pool, C::make(key))?;
            if idx[k as usize] != k {
                return Err(NativeTrap("lifo: alloc returned an unexpected index"));
            }
        }
        for k in (0..n).rev() {
            C::release(&mut pool, idx[k as usize])?;
        }
    }
    Ok(pool.checksum())
}

fn scattered_owner<S: Slot, C: Calls>(n: i64, rounds: i64, seed: i64) -> Result<i64> {
    let mut pool = Pool::<S>::new();
    for k in 0..n {
        C::alloc(&mut pool, C::make(seed.wrapping_add(k)))?;
    }
    let half = n / 2;
    let j = |k: i64, r: i64| (k.wrapping_mul(7919).wrapping_add(r.wrapping_mul(13))) % n;
    for r in 0..rounds {
        for k in 0..half {
            C::release(&mut pool, j(k, r))?;
        }
        for m in 0..half {
            let key = seed.wrapping_add((r + 1).wrapping_mul(n)).wrapping_add(m);
            if C::alloc(&mut pool, C::make(key))? != j(half - 1 - m, r) {
                return Err(NativeTrap("scattered: alloc returned an unexpected index"));
            }
        }
    }
    Ok(pool.checksum())
}

fn run_typed<S: Slot, C: Calls>(workload: Workload, n: i64, rounds: i64) -> Result<i64> {
    let owner = match workload {
        Workload::Append => append_owner::<S, C>,
        Workload::Lifo => lifo_owner::<S, C>,
        Workload::Scattered => scattered_owner::<S, C>,
    };
    let p = owner(n, rounds, 0)?;
    let q = owner(n, rounds, 1)?;
    Ok(mix(p, q))
}

/// Runs `case` natively; the inputs go through [`black_box`] so nothing is computed at
/// compile time.
pub fn run(case: &Case) -> Result<i64> {
    let (n, rounds) = black_box((case.n, case.rounds));
    let result = match (black_box(case.elem), case.calls) {
        (ElemSize::B8, CallMode::Natural) => run_typed::<S8, Natural>(case.workload, n, rounds),
        (ElemSize::B8, CallMode::Boundary) => run_typed::<S8, Boundary>(case.workload, n, rounds),
        (ElemSize::B8, CallMode::Inline) => run_typed::<S8, Inlined>(case.workload, n, rounds),
        (ElemSize::B128, CallMode::Natural) => run_typed::<S128, Natural>(case.workload, n, rounds),
        (ElemSize::B128, CallMode::Boundary) => {
            run_typed::<S128, Boundary>(case.workload, n, rounds)
        }
        (ElemSize::B128, CallMode::Inline) => run_typed::<S128, Inlined>(case.workload, n, rounds),
    };
    black_box(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::bench::workloads::{cases, SizeClass};

    #[test]
    fn small_sizes_match_the_expected_results() {
        for calls in [CallMode::Natural, CallMode::Boundary, CallMode::Inline] {
            for case in cases(&Workload::ALL, SizeClass::Small, calls).unwrap() {
                assert_eq!(run(&case), Ok(case.expected), "{case} ({})", calls.name());
            }
        }
    }

    #[test]
    fn reference_lifo_matches_the_expected_result() {
        for case in cases(&[Workload::Lifo], SizeClass::Reference, CallMode::Natural).unwrap() {
            assert_eq!(run(&case), Ok(case.expected), "{case}");
        }
    }

    #[test]
    fn a_bad_index_traps() {
        let mut pool = Pool::<S8>::new();
        pool.free.push(3);
        assert_eq!(pool.alloc(S8::make(1)), Err(BAD_INDEX));
        assert_eq!(pool.release(-1), Err(BAD_INDEX));
    }
}
