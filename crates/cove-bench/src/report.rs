//! Rendering results: the per-track comparison table, `results.csv` and `results.json`.
//!
//! The table is plain text; when `color` is set, wrong answers are shown in bold red (the
//! harness enables it only when stdout is a terminal, so files and pipes stay clean).

use super::answer::{Outcome, Verdict};
use super::shard::ShardInfo;
use super::stats::{InstanceResult, SideResult, SideStats, TrackSummary};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Settings recorded in `results.json` and shown in the table header.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RunConfig {
    /// The manifest file.
    pub manifest: String,
    /// Root the manifest paths are resolved against.
    pub root: String,
    /// Time limit in seconds.
    pub timeout_secs: f64,
    /// Extra seconds before the kill.
    pub grace_secs: f64,
    /// Memory limit in MiB (0 = none).
    pub memory_mb: u64,
    /// How the memory limit is applied.
    pub memory_limiter: String,
    /// Parallel workers.
    pub jobs: usize,
    /// Cove's command template (`{}` = instance path).
    pub cove_cmd: Vec<String>,
    /// The reference's command template.
    pub ref_cmd: Option<Vec<String>>,
    /// Display name of the reference.
    pub ref_name: Option<String>,
    /// The part of a `--shard I/N` split this run covered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// The result files a `--merge` combined.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

const RED: &str = "\x1b[1;31m";
const RESET: &str = "\x1b[0m";

fn red(text: &str, color: bool) -> String {
    if color {
        format!("{RED}{text}{RESET}")
    } else {
        text.to_string()
    }
}

fn stat_rows(s: &SideStats) -> Vec<String> {
    vec![
        format!("{} ({}/{})", s.solved, s.solved_sat, s.solved_unsat),
        s.wrong.to_string(),
        format!("{}/{}", s.timeout, s.unknown),
        s.memout.to_string(),
        s.error.to_string(),
        format!("{:.1}", s.par2),
        format!("{:.2}", s.par2_avg()),
    ]
}

const ROW_NAMES: [&str; 7] = [
    "solved (sat/unsat)",
    "wrong",
    "timeout/unknown",
    "memout",
    "errors",
    "PAR-2 sum (s)",
    "PAR-2 avg (s)",
];
const WRONG_ROW: usize = 1;

/// Renders the per-track tables. `list_limit` caps the instance lists (None = all).
pub fn render_summary(
    summaries: &[TrackSummary],
    config: &RunConfig,
    color: bool,
    list_limit: Option<usize>,
) -> String {
    let ref_name = config.ref_name.as_deref().unwrap_or("reference");
    let mut out = String::new();
    if let Some(s) = &config.shard {
        let _ = writeln!(
            out,
            "shard {} of a split of {} instances (combine the shards with --merge)",
            s.shard, s.selected
        );
    }
    if !config.merged_from.is_empty() {
        let _ = writeln!(out, "merged from {} result files", config.merged_from.len());
    }
    for s in summaries {
        let _ = writeln!(
            out,
            "\n== {} ({} instances, timeout {} s, memory {} MiB) ==",
            s.track,
            s.cove.total,
            config.timeout_secs,
            if config.memory_mb == 0 {
                "unlimited".to_string()
            } else {
                config.memory_mb.to_string()
            },
        );
        let cove = stat_rows(&s.cove);
        let reference = s.reference.as_ref().map(stat_rows);
        let _ = write!(out, "{:<20} {:>16}", "", "cove");
        if reference.is_some() {
            let _ = write!(out, " {:>16}", ref_name);
        }
        out.push('\n');
        for (i, name) in ROW_NAMES.iter().enumerate() {
            let cell = |text: &str, wrong: usize| {
                let padded = format!(" {text:>16}");
                if i == WRONG_ROW && wrong > 0 {
                    red(&padded, color)
                } else {
                    padded
                }
            };
            let _ = write!(out, "{name:<20}{}", cell(&cove[i], s.cove.wrong));
            if let (Some(r), Some(rs)) = (&reference, &s.reference) {
                out.push_str(&cell(&r[i], rs.wrong));
            }
            out.push('\n');
        }
        if !s.cove_wrong.is_empty() {
            let _ = writeln!(
                out,
                "{}",
                red(
                    &format!("cove WRONG on {} instance(s):", s.cove_wrong.len()),
                    color
                )
            );
            list(&mut out, &s.cove_wrong, None);
        }
        if !s.reference_wrong.is_empty() {
            let msg = format!(
                "{ref_name} WRONG on {} instance(s):",
                s.reference_wrong.len()
            );
            let _ = writeln!(out, "{}", red(&msg, color));
            list(&mut out, &s.reference_wrong, list_limit);
        }
        if s.reference.is_some() && !s.reference_only.is_empty() {
            let _ = writeln!(
                out,
                "solved by {ref_name} but not by cove ({}):",
                s.reference_only.len()
            );
            list(&mut out, &s.reference_only, list_limit);
        }
    }
    out
}

fn list(out: &mut String, paths: &[String], limit: Option<usize>) {
    let shown = limit.unwrap_or(paths.len()).min(paths.len());
    for p in &paths[..shown] {
        let _ = writeln!(out, "  {p}");
    }
    if shown < paths.len() {
        let _ = writeln!(
            out,
            "  ... and {} more (see results.csv)",
            paths.len() - shown
        );
    }
}

/// Quotes a CSV field when needed (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn detail(side: &SideResult) -> &str {
    match &side.run.outcome {
        Outcome::Error(m) => m,
        _ => "",
    }
}

fn side_cells(side: Option<&SideResult>) -> [String; 6] {
    match side {
        None => Default::default(),
        Some(s) => [
            s.run.outcome.word().to_string(),
            s.verdict.to_string().to_lowercase(),
            format!("{:.3}", s.run.wall_secs),
            format!("{:.3}", s.run.cpu_secs),
            format!("{:.1}", s.run.peak_mb()),
            detail(s).to_string(),
        ],
    }
}

/// The CSV text: one row per instance, Cove's and the reference's columns side by side.
pub fn render_csv(results: &[InstanceResult]) -> String {
    let mut out = String::from(
        "track,path,expected,\
         cove_answer,cove_verdict,cove_time_s,cove_cpu_s,cove_peak_mb,cove_detail,\
         ref_answer,ref_verdict,ref_time_s,ref_cpu_s,ref_peak_mb,ref_detail\n",
    );
    for r in results {
        let mut fields = vec![
            r.instance.track.clone(),
            r.instance.path.clone(),
            r.instance.properties.as_deref().map_or_else(
                || r.instance.expected.to_string(),
                crate::manifest::format_properties,
            ),
        ];
        fields.extend(side_cells(Some(&r.cove)));
        fields.extend(side_cells(r.reference.as_ref()));
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

fn side_json(s: &SideResult) -> Value {
    json!({
        "answer": s.run.outcome.word(),
        "verdict": s.verdict,
        "time_s": s.run.wall_secs,
        "cpu_s": s.run.cpu_secs,
        "peak_mb": s.run.peak_mb(),
        "exit_code": s.run.exit_code,
        "signal": s.run.signal,
        "detail": match &s.run.outcome { Outcome::Error(m) => Some(m.as_str()), _ => None },
    })
}

fn stats_json(s: &SideStats) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("par2_avg".into(), json!(s.par2_avg()));
    }
    v
}

/// The JSON document: configuration, per-track summary, and per-instance results (each
/// with its `index` in the whole selection, see [`super::shard`]).
pub fn render_json(
    config: &RunConfig,
    summaries: &[TrackSummary],
    results: &[InstanceResult],
) -> serde_json::Result<String> {
    let summary: Vec<Value> = summaries
        .iter()
        .map(|s| {
            json!({
                "track": s.track,
                "cove": stats_json(&s.cove),
                "ref": s.reference.as_ref().map(stats_json),
                "ref_only": s.reference_only,
                "cove_wrong": s.cove_wrong,
                "ref_wrong": s.reference_wrong,
            })
        })
        .collect();
    // `index`: the position in the whole selection, so shards can be merged in order.
    let instances: Vec<Value> = results
        .iter()
        .enumerate()
        .map(|(pos, r)| {
            json!({
                "index": config.shard.map_or(pos, |s| s.shard.selection_index(pos)),
                "track": r.instance.track,
                "path": r.instance.path,
                "expected": r.instance.expected,
                "properties": r.instance.properties.as_deref().map(crate::manifest::format_properties),
                "cove": side_json(&r.cove),
                "ref": r.reference.as_ref().map(side_json),
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({
        "config": config,
        "summary": summary,
        "instances": instances,
    }))
}

/// Whether any Cove answer was wrong.
pub fn any_cove_wrong(results: &[InstanceResult]) -> bool {
    results.iter().any(|r| r.cove.verdict == Verdict::Wrong)
}

/// True when there were instances and Cove errored on every one (a broken command line or
/// binary, not a benchmark result).
pub fn all_cove_errored(results: &[InstanceResult]) -> bool {
    !results.is_empty() && results.iter().all(|r| r.cove.verdict == Verdict::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_field("plain/path.smt2"), "plain/path.smt2");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }
}
