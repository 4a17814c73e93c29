//! [`VerifyErrors`]: every error the verifier found in a module, as one error value that
//! works with `?` and names each error's function and location.

use poolopt_ir::VerifyError;
use std::fmt;

/// Every error the verifier found, in the order it found them. Displays one error per line as
/// `in function `f` at LINE:COL: message` (the function and location when known: IR built
/// with [`poolopt_ir::ModuleBuilder`] has locations where the front end gave them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl VerifyErrors {
    /// The errors.
    pub fn iter(&self) -> std::slice::Iter<'_, VerifyError> {
        self.0.iter()
    }

    /// Gives the errors back.
    pub fn into_vec(self) -> Vec<VerifyError> {
        self.0
    }
}

impl std::ops::Deref for VerifyErrors {
    type Target = [VerifyError];
    fn deref(&self) -> &[VerifyError] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a VerifyErrors {
    type Item = &'a VerifyError;
    type IntoIter = std::slice::Iter<'a, VerifyError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// One error with its function and location.
pub(crate) fn describe(e: &VerifyError) -> String {
    let mut s = String::new();
    if let Some(func) = &e.func {
        s.push_str(&format!("in function `{func}`"));
    }
    if e.loc.is_known() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&format!("at {}:{}", e.loc.line, e.loc.col));
    }
    if s.is_empty() {
        e.message()
    } else {
        format!("{s}: {}", e.message())
    }
}

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "the module does not verify ({n} error{})",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            write!(f, "\n  {}", describe(e))?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyErrors {}
