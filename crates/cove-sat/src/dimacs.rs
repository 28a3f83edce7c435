//! DIMACS CNF input and SAT-competition output.
//!
//! Input: optional `c` comment lines, a `p cnf VARS CLAUSES` header, then clauses as
//! whitespace-separated nonzero integers each terminated by `0` (clauses may span lines).
//! A line starting with `%` ends the input (SATLIB files). Declared counts are not enforced:
//! the variable count is the maximum of the header and the largest variable used.
//!
//! Output: `s SATISFIABLE` with `v ... 0` model lines (exit code 10), `s UNSATISFIABLE`
//! (20), or `s UNKNOWN` (0). Models are checked against every clause before printing.

use std::io::Write;
use std::path::Path;

use crate::lit::{LBool, Lit};
use crate::search::{Limits, SolveResult};
use crate::solver::Solver;

/// Largest variable count accepted (keeps allocations proportional to sane inputs).
pub const MAX_VARS: usize = 1 << 28;

/// A parsed CNF formula.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables (variables are `0..num_vars`).
    pub num_vars: usize,
    /// The clauses.
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// Adds the formula to `solver`; returns `false` if it became unsatisfiable at level 0.
    pub fn load_into(&self, solver: &mut Solver) -> bool {
        while solver.num_vars() < self.num_vars {
            solver.new_var();
        }
        let mut ok = true;
        for c in &self.clauses {
            ok &= solver.add_clause(c);
        }
        ok
    }

    /// Whether `model` (one Boolean per variable) satisfies every clause; returns the index of
    /// the first falsified clause otherwise.
    pub fn check_model(&self, model: &[bool]) -> Result<(), usize> {
        let val = |l: Lit| model.get(l.var().index()).is_some_and(|&b| b != l.is_neg());
        match self.clauses.iter().position(|c| !c.iter().any(|&l| val(l))) {
            None => Ok(()),
            Some(i) => Err(i),
        }
    }
}

/// Errors from reading or solving DIMACS input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DimacsError {
    /// Malformed input at a 1-based line and column.
    #[error("{line}:{column}: {message}")]
    Syntax {
        /// Line number (1-based).
        line: usize,
        /// Column number (1-based, in bytes).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Reading the file or writing the output failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The solver produced a model that falsifies a clause (an internal error).
    #[error("internal error: model falsifies clause {clause}")]
    InvalidModel {
        /// Index of the falsified clause.
        clause: usize,
    },
}

fn syntax(line: usize, column: usize, message: impl Into<String>) -> DimacsError {
    DimacsError::Syntax {
        line,
        column,
        message: message.into(),
    }
}

/// Parses DIMACS CNF text.
pub fn parse_dimacs(src: &str) -> Result<Cnf, DimacsError> {
    let mut cnf = Cnf::default();
    let mut header_seen = false;
    let mut clause = Vec::new();
    let mut last_pos = (1, 1);
    for (ln, line) in src.lines().enumerate() {
        let line_no = ln + 1;
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        if trimmed.starts_with('%') {
            break;
        }
        if trimmed.starts_with('p') {
            if header_seen {
                return Err(syntax(line_no, indent + 1, "second `p` header"));
            }
            if !cnf.clauses.is_empty() || !clause.is_empty() {
                return Err(syntax(line_no, indent + 1, "`p` header after clauses"));
            }
            header_seen = true;
            let toks = tokens(line);
            let kind = toks.get(1).map(|t| t.1);
            if toks.len() != 4 || toks[0].1 != "p" || kind != Some("cnf") {
                return Err(syntax(line_no, indent + 1, "expected `p cnf VARS CLAUSES`"));
            }
            for &(col, t) in &toks[2..] {
                if t.parse::<u64>().is_err() {
                    return Err(syntax(
                        line_no,
                        col,
                        format!("expected a count, found `{t}`"),
                    ));
                }
            }
            let vars: u64 = toks[2].1.parse().unwrap_or(u64::MAX);
            if vars > MAX_VARS as u64 {
                return Err(syntax(line_no, toks[2].0, "too many variables"));
            }
            cnf.num_vars = vars as usize;
            continue;
        }
        for (col, t) in tokens(line) {
            last_pos = (line_no, col + t.len());
            let x: i64 = t
                .parse()
                .map_err(|_| syntax(line_no, col, format!("expected an integer, found `{t}`")))?;
            if x == 0 {
                cnf.clauses.push(std::mem::take(&mut clause));
                continue;
            }
            if x.unsigned_abs() > MAX_VARS as u64 {
                return Err(syntax(line_no, col, format!("variable {x} out of range")));
            }
            let l = Lit::from_dimacs(x as i32);
            cnf.num_vars = cnf.num_vars.max(l.var().index() + 1);
            clause.push(l);
        }
    }
    if !clause.is_empty() {
        return Err(syntax(
            last_pos.0,
            last_pos.1,
            "last clause is not terminated by 0",
        ));
    }
    Ok(cnf)
}

/// Whitespace-separated tokens with their 1-based byte columns.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s + 1, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

/// Solves `cnf` and writes the competition output to `out`. Returns the exit code:
/// 10 (satisfiable), 20 (unsatisfiable) or 0 (unknown).
pub fn solve_cnf(cnf: &Cnf, out: &mut impl Write, limits: &Limits) -> Result<i32, DimacsError> {
    let mut s = Solver::new();
    let res = if cnf.load_into(&mut s) {
        s.solve_limited(&[], &mut crate::theory::NoTheory, limits)
    } else {
        SolveResult::Unsat
    };
    let st = s.stats();
    writeln!(
        out,
        "c vars {} clauses {} conflicts {} decisions {} propagations {}",
        cnf.num_vars,
        cnf.clauses.len(),
        st.conflicts,
        st.decisions,
        st.propagations
    )?;
    match res {
        SolveResult::Sat => {
            let model: Vec<bool> = (0..cnf.num_vars)
                .map(|v| s.value(crate::lit::Var(v as u32).positive()) == LBool::True)
                .collect();
            cnf.check_model(&model)
                .map_err(|clause| DimacsError::InvalidModel { clause })?;
            writeln!(out, "s SATISFIABLE")?;
            let mut line = String::from("v");
            for (v, &b) in model.iter().enumerate() {
                let lit = crate::lit::Lit::new(crate::lit::Var(v as u32), !b).to_dimacs();
                let tok = format!(" {lit}");
                if line.len() + tok.len() > 78 {
                    writeln!(out, "{line}")?;
                    line = String::from("v");
                }
                line.push_str(&tok);
            }
            writeln!(out, "{line} 0")?;
            Ok(10)
        }
        SolveResult::Unsat => {
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(20)
        }
        SolveResult::Unknown => {
            writeln!(out, "s UNKNOWN")?;
            Ok(0)
        }
    }
}

/// Reads a DIMACS file, solves it and writes the competition output; returns the exit code
/// (10/20/0) as [`solve_cnf`].
pub fn run_dimacs_file(
    path: &Path,
    out: &mut impl Write,
    limits: &Limits,
) -> Result<i32, DimacsError> {
    let src = std::fs::read_to_string(path)?;
    let cnf = parse_dimacs(&src)?;
    solve_cnf(&cnf, out, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_satlib_style_file() {
        let src = "c a comment\np cnf 3 2\n 1 -2 0\n2 3\n -1 0\n%\n0\n";
        let cnf = parse_dimacs(src).unwrap();
        assert_eq!(cnf.num_vars, 3);
        assert_eq!(cnf.clauses.len(), 2);
        assert_eq!(
            cnf.clauses[1],
            vec![
                Lit::from_dimacs(2),
                Lit::from_dimacs(3),
                Lit::from_dimacs(-1)
            ]
        );
    }

    #[test]
    fn reports_positions() {
        let err = |s: &str| match parse_dimacs(s) {
            Err(DimacsError::Syntax { line, column, .. }) => (line, column),
            other => panic!("expected a syntax error, got {other:?}"),
        };
        assert_eq!(err("p cnf 2 1\n1 x 0\n"), (2, 3));
        assert_eq!(err("p cnf 2\n"), (1, 1));
        assert_eq!(err("p cnf 2 1\n1 2"), (2, 4));
        assert_eq!(err("1 0\np cnf 1 1\n"), (2, 1));
        assert_eq!(err("p cnf 1 1\n-2147483648 0\n"), (2, 1));
        assert_eq!(err("p cnf 999999999999 1\n"), (1, 7));
        assert_eq!(err("p dnf 1 1\n"), (1, 1));
    }

    #[test]
    fn garbage_never_panics() {
        let alphabet = [
            "p",
            "cnf",
            "c",
            "%",
            "0",
            "-",
            "1",
            "-7",
            "x",
            " ",
            "\n",
            "99999999999",
            "\t",
            "é",
        ];
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            let mut src = String::new();
            for _ in 0..(state % 40) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                src.push_str(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            if let Ok(cnf) = parse_dimacs(&src) {
                assert!(
                    cnf.clauses
                        .iter()
                        .flatten()
                        .all(|l| l.var().index() < cnf.num_vars)
                );
            }
        }
    }

    #[test]
    fn run_dimacs_file_reads_and_reports_io_errors() {
        let dir = std::env::temp_dir().join(format!("cove-sat-dimacs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.cnf");
        std::fs::write(&path, "p cnf 2 3\n1 2 0\n-1 2 0\n1 -2 0\n").unwrap();
        let mut out = Vec::new();
        assert_eq!(
            run_dimacs_file(&path, &mut out, &Limits::default()).unwrap(),
            10
        );
        assert!(String::from_utf8(out).unwrap().contains("v 1 2 0"));
        let missing = dir.join("missing.cnf");
        let err = run_dimacs_file(&missing, &mut Vec::new(), &Limits::default());
        assert!(matches!(err, Err(DimacsError::Io(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_input_is_an_empty_formula() {
        assert_eq!(parse_dimacs("").unwrap(), Cnf::default());
    }

    #[test]
    fn writes_competition_output() {
        let cnf = parse_dimacs("p cnf 2 2\n1 2 0\n-1 0\n").unwrap();
        let mut out = Vec::new();
        let code = solve_cnf(&cnf, &mut out, &Limits::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, 10);
        assert!(text.contains("s SATISFIABLE\nv -1 2 0\n"), "{text}");
        let cnf = parse_dimacs("p cnf 1 2\n1 0\n-1 0\n").unwrap();
        let mut out = Vec::new();
        assert_eq!(solve_cnf(&cnf, &mut out, &Limits::default()).unwrap(), 20);
        assert!(String::from_utf8(out).unwrap().contains("s UNSATISFIABLE"));
    }

    #[test]
    fn long_models_wrap() {
        let n = 100;
        let src: String = (1..=n).map(|i| format!("{i} 0\n")).collect();
        let cnf = parse_dimacs(&src).unwrap();
        let mut out = Vec::new();
        assert_eq!(solve_cnf(&cnf, &mut out, &Limits::default()).unwrap(), 10);
        let text = String::from_utf8(out).unwrap();
        let vlines: Vec<&str> = text.lines().filter(|l| l.starts_with('v')).collect();
        assert!(vlines.len() > 1 && vlines.iter().all(|l| l.len() <= 80));
        assert!(vlines.last().unwrap().ends_with(" 0"));
    }
}
