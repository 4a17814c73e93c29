//! The constants created on the current IR block's main line, for reuse within it
//! (`FnLower::block_const`).
//!
//! A block usually needs a handful (zero, a status, a divisor), and a scan of a short list is
//! the cheapest lookup. A block can also hold thousands of distinct ones (each division of a
//! generated function by its own constant): a scan per lookup was quadratic there (`run -O0`
//! on one block of 80,000 additions and 27,000 divisions by distinct constants took 2.1 s), so
//! past [`LINEAR_SCAN`] entries the list is also indexed by a hash map. The list keeps the
//! creation order, which [`BlockConsts::truncate`] needs: the cold paths of a `push` create
//! constants that must leave the cache again.

use cranelift_codegen::ir::{types, Value};
use rustc_hash::FxHashMap;

/// Entries up to which a lookup scans the list instead of the index.
pub const LINEAR_SCAN: usize = 16;

/// The constants of one IR block's main line, by type and value.
#[derive(Default)]
pub struct BlockConsts {
    entries: Vec<(types::Type, i64, Value)>,
    /// Every entry of `entries`, by type and value, kept only while there are more than
    /// [`LINEAR_SCAN`] (empty otherwise).
    index: FxHashMap<(types::Type, i64), Value>,
}

impl BlockConsts {
    /// The value created for the constant `c` of type `ty`, if any.
    pub fn get(&self, ty: types::Type, c: i64) -> Option<Value> {
        if self.entries.len() <= LINEAR_SCAN {
            self.entries
                .iter()
                .find(|&&(t, k, _)| t == ty && k == c)
                .map(|&(_, _, v)| v)
        } else {
            self.index.get(&(ty, c)).copied()
        }
    }

    /// Records `v` as the constant `c` of type `ty` (which [`BlockConsts::get`] did not find).
    pub fn push(&mut self, ty: types::Type, c: i64, v: Value) {
        self.entries.push((ty, c, v));
        if self.entries.len() > LINEAR_SCAN {
            if self.index.is_empty() {
                self.index
                    .extend(self.entries.iter().map(|&(t, k, v)| ((t, k), v)));
            } else {
                self.index.insert((ty, c), v);
            }
        }
    }

    /// How many constants are recorded (a mark for [`BlockConsts::truncate`]).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets the constants recorded after the first `n`.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.entries.len() {
            return;
        }
        if !self.index.is_empty() {
            if n <= LINEAR_SCAN {
                self.index.clear();
            } else {
                for (t, k, _) in &self.entries[n..] {
                    self.index.remove(&(*t, *k));
                }
            }
        }
        self.entries.truncate(n);
    }

    /// Forgets every constant.
    pub fn clear(&mut self) {
        self.entries.clear();
        if !self.index.is_empty() {
            self.index.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    /// Past the scan bound, lookups, truncation and clearing give what a plain list would.
    #[test]
    fn the_index_answers_as_the_list_would() {
        let mut cache = BlockConsts::default();
        let n = 3 * LINEAR_SCAN as i64;
        for k in 0..n {
            assert_eq!(cache.get(types::I64, k), None);
            cache.push(types::I64, k, Value::new(k as usize));
        }
        cache.push(types::I8, 1, Value::new(1000));
        assert_eq!(cache.get(types::I64, 5), Some(Value::new(5)));
        assert_eq!(cache.get(types::I8, 1), Some(Value::new(1000)));
        assert_eq!(cache.get(types::I8, 2), None);
        let mark = 2 * LINEAR_SCAN;
        cache.truncate(mark);
        assert_eq!(cache.len(), mark);
        assert_eq!(
            cache.get(types::I64, mark as i64 - 1),
            Some(Value::new(mark - 1))
        );
        assert_eq!(cache.get(types::I64, mark as i64), None);
        assert_eq!(cache.get(types::I8, 1), None);
        // Back under the bound: the scan answers, and growing again rebuilds the index.
        cache.truncate(LINEAR_SCAN - 1);
        assert_eq!(
            cache.get(types::I64, LINEAR_SCAN as i64 - 2),
            Some(Value::new(LINEAR_SCAN - 2))
        );
        assert_eq!(cache.get(types::I64, LINEAR_SCAN as i64), None);
        for k in 100..100 + LINEAR_SCAN as i64 {
            cache.push(types::I32, k, Value::new(k as usize));
        }
        assert_eq!(cache.get(types::I64, 0), Some(Value::new(0)));
        assert_eq!(
            cache.get(types::I32, 100 + LINEAR_SCAN as i64 - 1),
            Some(Value::new(100 + LINEAR_SCAN - 1))
        );
        cache.clear();
        assert_eq!(cache.len(), 0);
        assert_eq!(cache.get(types::I64, 0), None);
    }
}
