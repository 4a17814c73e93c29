//! "Did you mean" for misspelled names on the command line (passes, functions, targets).

/// `; did you mean `x`?` for the candidate closest to `input`, or an empty string when none is
/// close (edit distance at most a third of the longer name, and at least 1 allowed).
pub fn did_you_mean<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(input, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

/// The candidate closest to `input` within the distance limit.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(input, c), c))
        .filter(|(d, c)| *d <= (input.chars().count().max(c.chars().count()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_name() {
        let passes = ["range-check-fold", "bounds-check-elim", "scalarize"];
        assert_eq!(closest("rang-check-fold", passes), Some("range-check-fold"));
        assert_eq!(closest("scalarise", passes), Some("scalarize"));
        assert_eq!(closest("inline", passes), None);
        assert_eq!(did_you_mean("x", passes), "");
    }
}
