//! Command templates and the memory-limit wrappers that turn a template into a command line.
//!
//! A template is split once with shell quoting rules and then run without a shell, so paths
//! with spaces or quotes reach the solver intact; `{}` inside any word is the instance path.
//!
//! The memory limit is `RLIMIT_AS` (address space). Setting it in a `pre_exec` hook would need
//! `unsafe`, and setting it in the harness itself would limit the harness, so the solver is
//! started through a tiny exec-wrapper: `prlimit --as=BYTES -- CMD...` (util-linux, present on
//! practically every Linux) or, when `prlimit` is not on `PATH`, `/bin/sh -c 'ulimit -v KB;
//! exec "$@"'`. Both wrappers `exec` the solver, so the solver keeps the wrapper's PID and
//! the runner's kill and `wait4` rusage apply to the solver itself.

use std::path::{Path, PathBuf};

/// A command line with `{}` placeholders standing for the instance path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandTemplate {
    argv: Vec<String>,
}

impl CommandTemplate {
    /// Parses a template with shell quoting rules (no shell is involved when running it).
    /// Every `{}` inside a word is replaced by the path; a template without `{}` runs as is
    /// (handy for stand-ins such as `echo sat`).
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let argv = shell_words::split(text)
            .map_err(|e| anyhow::anyhow!("cannot split command `{text}`: {e}"))?;
        if argv.is_empty() {
            anyhow::bail!("empty command template");
        }
        Ok(Self::from_argv(argv))
    }

    /// Builds a template from ready-made words.
    pub fn from_argv(argv: Vec<String>) -> Self {
        CommandTemplate { argv }
    }

    /// Whether some word contains the `{}` placeholder.
    pub fn has_placeholder(&self) -> bool {
        self.argv.iter().any(|w| w.contains("{}"))
    }

    /// The words, with placeholders.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// The command line for one instance.
    pub fn instantiate(&self, path: &str) -> Vec<String> {
        self.argv.iter().map(|w| w.replace("{}", path)).collect()
    }
}

/// Looks `program` up like `execvp` would: names containing `/` are paths, others are searched
/// in `PATH`. Returns `None` when no executable file is found.
pub fn find_program(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let is_exec = |p: &Path| {
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_exec(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_exec(p))
}

/// How the address-space limit is imposed on the child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemLimiter {
    /// No limit.
    None,
    /// `prlimit --as=BYTES -- CMD...` with this `prlimit` binary.
    Prlimit(PathBuf),
    /// `/bin/sh -c 'ulimit -v KB ...; exec "$@"'`.
    ShellUlimit,
}

impl MemLimiter {
    /// Picks `prlimit` when available, else the shell; `None` when `memory_mb` is 0.
    pub fn detect(memory_mb: u64) -> Self {
        if memory_mb == 0 {
            MemLimiter::None
        } else if let Some(p) = find_program("prlimit") {
            MemLimiter::Prlimit(p)
        } else {
            MemLimiter::ShellUlimit
        }
    }

    /// Wraps `argv` so that it runs with at most `memory_mb` MiB of address space.
    pub fn wrap(&self, memory_mb: u64, argv: Vec<String>) -> Vec<String> {
        match self {
            MemLimiter::None => argv,
            MemLimiter::Prlimit(p) => {
                let mut out = vec![
                    p.display().to_string(),
                    format!("--as={}", memory_mb * 1024 * 1024),
                    "--".to_string(),
                ];
                out.extend(argv);
                out
            }
            MemLimiter::ShellUlimit => {
                // `$0` is the limit in KiB, `"$@"` the command; exit 125 if ulimit is refused.
                let mut out = vec![
                    "/bin/sh".to_string(),
                    "-c".to_string(),
                    r#"ulimit -v "$0" || exit 125; exec "$@""#.to_string(),
                    (memory_mb * 1024).to_string(),
                ];
                out.extend(argv);
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        let t = CommandTemplate::parse("z3 -T:5 '{}'").unwrap();
        assert_eq!(t.instantiate("a b.smt2"), vec!["z3", "-T:5", "a b.smt2"]);
        let t = CommandTemplate::parse("solver --file={} -v").unwrap();
        assert_eq!(t.instantiate("x"), vec!["solver", "--file=x", "-v"]);
        assert!(t.has_placeholder());
        let t = CommandTemplate::parse("echo sat").unwrap();
        assert!(!t.has_placeholder());
        assert_eq!(t.instantiate("x"), vec!["echo", "sat"]);
        assert!(CommandTemplate::parse("").is_err());
        assert!(CommandTemplate::parse("a 'unclosed").is_err());
    }

    #[test]
    fn program_lookup_and_wrappers() {
        assert!(find_program("sh").is_some());
        assert!(find_program("/definitely/not/here").is_none());
        let cmd = vec!["z3".to_string(), "f.smt2".to_string()];
        assert_eq!(MemLimiter::None.wrap(100, cmd.clone()), cmd);
        let p = MemLimiter::Prlimit("/usr/bin/prlimit".into()).wrap(100, cmd.clone());
        assert_eq!(
            p,
            ["/usr/bin/prlimit", "--as=104857600", "--", "z3", "f.smt2"]
        );
        let s = MemLimiter::ShellUlimit.wrap(100, cmd);
        assert_eq!(s[0], "/bin/sh");
        assert_eq!(s[3..], ["102400", "z3", "f.smt2"]);
        assert_eq!(MemLimiter::detect(0), MemLimiter::None);
    }
}
