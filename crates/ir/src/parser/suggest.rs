//! The "did you mean" hints of the name-resolution errors.

/// The "did you mean" hint: the candidate closest to `name` by edit distance, if it is close
/// enough to be a plausible typo.
pub(super) fn suggest<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<String> {
    // As rustc: up to a third of the length, at least 1, and never every char.
    let len = name.chars().count();
    let limit = (len / 3).max(1).min(len.saturating_sub(1));
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| format!("did you mean `{c}`?"))
}
