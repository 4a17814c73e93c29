//! The vec heap of one run: vec headers addressed by handle, their element bytes, and the
//! memory accounting shared with the JIT runtime (`poolopt_ir::semantics`).
//!
//! Handle 0 is the "never assigned" vec: it is permanently dead, exactly like a dropped vec.
//! Capacity follows [`grown_capacity`] and is charged through [`charge_for_growth`]; the byte
//! buffer itself only holds what has been pushed (the accounting, not the buffer, follows the
//! capacity).

use crate::error::Fault;
use crate::stats::RunStats;
use poolopt_ir::{
    charge_for_growth, grown_capacity, index_oob_message, oom_message, TrapKind, HEADER_BYTES,
    POP_EMPTY_MESSAGE, USE_AFTER_DROP_MESSAGE,
};

/// One vec header and its elements.
#[derive(Debug, Default)]
struct VecObj {
    len: u64,
    cap: u64,
    dead: bool,
    elem_size: u32,
    /// At least `len * elem_size` bytes; elements are stored back to back.
    bytes: Vec<u8>,
}

/// All vecs of a run, with the bytes in use and the memory limit.
#[derive(Debug)]
pub(crate) struct Heap {
    vecs: Vec<VecObj>,
    in_use: u64,
    max_memory: u64,
}

/// Makes room in `v` for `more` elements, amortized when the host allows, else exactly;
/// whether it could. The interpreter's memory (vec buffers, the frame stack) grows through
/// this, so a host that refuses memory ends a run with a trap instead of an abort.
pub(crate) fn room_for<T>(v: &mut Vec<T>, more: usize) -> bool {
    v.try_reserve(more).is_ok() || v.try_reserve_exact(more).is_ok()
}

fn trap(kind: TrapKind, message: impl Into<String>) -> Fault {
    Fault::Trap(kind, message.into())
}

impl Heap {
    pub(crate) fn new(max_memory: u64) -> Heap {
        Heap {
            vecs: vec![VecObj {
                dead: true,
                ..VecObj::default()
            }],
            in_use: 0,
            max_memory,
        }
    }

    fn obj(&self, handle: i64) -> Result<&VecObj, Fault> {
        usize::try_from(handle)
            .ok()
            .and_then(|h| self.vecs.get(h))
            .ok_or_else(|| Fault::Malformed(format!("invalid vec handle {handle}")))
    }

    fn obj_mut(&mut self, handle: i64) -> Result<&mut VecObj, Fault> {
        obj_mut(&mut self.vecs, handle)
    }

    /// `new`: a fresh empty vec; charges [`HEADER_BYTES`].
    pub(crate) fn alloc(&mut self, elem_size: u32, stats: &mut RunStats) -> Result<i64, Fault> {
        let total = self
            .in_use
            .checked_add(HEADER_BYTES)
            .filter(|&t| t <= self.max_memory)
            .ok_or_else(|| {
                trap(
                    TrapKind::OutOfMemory,
                    oom_message(HEADER_BYTES, self.max_memory),
                )
            })?;
        self.in_use = total;
        stats.bytes_allocated += HEADER_BYTES;
        self.vecs.push(VecObj {
            elem_size,
            ..VecObj::default()
        });
        Ok((self.vecs.len() - 1) as i64)
    }

    /// `len v` (0 for a dropped or never-assigned vec).
    #[inline]
    pub(crate) fn len(&self, handle: i64) -> Result<i64, Fault> {
        Ok(self.obj(handle)?.len as i64)
    }

    /// `push`: makes room for one more element (growing when full) and returns its bytes.
    pub(crate) fn push(
        &mut self,
        handle: i64,
        elem_size: u32,
        stats: &mut RunStats,
    ) -> Result<&mut [u8], Fault> {
        let max_memory = self.max_memory;
        let in_use = self.in_use;
        let obj = obj_mut(&mut self.vecs, handle)?;
        if obj.dead {
            return Err(trap(TrapKind::UseAfterDrop, USE_AFTER_DROP_MESSAGE));
        }
        check_elem_size(obj, elem_size)?;
        let es = u64::from(elem_size);
        if obj.len >= obj.cap {
            let new_cap = grown_capacity(obj.cap);
            let total = charge_for_growth(in_use, obj.cap, es, max_memory).ok_or_else(|| {
                let requested = new_cap.saturating_sub(obj.cap).saturating_mul(es);
                trap(TrapKind::OutOfMemory, oom_message(requested, max_memory))
            })?;
            stats.vec_growths += 1;
            stats.bytes_allocated += new_cap.saturating_mul(es);
            stats.bytes_copied += obj.len * es;
            obj.cap = new_cap;
            self.in_use = total;
        }
        let start = usize::try_from(obj.len * es)
            .map_err(|_| Fault::Malformed("vec too large".to_string()))?;
        let end = start + elem_size as usize;
        if obj.bytes.len() < end {
            // Within the memory limit, the host may still refuse (a smaller address space
            // than the limit): a trap, not an abort.
            let more = end - obj.bytes.len();
            if !room_for(&mut obj.bytes, more) {
                return Err(trap(
                    TrapKind::OutOfMemory,
                    format!("vec growth by {more} bytes: the host refused the memory"),
                ));
            }
            obj.bytes.resize(end, 0);
        }
        obj.len += 1;
        Ok(&mut obj.bytes[start..end])
    }

    /// `pop`: removes the last element and returns its bytes. An empty vec traps `pop_empty`
    /// when `checked`, and is an unchecked-violation otherwise.
    pub(crate) fn pop(
        &mut self,
        handle: i64,
        elem_size: u32,
        checked: bool,
    ) -> Result<&[u8], Fault> {
        let obj = self.obj_mut(handle)?;
        if obj.len == 0 {
            return Err(if checked {
                trap(TrapKind::PopEmpty, POP_EMPTY_MESSAGE)
            } else {
                Fault::Unchecked("pop.unchecked on an empty vec".to_string())
            });
        }
        check_elem_size(obj, elem_size)?;
        obj.len -= 1;
        let start = (obj.len as usize) * elem_size as usize;
        obj.bytes
            .get(start..start + elem_size as usize)
            .ok_or_else(|| Fault::Malformed("vec buffer shorter than its length".to_string()))
    }

    /// The bytes of element `index` (for `get`).
    pub(crate) fn elem(
        &self,
        handle: i64,
        index: i64,
        elem_size: u32,
        checked: bool,
    ) -> Result<&[u8], Fault> {
        let obj = self.obj(handle)?;
        let start = elem_start(obj, index, elem_size, checked, "get")?;
        obj.bytes
            .get(start..start + elem_size as usize)
            .ok_or_else(|| Fault::Malformed("vec buffer shorter than its length".to_string()))
    }

    /// The bytes of element `index`, writable (for `set`).
    pub(crate) fn elem_mut(
        &mut self,
        handle: i64,
        index: i64,
        elem_size: u32,
        checked: bool,
    ) -> Result<&mut [u8], Fault> {
        let obj = self.obj_mut(handle)?;
        let start = elem_start(obj, index, elem_size, checked, "set")?;
        obj.bytes
            .get_mut(start..start + elem_size as usize)
            .ok_or_else(|| Fault::Malformed("vec buffer shorter than its length".to_string()))
    }

    /// `drop`: refunds the buffer, empties the vec and marks it dead.
    pub(crate) fn drop_vec(&mut self, handle: i64) -> Result<(), Fault> {
        let obj = self.obj_mut(handle)?;
        if obj.dead {
            return Err(trap(TrapKind::UseAfterDrop, USE_AFTER_DROP_MESSAGE));
        }
        let refund = obj.cap.saturating_mul(u64::from(obj.elem_size));
        obj.len = 0;
        obj.cap = 0;
        obj.dead = true;
        obj.bytes = Vec::new();
        self.in_use = self.in_use.saturating_sub(refund);
        Ok(())
    }

    /// Bytes currently charged (headers and capacities).
    #[cfg(test)]
    pub(crate) fn in_use(&self) -> u64 {
        self.in_use
    }
}

fn obj_mut(vecs: &mut [VecObj], handle: i64) -> Result<&mut VecObj, Fault> {
    usize::try_from(handle)
        .ok()
        .and_then(|h| vecs.get_mut(h))
        .ok_or_else(|| Fault::Malformed(format!("invalid vec handle {handle}")))
}

fn check_elem_size(obj: &VecObj, elem_size: u32) -> Result<(), Fault> {
    if obj.elem_size == elem_size {
        Ok(())
    } else {
        Err(Fault::Malformed(format!(
            "vec of {}-byte elements used as a vec of {elem_size}-byte elements",
            obj.elem_size
        )))
    }
}

/// Bounds-checks `index` and returns the byte offset of the element.
#[inline]
fn elem_start(
    obj: &VecObj,
    index: i64,
    elem_size: u32,
    checked: bool,
    what: &str,
) -> Result<usize, Fault> {
    if index < 0 || index as u64 >= obj.len {
        return Err(if checked {
            trap(TrapKind::IndexOob, index_oob_message(index, obj.len as i64))
        } else {
            Fault::Unchecked(format!(
                "{what}.unchecked at index {index} of a vec of length {}",
                obj.len
            ))
        });
    }
    check_elem_size(obj, elem_size)?;
    Ok(index as usize * elem_size as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounting_follows_capacity() {
        let mut stats = RunStats::default();
        let mut heap = Heap::new(24 + 4 * 8 + 4 * 8);
        let v = heap.alloc(8, &mut stats).unwrap();
        assert_eq!(heap.in_use(), 24);
        for _ in 0..8 {
            heap.push(v, 8, &mut stats).unwrap();
        }
        assert_eq!(heap.in_use(), 24 + 64);
        assert_eq!(stats.vec_growths, 2);
        assert_eq!(stats.bytes_copied, 32);
        let err = heap.push(v, 8, &mut stats).unwrap_err();
        assert!(matches!(err, Fault::Trap(TrapKind::OutOfMemory, _)));
        heap.drop_vec(v).unwrap();
        assert_eq!(heap.in_use(), 24);
        assert_eq!(heap.len(v), Ok(0));
        assert!(matches!(
            heap.drop_vec(v),
            Err(Fault::Trap(TrapKind::UseAfterDrop, _))
        ));
        assert!(matches!(
            heap.push(0, 8, &mut stats),
            Err(Fault::Trap(TrapKind::UseAfterDrop, _))
        ));
        assert!(matches!(heap.len(99), Err(Fault::Malformed(_))));
    }
}
