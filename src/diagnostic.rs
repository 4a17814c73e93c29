//! Rendering of errors in text input as `FILE:LINE:COL: error: <message>` followed by a
//! source snippet with the offending position underlined.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};
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
        let start = byte_offset(source, loc);
        let end = line_end(source, start);
        Diagnostic::with_span(file, source, loc, start..end, message)
    }

    /// Builds a diagnostic that underlines exactly `span` (byte offsets into `source`).
    pub fn with_span(
        file: &str,
        source: &str,
        loc: Loc,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let message = message.into();
        let end = span.end.clamp(span.start.min(source.len()), source.len());
        let start = span.start.min(end);
        let rendered = render(file, source, start..end, loc, &message);
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

/// The end of the rest of the line starting at `start`, without a trailing comment or spaces.
fn line_end(source: &str, start: usize) -> usize {
    let rest = &source[start..];
    let line = rest.split('\n').next().unwrap_or_default();
    let code = line.split(';').next().unwrap_or_default().trim_end();
    start + code.len().max(usize::from(!line.is_empty()))
}

fn render(
    file: &str,
    source: &str,
    span: std::ops::Range<usize>,
    loc: Loc,
    message: &str,
) -> String {
    let files = SimpleFile::new(file, source);
    let diagnostic = CsDiagnostic::error()
        .with_message(message)
        .with_labels(vec![Label::primary((), span)]);
    let mut out = Vec::new();
    let mut writer = term::termcolor::NoColor::new(&mut out);
    let _ = term::emit(&mut writer, &Config::default(), &files, &diagnostic);
    let rich = String::from_utf8_lossy(&out).into_owned();
    // Replace codespan's `error: <message>` headline by the `FILE:LINE:COL: error: <message>`
    // line of the CLI contract; keep its snippet.
    let snippet = rich.split_once('\n').map_or("", |(_, rest)| rest);
    format!(
        "{file}:{}:{}: error: {message}\n{snippet}",
        loc.line.max(1),
        loc.col.max(1)
    )
}
