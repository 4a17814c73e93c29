//! A markdown table: a title, a one-line caption, a header, aligned columns, rows of cells.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A titled markdown table.
pub struct Table {
    pub title: String,
    pub caption: String,
    pub header: Vec<String>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose first `left` columns are left-aligned labels and the rest right-aligned
    /// numbers.
    pub fn new(
        title: impl Into<String>,
        caption: impl Into<String>,
        header: Vec<String>,
        left: usize,
    ) -> Table {
        let align = (0..header.len())
            .map(|i| if i < left { Align::Left } else { Align::Right })
            .collect();
        Table {
            title: title.into(),
            caption: caption.into(),
            header,
            align,
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = |i: usize| {
            self.rows
                .iter()
                .map(|r| r[i].chars().count())
                .chain(std::iter::once(self.header[i].chars().count()))
                .max()
                .unwrap_or(0)
                .max(3)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |f: &mut fmt::Formatter<'_>, cells: &[String]| -> fmt::Result {
            write!(f, "|")?;
            for (i, cell) in cells.iter().enumerate() {
                match self.align[i] {
                    Align::Left => write!(f, " {cell:<w$} |", w = widths[i])?,
                    Align::Right => write!(f, " {cell:>w$} |", w = widths[i])?,
                }
            }
            writeln!(f)
        };
        writeln!(f, "### {}", self.title)?;
        writeln!(f)?;
        if !self.caption.is_empty() {
            writeln!(f, "{}", self.caption)?;
            writeln!(f)?;
        }
        line(f, &self.header)?;
        write!(f, "|")?;
        for (i, w) in widths.iter().enumerate() {
            match self.align[i] {
                Align::Left => write!(f, " {} |", "-".repeat(*w))?,
                Align::Right => write!(f, " {}: |", "-".repeat(w - 1))?,
            }
        }
        writeln!(f)?;
        for row in &self.rows {
            line(f, row)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_aligned_columns() {
        let mut t = Table::new("T", "c", vec!["name".into(), "x".into()], 1);
        t.push(vec!["a".into(), "1.5".into()]);
        let text = t.to_string();
        assert_eq!(
            text,
            "### T\n\nc\n\n| name |   x |\n| ---- | --: |\n| a    | 1.5 |\n"
        );
    }
}
