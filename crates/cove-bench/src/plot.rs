//! Cactus and scatter plots as SVG.
//!
//! Cactus: number of solved instances (y) against time (x, logarithmic).
//! Each solver is one step line: after `t` seconds it has solved every instance whose
//! (correctly solved, within the limit) run took at most `t`. Higher and further left is
//! better. Only the `plotters` SVG backend is used, with no font features: SVG text is
//! emitted as `<text>` elements and laid out with plotters' built-in size estimate, so no font
//! files or C libraries are needed to build or run.
//!
//! Scatter ([`scatter_svg`]): the reference's time against Cove's per instance, log-log,
//! which shows *where* the two differ (a cactus plot only shows how many each solves).

use plotters::prelude::*;

/// One solver's line: the wall-clock times of its solved instances.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Times (seconds) of the solved instances, in any order.
    pub times: Vec<f64>,
}

/// Smallest time shown on the logarithmic axis.
const MIN_TIME: f64 = 0.01;
/// Line colours, in series order.
const COLORS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// The step points of one series: starts at (MIN_TIME, 0), rises by one at each solve time,
/// and runs on to the time limit.
pub fn step_points(times: &[f64], timeout: f64) -> Vec<(f64, f64)> {
    let mut sorted: Vec<f64> = times.iter().map(|t| t.max(MIN_TIME)).collect();
    sorted.sort_by(f64::total_cmp);
    let mut pts = vec![(MIN_TIME, 0.0)];
    for (i, t) in sorted.iter().enumerate() {
        pts.push((*t, i as f64));
        pts.push((*t, (i + 1) as f64));
    }
    pts.push((timeout.max(MIN_TIME), sorted.len() as f64));
    pts
}

/// Renders a cactus plot of `series` for a track of `total` instances.
pub fn cactus_svg(
    title: &str,
    series: &[Series],
    timeout: f64,
    total: usize,
) -> anyhow::Result<String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (800, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let x_max = (timeout * 1.05).max(MIN_TIME * 10.0);
        let y_max = (total.max(1) as f64) * 1.05;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d((MIN_TIME..x_max).log_scale(), 0.0..y_max)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("wall-clock time (s), log scale")
            .y_desc(format!("solved instances (of {total})"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_label_formatter(&|x| format!("{x}"))
            .draw()
            .map_err(plot_err)?;
        // The time limit, dashed-looking thin grey line.
        chart
            .draw_series(LineSeries::new(
                vec![(timeout.max(MIN_TIME), 0.0), (timeout.max(MIN_TIME), y_max)],
                RGBColor(150, 150, 150).stroke_width(1),
            ))
            .map_err(plot_err)?;
        for (i, s) in series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(
                    step_points(&s.times, timeout),
                    color.stroke_width(2),
                ))
                .map_err(plot_err)?
                .label(format!("{} ({} solved)", s.name, s.times.len()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(buf)
}

/// One instance in a scatter plot: each side's wall-clock time, `None` when unsolved.
#[derive(Clone, Debug)]
pub struct ScatterPoint {
    /// Group (track) name, one colour per group.
    pub group: String,
    /// Reference solver's time if it solved the instance.
    pub reference: Option<f64>,
    /// Cove's time if it solved the instance.
    pub cove: Option<f64>,
}

/// Where unsolved runs are drawn: a band beyond the time limit, so an instance solved by one
/// side only sits on the far edge of the other side's axis.
fn unsolved_pos(timeout: f64) -> f64 {
    timeout.max(MIN_TIME) * 2.0
}

/// Renders a log-log scatter plot: the reference's time (x) against Cove's (y), one point per
/// instance solved by at least one side, one colour per group. Points below the diagonal are
/// instances Cove solves faster; unsolved runs are drawn on the `unsolved` line beyond the
/// time limit. Instances neither side solves are left out (they say nothing about speed).
pub fn scatter_svg(
    title: &str,
    points: &[ScatterPoint],
    ref_name: &str,
    timeout: f64,
) -> anyhow::Result<String> {
    let unsolved = unsolved_pos(timeout);
    let limit = timeout.max(MIN_TIME);
    let axis_max = unsolved * 1.3;
    let mut groups: Vec<&str> = Vec::new();
    for p in points {
        if !groups.contains(&p.group.as_str()) {
            groups.push(&p.group);
        }
    }
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (620, 620)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(
                (MIN_TIME..axis_max).log_scale(),
                (MIN_TIME..axis_max).log_scale(),
            )
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc(format!("{ref_name} wall-clock time (s)"))
            .y_desc("cove wall-clock time (s)")
            .x_label_formatter(&|x| format!("{x}"))
            .y_label_formatter(&|y| format!("{y}"))
            .draw()
            .map_err(plot_err)?;
        let grey = RGBColor(150, 150, 150);
        // Diagonal (equal time), the time limit, and the unsolved lines.
        chart
            .draw_series(LineSeries::new(
                vec![(MIN_TIME, MIN_TIME), (axis_max, axis_max)],
                grey.stroke_width(1),
            ))
            .map_err(plot_err)?;
        for (pos, style) in [
            (limit, grey.stroke_width(1)),
            (unsolved, RED.stroke_width(1)),
        ] {
            chart
                .draw_series(LineSeries::new(
                    vec![(pos, MIN_TIME), (pos, axis_max)],
                    style,
                ))
                .map_err(plot_err)?;
            chart
                .draw_series(LineSeries::new(
                    vec![(MIN_TIME, pos), (axis_max, pos)],
                    style,
                ))
                .map_err(plot_err)?;
        }
        chart
            .draw_series(std::iter::once(Text::new(
                "unsolved",
                (MIN_TIME * 1.2, unsolved * 1.05),
                ("sans-serif", 12).into_font().color(&RED),
            )))
            .map_err(plot_err)?;
        for (i, g) in groups.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let pts: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.group == *g && (p.reference.is_some() || p.cove.is_some()))
                .map(|p| {
                    let pos = |t: Option<f64>| t.map_or(unsolved, |t| t.clamp(MIN_TIME, limit));
                    (pos(p.reference), pos(p.cove))
                })
                .collect();
            let n = pts.len();
            chart
                .draw_series(
                    pts.into_iter()
                        .map(move |xy| Circle::new(xy, 3, color.mix(0.7).filled())),
                )
                .map_err(plot_err)?
                .label(format!("{g} ({n})"))
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(buf)
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plotting failed: {e:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_rise_once_per_solved_instance() {
        let pts = step_points(&[2.0, 0.5, 0.001], 10.0);
        assert_eq!(
            pts,
            vec![
                (0.01, 0.0),
                (0.01, 0.0),
                (0.01, 1.0),
                (0.5, 1.0),
                (0.5, 2.0),
                (2.0, 2.0),
                (2.0, 3.0),
                (10.0, 3.0)
            ]
        );
        assert_eq!(step_points(&[], 5.0), vec![(0.01, 0.0), (5.0, 0.0)]);
    }

    #[test]
    fn renders_svg_with_legend() {
        let series = vec![
            Series {
                name: "cove".into(),
                times: vec![0.1, 0.2, 3.0],
            },
            Series {
                name: "z3".into(),
                times: vec![],
            },
        ];
        let svg = cactus_svg("LIA: cactus", &series, 5.0, 4).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("cove (3 solved)"));
        assert!(svg.contains("z3 (0 solved)"));
        assert!(svg.contains("<polyline"));
    }

    #[test]
    fn scatter_has_one_point_per_instance_solved_by_some_side() {
        let p = |g: &str, r: Option<f64>, c: Option<f64>| ScatterPoint {
            group: g.into(),
            reference: r,
            cove: c,
        };
        let points = vec![
            p("LIA", Some(1.0), Some(0.5)),
            p("LIA", None, Some(2.0)),
            p("LRA", Some(0.1), None),
            p("LRA", None, None),
        ];
        let svg = scatter_svg("scatter", &points, "z3", 5.0).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("LIA (2)"));
        assert!(svg.contains("LRA (1)"));
        // Three data points plus two legend markers.
        assert_eq!(svg.matches("<circle").count(), 5);
    }
}
