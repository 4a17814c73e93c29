//! Room in reused storage: tables an analysis recomputes from scratch (the CFG's, the
//! dominator tree's, the lowering's) are given room for the largest function they will hold
//! before the first computation, so that they allocate once instead of doubling up to it.
//! A table that must grow is replaced rather than grown: its contents are about to be
//! recomputed, so copying them would be wasted.

use cranelift_entity::{EntityRef, SecondaryMap};

/// Makes `v` room for `n` elements, dropping its contents if it had to grow.
pub fn vec_room<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        *v = Vec::with_capacity(n);
    }
}

/// Makes `map` room for `n` entries, dropping its contents if it had to grow.
pub fn map_room<K: EntityRef, V: Clone + Default>(map: &mut SecondaryMap<K, V>, n: usize) {
    if map.capacity() < n {
        *map = SecondaryMap::with_capacity(n);
    }
}
