//! Writing the result files into `--out`: `results.csv`, `results.json`, `summary.txt`,
//! `cactus.svg` (all tracks), `cactus-TRACK.svg` (one per track) and, with a reference
//! solver, `scatter.svg` (per-instance times, reference vs Cove, coloured by track).

use super::plot;
use super::report::{self, RunConfig};
use super::stats::{InstanceResult, SideResult, TrackSummary};
use anyhow::Context as _;
use std::path::Path;

/// A file-name-safe version of a track name.
fn file_stem(track: &str) -> String {
    track
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn write_outputs(
    out: &Path,
    config: &RunConfig,
    summaries: &[TrackSummary],
    results: &[InstanceResult],
    timeout: f64,
    ref_name: Option<&str>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
    };
    write("results.csv", &report::render_csv(results))?;
    write(
        "results.json",
        &report::render_json(config, summaries, results)?,
    )?;
    write(
        "summary.txt",
        &report::render_summary(summaries, config, false, None),
    )?;

    let mut tracks: Vec<&str> = Vec::new();
    for r in results {
        if !tracks.contains(&r.instance.track.as_str()) {
            tracks.push(&r.instance.track);
        }
    }
    let series_for = |track: Option<&str>| {
        let keep = |r: &&InstanceResult| track.is_none_or(|t| r.instance.track == t);
        let times = |f: &dyn Fn(&InstanceResult) -> Option<&SideResult>| -> Vec<f64> {
            results
                .iter()
                .filter(keep)
                .filter_map(f)
                .filter(|s| s.verdict.is_solved())
                .map(|s| s.run.wall_secs)
                .collect()
        };
        let mut series = vec![plot::Series {
            name: "cove".into(),
            times: times(&|r| Some(&r.cove)),
        }];
        if let Some(name) = ref_name {
            series.push(plot::Series {
                name: name.into(),
                times: times(&|r| r.reference.as_ref()),
            });
        }
        (series, results.iter().filter(keep).count())
    };
    let (series, total) = series_for(None);
    let title = format!("all tracks — {total} instances, timeout {timeout} s");
    write(
        "cactus.svg",
        &plot::cactus_svg(&title, &series, timeout, total)?,
    )?;
    if let Some(name) = ref_name {
        let solved_time = |s: &SideResult| s.verdict.is_solved().then_some(s.run.wall_secs);
        let points: Vec<plot::ScatterPoint> = results
            .iter()
            .map(|r| plot::ScatterPoint {
                group: r.instance.track.clone(),
                reference: r.reference.as_ref().and_then(solved_time),
                cove: solved_time(&r.cove),
            })
            .collect();
        let title = format!("cove vs {name} — {total} instances, timeout {timeout} s");
        write(
            "scatter.svg",
            &plot::scatter_svg(&title, &points, name, timeout)?,
        )?;
    }
    for t in tracks {
        let (series, total) = series_for(Some(t));
        let title = format!("{t} — {total} instances, timeout {timeout} s");
        write(
            &format!("cactus-{}.svg", file_stem(t)),
            &plot::cactus_svg(&title, &series, timeout, total)?,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems() {
        assert_eq!(file_stem("LIA-Lin"), "LIA-Lin");
        assert_eq!(file_stem("a/b c"), "a_b_c");
    }
}
