//! SMT-LIB2 script mode (`cove smt FILE.smt2`).
//!
//! Commands are read one at a time with `cove_logic::smtlib::Parser`, so answers to earlier
//! commands are printed even if a later command is malformed. Named assertions are kept
//! per scope and passed to the solver as assumptions at every check, which makes
//! `get-unsat-core` report a subset of their names; unnamed assertions go to the solver
//! directly. Errors are reported as `(error "...")` responses; the run continues after
//! command errors (e.g. `get-model` without a model) and stops after a parse error.
//!
//! Preprocessing ([`crate::solve_eqs()`]): unnamed assertions made at the base scope before
//! the first `check-sat`/`push` are collected and reduced by variable elimination when that
//! point is reached. Since a context-local definition is not entailed globally, a pre-pass
//! over the whole script freezes (by name) every variable that a later constraint could
//! mention: those of named assertions, of assertions after the first check/push/pop/reset,
//! and of `check-sat-assuming` terms. Eliminated variables therefore only come back in
//! `get-model` and `get-value`, which evaluate their resolved definitions in the model of the
//! reduced assertions (an extension that satisfies the original assertions).

use crate::solve_eqs::{SolveEqsLimits, resolve_definitions, solve_eqs};
use crate::solver::{SmtResult, SmtSolver, SmtStats, UnknownReason};
use cove_logic::print::{symbol, term_to_string};
use cove_logic::smtlib::{Command, Declared, Dialect, Parser};
use cove_logic::{Sort, TermId, TermStore, Value, VarId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::io::Write;

/// Options of the script runner.
#[derive(Clone, Debug)]
pub struct ScriptOptions {
    /// Eliminate variables defined by equalities before the first check (`solve-eqs`).
    pub solve_eqs: bool,
}

impl Default for ScriptOptions {
    fn default() -> ScriptOptions {
        ScriptOptions { solve_eqs: true }
    }
}

/// Failure of the script runner itself (responses could not be written).
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// Writing a response failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

#[derive(Default)]
struct Scope {
    named: Vec<(Box<str>, TermId)>,
    consts: Vec<VarId>,
}

struct Runner {
    solver: SmtSolver,
    scopes: Vec<Scope>,
    last: Option<SmtResult>,
    last_assumed: Vec<TermId>,
    errors: bool,
    /// Unnamed base-scope assertions not yet given to the solver (`None` once flushed).
    pending: Option<Vec<TermId>>,
    /// Names of variables that must not be eliminated; `None` disables elimination.
    frozen: Option<FxHashSet<String>>,
    /// Eliminated variables and their definitions over the remaining ones.
    defs: FxHashMap<VarId, TermId>,
}

/// Runs an SMT-LIB2 script, writing the responses to `out`. Returns the process exit code:
/// 0 when every command succeeded, 1 when an `(error ..)` response was printed.
pub fn run_script(src: &[u8], out: &mut impl Write) -> Result<i32, ScriptError> {
    run_script_with(SmtSolver::new(), src, out).map(|(code, _)| code)
}

/// [`run_script_opts`] with the default options.
pub fn run_script_with(
    solver: SmtSolver,
    src: &[u8],
    out: &mut impl Write,
) -> Result<(i32, SmtStats), ScriptError> {
    run_script_opts(solver, src, out, &ScriptOptions::default())
}

/// The names of the variables a later constraint may mention (see the module docs).
fn frozen_names(src: &[u8]) -> FxHashSet<String> {
    let mut store = TermStore::new();
    let mut names = FxHashSet::default();
    let Ok(mut parser) = Parser::new(src, &mut store, Dialect::Smt) else {
        return names;
    };
    let mut late = false;
    let freeze = |store: &TermStore, t: TermId, names: &mut FxHashSet<String>| {
        for v in cove_logic::free_vars(store, t) {
            names.insert(store.var_name(v).to_string());
        }
    };
    while let Ok(Some((cmd, _))) = parser.next_command() {
        match cmd {
            Command::Assert { term, name } if late || name.is_some() => {
                freeze(parser.store(), term, &mut names)
            }
            Command::CheckSatAssuming(ts) => {
                late = true;
                for t in ts {
                    freeze(parser.store(), t, &mut names);
                }
            }
            Command::CheckSat
            | Command::Push(_)
            | Command::Pop(_)
            | Command::Reset
            | Command::ResetAssertions => late = true,
            _ => {}
        }
    }
    names
}

/// [`run_script`] on a caller-configured solver with `options`; also returns the solver's
/// counters (summed over all checks of the script).
pub fn run_script_opts(
    solver: SmtSolver,
    src: &[u8],
    out: &mut impl Write,
    options: &ScriptOptions,
) -> Result<(i32, SmtStats), ScriptError> {
    let frozen = options.solve_eqs.then(|| frozen_names(src));
    let mut store = TermStore::new();
    let mut parser = match Parser::new(src, &mut store, Dialect::Smt) {
        Ok(p) => p,
        Err(e) => {
            error(out, &e.to_string())?;
            return Ok((1, solver.stats().clone()));
        }
    };
    let mut r = Runner {
        solver,
        scopes: vec![Scope::default()],
        last: None,
        last_assumed: Vec::new(),
        errors: false,
        pending: Some(Vec::new()),
        frozen,
        defs: FxHashMap::default(),
    };
    loop {
        let cmd = match parser.next_command() {
            Ok(Some((cmd, _))) => cmd,
            Ok(None) => break,
            Err(e) => {
                error(out, &e.to_string())?;
                return Ok((1, r.solver.stats().clone()));
            }
        };
        if matches!(cmd, Command::Exit) {
            break;
        }
        r.run(parser.store(), cmd, out)?;
        out.flush()?;
    }
    Ok((if r.errors { 1 } else { 0 }, r.solver.stats().clone()))
}

fn error(out: &mut impl Write, msg: &str) -> std::io::Result<()> {
    writeln!(out, "(error \"{}\")", msg.replace('"', "\"\""))
}

fn value_text(v: &Value, sort: Sort) -> String {
    cove_logic::print::value_text(v, sort)
}

impl Runner {
    fn fail(&mut self, out: &mut impl Write, msg: &str) -> std::io::Result<()> {
        self.errors = true;
        error(out, msg)
    }

    /// Gives the collected base assertions to the solver, eliminating variables first.
    fn flush(&mut self, store: &mut TermStore) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let Some(names) = &self.frozen else {
            for t in pending {
                self.solver.assert(store, t);
            }
            return;
        };
        let mut frozen = FxHashSet::default();
        for &t in &pending {
            for v in cove_logic::free_vars(store, t) {
                if names.contains(store.var_name(v)) {
                    frozen.insert(v);
                }
            }
        }
        let r = solve_eqs(store, &pending, &frozen, &SolveEqsLimits::default());
        self.defs = resolve_definitions(store, &r.definitions);
        for t in r.assertions {
            self.solver.assert(store, t);
        }
    }

    /// The value of `t` in the model, eliminated variables evaluated by their definitions.
    fn value(&self, store: &mut TermStore, t: TermId) -> Option<Value> {
        let t = cove_logic::substitute(store, t, &self.defs);
        self.solver.value(store, t)
    }

    fn check(
        &mut self,
        store: &mut TermStore,
        extra: &[TermId],
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        self.flush(store);
        let mut assumptions: Vec<TermId> = self
            .scopes
            .iter()
            .flat_map(|s| s.named.iter().map(|(_, t)| *t))
            .collect();
        assumptions.extend_from_slice(extra);
        let r = self.solver.check_assuming(store, &assumptions);
        self.last_assumed = extra.to_vec();
        writeln!(
            out,
            "{}",
            match &r {
                SmtResult::Sat => "sat",
                SmtResult::Unsat => "unsat",
                SmtResult::Unknown(_) => "unknown",
            }
        )?;
        self.last = Some(r);
        Ok(())
    }

    fn run(
        &mut self,
        store: &mut TermStore,
        cmd: Command,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        match cmd {
            Command::SetLogic(_) | Command::SetInfo { .. } | Command::SetOption { .. } => {}
            Command::DefineFun { .. }
            | Command::DefineSort { .. }
            | Command::DeclareDatatypes(_) => {}
            Command::DeclareFun {
                decl: Declared::Const(v),
                ..
            }
            | Command::DeclareConst(v) => {
                self.scopes.last_mut().expect("scope").consts.push(v);
            }
            Command::DeclareFun {
                decl: Declared::Pred(_),
                ..
            } => {}
            Command::GetInfo(k) => match &*k {
                "name" => writeln!(out, "(:name \"cove\")")?,
                "version" => writeln!(out, "(:version \"{}\")", env!("CARGO_PKG_VERSION"))?,
                "reason-unknown" => {
                    let why = match &self.last {
                        Some(SmtResult::Unknown(UnknownReason::Timeout)) => "timeout".to_string(),
                        Some(SmtResult::Unknown(UnknownReason::Interrupted)) => {
                            "interrupted".to_string()
                        }
                        Some(SmtResult::Unknown(UnknownReason::Memory)) => "memout".to_string(),
                        Some(SmtResult::Unknown(UnknownReason::ResourceOut(s))) => {
                            format!("\"resource limit: {s}\"")
                        }
                        Some(SmtResult::Unknown(UnknownReason::Unsupported(s))) => {
                            format!("\"unsupported: {s}\"")
                        }
                        Some(SmtResult::Unknown(UnknownReason::Incomplete(s))) => {
                            format!("\"incomplete: {s}\"")
                        }
                        _ => "\"no unknown answer\"".to_string(),
                    };
                    writeln!(out, "(:reason-unknown {why})")?
                }
                _ => writeln!(out, "unsupported")?,
            },
            Command::GetOption(_)
            | Command::GetAssertions
            | Command::GetAssignment
            | Command::GetProof => writeln!(out, "unsupported")?,
            Command::Assert { term, name } => match name {
                Some(n) => self.scopes.last_mut().expect("scope").named.push((n, term)),
                None => match &mut self.pending {
                    Some(p) => p.push(term),
                    None => self.solver.assert(store, term),
                },
            },
            Command::CheckSat => self.check(store, &[], out)?,
            Command::CheckSatAssuming(ts) => self.check(store, &ts, out)?,
            Command::GetModel => {
                if self.last != Some(SmtResult::Sat) {
                    return self.fail(out, "model is not available");
                }
                writeln!(out, "(")?;
                let consts: Vec<VarId> = self
                    .scopes
                    .iter()
                    .flat_map(|s| s.consts.iter().copied())
                    .collect();
                for v in consts {
                    let sort = store.var_sort(v);
                    let t = store.mk_var(v);
                    let val = self.value(store, t).unwrap_or(Value::default_of(sort));
                    writeln!(
                        out,
                        "  (define-fun {} () {sort} {})",
                        symbol(store.var_name(v)),
                        value_text(&val, sort)
                    )?;
                }
                writeln!(out, ")")?;
            }
            Command::GetValue(items) => {
                if self.last != Some(SmtResult::Sat) {
                    return self.fail(out, "model is not available");
                }
                let mut parts = Vec::with_capacity(items.len());
                for (t, text) in &items {
                    match self.value(store, *t) {
                        Some(v) => {
                            parts.push(format!("({text} {})", value_text(&v, store.sort(*t))))
                        }
                        None => return self.fail(out, &format!("cannot evaluate {text}")),
                    }
                }
                writeln!(out, "({})", parts.join(" "))?;
            }
            Command::GetUnsatCore => {
                if self.last != Some(SmtResult::Unsat) {
                    return self.fail(out, "unsat core is not available");
                }
                let core = self.solver.unsat_core();
                let names: Vec<String> = self
                    .scopes
                    .iter()
                    .flat_map(|s| s.named.iter())
                    .filter(|(_, t)| core.contains(t))
                    .map(|(n, _)| symbol(n).into_owned())
                    .collect();
                writeln!(out, "({})", names.join(" "))?;
            }
            Command::GetUnsatAssumptions => {
                if self.last != Some(SmtResult::Unsat) {
                    return self.fail(out, "unsat assumptions are not available");
                }
                let core = self.solver.unsat_core();
                let lits: Vec<String> = self
                    .last_assumed
                    .iter()
                    .filter(|t| core.contains(t))
                    .map(|&t| term_to_string(store, t))
                    .collect();
                writeln!(out, "({})", lits.join(" "))?;
            }
            Command::Push(n) => {
                self.flush(store);
                for _ in 0..n {
                    self.solver.push();
                    self.scopes.push(Scope::default());
                }
                self.last = None;
            }
            Command::Pop(n) => {
                self.flush(store);
                let n = (n as usize).min(self.scopes.len() - 1);
                self.solver.pop(n);
                self.scopes.truncate(self.scopes.len() - n);
                self.last = None;
            }
            Command::Reset => {
                self.pending = None;
                self.defs.clear();
                self.solver = SmtSolver::new();
                self.scopes = vec![Scope::default()];
                self.last = None;
            }
            Command::ResetAssertions => {
                self.pending = None;
                self.defs.clear();
                self.solver = SmtSolver::new();
                let consts = std::mem::take(&mut self.scopes[0].consts);
                self.scopes = vec![Scope {
                    named: Vec::new(),
                    consts,
                }];
                self.last = None;
            }
            Command::Echo(s) => writeln!(out, "{s}")?,
            Command::Exit => {}
            Command::DeclareRel(_)
            | Command::DeclareVar(_)
            | Command::Rule { .. }
            | Command::Query(_) => {
                return self.fail(out, "fixedpoint commands are not supported in SMT mode");
            }
        }
        Ok(())
    }
}
