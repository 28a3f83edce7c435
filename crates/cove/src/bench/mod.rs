//! Benchmark harness (being written).
use clap::Args;

/// Arguments of `cove bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Manifest file.
    pub manifest: std::path::PathBuf,
}

/// Runs the harness; returns the process exit code.
pub fn run(_args: &BenchArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not yet")
}
