//! The word table: what a word means as an instruction mnemonic ([`Mnemonic`]) and as a scalar
//! type, looked up once per distinct word by the interner ([`word_info_of_key`]) in a
//! collision-free table built at compile time from the operators' own names.

use crate::inst::{BinaryOp, CastOp, CmpOp, UnaryOp};
use crate::types::ScalarType;

/// What a word means as an instruction mnemonic.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Mnemonic {
    Binary(BinaryOp),
    Compare(CmpOp),
    Unary(UnaryOp),
    Cast(CastOp),
    Copy,
    Make,
    GetField,
    SetField,
    New,
    Len,
    Pop,
    Get,
    Set,
    Push,
    Drop,
    Call,
    Br,
    BrIf,
    Ret,
    Trap,
}

impl Mnemonic {
    /// Whether the instruction writes no destination (`x = push ...` is an error).
    pub(super) fn without_value(self) -> bool {
        matches!(
            self,
            Mnemonic::SetField
                | Mnemonic::Push
                | Mnemonic::Set
                | Mnemonic::Drop
                | Mnemonic::Br
                | Mnemonic::BrIf
                | Mnemonic::Ret
                | Mnemonic::Trap
        )
    }
}

/// What the parser knows of a word, computed once per distinct word.
#[derive(Copy, Clone, Default)]
pub(crate) struct WordInfo {
    pub(super) mnemonic: Option<Mnemonic>,
    pub(super) scalar: Option<ScalarType>,
}

impl WordInfo {
    /// A word that is neither a mnemonic nor a scalar type.
    pub(crate) const NONE: WordInfo = WordInfo {
        mnemonic: None,
        scalar: None,
    };
}

/// A word's first eight bytes as a little-endian integer, zero-padded. Every mnemonic and
/// scalar type name has at most eight bytes, so for those words the key is the word.
const fn word_key(word: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < word.len() && i < 8 {
        key |= (word[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

/// The mnemonics that are not operators.
const PLAIN_MNEMONICS: [(&str, Mnemonic); 16] = [
    ("copy", Mnemonic::Copy),
    ("make", Mnemonic::Make),
    ("getfield", Mnemonic::GetField),
    ("setfield", Mnemonic::SetField),
    ("new", Mnemonic::New),
    ("len", Mnemonic::Len),
    ("pop", Mnemonic::Pop),
    ("get", Mnemonic::Get),
    ("set", Mnemonic::Set),
    ("push", Mnemonic::Push),
    ("drop", Mnemonic::Drop),
    ("call", Mnemonic::Call),
    ("br", Mnemonic::Br),
    ("brif", Mnemonic::BrIf),
    ("ret", Mnemonic::Ret),
    ("trap", Mnemonic::Trap),
];

const WORD_TABLE_LEN: usize = BinaryOp::ALL.len()
    + CmpOp::ALL.len()
    + UnaryOp::ALL.len()
    + CastOp::ALL.len()
    + PLAIN_MNEMONICS.len()
    + ScalarType::ALL.len();

/// Every word that is a mnemonic or a scalar type, as `(word_key, meaning)`, in a table with a
/// slot for each key and no collision (built at compile time from the operators' own names, so
/// the two cannot drift apart): looking a word up is a multiply, a load and a compare.
static WORD_TABLE: WordTable = WordTable::build();

/// A collision-free hash table of the [`WORD_TABLE_LEN`] words with a meaning, keyed by
/// [`word_key`]. An empty slot has key 0, which no word of one to eight bytes has.
struct WordTable {
    /// The multiplier of [`WordTable::slot_of`], found at compile time.
    multiplier: u64,
    slots: [(u64, WordInfo); WordTable::SLOTS],
}

impl WordTable {
    /// A power of two: about ten slots per word, so a collision-free multiplier is found in a
    /// few tries.
    const SLOTS: usize = 512;

    const fn slot_of(key: u64, multiplier: u64) -> usize {
        (key.wrapping_mul(multiplier) >> (64 - WordTable::SLOTS.trailing_zeros())) as usize
    }

    /// Tries multipliers until every word has a slot of its own; a word with two meanings
    /// fails the build.
    const fn build() -> WordTable {
        let words = word_meanings();
        let mut multiplier = 0x9e37_79b9_7f4a_7c15_u64;
        'search: loop {
            let mut slots = [(0, WordInfo::NONE); WordTable::SLOTS];
            let mut i = 0;
            while i < words.len() {
                let (key, info) = words[i];
                let slot = WordTable::slot_of(key, multiplier);
                if slots[slot].0 != 0 {
                    assert!(slots[slot].0 != key, "a word with two meanings");
                    multiplier = multiplier.wrapping_add(0x2545_f491_4f6c_dd1e);
                    continue 'search;
                }
                slots[slot] = (key, info);
                i += 1;
            }
            return WordTable { multiplier, slots };
        }
    }

    /// The meaning of the word whose [`word_key`] is `key` (a word of at most eight bytes).
    #[inline]
    fn get(&self, key: u64) -> WordInfo {
        let (k, info) = self.slots[WordTable::slot_of(key, self.multiplier)];
        if k == key {
            info
        } else {
            WordInfo::NONE
        }
    }
}

/// Every word that is a mnemonic or a scalar type, with its meaning.
const fn word_meanings() -> [(u64, WordInfo); WORD_TABLE_LEN] {
    const fn entry(
        name: &str,
        mnemonic: Option<Mnemonic>,
        scalar: Option<ScalarType>,
    ) -> (u64, WordInfo) {
        (word_key(name.as_bytes()), WordInfo { mnemonic, scalar })
    }
    let mut table = [(0, WordInfo::NONE); WORD_TABLE_LEN];
    let mut n = 0;
    // `const fn` has no iterators: one `while` per list, written once.
    macro_rules! add_each {
        ($list:expr, |$item:pat_param| $entry:expr) => {
            let mut i = 0;
            while i < $list.len() {
                let $item = $list[i];
                table[n] = $entry;
                (n, i) = (n + 1, i + 1);
            }
        };
    }
    add_each!(BinaryOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Binary(op)),
        None
    ));
    add_each!(CmpOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Compare(op)),
        None
    ));
    add_each!(UnaryOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Unary(op)),
        None
    ));
    add_each!(CastOp::ALL, |op| entry(
        op.name(),
        Some(Mnemonic::Cast(op)),
        None
    ));
    add_each!(PLAIN_MNEMONICS, |(name, m)| entry(name, Some(m), None));
    add_each!(ScalarType::ALL, |ty| entry(ty.name(), None, Some(ty)));
    table
}

/// What `word` means as a mnemonic and as a scalar type: one probe of [`WORD_TABLE`], no
/// string compare.
#[cfg(test)]
fn word_info_of(word: &str) -> WordInfo {
    if word.is_empty() || word.len() > 8 {
        return WordInfo::NONE;
    }
    word_info_of_key(word_key(word.as_bytes()))
}

/// [`word_info_of`] a word of one to eight bytes given as its [`word_key`]: the interner
/// computes it once per distinct word from the bytes it has already loaded.
#[inline]
pub(crate) fn word_info_of_key(key: u64) -> WordInfo {
    WORD_TABLE.get(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_table_knows_every_operator_by_its_own_name() {
        for op in BinaryOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Binary(op)));
        }
        for op in CmpOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Compare(op)));
        }
        for op in UnaryOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Unary(op)));
        }
        for op in CastOp::ALL {
            assert!(word_info_of(op.name()).mnemonic == Some(Mnemonic::Cast(op)));
        }
        for (name, mnemonic) in PLAIN_MNEMONICS {
            assert!(word_info_of(name).mnemonic == Some(mnemonic), "{name}");
            assert!(word_info_of(name).scalar.is_none(), "{name}");
        }
        for ty in ScalarType::ALL {
            assert_eq!(word_info_of(ty.name()).scalar, Some(ty));
            assert!(word_info_of(ty.name()).mnemonic.is_none());
        }
    }

    #[test]
    fn the_word_table_holds_each_word_once() {
        let filled = WORD_TABLE.slots.iter().filter(|(key, _)| *key != 0).count();
        assert_eq!(filled, WORD_TABLE_LEN);
    }

    #[test]
    fn near_miss_words_mean_nothing() {
        // A prefix, an extension, a longer word sharing the first eight bytes, another case.
        for word in [
            "ad",
            "addd",
            "i6",
            "i640",
            "bools",
            "setfieldx",
            "getfield_",
            "Add",
            "I64",
            "x",
            "",
        ] {
            let info = word_info_of(word);
            assert!(info.mnemonic.is_none() && info.scalar.is_none(), "{word}");
        }
    }
}
