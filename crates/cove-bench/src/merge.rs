//! `cove bench --merge A B …`: combines the result files of separate runs — typically the
//! shards of one `--shard I/N` split, run as a cluster array job — into one report, exactly
//! as if the whole selection had run at once (same tables, CSV/JSON, plots, exit code).
//!
//! A merge refuses to produce a misleading report: all inputs must share the time and memory
//! limits (PAR-2 and the verdicts depend on them) and the reference solver; sharded inputs
//! must be the complete set `0..N` of one split over the same selection; no instance may
//! appear twice. Each input is a `results.json` or a directory holding one.

use super::answer::{Answer, Outcome, Verdict};
use super::manifest::{Expected, Instance};
use super::report::RunConfig;
use super::runner::RunResult;
use super::stats::{InstanceResult, SideResult};
use anyhow::{Context as _, bail};
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One input file, parsed.
pub struct Part {
    /// Where it came from.
    pub path: PathBuf,
    /// Its run configuration.
    pub config: RunConfig,
    /// Its results, each with its selection index (its position in the whole run).
    pub results: Vec<(usize, InstanceResult)>,
}

fn results_file(p: &Path) -> PathBuf {
    if p.is_dir() {
        p.join("results.json")
    } else {
        p.to_path_buf()
    }
}

fn side_from_json(v: &Value) -> anyhow::Result<SideResult> {
    let word = v["answer"].as_str().context("missing `answer`")?;
    let detail = v["detail"].as_str().unwrap_or("").to_string();
    let outcome = match word {
        "sat" => Outcome::Answer(Answer::Sat),
        "unsat" => Outcome::Answer(Answer::Unsat),
        "unknown" => Outcome::Answer(Answer::Unknown),
        "timeout" => Outcome::Killed,
        "memout" => Outcome::MemOut,
        "error" => Outcome::Error(detail),
        other => bail!("unknown answer `{other}`"),
    };
    let verdict: Verdict =
        serde_json::from_value(v["verdict"].clone()).context("missing or bad `verdict`")?;
    let num = |k: &str| v[k].as_f64().with_context(|| format!("missing `{k}`"));
    Ok(SideResult {
        run: RunResult {
            outcome,
            wall_secs: num("time_s")?,
            cpu_secs: num("cpu_s")?,
            peak_bytes: (num("peak_mb")? * 1024.0 * 1024.0).round() as u64,
            exit_code: v["exit_code"].as_i64().map(|c| c as i32),
            signal: v["signal"].as_i64().map(|c| c as i32),
            property_answers: Vec::new(),
        },
        verdict,
    })
}

fn instance_from_json(v: &Value) -> anyhow::Result<InstanceResult> {
    let s = |k: &str| {
        v[k].as_str()
            .map(str::to_string)
            .with_context(|| format!("missing `{k}`"))
    };
    let expected: Expected =
        serde_json::from_value(v["expected"].clone()).context("missing or bad `expected`")?;
    Ok(InstanceResult {
        instance: Instance {
            track: s("track")?,
            path: s("path")?,
            expected,
            properties: match v["properties"].as_str() {
                None => None,
                Some(p) => Some(
                    crate::manifest::parse_properties(p)
                        .with_context(|| format!("bad `properties` `{p}`"))?,
                ),
            },
        },
        cove: side_from_json(&v["cove"]).context("`cove`")?,
        reference: match &v["ref"] {
            Value::Null => None,
            r => Some(side_from_json(r).context("`ref`")?),
        },
    })
}

/// Reads one `results.json` (or a directory holding it).
pub fn read_part(p: &Path) -> anyhow::Result<Part> {
    let path = results_file(p);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let doc: Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let config: RunConfig = serde_json::from_value(doc["config"].clone())
        .with_context(|| format!("{}: missing or bad `config`", path.display()))?;
    let list = doc["instances"]
        .as_array()
        .with_context(|| format!("{}: missing `instances`", path.display()))?;
    let mut results = Vec::with_capacity(list.len());
    for (pos, v) in list.iter().enumerate() {
        let r =
            instance_from_json(v).with_context(|| format!("{}: instance {pos}", path.display()))?;
        let index = match v["index"].as_u64() {
            Some(i) => i as usize,
            None => config.shard.map_or(pos, |s| s.shard.selection_index(pos)),
        };
        results.push((index, r));
    }
    Ok(Part {
        path,
        config,
        results,
    })
}

/// Checks that the parts belong together and combines them, in selection order. Returns
/// the merged configuration and results.
pub fn combine(parts: Vec<Part>) -> anyhow::Result<(RunConfig, Vec<InstanceResult>)> {
    let Some(first) = parts.first() else {
        bail!("nothing to merge");
    };
    let base = first.config.clone();
    for p in &parts[1..] {
        let c = &p.config;
        let what = if c.timeout_secs != base.timeout_secs {
            Some(format!(
                "timeout {} s vs {} s",
                c.timeout_secs, base.timeout_secs
            ))
        } else if c.memory_mb != base.memory_mb {
            Some(format!(
                "memory {} MiB vs {} MiB",
                c.memory_mb, base.memory_mb
            ))
        } else if c.ref_name != base.ref_name {
            Some(format!("reference {:?} vs {:?}", c.ref_name, base.ref_name))
        } else {
            None
        };
        if let Some(w) = what {
            bail!(
                "{} and {} were run with different settings ({w}); their results cannot be merged",
                p.path.display(),
                parts[0].path.display()
            );
        }
        if c.cove_cmd[1..] != base.cove_cmd[1..] {
            eprintln!(
                "warning: {} ran cove as `{}`, {} as `{}`",
                p.path.display(),
                c.cove_cmd.join(" "),
                parts[0].path.display(),
                base.cove_cmd.join(" ")
            );
        }
    }
    let shards: Vec<_> = parts.iter().filter_map(|p| p.config.shard).collect();
    if !shards.is_empty() {
        if shards.len() != parts.len() {
            bail!("some inputs are shards of a split and some are not");
        }
        let (n, selected) = (shards[0].shard.count, shards[0].selected);
        if let Some(s) = shards
            .iter()
            .find(|s| s.shard.count != n || s.selected != selected)
        {
            bail!(
                "inputs come from different splits: shard {} of {} instances vs shard {} of {}",
                s.shard,
                s.selected,
                shards[0].shard,
                selected
            );
        }
        let mut have = vec![false; n];
        for (s, p) in shards.iter().zip(&parts) {
            if std::mem::replace(&mut have[s.shard.index], true) {
                bail!("shard {} given twice ({})", s.shard, p.path.display());
            }
            if p.results.len() != s.shard.size(selected) {
                bail!(
                    "{}: shard {} holds {} results, expected {} (an interrupted run?)",
                    p.path.display(),
                    s.shard,
                    p.results.len(),
                    s.shard.size(selected)
                );
            }
        }
        let missing: Vec<String> = (0..n)
            .filter(|&i| !have[i])
            .map(|i| format!("{i}/{n}"))
            .collect();
        if !missing.is_empty() {
            bail!("missing shard(s): {}", missing.join(", "));
        }
    }
    let mut config = base;
    config.shard = None;
    config.merged_from = parts.iter().map(|p| p.path.display().to_string()).collect();
    let sharded = !shards.is_empty();
    let mut all: Vec<(usize, usize, InstanceResult)> = Vec::new();
    for (k, p) in parts.into_iter().enumerate() {
        for (index, r) in p.results {
            // Unsharded inputs keep their file order, one file after the other.
            all.push((if sharded { index } else { k }, all.len(), r));
        }
    }
    all.sort_by_key(|(index, order, _)| (*index, *order));
    let mut seen = HashSet::new();
    for (_, _, r) in &all {
        if !seen.insert((&r.instance.track, &r.instance.path)) {
            bail!(
                "instance {} ({}) appears in more than one input",
                r.instance.path,
                r.instance.track
            );
        }
    }
    Ok((config, all.into_iter().map(|(_, _, r)| r).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::render_json;
    use crate::shard::{Shard, ShardInfo};
    use crate::stats::summarize;

    fn config(shard: Option<ShardInfo>) -> RunConfig {
        RunConfig {
            manifest: "m.tsv".into(),
            root: ".".into(),
            timeout_secs: 5.0,
            grace_secs: 1.0,
            memory_mb: 0,
            memory_limiter: "none".into(),
            jobs: 1,
            cove_cmd: vec!["cove".into(), "solve".into(), "{}".into()],
            ref_cmd: None,
            ref_name: None,
            shard,
            merged_from: vec![],
        }
    }

    fn result(path: &str, answer: Answer, verdict: Verdict) -> InstanceResult {
        InstanceResult {
            instance: Instance {
                track: "T".into(),
                path: path.into(),
                expected: Expected::Sat,
                properties: None,
            },
            cove: SideResult {
                run: RunResult {
                    outcome: Outcome::Answer(answer),
                    wall_secs: 0.5,
                    cpu_secs: 0.25,
                    peak_bytes: 3 * 1024 * 1024,
                    exit_code: Some(0),
                    signal: None,
                    property_answers: Vec::new(),
                },
                verdict,
            },
            reference: None,
        }
    }

    /// Writes a part as `results.json` text and reads it back.
    fn round_trip(config: RunConfig, results: Vec<InstanceResult>) -> Part {
        let summaries = summarize(&results, config.timeout_secs);
        let text = render_json(&config, &summaries, &results).unwrap();
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cove-merge-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("results.json"), text).unwrap();
        let part = read_part(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        part
    }

    #[test]
    fn shards_merge_back_in_selection_order() {
        let info = |index| {
            Some(ShardInfo {
                shard: Shard { index, count: 2 },
                selected: 3,
            })
        };
        let s0 = round_trip(
            config(info(0)),
            vec![
                result("a", Answer::Sat, Verdict::Solved),
                result("c", Answer::Unknown, Verdict::Unknown),
            ],
        );
        let s1 = round_trip(
            config(info(1)),
            vec![result("b", Answer::Sat, Verdict::Solved)],
        );
        assert_eq!(s1.results[0].0, 1);
        let (cfg, merged) = combine(vec![s1, s0]).unwrap();
        let paths: Vec<&str> = merged.iter().map(|r| r.instance.path.as_str()).collect();
        assert_eq!(paths, ["a", "b", "c"]);
        assert!(cfg.shard.is_none());
        assert_eq!(cfg.merged_from.len(), 2);
        let r = &merged[0].cove.run;
        assert_eq!(
            (r.wall_secs, r.cpu_secs, r.peak_bytes),
            (0.5, 0.25, 3 << 20)
        );
        assert_eq!(merged[2].cove.verdict, Verdict::Unknown);
    }

    #[test]
    fn incomplete_or_inconsistent_inputs_are_refused() {
        let info = |index, selected| {
            Some(ShardInfo {
                shard: Shard { index, count: 2 },
                selected,
            })
        };
        let part = |c, path| round_trip(c, vec![result(path, Answer::Sat, Verdict::Solved)]);
        let err = |parts| combine(parts).unwrap_err().to_string();
        assert!(err(vec![part(config(info(0, 2)), "x")]).contains("missing shard(s): 1/2"));
        assert!(
            err(vec![
                part(config(info(0, 2)), "x"),
                part(config(info(1, 3)), "y")
            ])
            .contains("different splits")
        );
        let mut slow = config(None);
        slow.timeout_secs = 10.0;
        assert!(err(vec![part(config(None), "x"), part(slow, "y")]).contains("timeout"));
        assert!(
            err(vec![part(config(None), "x"), part(config(None), "x")])
                .contains("more than one input")
        );
    }
}
