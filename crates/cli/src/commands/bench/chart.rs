//! An SVG grouped bar chart of a ratio table (one group per case plus the geometric mean, one
//! bar per level/Cranelift column), with the parity line at 1.0. Hand-written SVG: no fonts or
//! rendering libraries needed.

use super::protocol::Measurements;
use super::report::RatioTable;
use std::fmt::Write as _;

const COLORS: [&str; 6] = [
    "#9ecae1", "#3182bd", "#fdae6b", "#e6550d", "#a1d99b", "#31a354",
];
const BAR: f64 = 14.0;
const GAP: f64 = 18.0;
const LEFT: f64 = 60.0;
const TOP: f64 = 40.0;
const PLOT_H: f64 = 260.0;
const BOTTOM: f64 = 70.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The chart of `table` as a standalone SVG document.
pub fn svg(m: &Measurements, table: &RatioTable, title: &str) -> String {
    let series = table.columns.len();
    let mut groups: Vec<(String, Vec<Option<f64>>)> = table
        .rows
        .iter()
        .map(|(case, cells, _)| (m.cases[*case].label(), cells.clone()))
        .collect();
    groups.push((
        "geomean".to_string(),
        (0..series).map(|c| table.geomean(c)).collect(),
    ));
    let values = groups.iter().flat_map(|(_, v)| v.iter().flatten().copied());
    let max = values.fold(1.0f64, f64::max) * 1.1;
    let group_w = series as f64 * BAR + GAP;
    let width = LEFT + groups.len() as f64 * group_w + 20.0;
    let height = TOP + PLOT_H + BOTTOM;
    let y = |v: f64| TOP + PLOT_H - v / max * PLOT_H;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="20" font-size="14">{}</text>"#,
        escape(title)
    );
    // Axis ticks every 0.25.
    let mut tick = 0.0;
    while tick <= max {
        let ty = y(tick);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#eee"/><text x="{:.1}" y="{:.1}" text-anchor="end">{tick:.2}</text>"##,
            width - 20.0,
            LEFT - 4.0,
            ty + 4.0
        );
        tick += 0.25;
    }
    for (g, (label, cells)) in groups.iter().enumerate() {
        let x0 = LEFT + g as f64 * group_w + GAP / 2.0;
        for (i, cell) in cells.iter().enumerate() {
            if let Some(v) = cell {
                let x = x0 + i as f64 * BAR;
                let _ = writeln!(
                    s,
                    r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} {} {}: {v:.3}</title></rect>"#,
                    y(*v),
                    BAR - 1.0,
                    TOP + PLOT_H - y(*v),
                    COLORS[i % COLORS.len()],
                    escape(label),
                    table.columns[i].0.name(),
                    table.columns[i].1,
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            x0 + series as f64 * BAR / 2.0,
            TOP + PLOT_H + 14.0,
            escape(label)
        );
    }
    let one = y(1.0);
    let _ = writeln!(
        s,
        r#"<line x1="{LEFT}" y1="{one:.1}" x2="{:.1}" y2="{one:.1}" stroke="black" stroke-dasharray="4 3"/>"#,
        width - 20.0
    );
    for (i, (level, cl)) in table.columns.iter().enumerate() {
        let lx = LEFT + i as f64 * 100.0;
        let ly = TOP + PLOT_H + 40.0;
        let _ = writeln!(
            s,
            r#"<rect x="{lx:.1}" y="{:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{ly:.1}">{} {cl}</text>"#,
            ly - 9.0,
            COLORS[i % COLORS.len()],
            lx + 14.0,
            level.name()
        );
    }
    s.push_str("</svg>\n");
    s
}
