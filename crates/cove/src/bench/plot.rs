//! Cactus plots as SVG: number of solved instances (y) against time (x, logarithmic).
//!
//! Each solver is one step line: after `t` seconds it has solved every instance whose
//! (correctly solved, within the limit) run took at most `t`. Higher and further left is
//! better. Only the `plotters` SVG backend is used, with no font features: SVG text is
//! emitted as `<text>` elements and laid out with plotters' built-in size estimate, so no font
//! files or C libraries are needed to build or run.

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
}
