//! Rendering of errors in text input, rustc style: a `FILE:LINE:COL: error: <message>` headline,
//! the source line with the offending span underlined, then `= help:` and `= note:` lines.
//!
//! A diagnostic keeps only the one source line it shows, clipped to a window around the error
//! column when the line is long (a 200 KB line yields a short snippet, not a 400 KB one). It
//! renders plain ([`fmt::Display`]) or with ANSI colours ([`Diagnostic::render`]), which the CLI
//! uses when stderr is a terminal (`--color auto|always|never`).

use poolopt_ir::Loc;
use std::fmt::{self, Write};
use std::ops::Range;

/// The most chars of a source line a snippet shows; a longer line is clipped around the error.
const MAX_SNIPPET_CHARS: usize = 120;
/// Columns a tab takes in a snippet.
const TAB_WIDTH: usize = 4;

/// One error at a location of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub loc: Loc,
    pub message: String,
    /// `= help:` lines (a suggested fix, e.g. "did you mean `count`?").
    pub help: Vec<String>,
    /// `= note:` lines (context, e.g. the signature of the function called).
    pub notes: Vec<String>,
    snippet: Option<Snippet>,
}

/// The source line shown under the headline.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snippet {
    line: u32,
    /// The line as shown: tabs expanded, clipped (with `...`) when long.
    text: String,
    /// Where the carets go, in columns of `text`.
    underline: Range<usize>,
}

impl Diagnostic {
    /// Builds a diagnostic for `message` at `loc` of `source` (the text of `file`), underlining
    /// the rest of the statement on that line.
    pub fn new(file: &str, source: &str, loc: Loc, message: impl Into<String>) -> Diagnostic {
        let start = byte_offset(source, loc);
        let end = line_end(source, start);
        Diagnostic::with_span(file, source, loc, start..end, message)
    }

    /// Builds a diagnostic that underlines exactly `span` (byte offsets into `source`; a span
    /// that runs past the end of its line is underlined to the end of the line).
    pub fn with_span(
        file: &str,
        source: &str,
        loc: Loc,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let end = span.end.clamp(span.start.min(source.len()), source.len());
        let start = floor_char_boundary(source, span.start.min(end));
        let end = floor_char_boundary(source, end);
        Diagnostic {
            file: file.to_string(),
            loc,
            message: message.into(),
            help: Vec::new(),
            notes: Vec::new(),
            snippet: Some(snippet(source, start..end)),
        }
    }

    /// Adds a `= help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }

    /// Adds a `= note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The diagnostic as text, with ANSI colours when `color` is set.
    pub fn render(&self, color: bool) -> String {
        let style = Style::new(color);
        let mut out = String::new();
        let _ = self.write(&mut out, &style);
        out
    }

    fn write(&self, out: &mut String, s: &Style) -> fmt::Result {
        let (line, col) = (self.loc.line.max(1), self.loc.col.max(1));
        writeln!(
            out,
            "{}:{line}:{col}: {}: {}",
            self.file,
            s.paint(s.error, "error"),
            s.paint(s.bold, &self.message)
        )?;
        let number = self
            .snippet
            .as_ref()
            .map_or(String::new(), |sn| sn.line.to_string());
        let pad = " ".repeat(number.len() + 1);
        if let Some(sn) = &self.snippet {
            writeln!(
                out,
                "{pad}{} {}:{line}:{col}",
                s.paint(s.gutter, "┌─"),
                self.file
            )?;
            writeln!(out, "{pad}{}", s.paint(s.gutter, "│"))?;
            writeln!(
                out,
                "{} {}",
                s.paint(s.gutter, &format!("{number} │")),
                sn.text
            )?;
            let carets = "^".repeat(sn.underline.len().max(1));
            writeln!(
                out,
                "{pad}{} {}{}",
                s.paint(s.gutter, "│"),
                " ".repeat(sn.underline.start),
                s.paint(s.error, &carets)
            )?;
        }
        for help in &self.help {
            writeln!(out, "{pad}{} {help}", s.paint(s.bold, "= help:"))?;
        }
        for note in &self.notes {
            writeln!(out, "{pad}{} {note}", s.paint(s.bold, "= note:"))?;
        }
        writeln!(out)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

/// Several diagnostics of one file, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// All diagnostics as text, with ANSI colours when `color` is set.
    pub fn render(&self, color: bool) -> String {
        self.0.iter().map(|d| d.render(color)).collect()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

/// ANSI styles, or nothing.
struct Style {
    on: bool,
    error: &'static str,
    bold: &'static str,
    gutter: &'static str,
}

impl Style {
    fn new(on: bool) -> Style {
        Style {
            on,
            error: "\x1b[1;31m",
            bold: "\x1b[1m",
            gutter: "\x1b[1;34m",
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("{code}{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The snippet of the line holding `span.start`, clipped around it when the line is long.
fn snippet(source: &str, span: Range<usize>) -> Snippet {
    let line_start = source[..span.start].rfind('\n').map_or(0, |p| p + 1);
    let line_end = source[span.start..]
        .find('\n')
        .map_or(source.len(), |p| span.start + p);
    let line_text = &source[line_start..line_end];
    let line = source[..line_start].bytes().filter(|&b| b == b'\n').count() + 1;
    let span_end = span.end.min(line_end).max(span.start);
    // Columns (chars, tabs expanded) of the span within the line.
    let width = |s: &str| -> usize {
        s.chars()
            .map(|c| if c == '\t' { TAB_WIDTH } else { 1 })
            .sum()
    };
    let before = &source[line_start..span.start];
    let inside = &source[span.start..span_end];
    let (col_start, col_len, total) = if line_text.len() <= MAX_SNIPPET_CHARS {
        (width(before), width(inside), width(line_text))
    } else {
        (usize::MAX, 0, usize::MAX)
    };
    if total <= MAX_SNIPPET_CHARS {
        return Snippet {
            line: line as u32,
            text: line_text.replace('\t', &" ".repeat(TAB_WIDTH)),
            underline: col_start..col_start + col_len,
        };
    }
    // A long line: show a window of chars around the start of the span.
    let chars: Vec<(usize, char)> = line_text.char_indices().collect();
    let at = chars.partition_point(|&(b, _)| line_start + b < span.start);
    let first = at.saturating_sub(MAX_SNIPPET_CHARS / 3);
    let last = (first + MAX_SNIPPET_CHARS).min(chars.len());
    let mut text = String::new();
    if first > 0 {
        text.push_str("...");
    }
    let prefix = text.chars().count();
    let mut underline = prefix..prefix;
    for (k, &(b, c)) in chars[first..last].iter().enumerate() {
        let col = prefix + k;
        let pos = line_start + b;
        if pos == span.start {
            underline.start = col;
        }
        if pos >= span.start && pos < span_end {
            underline.end = col + 1;
        }
        // Tabs become one space here, so columns stay one per char.
        text.push(if c == '\t' { ' ' } else { c });
    }
    if underline.end < underline.start {
        underline.end = underline.start;
    }
    if span.start >= line_end {
        underline = text.chars().count()..text.chars().count();
    }
    if last < chars.len() {
        text.push_str("...");
    }
    Snippet {
        line: line as u32,
        text,
        underline,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_clipped_around_the_column() {
        let mut source = "x".repeat(200_000);
        source.push_str(" @ ");
        source.push_str(&"y".repeat(200_000));
        let at = 200_001;
        let d = Diagnostic::with_span("f.pir", &source, Loc::new(1, 200_002), at..at + 1, "bad");
        let text = d.to_string();
        assert!(text.len() < 400, "{} bytes", text.len());
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[3].contains("...x") && lines[3].contains(" @ ") && lines[3].ends_with("y...")
        );
        // The caret sits under the `@`.
        let caret = lines[4].find('^').unwrap();
        assert_eq!(lines[3].as_bytes()[caret], b'@');
    }

    #[test]
    fn an_error_at_the_end_of_a_200_kb_line_prints_a_short_snippet() {
        let fields: Vec<String> = (0..20_000).map(|i| format!("f{i}: i64")).collect();
        let source = format!("struct Big {{ {}, f7: i64 }}\n", fields.join(", "));
        assert!(source.len() > 200_000);
        let err = crate::parse_and_verify("big.pir", &source).unwrap_err();
        let text = err.to_string();
        assert!(text.len() < 1_000, "{} bytes:\n{text}", text.len());
        assert!(text.starts_with("big.pir:1:"), "{text}");
        assert!(text.contains("duplicate field `f7`"), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let caret = lines[4].find('^').unwrap();
        assert_eq!(&lines[3][caret..caret + 2], "f7");
    }

    #[test]
    fn help_notes_and_colour() {
        let d = Diagnostic::with_span("f.pir", "x = add y, 1\n", Loc::new(1, 9), 8..9, "undefined")
            .with_help("did you mean `z`?")
            .with_note("a note");
        let plain = d.to_string();
        assert!(plain.contains("  = help: did you mean `z`?\n"));
        assert!(plain.contains("  = note: a note\n"));
        assert!(!plain.contains('\x1b'));
        let coloured = d.render(true);
        assert!(coloured.contains("\x1b[1;31merror\x1b[0m"));
        assert!(coloured.starts_with("f.pir:1:9: "));
    }
}
