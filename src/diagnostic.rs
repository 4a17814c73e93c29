//! Rendering of errors in text input as `FILE:LINE:COL: error: <message>` followed by a
//! source snippet with the offending position underlined.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config, DisplayStyle};
use poolopt_ir::Loc;
use std::fmt;

/// One error at a location of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub loc: Loc,
    pub message: String,
    rendered: String,
}

impl Diagnostic {
    /// Builds a diagnostic for `message` at `loc` of `source` (the text of `file`).
    pub fn new(file: &str, source: &str, loc: Loc, message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        let rendered = render(file, source, loc, &message);
        Diagnostic {
            file: file.to_string(),
            loc,
            message,
            rendered,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// Several diagnostics of one file, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Byte offset of a 1-based line/column (columns counted in chars) in `source`.
fn byte_offset(source: &str, loc: Loc) -> usize {
    if !loc.is_known() {
        return 0;
    }
    let mut offset = 0;
    for (i, line) in source.split_inclusive('\n').enumerate() {
        if i + 1 == loc.line as usize {
            let col = loc.col.max(1) as usize - 1;
            let within = line
                .char_indices()
                .nth(col)
                .map_or(line.trim_end_matches('\n').len(), |(b, _)| b);
            return offset + within;
        }
        offset += line.len();
    }
    source.len()
}

/// The end of the token starting at `start`: up to the next whitespace or punctuation.
fn token_end(source: &str, start: usize) -> usize {
    let rest = &source[start..];
    let len = rest
        .char_indices()
        .find(|&(i, c)| {
            c.is_whitespace() || (i > 0 && matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | ':' | '.'))
        })
        .map_or(rest.len(), |(i, _)| i);
    start + len.max(usize::from(!rest.is_empty()))
}

fn render(file: &str, source: &str, loc: Loc, message: &str) -> String {
    let start = byte_offset(source, loc);
    let end = token_end(source, start).min(source.len());
    let files = SimpleFile::new(file, source);
    let header = CsDiagnostic::error()
        .with_message(message)
        .with_labels(vec![Label::primary((), start..end)]);
    let mut out = Vec::new();
    let short = Config {
        display_style: DisplayStyle::Short,
        ..Config::default()
    };
    let snippet = Config::default();
    let mut writer = term::termcolor::NoColor::new(&mut out);
    let _ = term::emit(&mut writer, &short, &files, &header);
    let _ = term::emit(
        &mut writer,
        &snippet,
        &files,
        &CsDiagnostic::note().with_labels(vec![Label::primary((), start..end).with_message("here")]),
    );
    String::from_utf8_lossy(&out).into_owned()
}
