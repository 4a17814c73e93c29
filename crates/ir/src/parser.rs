//! Text format parser (being written).
use crate::Module;
use thiserror::Error;

/// A syntax error with its location.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{loc}: {message}")]
pub struct ParseError {
    pub loc: crate::Loc,
    pub message: String,
}

/// Parses a module from its text form.
pub fn parse(_src: &str) -> Result<Module, ParseError> {
    Err(ParseError { loc: crate::Loc::new(1, 1), message: "parser not written yet".into() })
}
