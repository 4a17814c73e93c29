//! A set of 64-bit hashes, for the name sets of [`super::names::Names`]: open addressing with
//! linear probing in a power-of-two table kept at most half full.
//!
//! Its keys are already hashes (FxHash of names, whose finish moves the well-mixed high bits to
//! the bottom), so their low bits index the table as they are: an insert is a masked index and
//! a probe or two, inline, where a general hash set hashes the key again and calls into its
//! probing machinery (about fifty instructions per name the inliner makes).

/// A slot that holds no hash.
const EMPTY: u64 = 0;

/// The fewest slots a table has.
const MIN_SLOTS: usize = 16;

/// A set of `u64`s (see the module docs). Whatever the order of the inserts, it answers exactly
/// as a `HashSet<u64>` would.
#[derive(Default)]
pub(crate) struct Hashes {
    /// [`EMPTY`] or a hash, each hash at the first free slot from its low bits on (wrapping).
    slots: Vec<u64>,
    /// How many slots hold a hash.
    len: usize,
    /// Whether the hash equal to [`EMPTY`], which has no slot, is in the set.
    has_empty: bool,
}

impl Hashes {
    /// Empties the set, with room for `room` hashes before the table grows (its storage is
    /// kept).
    pub(crate) fn clear_with_room(&mut self, room: usize) {
        let slots = (2 * room).next_power_of_two().max(MIN_SLOTS);
        self.slots.clear();
        self.slots.resize(slots, EMPTY);
        self.len = 0;
        self.has_empty = false;
    }

    /// Adds `h`; whether it was not in the set yet.
    #[inline]
    pub(crate) fn insert(&mut self, h: u64) -> bool {
        if h == EMPTY {
            return !std::mem::replace(&mut self.has_empty, true);
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == h {
                return false;
            }
            if slot == EMPTY {
                self.slots[at] = h;
                self.len += 1;
                return true;
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the table (or makes the first), placing the hashes anew.
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![EMPTY; (2 * old.len()).max(MIN_SLOTS)];
        let mask = self.slots.len() - 1;
        for h in old.into_iter().filter(|&h| h != EMPTY) {
            let mut at = h as usize & mask;
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashSet;

    /// The set answers every insert as a `HashSet<u64>` does: hashes that share their low bits
    /// (so probe past each other and wrap around the table), the empty-slot value `0`, growth
    /// from an empty set and from a cleared one with little room, and a clear after growth.
    #[test]
    fn inserts_answer_as_a_hash_set_does() {
        let mut set = Hashes::default();
        for room in [0, 1, 5, 100] {
            set.clear_with_room(room);
            let mut reference = FxHashSet::default();
            let keys = (0..600u64).flat_map(|k| {
                [
                    k,
                    k << 40,
                    (k << 40) | 15,
                    k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    u64::MAX - k % 7,
                ]
            });
            for (n, h) in keys.enumerate() {
                assert_eq!(set.insert(h), reference.insert(h), "{room} {n} {h:#x}");
            }
            assert_eq!(set.len + usize::from(set.has_empty), reference.len());
            assert!(2 * set.len <= set.slots.len());
        }
        set.clear_with_room(3);
        assert!(set.insert(0) && !set.insert(0) && set.insert(16) && !set.insert(16));
    }
}
