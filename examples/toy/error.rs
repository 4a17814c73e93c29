//! The one error type of the toy compiler: a message at a source location, rendered as
//! `FILE:LINE:COL: error: ...` with a snippet by [`poolopt::Diagnostic`].

use poolopt::ir::Loc;
use poolopt::Diagnostic;
use thiserror::Error;

/// A lexical, syntax or type error in a toy program, or an IR the front end built that does
/// not verify (a bug of the front end, still reported, never a panic).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{loc}: {message}")]
pub struct CompileError {
    pub loc: Loc,
    pub message: String,
}

impl CompileError {
    pub fn new(loc: Loc, message: impl Into<String>) -> CompileError {
        CompileError {
            loc,
            message: message.into(),
        }
    }

    /// Renders the error against the program text.
    pub fn render(&self, file: &str, source: &str) -> Diagnostic {
        Diagnostic::new(file, source, self.loc, self.message.clone())
    }
}
