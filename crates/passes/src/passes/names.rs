//! Fresh local and block names for passes that add them (the inliner's copies of a callee's
//! locals and blocks, struct splitting's field locals).

use super::hashes::Hashes;
use poolopt_ir::{Function, Name};
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

/// Unique local and block names of a function, remembered by their hashes: a name whose hash
/// is not in the set is certainly new; a hash collision only makes the pass pick the next
/// suffix. No name is cloned to fill the sets, and the outcome is deterministic (FxHash has no
/// random seed). The sets are [`Hashes`], which index by the hashes' own bits.
///
/// Every name made here contains `_` (the bases are [`joined`] or [`concat`] with a `_`
/// between their parts, [`shortened`] joins with one, a suffix is added after one), so a
/// function's name without `_` can never be one of them: the sets leave those out and hash
/// only the names a made one could equal.
#[derive(Default)]
pub(crate) struct Names {
    locals: Hashes,
    blocks: Hashes,
    /// Per base name (by hash), the first suffix not yet tried: inlining one callee many
    /// times into one caller then costs one probe per copy, not one per earlier copy.
    next_suffix: FxHashMap<u64, u32>,
}

fn name_hash(name: &str) -> u64 {
    FxBuildHasher.hash_one(name)
}

/// `a_b`, without the formatting machinery (see [`concat`]). A name held inline is appended
/// to `a` in place: the bytes need no assembling and checking as UTF-8 again.
pub(crate) fn joined(a: &str, b: &str) -> Name {
    if a.len() + 1 + b.len() > INLINE_NAME {
        return concat(&[a, "_", b]);
    }
    let mut name = Name::from(a);
    name.push('_');
    name.push_str(b);
    name
}

/// The longest name [`concat`] makes. Inlining prefixes a copied local or block with its
/// callee's name, so a chain of calls inlined into each other would otherwise make names as
/// long as the chain is deep: a chain of 100,000 one-call functions gave functions of ~60 KB of
/// names each at O2 (12.7 GB for the module).
pub(crate) const MAX_COMPOSED_NAME: usize = 64;

/// How much of the first part a name longer than [`MAX_COMPOSED_NAME`] keeps.
const KEPT_HEAD: usize = 24;

/// The parts one after the other, without the formatting machinery; a result longer than
/// [`MAX_COMPOSED_NAME`] bytes keeps the first part's first [`KEPT_HEAD`] bytes and the
/// rest's last words, joined by `_` (callers make the name unique with a suffix anyway).
pub(crate) fn concat(parts: &[&str]) -> Name {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    if len > MAX_COMPOSED_NAME {
        return shortened(parts);
    }
    if len <= INLINE_NAME {
        // Assembled on the stack and made a name in one step (a name this short is held
        // inline; appending part by part re-checks its representation for every part).
        let mut buf = [0u8; INLINE_NAME];
        let mut at = 0;
        for p in parts {
            buf[at..at + p.len()].copy_from_slice(p.as_bytes());
            at += p.len();
        }
        // Whole `str`s one after the other are UTF-8.
        if let Ok(text) = std::str::from_utf8(&buf[..len]) {
            return Name::from(text);
        }
    }
    let mut name = Name::with_capacity(len);
    parts.iter().for_each(|p| name.push_str(p));
    name
}

/// [`concat`] of parts longer than [`MAX_COMPOSED_NAME`] together: the head of the first part
/// and the tail of the rest, cut at character boundaries.
#[cold]
fn shortened(parts: &[&str]) -> Name {
    let first = parts.first().copied().unwrap_or_default();
    let head = &first[..floor_char_boundary(first, KEPT_HEAD)];
    let rest: String = parts.iter().skip(1).copied().collect();
    let room = MAX_COMPOSED_NAME - head.len() - 1;
    let mut from = rest.len().saturating_sub(room);
    while !rest.is_char_boundary(from) {
        from += 1;
    }
    // From a whole word of the rest where there is one (`f7_f8_t`, not `7_f8_t`).
    if let Some(at) = rest[from..]
        .find('_')
        .filter(|&at| from + at + 1 < rest.len())
    {
        from += at + 1;
    }
    let tail = rest[from..].trim_start_matches('_');
    let mut name = Name::with_capacity(MAX_COMPOSED_NAME);
    name.push_str(head);
    name.push('_');
    name.push_str(tail);
    name
}

/// The largest character boundary of `s` at or below `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The longest name held inline: `compact_str` keeps a string of up to its own size in place.
const INLINE_NAME: usize = std::mem::size_of::<Name>();

/// `_0` to `_99`, one after the other: the tail `_n` of a name [`suffixed`] with `n` below 100
/// is a slice of it (`_n` at `2n` for `n` below 10, at `20 + 3(n - 10)` from 10 on).
const SMALL_TAILS: &str =
    "_0_1_2_3_4_5_6_7_8_9_10_11_12_13_14_15_16_17_18_19_20_21_22_23_24_25_26_27_28_29\
     _30_31_32_33_34_35_36_37_38_39_40_41_42_43_44_45_46_47_48_49_50_51_52_53_54_55\
     _56_57_58_59_60_61_62_63_64_65_66_67_68_69_70_71_72_73_74_75_76_77_78_79_80_81\
     _82_83_84_85_86_87_88_89_90_91_92_93_94_95_96_97_98_99";

/// `base_n`, without the formatting machinery: the tail `_n` is a slice of [`SMALL_TAILS`] or,
/// for `n` from 100 on, written on the stack; when the name is held inline, it is appended to
/// a copy of `base` at once (one append of a short ASCII `str`, where assembling the whole name
/// on the stack would check all of it as UTF-8 again).
fn suffixed(base: &Name, n: u32) -> Name {
    let mut digits = [0u8; 11];
    let tail = match n as usize {
        n @ 0..=9 => &SMALL_TAILS[2 * n..2 * n + 2],
        n @ 10..=99 => &SMALL_TAILS[20 + 3 * (n - 10)..23 + 3 * (n - 10)],
        _ => {
            let mut at = digits.len();
            let mut rest = n;
            loop {
                at -= 1;
                digits[at] = b'0' + (rest % 10) as u8;
                rest /= 10;
                if rest == 0 {
                    break;
                }
            }
            at -= 1;
            digits[at] = b'_';
            // `_` and ASCII digits are UTF-8.
            std::str::from_utf8(&digits[at..]).unwrap_or_default()
        }
    };
    if base.len() + tail.len() <= INLINE_NAME {
        let mut name = base.clone();
        name.push_str(tail);
        return name;
    }
    joined(base, &tail[1..])
}

/// The names `a_b` of one `a` and many `b`s (a callee's name and those of its locals and
/// blocks), as [`joined`] makes them: `a_` is made once, at the first, and each name held
/// inline is a copy of it with `b` appended, one append instead of three steps.
#[derive(Clone, Default)]
pub(crate) struct Joiner {
    head: Option<Name>,
}

impl Joiner {
    /// Forgets `a_`, for another `a`.
    pub(crate) fn clear(&mut self) {
        self.head = None;
    }

    /// `a_b`; `a` must be the same since the last [`Joiner::clear`].
    pub(crate) fn join(&mut self, a: &str, b: &str) -> Name {
        if a.len() + 1 + b.len() > INLINE_NAME {
            return joined(a, b);
        }
        let head = self.head.get_or_insert_with(|| joined(a, ""));
        debug_assert!(
            head.len() == a.len() + 1 && head.starts_with(a),
            "{head} for {a}"
        );
        let mut name = head.clone();
        name.push_str(b);
        name
    }
}

impl Names {
    /// The names `func` has now, with room for as many again: the inliner adds a callee's
    /// locals and blocks per call, and a set that grows rehashes every name it holds.
    pub(crate) fn of(func: &Function) -> Names {
        let mut names = Names::default();
        names.reset(func);
        names
    }

    /// Makes these the names of `func` (as [`Names::of`]), in the sets' storage.
    pub(crate) fn reset(&mut self, func: &Function) {
        self.reset_locals(func);
        self.reset_blocks(func);
    }

    /// The first half of [`Names::reset`], for a user that may make no block name: makes the
    /// local names those of `func`, and forgets the suffixes tried. [`Names::reset_blocks`]
    /// completes it before the first block name is made, as long as no block was added since.
    pub(crate) fn reset_locals(&mut self, func: &Function) {
        hashes_with_room(
            &mut self.locals,
            func.locals.values().map(|l| &l.name),
            func.locals.len(),
        );
        self.next_suffix.clear();
    }

    /// The second half of [`Names::reset`]: makes the block names those of `func`.
    pub(crate) fn reset_blocks(&mut self, func: &Function) {
        hashes_with_room(
            &mut self.blocks,
            func.blocks.values().map(|b| &b.name),
            func.blocks.len(),
        );
    }

    /// `None` when `base` (hashed `h`) is new, now taken; otherwise the first `base_n` not
    /// taken, now taken.
    fn fresh(
        set: &mut Hashes,
        next_suffix: &mut FxHashMap<u64, u32>,
        base: &Name,
        h: u64,
    ) -> Option<Name> {
        debug_assert!(could_be_made(base), "`{base}` could equal a name left out");
        if set.insert(h) {
            return None;
        }
        let next = next_suffix.entry(h).or_insert(2);
        loop {
            let candidate = suffixed(base, *next);
            *next += 1;
            if set.insert(name_hash(&candidate)) {
                return Some(candidate);
            }
        }
    }

    /// A local name: `base`, or `base_2`, `base_3`, … (then taken).
    pub(crate) fn local(&mut self, base: Name) -> Name {
        let h = name_hash(&base);
        Self::fresh(&mut self.locals, &mut self.next_suffix, &base, h).unwrap_or(base)
    }

    /// A local name from a base kept with its hash ([`Composed`]), as [`Names::local`].
    pub(crate) fn local_from(&mut self, base: &Composed) -> Name {
        Self::fresh_from(&mut self.locals, &mut self.next_suffix, base)
    }

    /// A block name, as [`Names::local`].
    pub(crate) fn block(&mut self, base: Name) -> Name {
        let h = name_hash(&base);
        Self::fresh(&mut self.blocks, &mut self.next_suffix, &base, h).unwrap_or(base)
    }

    /// A block name from a base kept with its hash, as [`Names::local_from`].
    pub(crate) fn block_from(&mut self, base: &Composed) -> Name {
        Self::fresh_from(&mut self.blocks, &mut self.next_suffix, base)
    }

    /// `base` or, when taken, the first free suffixed form of it, taken in `set`.
    fn fresh_from(
        set: &mut Hashes,
        next_suffix: &mut FxHashMap<u64, u32>,
        base: &Composed,
    ) -> Name {
        Self::fresh(set, next_suffix, &base.name, base.hash).unwrap_or_else(|| base.name.clone())
    }
}

/// Fills `set` with the hashes of the `names` a made one could equal, with room for `len`
/// more.
fn hashes_with_room<'n>(set: &mut Hashes, names: impl Iterator<Item = &'n Name>, len: usize) {
    set.clear_with_room(2 * len + 16);
    for name in names.filter(|name| could_be_made(name)) {
        set.insert(name_hash(name));
    }
}

/// Whether a name could be one [`Names`] makes (see there): one with a `_`.
fn could_be_made(name: &str) -> bool {
    name.as_bytes().contains(&b'_')
}

/// A base name with its hash, for a base that names are made from again and again (the
/// inliner's `<callee>_<local>` for every copy of a callee): composed and hashed once.
#[derive(Clone)]
pub(crate) struct Composed {
    name: Name,
    hash: u64,
}

impl Composed {
    pub(crate) fn new(name: Name) -> Composed {
        let hash = name_hash(&name);
        Composed { name, hash }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_assembled_as_format_would() {
        assert_eq!(&*joined("f", "x"), "f_x");
        assert_eq!(&*concat(&["a", "_after_", "g"]), "a_after_g");
        for n in (0..=120).chain([12345, u32::MAX]) {
            assert_eq!(&*suffixed(&Name::from("t"), n), format!("t_{n}"));
        }
        let tails: String = (0..100).map(|n| format!("_{n}")).collect();
        assert_eq!(SMALL_TAILS, tails);
        let long = "x".repeat(30);
        assert_eq!(&*suffixed(&Name::from(&*long), 7), format!("{long}_7"));
        // Around the longest name held inline, and with characters of several bytes.
        for base in [
            "y".repeat(20),
            "y".repeat(21),
            "y".repeat(22),
            "é".repeat(11),
        ] {
            for n in [7, 99, 100, 12345] {
                assert_eq!(&*suffixed(&Name::from(&*base), n), format!("{base}_{n}"));
            }
        }
        // As the name joined from the base and the digits (the earlier version), whatever the
        // length: held inline, on the heap, or shortened.
        for len in 0..80 {
            for base in ["q".repeat(len), "ü".repeat(len / 2)] {
                for n in [2, 10, 999, u32::MAX] {
                    assert_eq!(
                        suffixed(&Name::from(&*base), n),
                        joined(&base, &n.to_string()),
                        "{base} {n}"
                    );
                }
            }
        }
        assert_eq!(&*concat(&[&long, "_", "y"]), format!("{long}_y"));
        let exactly = "y".repeat(MAX_COMPOSED_NAME - 32);
        assert_eq!(
            &*concat(&[&long, "_", "_", &exactly]),
            format!("{long}__{exactly}")
        );
    }

    /// A [`Joiner`] makes what [`joined`] makes, whatever the lengths (held inline, on the
    /// heap, shortened) and characters, from one `a_` for many `b`s.
    #[test]
    fn a_joiner_joins_as_joined_does() {
        for a_len in 0..70 {
            for a in ["f".repeat(a_len), "é".repeat(a_len / 2)] {
                let mut joiner = Joiner::default();
                for b_len in 0..70 {
                    for b in ["t".repeat(b_len), "ü".repeat(b_len / 2)] {
                        assert_eq!(joiner.join(&a, &b), joined(&a, &b), "{a} {b}");
                    }
                }
                joiner.clear();
                assert_eq!(joiner.join("g", "x"), "g_x");
            }
        }
    }

    /// A function's names with `_` are taken (a made name equal to one gets the next
    /// suffix); those without are left out of the sets, no made name being one of them.
    #[test]
    fn made_names_avoid_the_functions_names_with_underscores() {
        let src = "fn f(g_t: i64) -> i64 {\n    var t: i64\n    var g: i64\nentry:\n    \
                   t = copy g_t\n    ret t\n}\n";
        let module = poolopt_ir::parse(src).unwrap();
        let func = module.funcs.values().next().unwrap();
        let mut names = Names::of(func);
        assert_eq!(&*names.local(joined("g", "t")), "g_t_2");
        let kept = Composed::new(joined("g", "t"));
        assert_eq!(&*names.local_from(&kept), "g_t_3");
        let other = Composed::new(joined("h", "t"));
        assert_eq!(&*names.local_from(&other), "h_t");
        assert_eq!(&*names.local_from(&other), "h_t_2");
        assert_eq!(&*names.block(joined("entry", "x")), "entry_x");
        assert_eq!(&*names.block(joined("entry", "x")), "entry_x_2");
        // Locals and blocks are named apart.
        assert_eq!(&*names.block(joined("h", "t")), "h_t");
        assert!(!could_be_made("g") && !could_be_made("entry") && could_be_made("g_t"));
    }

    #[test]
    fn long_compositions_keep_the_head_and_the_tail_within_the_bound() {
        // What repeated inlining makes: the callee's name before a name that grew per level.
        let mut name = Name::from("t");
        for level in (1..200).rev() {
            name = joined(&format!("f{level}"), &name);
            assert!(name.len() <= MAX_COMPOSED_NAME, "{name}");
            let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            assert!(ident, "{name}");
        }
        assert!(name.starts_with("f1_") && name.ends_with("_t"), "{name}");
        let head = "h".repeat(40);
        let tail = format!("{}_end", "z".repeat(70));
        let short = concat(&[&head, "_after_", &tail]);
        assert_eq!(&*short, format!("{}_end", "h".repeat(KEPT_HEAD)));
        let words = concat(&["entry", "_after_", &"f12345_".repeat(12), "t"]);
        assert!(words.len() <= MAX_COMPOSED_NAME, "{words}");
        assert!(
            words.starts_with("entry_f12345_") && words.ends_with("_f12345_t"),
            "{words}"
        );
        // Cut at character boundaries.
        let wide = concat(&["é".repeat(20).as_str(), "_", "ü".repeat(40).as_str()]);
        assert!(
            wide.len() <= MAX_COMPOSED_NAME && wide.ends_with('ü'),
            "{wide}"
        );
    }
}
