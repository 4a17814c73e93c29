//! An SVG grouped bar chart of a ratio table (one group per case plus the geometric mean, one
//! bar per level/Cranelift column, a whisker for each bar's range), with the parity line at
//! 1.0. Hand-written SVG: no fonts or rendering libraries needed.
//!
//! Readable at every scale: the axis step is a "nice" number (1, 2, 2.5 or 5 × 10^k) chosen
//! so that at most [`MAX_TICKS`] labels fit the plot height, and a group is at least as wide
//! as its label.

use super::protocol::Measurements;
use super::report::RatioTable;
use super::spread::Estimate;
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
/// Most axis labels on the plot: PLOT_H / MAX_TICKS leaves ≥ 26 px between labels of an
/// 11 px font.
pub const MAX_TICKS: usize = 10;
/// Width of one label character at font size 11 (generous for sans-serif).
const CHAR_W: f64 = 7.0;
/// Width of a legend entry's text.
const LEGEND_W: f64 = 110.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A tick step of 1, 2, 2.5 or 5 × 10^k such that `0..=max` needs at most [`MAX_TICKS`] steps.
pub fn tick_step(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let raw = max / MAX_TICKS as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|step| max / step <= MAX_TICKS as f64)
        .unwrap_or(10.0 * magnitude)
}

/// Decimals that show every multiple of `step` exactly (0.25 → 2, 0.5 → 1, 2 → 0).
fn decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .unwrap_or(6)
}

/// The chart of `table` as a standalone SVG document.
pub fn svg(m: &Measurements, table: &RatioTable, title: &str) -> String {
    let series = table.columns.len();
    let mut groups: Vec<(String, Vec<Option<Estimate>>)> = table
        .rows
        .iter()
        .enumerate()
        .map(|(row, r)| {
            (
                m.cases[r.case].label(),
                (0..series).map(|c| table.cell(row, c)).collect(),
            )
        })
        .collect();
    groups.push((
        "geomean".to_string(),
        (0..series).map(|c| table.geomean(c)).collect(),
    ));
    let top_value = groups
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().map(|e| e.max))
        .fold(1.0f64, f64::max);
    let step = tick_step(top_value * 1.05);
    let max = ((top_value * 1.05) / step).ceil() * step;
    let widest_label = groups
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0) as f64
        * CHAR_W;
    let group_w = (series as f64 * BAR + GAP).max(widest_label + 8.0);
    let legend_w = LEFT + series as f64 * LEGEND_W;
    let width = (LEFT + groups.len() as f64 * group_w + 20.0).max(legend_w);
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
    let places = decimals(step);
    let ticks = (max / step).round() as usize;
    for i in 0..=ticks {
        let tick = i as f64 * step;
        let ty = y(tick);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#eee"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{tick:.places$}</text>"##,
            width - 20.0,
            LEFT - 4.0,
            ty + 4.0
        );
    }
    for (g, (label, cells)) in groups.iter().enumerate() {
        let inner = series as f64 * BAR;
        let x0 = LEFT + g as f64 * group_w + (group_w - inner) / 2.0;
        for (i, cell) in cells.iter().enumerate() {
            if let Some(e) = cell {
                let x = x0 + i as f64 * BAR;
                let _ = writeln!(
                    s,
                    r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{} {} {}: {e}</title></rect>"#,
                    y(e.value),
                    BAR - 1.0,
                    TOP + PLOT_H - y(e.value),
                    COLORS[i % COLORS.len()],
                    escape(label),
                    table.columns[i].0.name(),
                    table.columns[i].1,
                );
                let cx = x + (BAR - 1.0) / 2.0;
                let _ = writeln!(
                    s,
                    r#"<line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="black"/>"#,
                    y(e.min),
                    y(e.max)
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text class="group" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            LEFT + g as f64 * group_w + group_w / 2.0,
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
        let lx = LEFT + i as f64 * LEGEND_W;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_never_crowd_the_axis() {
        for max in [
            0.3, 0.9, 1.05, 1.6, 3.7, 4.5, 12.0, 47.0, 130.0, 999.0, 25_000.0,
        ] {
            let step = tick_step(max);
            let ticks = (max / step).ceil() as usize;
            assert!(
                ticks <= MAX_TICKS,
                "max {max}: step {step} gives {ticks} ticks"
            );
            assert!(PLOT_H / ticks as f64 >= 20.0, "max {max}: labels too close");
            assert!(ticks >= 2, "max {max}: step {step} too coarse");
        }
        assert_eq!(decimals(0.25), 2);
        assert_eq!(decimals(0.5), 1);
        assert_eq!(decimals(20.0), 0);
    }
}
