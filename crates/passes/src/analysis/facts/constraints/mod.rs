//! The fact language: difference constraints `a <= b + c` between terms, and the set of them
//! that holds at one program point.
//!
//! A [`Term`] is the constant 0, the value of an `i64` local, or the length of the vec a vec
//! local holds. A [`Constraint`] `a <= b + c` (with a constant `c`) is a statement about the
//! *mathematical* integers those terms denote; every fact the transfer functions add is proved
//! for the exact values, so wrapping arithmetic never enters a constraint (an `add` whose result
//! may wrap produces no constraint at all). With the zero term the language says `i >= 0`
//! (`0 <= i + 0`), `i < len(v)` (`i <= len(v) - 1`), `len(v) > k` (`0 <= len(v) - (k + 1)`),
//! `i < 10` (`i <= 0 + 9`), `n == len(v)` (two constraints), `len(v) == len(w) + c`,
//! `j == i - 1`.
//!
//! One module per concept:
//!
//! - `terms`: the vocabulary ([`Term`], [`Constraint`], [`CmpFact`], [`QuotientFact`],
//!   [`Fact`]) and how it reads in messages;
//! - `set`: a [`FactSet`]'s storage (one constraint per pair, sorted) and a stored state's
//!   [`FactView`] of it, and the edits of a set: adding facts, eliminating a term by
//!   Fourier–Motzkin, killing and forgetting locals, shifting lengths;
//! - `search`: the bounded shortest-distance search that reads a set as a graph, with its
//!   per-thread work spaces;
//! - `queries`: what a set is known to imply ([`FactQueries`]), written once for a set and a
//!   view;
//! - `lattice`: the meet ([`FactSet::meet_with`]) and the widenings ([`FactSet::widen`],
//!   [`FactSet::widen_strict`]);
//! - `pool`: emptied sets and analysis buffers kept for reuse ([`FactSetPool`]).

mod lattice;
mod pool;
mod queries;
mod search;
mod set;
mod terms;
#[cfg(test)]
pub(super) mod tests;

pub use lattice::STRICT_AFTER;
pub use pool::FactSetPool;
pub use queries::FactQueries;
pub use search::SEARCH_DEPTH;
pub use set::{FactSet, FactView, MAX_SET_FACTS};
pub use terms::{
    fit, CmpFact, Constraint, Fact, QuotientBound, QuotientFact, Term, TermKind, MAX_LEN,
};

pub(super) use search::{lowers_of_values, upper_and_dist, uppers_of_values};
