//! Work space a pass keeps from one function to the next.
//!
//! A pass's per-run tables (position maps sized by the locals, work lists, sets) are the same
//! kind of thing for every function it runs on. Allocated afresh for each function, they cost
//! a pipeline over a module of small functions more in `malloc` and `free` than the pass spends
//! on the code (`temp-elision` allocated 17 blocks a function on `scattered`'s seven). A
//! [`ScratchStore`] keeps one value per type: a pass takes its work space at the start
//! ([`crate::PassContext::take_scratch`], a default value the first time) and gives it back at
//! the end ([`crate::PassContext::give_scratch`]); the pass manager hands the store from one
//! function's context to the next, like the CFG storage and the fact-set pool. The value comes
//! back as the last function left it: the pass resets what it reads before using it.

use std::any::{Any, TypeId};

/// One kept value per type (see the module docs).
#[derive(Default)]
pub struct ScratchStore {
    /// Each type's slot holds an `Option<T>`: taking leaves `None` and keeps the box.
    slots: Vec<(TypeId, Box<dyn Any>)>,
}

impl ScratchStore {
    /// The kept value of type `T`, or `T::default()` when there is none (first use, or taken
    /// and not given back).
    pub fn take<T: Default + 'static>(&mut self) -> T {
        self.slot::<T>().and_then(Option::take).unwrap_or_default()
    }

    /// Keeps `value` for the next [`ScratchStore::take`] of its type.
    pub fn give<T: 'static>(&mut self, value: T) {
        match self.slot::<T>() {
            Some(slot) => *slot = Some(value),
            None => self.slots.push((TypeId::of::<T>(), Box::new(Some(value)))),
        }
    }

    fn slot<T: 'static>(&mut self) -> Option<&mut Option<T>> {
        let id = TypeId::of::<T>();
        self.slots
            .iter_mut()
            .find(|(t, _)| *t == id)
            .and_then(|(_, slot)| slot.downcast_mut::<Option<T>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_by_its_type_once() {
        let mut store = ScratchStore::default();
        assert_eq!(store.take::<Vec<u32>>(), Vec::<u32>::new());
        let mut v = Vec::with_capacity(64);
        v.push(7u32);
        store.give(v);
        store.give(String::from("kept"));
        let back: Vec<u32> = store.take();
        assert_eq!((back.as_slice(), back.capacity() >= 64), (&[7][..], true));
        // Taken: the next take of the type starts afresh; other types are unaffected.
        assert!(store.take::<Vec<u32>>().is_empty());
        assert_eq!(store.take::<String>(), "kept");
        store.give(back);
        assert_eq!(store.take::<Vec<u32>>(), [7]);
    }
}
