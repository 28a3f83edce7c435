//! The C API of Cove (header `include/cove.h`, generated from this file by cbindgen).
//!
//! A thin layer over [`cove_chc::session::Session`], the embedding layer the Python
//! bindings wrap too: a `CoveContext` holds a CHC system under construction (predicates,
//! clauses as SMT-LIB2 text or as terms built through the API, `push`/`pop` scopes) and
//! solves it incrementally (facts and lemmas of earlier answers reused as the session's
//! documentation explains); every answer is checked by the independent certificate checker
//! before it is returned. A `CoveResult` owns everything read from an answer: the
//! invariants as SMT-LIB2 text and as walkable terms, the counterexample's steps.
//!
//! # The boundary
//! - Every entry point returns a [`CoveStatus`] (or documents its error value) and sets a
//!   thread-local message read with [`cove_last_error`]. Nothing unwinds or aborts across
//!   the boundary: each entry point runs under `catch_unwind`, and a panic becomes
//!   `COVE_STATUS_INTERNAL`.
//! - Null pointers and strings that are not UTF-8 are reported as
//!   `COVE_STATUS_INVALID_ARGUMENT`; term handles are checked against the store.
//! - A context may be used from several threads (calls are serialized by a lock);
//!   [`cove_interrupt`] may be called from any thread while [`cove_solve`] runs and stops it
//!   (the answer is then `unknown`, reason `interrupted`).
//!
//! [`cove_solve_file`] solves a file of any language Cove reads (Horn clauses, AIGER, BTOR2)
//! through the facade's `cove::solve_file`, as `cove solve FILE` does.
//!
//! All `unsafe` of Cove is in this crate: reading C strings and arrays, and turning the
//! boxes handed out back into owned values. Each use states what the caller guarantees.

mod file;
pub use file::*;

use cove_chc::ChcResult;
use cove_chc::driver::Outcome;
use cove_chc::session::{Session, SessionError, SolveRequest};
use cove_chc::witness::{print_derivation, print_invariants, value_text};
use cove_control::Interrupt;
use cove_logic::print::op_name;
use cove_logic::{Op, Sort, TermId, TermStore, VarId};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// What a call did.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoveStatus {
    /// Success.
    Ok = 0,
    /// A null pointer, a string that is not UTF-8, a bad term handle or index, a sort or
    /// arity error, an unknown engine name.
    InvalidArgument = 1,
    /// SMT-LIB2 text Cove cannot read (the message says `line:col: what`).
    Parse = 2,
    /// A call that does not fit the context's state (`pop` with no scope open, a
    /// predicate declared twice, a counterexample asked of a `sat` answer).
    State = 3,
    /// An internal error (a panic inside Cove, caught at the boundary; please report).
    Internal = 4,
    /// A file that cannot be read ([`cove_solve_file`]).
    Io = 5,
}

/// The answer of a solve.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoveAnswer {
    /// No answer: `cove_result_reason` says why (timeout, memory limit, interrupted, …).
    Unknown = 0,
    /// The system has a model (the program is safe): invariants.
    Sat = 1,
    /// The system has no model (the program is unsafe): a counterexample derivation.
    Unsat = 2,
}

/// The kind of a term node (see [`cove_result_term`]).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoveTermKind {
    /// `true` or `false` (the symbol).
    Bool = 0,
    /// A numeral; the symbol is its value (`42`, `-3`, `7/2`), the sort `Int` or `Real`.
    Numeral = 1,
    /// A variable (the symbol is its name; an invariant's parameters are `x0`, `x1`, …).
    Var = 2,
    /// A built-in operator applied to the children (`+`, `<=`, `and`, `ite`, `select`, …;
    /// `const` for a constant array, whose sort is the array sort).
    Op = 3,
    /// A predicate applied to the children.
    Predicate = 4,
    /// `forall` over the bound variables, of the one child.
    Forall = 5,
    /// `exists` over the bound variables, of the one child.
    Exists = 6,
}

/// A term handle: an index into the context's term store (terms built through the API) or
/// into a result's store (invariant bodies). Handles of a context stay valid while it
/// lives; handles read from a result are valid for that result.
pub type CoveTerm = u32;

/// How to solve. Initialize with [`cove_config_init`], then change fields.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CoveConfig {
    /// `"portfolio"` (several engines in parallel) or one engine's name (see
    /// [`cove_engines`]); NULL means `"portfolio"`.
    pub engine: *const c_char,
    /// Portfolio threads; 0 = the available cores.
    pub threads: u32,
    /// Wall-clock limit in seconds; 0 (or less) = none.
    pub timeout_seconds: f64,
    /// Memory limit in MiB (the process's resident set); 0 = none.
    pub memory_mb: u64,
    /// Simplify and slice before solving (witnesses are translated back). Default true.
    pub preprocess: bool,
    /// Check every certificate independently before answering. Default true; an answer
    /// reused from earlier solves is checked even when this is off.
    pub validate: bool,
}

/// One node of a term, as [`cove_result_term`] reports it. The pointers are owned by the
/// result and valid while it lives.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CoveTermInfo {
    /// What the node is.
    pub kind: CoveTermKind,
    /// Operator, predicate or variable name, or the value (see [`CoveTermKind`]).
    pub symbol: *const c_char,
    /// The node's sort (`Bool`, `Int`, `Real`, `(Array Int Int)`).
    pub sort: *const c_char,
    /// The number of children.
    pub num_children: usize,
    /// The children, in order.
    pub children: *const CoveTerm,
    /// The number of variables a quantifier binds (0 otherwise).
    pub num_bound: usize,
    /// The bound variables (as `COVE_TERM_KIND_VAR` terms).
    pub bound: *const CoveTerm,
}

/// One step of a counterexample: the clause instance deriving `predicate(args)` (or
/// `false`, at the root) from the facts of the premise steps. Pointers are owned by the
/// result.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CoveStep {
    /// The derived predicate, or NULL for `false`.
    pub predicate: *const c_char,
    /// The clause (0-based, in the order the clauses in force were added).
    pub clause: usize,
    /// The number of arguments.
    pub num_args: usize,
    /// The argument values as SMT-LIB2 constants (`5`, `(- 3)`, `(/ 1 2)`, `true`).
    pub args: *const *const c_char,
    /// The number of premises (one per body atom of the clause).
    pub num_premises: usize,
    /// Indices of the steps deriving the body atoms, in order.
    pub premises: *const usize,
}

/// A CHC system under construction, with what its solves learned.
pub struct CoveContext {
    session: Mutex<Session>,
    /// The interruption flag of the solve running now.
    running: Mutex<Option<Interrupt>>,
}

/// The answer of one solve, with everything read from it.
pub struct CoveResult {
    answer: CoveAnswer,
    reason: CString,
    engine: CString,
    validation: CString,
    model: CString,
    derivation: CString,
    invariants: Vec<Invariant>,
    nodes: FxHashMap<u32, Node>,
    steps: Vec<Step>,
    root: usize,
}

struct Invariant {
    pred: CString,
    params: Vec<(CString, CString)>,
    body: TermId,
}

struct Node {
    kind: CoveTermKind,
    symbol: CString,
    sort: CString,
    children: Vec<u32>,
    bound: Vec<u32>,
}

struct Step {
    pred: Option<CString>,
    clause: usize,
    /// Owns the strings `arg_ptrs` points to (a `CString`'s bytes do not move with it).
    _args: Vec<CString>,
    arg_ptrs: Vec<*const c_char>,
    premises: Vec<usize>,
}

/// An error crossing the boundary: a status and a message.
struct Error(CoveStatus, String);

impl From<SessionError> for Error {
    fn from(e: SessionError) -> Error {
        match e {
            SessionError::Parse(p) => Error(CoveStatus::Parse, p.to_string()),
            SessionError::Invalid(m) => Error(CoveStatus::InvalidArgument, m),
        }
    }
}

fn arg_error<T>(msg: impl Into<String>) -> Result<T, Error> {
    Err(Error(CoveStatus::InvalidArgument, msg.into()))
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f` at the boundary: its error or panic becomes a status and the thread's last
/// error message.
fn ffi(f: impl FnOnce() -> Result<(), Error>) -> CoveStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CoveStatus::Ok,
        Ok(Err(Error(status, msg))) => {
            set_last_error(&msg);
            status
        }
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            set_last_error(&format!("internal error in Cove: {msg} (please report)"));
            CoveStatus::Internal
        }
    }
}

/// `p` as a `&str`.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string that stays valid and unchanged for `'a`.
unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, Error> {
    if p.is_null() {
        return arg_error(format!("{what} is NULL"));
    }
    // SAFETY: non-null, and the caller guarantees a valid NUL-terminated string.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .or_else(|_| arg_error(format!("{what} is not UTF-8")))
}

/// `n` elements at `p` as a slice (empty when `n` is 0, whatever `p` is).
///
/// # Safety
/// When `n > 0`, `p` is null or points to `n` initialized elements valid for `'a`.
unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T], Error> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return arg_error(format!("{what} is NULL"));
    }
    // SAFETY: non-null, and the caller guarantees `n` valid elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// `n` C strings at `p`.
///
/// # Safety
/// As [`slice`], and every element as [`text`].
unsafe fn texts<'a>(p: *const *const c_char, n: usize, what: &str) -> Result<Vec<&'a str>, Error> {
    // SAFETY: forwarded from the caller.
    let ptrs = unsafe { slice(p, n, what) }?;
    ptrs.iter()
        .enumerate()
        // SAFETY: forwarded from the caller.
        .map(|(i, &s)| unsafe { text(s, &format!("{what}[{i}]")) })
        .collect()
}

/// The object behind a handle this API gave out (`what` names it in the NULL error).
///
/// # Safety
/// `p` is null or a pointer this API returned for a `T` and not yet freed.
unsafe fn live<'a, T>(p: *const T, what: &str) -> Result<&'a T, Error> {
    if p.is_null() {
        return arg_error(format!("{what} is NULL"));
    }
    // SAFETY: a live object handed out by this API (caller's guarantee).
    Ok(unsafe { &*p })
}

/// The context behind `ctx`.
///
/// # Safety
/// `ctx` is null or a pointer returned by [`cove_context_new`] and not yet freed.
unsafe fn context<'a>(ctx: *const CoveContext) -> Result<&'a CoveContext, Error> {
    // SAFETY: forwarded.
    unsafe { live(ctx, "ctx") }
}

/// The result behind `res`.
///
/// # Safety
/// `res` is null or a pointer returned by [`cove_solve`] and not yet freed.
unsafe fn result<'a>(res: *const CoveResult) -> Result<&'a CoveResult, Error> {
    // SAFETY: forwarded.
    unsafe { live(res, "result") }
}

/// Writes `v` to `out`.
///
/// # Safety
/// `out` is null or valid for writing a `T`.
unsafe fn put<T>(out: *mut T, v: T, what: &str) -> Result<(), Error> {
    if out.is_null() {
        return arg_error(format!("{what} is NULL"));
    }
    // SAFETY: non-null and writable (caller's guarantee).
    unsafe { out.write(v) };
    Ok(())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held was reported as COVE_STATUS_INTERNAL; the session's
    // state changes are single assignments, so it is still usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn owned_string(s: String) -> *mut c_char {
    CString::new(s.replace('\0', " "))
        .map(CString::into_raw)
        .unwrap_or(ptr::null_mut())
}

/// The message of the last failed call on this thread ("" if none failed). Valid until the
/// next failing call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn cove_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Cove's version (`"0.1.0"`), a static string.
#[unsafe(no_mangle)]
pub extern "C" fn cove_version() -> *const c_char {
    static V: OnceLock<CString> = OnceLock::new();
    V.get_or_init(|| CString::new(env!("CARGO_PKG_VERSION")).unwrap_or_default())
        .as_ptr()
}

/// The engine names [`CoveConfig::engine`] accepts, comma-separated (a static string).
#[unsafe(no_mangle)]
pub extern "C" fn cove_engines() -> *const c_char {
    static V: OnceLock<CString> = OnceLock::new();
    V.get_or_init(|| CString::new(SolveRequest::engine_names().join(",")).unwrap_or_default())
        .as_ptr()
}

/// A new, empty context (incremental solving on). NULL only if Cove failed internally
/// (see [`cove_last_error`]). Free with [`cove_context_free`].
#[unsafe(no_mangle)]
pub extern "C" fn cove_context_new() -> *mut CoveContext {
    let mut out = ptr::null_mut();
    ffi(|| {
        out = Box::into_raw(Box::new(CoveContext {
            session: Mutex::new(Session::new()),
            running: Mutex::new(None),
        }));
        Ok(())
    });
    out
}

/// Frees a context (NULL is ignored). No other call on it may be running.
///
/// # Safety
/// `ctx` is NULL or a context from [`cove_context_new`] not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_context_free(ctx: *mut CoveContext) {
    if ctx.is_null() {
        return;
    }
    ffi(|| {
        // SAFETY: a live context from `cove_context_new`, owned again here exactly once.
        drop(unsafe { Box::from_raw(ctx) });
        Ok(())
    });
}

/// Declares predicate `name` with `num_sorts` argument sorts in SMT-LIB2 (`"Int"`,
/// `"Real"`, `"Bool"`, `"(Array Int Int)"`). Declarations are not scoped by push/pop.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `name` a C string; `sorts` an array of `num_sorts` C
/// strings (may be NULL when `num_sorts` is 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_declare(
    ctx: *mut CoveContext,
    name: *const c_char,
    sorts: *const *const c_char,
    num_sorts: usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees, as documented.
        let (c, name, sorts) = unsafe {
            (
                context(ctx)?,
                text(name, "name")?,
                texts(sorts, num_sorts, "sorts")?,
            )
        };
        let mut s = lock(&c.session);
        s.declare(name, &sorts).map_err(|e| match e {
            SessionError::Invalid(m) if m.contains("already declared") => {
                Error(CoveStatus::State, m)
            }
            e => e.into(),
        })?;
        Ok(())
    })
}

/// The variable `name` of `sort` (SMT-LIB2) as a term. A clause's free variables are
/// universally quantified.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `name`, `sort` C strings; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_var(
    ctx: *mut CoveContext,
    name: *const c_char,
    sort: *const c_char,
    out: *mut CoveTerm,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees, as documented.
        let (c, name, sort) = unsafe { (context(ctx)?, text(name, "name")?, text(sort, "sort")?) };
        let t = lock(&c.session).var(name, sort)?;
        // SAFETY: caller's guarantee.
        unsafe { put(out, t.0, "out") }
    })
}

/// The integer numeral `value`.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_int(
    ctx: *mut CoveContext,
    value: i64,
    out: *mut CoveTerm,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        let t = lock(&c.session).store_mut().mk_int(value);
        // SAFETY: caller's guarantee.
        unsafe { put(out, t.0, "out") }
    })
}

/// A numeral from its text (`"42"`, `"-3"`, `"7/2"`, `"0.25"`), of sort `Real` when
/// `real` is true, else `Int` (then it must be an integer).
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `value` a C string; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_numeral(
    ctx: *mut CoveContext,
    value: *const c_char,
    real: bool,
    out: *mut CoveTerm,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (c, v) = unsafe { (context(ctx)?, text(value, "value")?) };
        let sort = if real { Sort::Real } else { Sort::Int };
        let t = lock(&c.session).numeral(v, sort)?;
        // SAFETY: caller's guarantee.
        unsafe { put(out, t.0, "out") }
    })
}

/// `(name args…)`: a built-in SMT-LIB2 operator (`"+"`, `"-"`, `"*"`, `"<="`, `"="`,
/// `"and"`, `"or"`, `"not"`, `"=>"`, `"ite"`, `"select"`, `"store"`, …; `"true"` and
/// `"false"` with no arguments) or a declared predicate. Sorts and arities are checked.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `name` a C string; `args` an array of `num_args`
/// terms (may be NULL when `num_args` is 0); `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_apply(
    ctx: *mut CoveContext,
    name: *const c_char,
    args: *const CoveTerm,
    num_args: usize,
    out: *mut CoveTerm,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (c, name, args) = unsafe {
            (
                context(ctx)?,
                text(name, "name")?,
                slice(args, num_args, "args")?,
            )
        };
        let args: Vec<TermId> = args.iter().map(|&a| TermId(a)).collect();
        let t = lock(&c.session).apply(name, &args)?;
        // SAFETY: caller's guarantee.
        unsafe { put(out, t.0, "out") }
    })
}

/// The term as SMT-LIB2 text; free the string with [`cove_string_free`]. NULL on error.
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_term_to_smtlib(ctx: *mut CoveContext, term: CoveTerm) -> *mut c_char {
    let mut out = ptr::null_mut();
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        let s = lock(&c.session);
        if term as usize >= s.store().len() {
            return arg_error(format!("term handle {term} does not exist"));
        }
        out = owned_string(cove_logic::print::term_to_string(s.store(), TermId(term)));
        Ok(())
    });
    out
}

/// Adds the clause(s) of a Bool term built through the API, e.g. `(=> (and (inv x) (< x
/// 10)) (inv (+ x 1)))`; its free variables are universally quantified. The term must be
/// Horn (at most one positive predicate atom per clause). `num_added` (may be NULL)
/// receives the number of clauses added.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `num_added` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_add_clause(
    ctx: *mut CoveContext,
    term: CoveTerm,
    num_added: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        let n = lock(&c.session).add_clause_term(TermId(term))?;
        if !num_added.is_null() {
            // SAFETY: caller's guarantee.
            unsafe { put(num_added, n, "num_added")? };
        }
        Ok(())
    })
}

/// Adds the clause `formula` (SMT-LIB2 text) universally quantified over the `num_vars`
/// variables `var_names[i]` of sorts `var_sorts[i]`. Errors are located in `formula`.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `formula` a C string; `var_names`, `var_sorts` arrays
/// of `num_vars` C strings (may be NULL when `num_vars` is 0); `num_added` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_add_clause_smtlib(
    ctx: *mut CoveContext,
    formula: *const c_char,
    var_names: *const *const c_char,
    var_sorts: *const *const c_char,
    num_vars: usize,
    num_added: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (c, f, names, sorts) = unsafe {
            (
                context(ctx)?,
                text(formula, "formula")?,
                texts(var_names, num_vars, "var_names")?,
                texts(var_sorts, num_vars, "var_sorts")?,
            )
        };
        let vars: Vec<(&str, &str)> = names.into_iter().zip(sorts).collect();
        let n = lock(&c.session).add_clause_text(f, &vars)?;
        if !num_added.is_null() {
            // SAFETY: caller's guarantee.
            unsafe { put(num_added, n, "num_added")? };
        }
        Ok(())
    })
}

/// Adds SMT-LIB2 commands: `declare-fun` (predicates), `assert`, and Z3's `declare-rel`,
/// `declare-var`, `rule`, `query`; `set-logic HORN`, `define-fun` and `set-info` are
/// accepted. `push`/`pop`/`check-sat` are refused (call [`cove_push`], [`cove_pop`],
/// [`cove_solve`]). All or nothing. `num_added` (may be NULL) receives the clause count.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `text` a C string; `num_added` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_add_smtlib(
    ctx: *mut CoveContext,
    text: *const c_char,
    num_added: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (c, t) = unsafe { (context(ctx)?, self::text(text, "text")?) };
        let n = lock(&c.session).add_smtlib(t)?;
        if !num_added.is_null() {
            // SAFETY: caller's guarantee.
            unsafe { put(num_added, n, "num_added")? };
        }
        Ok(())
    })
}

/// Opens a scope: [`cove_pop`] removes the clauses added after it.
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_push(ctx: *mut CoveContext) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        lock(&c.session).push();
        Ok(())
    })
}

/// Closes the `n` innermost scopes, removing their clauses (`COVE_STATUS_STATE` when fewer
/// are open).
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_pop(ctx: *mut CoveContext, n: usize) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        lock(&c.session)
            .pop(n)
            .map_err(|e| Error(CoveStatus::State, e.to_string()))
    })
}

/// The number of clauses in force.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_num_clauses(ctx: *mut CoveContext, out: *mut usize) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        let n = lock(&c.session).len();
        // SAFETY: caller's guarantee.
        unsafe { put(out, n, "out") }
    })
}

/// Turns reuse between solves on (the default) or off (each solve from scratch).
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_set_incremental(ctx: *mut CoveContext, on: bool) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        lock(&c.session).set_incremental(on);
        Ok(())
    })
}

/// The clauses in force as SMT-LIB2 `HORN` text (what `cove solve` reads); free the string
/// with [`cove_string_free`]. NULL on error.
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_to_smtlib(ctx: *mut CoveContext) -> *mut c_char {
    let mut out = ptr::null_mut();
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        out = owned_string(lock(&c.session).to_smtlib());
        Ok(())
    });
    out
}

/// Frees a string returned by this API (NULL is ignored).
///
/// # Safety
/// `s` is NULL or a string from [`cove_to_smtlib`] or [`cove_term_to_smtlib`], not yet
/// freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_string_free(s: *mut c_char) {
    if s.is_null() {
        return;
    }
    ffi(|| {
        // SAFETY: a string from `CString::into_raw` in this crate, owned again exactly once.
        drop(unsafe { CString::from_raw(s) });
        Ok(())
    });
}

/// The defaults: portfolio, all cores, no limits, preprocessing and validation on.
///
/// # Safety
/// `config` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_config_init(config: *mut CoveConfig) -> CoveStatus {
    ffi(|| {
        let d = SolveRequest::default();
        let c = CoveConfig {
            engine: ptr::null(),
            threads: 0,
            timeout_seconds: 0.0,
            memory_mb: 0,
            preprocess: d.preprocess,
            validate: d.validate,
        };
        // SAFETY: caller's guarantee.
        unsafe { put(config, c, "config") }
    })
}

/// The session's options from a C configuration.
///
/// # Safety
/// `config` is NULL or points to a valid `CoveConfig` whose `engine` is NULL or a C string.
unsafe fn options(config: *const CoveConfig) -> Result<SolveRequest, Error> {
    let mut o = SolveRequest::default();
    if config.is_null() {
        return Ok(o);
    }
    // SAFETY: caller's guarantee.
    let c = unsafe { &*config };
    if !c.engine.is_null() {
        // SAFETY: caller's guarantee.
        o.engine = unsafe { text(c.engine, "config.engine")? }.to_string();
    }
    o.threads = c.threads as usize;
    if c.timeout_seconds.is_nan() || c.timeout_seconds.is_infinite() {
        return arg_error("config.timeout_seconds must be a finite number (0 = no limit)");
    }
    if c.timeout_seconds > 0.0 {
        o.timeout = Some(
            Duration::try_from_secs_f64(c.timeout_seconds)
                .or_else(|_| arg_error::<Duration>("config.timeout_seconds is out of range"))?,
        );
    }
    o.memory_mb = (c.memory_mb > 0).then_some(c.memory_mb);
    o.preprocess = c.preprocess;
    o.validate = c.validate;
    Ok(o)
}

/// Solves the clauses in force under `config` (NULL = [`cove_config_init`]'s defaults),
/// reusing what earlier solves of this context proved (unless turned off with
/// [`cove_set_incremental`]). On `COVE_STATUS_OK`, `*out` is a result to free with
/// [`cove_result_free`]; limits and interruption give an `unknown` answer, not an error.
///
/// # Safety
/// `ctx` as in [`cove_context_free`]; `config` NULL or valid; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_solve(
    ctx: *mut CoveContext,
    config: *const CoveConfig,
    out: *mut *mut CoveResult,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (c, opts) = unsafe { (context(ctx)?, options(config)?) };
        if out.is_null() {
            return arg_error("out is NULL");
        }
        let cfg = opts
            .config()
            .map_err(|m| Error(CoveStatus::InvalidArgument, m))?;
        let mut session = lock(&c.session);
        let stop = Interrupt::new();
        *lock(&c.running) = Some(stop.clone());
        let ctl = opts.control(stop);
        let outcome = catch_unwind(AssertUnwindSafe(|| session.solve(&cfg, &ctl)));
        *lock(&c.running) = None;
        let outcome = outcome.map_err(|_| {
            Error(
                CoveStatus::Internal,
                "internal error in Cove while solving (please report)".into(),
            )
        })?;
        let res = read_outcome(outcome, &session.system());
        // SAFETY: checked non-null above; writable by the caller's guarantee.
        unsafe { put(out, Box::into_raw(Box::new(res)), "out") }
    })
}

/// Stops the solve running on `ctx` (from any thread); it returns soon with an `unknown`
/// answer (reason `interrupted`). No effect when no solve runs.
///
/// # Safety
/// `ctx` as in [`cove_context_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_interrupt(ctx: *mut CoveContext) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let c = unsafe { context(ctx)? };
        if let Some(i) = lock(&c.running).as_ref() {
            i.set();
        }
        Ok(())
    })
}

fn cstring(s: impl Into<String>) -> CString {
    CString::new(s.into().replace('\0', " ")).unwrap_or_default()
}

/// Everything a C caller reads from an outcome, in C form.
fn read_outcome(out: Outcome, sys: &cove_chc::ChcSystem) -> CoveResult {
    let mut store = out.store;
    let mut res = CoveResult {
        answer: CoveAnswer::Unknown,
        reason: CString::default(),
        engine: cstring(out.engine.clone()),
        validation: cstring(out.validation.to_string()),
        model: CString::default(),
        derivation: CString::default(),
        invariants: vec![],
        nodes: FxHashMap::default(),
        steps: vec![],
        root: 0,
    };
    match &out.answer {
        ChcResult::Sat(inv) => {
            res.answer = CoveAnswer::Sat;
            res.model = cstring(print_invariants(&store, inv));
            let mut names: FxHashMap<VarId, String> = FxHashMap::default();
            for (p, def) in inv.sorted(&store) {
                let mut params = vec![];
                for (i, &v) in def.params.iter().enumerate() {
                    let n = format!("x{i}");
                    params.push((cstring(n.clone()), cstring(store.var_sort(v).to_string())));
                    names.insert(v, n);
                }
                res.invariants.push(Invariant {
                    pred: cstring(store.func(p).name.to_string()),
                    params,
                    body: def.body,
                });
            }
            let roots: Vec<TermId> = res.invariants.iter().map(|i| i.body).collect();
            res.nodes = term_table(&mut store, &roots, &names);
        }
        ChcResult::Unsat(d) => {
            res.answer = CoveAnswer::Unsat;
            res.derivation = cstring(print_derivation(&store, sys, d));
            res.root = d.root;
            for st in &d.steps {
                let (pred, args) = match &st.head {
                    None => (None, vec![]),
                    Some((p, vals)) => {
                        let decl = store.func(*p);
                        let args: Vec<CString> = vals
                            .iter()
                            .zip(decl.args.iter())
                            .map(|(v, s)| cstring(value_text(v, *s)))
                            .collect();
                        (Some(cstring(decl.name.to_string())), args)
                    }
                };
                let arg_ptrs = args.iter().map(|a| a.as_ptr()).collect();
                res.steps.push(Step {
                    pred,
                    clause: st.clause,
                    _args: args,
                    arg_ptrs,
                    premises: st.premises.clone(),
                });
            }
        }
        ChcResult::Unknown(r) => res.reason = cstring(r.to_string()),
    }
    res
}

/// The nodes of the terms under `roots` (explicit stack: invariants can be deep).
fn term_table(
    store: &mut TermStore,
    roots: &[TermId],
    names: &FxHashMap<VarId, String>,
) -> FxHashMap<u32, Node> {
    let mut nodes: FxHashMap<u32, Node> = FxHashMap::default();
    let mut stack: Vec<TermId> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if nodes.contains_key(&t.0) {
            continue;
        }
        let term = store.get(t).clone();
        let var_name = |v: &VarId| {
            names
                .get(v)
                .cloned()
                .unwrap_or_else(|| store.var_name(*v).to_string())
        };
        let (kind, symbol) = match &term.op {
            Op::Bool(b) => (CoveTermKind::Bool, b.to_string()),
            Op::Num(n) => (CoveTermKind::Numeral, n.to_string()),
            Op::Var(v) => (CoveTermKind::Var, var_name(v)),
            Op::App(f) => (CoveTermKind::Predicate, store.func(*f).name.to_string()),
            Op::Forall(_) => (CoveTermKind::Forall, "forall".into()),
            Op::Exists(_) => (CoveTermKind::Exists, "exists".into()),
            Op::ConstArray => (CoveTermKind::Op, "const".into()),
            op => (CoveTermKind::Op, op_name(op).unwrap_or("?").to_string()),
        };
        let bound: Vec<u32> = match &term.op {
            Op::Forall(vs) | Op::Exists(vs) => vs.iter().map(|&v| store.mk_var(v).0).collect(),
            _ => vec![],
        };
        stack.extend(term.args.iter().copied());
        stack.extend(bound.iter().map(|&b| TermId(b)));
        nodes.insert(
            t.0,
            Node {
                kind,
                symbol: cstring(symbol),
                sort: cstring(term.sort.to_string()),
                children: term.args.iter().map(|a| a.0).collect(),
                bound,
            },
        );
    }
    nodes
}

/// Frees a result (NULL is ignored).
///
/// # Safety
/// `res` is NULL or a result from [`cove_solve`] not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_free(res: *mut CoveResult) {
    if res.is_null() {
        return;
    }
    ffi(|| {
        // SAFETY: a live result from `cove_solve`, owned again here exactly once.
        drop(unsafe { Box::from_raw(res) });
        Ok(())
    });
}

/// The answer (`COVE_ANSWER_UNKNOWN` for a NULL result).
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_answer(res: *const CoveResult) -> CoveAnswer {
    let mut a = CoveAnswer::Unknown;
    ffi(|| {
        // SAFETY: caller's guarantee.
        a = unsafe { result(res)? }.answer;
        Ok(())
    });
    a
}

/// Reads one of the result's strings ("" for a NULL result).
///
/// # Safety
/// `res` as in [`cove_result_free`].
unsafe fn result_str(res: *const CoveResult, f: impl Fn(&CoveResult) -> &CString) -> *const c_char {
    static EMPTY: &CStr = c"";
    let mut p = EMPTY.as_ptr();
    ffi(|| {
        // SAFETY: caller's guarantee.
        p = f(unsafe { result(res)? }).as_ptr();
        Ok(())
    });
    p
}

/// For `unknown`: why (`timeout`, `memory limit`, `interrupted`, `incomplete: …`); else "".
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_reason(res: *const CoveResult) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { result_str(res, |r| &r.reason) }
}

/// The engine that answered (`session:lemmas`/`session:facts` when the answer was reused).
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_engine(res: *const CoveResult) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { result_str(res, |r| &r.engine) }
}

/// The certificate check: `valid`, `skipped`, `none`, `failed: …`, `undecided: …`.
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_validation(res: *const CoveResult) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { result_str(res, |r| &r.validation) }
}

/// For `sat`: the invariants as SMT-LIB2, one `(define-fun P ((x0 Int) …) Bool body)` per
/// predicate (the CHC-COMP model format); else "".
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_model(res: *const CoveResult) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { result_str(res, |r| &r.model) }
}

/// For `unsat`: the counterexample as a derivation tree (as `cove solve --cex` prints it);
/// else "".
///
/// # Safety
/// `res` as in [`cove_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_derivation(res: *const CoveResult) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { result_str(res, |r| &r.derivation) }
}

/// The number of invariants (one per predicate, sorted by name; 0 unless `sat`).
///
/// # Safety
/// `res` as in [`cove_result_free`]; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_num_invariants(
    res: *const CoveResult,
    out: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let r = unsafe { result(res)? };
        // SAFETY: caller's guarantee.
        unsafe { put(out, r.invariants.len(), "out") }
    })
}

/// Invariant `i`: its predicate's name, its body (a term of this result, over the
/// parameters `x0`, `x1`, …) and its number of parameters. Any out pointer may be NULL.
///
/// # Safety
/// `res` as in [`cove_result_free`]; out pointers NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_invariant(
    res: *const CoveResult,
    i: usize,
    predicate: *mut *const c_char,
    body: *mut CoveTerm,
    num_params: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { result(res)? };
        let Some(inv) = r.invariants.get(i) else {
            return arg_error(format!("invariant {i} of {}", r.invariants.len()));
        };
        // SAFETY: each pointer is NULL (skipped) or writable (caller's guarantee).
        unsafe {
            if !predicate.is_null() {
                put(predicate, inv.pred.as_ptr(), "predicate")?;
            }
            if !body.is_null() {
                put(body, inv.body.0, "body")?;
            }
            if !num_params.is_null() {
                put(num_params, inv.params.len(), "num_params")?;
            }
        }
        Ok(())
    })
}

/// Parameter `j` of invariant `i`: its name (`x0`, …) and sort. Either pointer may be NULL.
///
/// # Safety
/// `res` as in [`cove_result_free`]; out pointers NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_invariant_param(
    res: *const CoveResult,
    i: usize,
    j: usize,
    name: *mut *const c_char,
    sort: *mut *const c_char,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { result(res)? };
        let Some((n, s)) = r.invariants.get(i).and_then(|inv| inv.params.get(j)) else {
            return arg_error(format!("no parameter {j} of invariant {i}"));
        };
        // SAFETY: each pointer is NULL (skipped) or writable (caller's guarantee).
        unsafe {
            if !name.is_null() {
                put(name, n.as_ptr(), "name")?;
            }
            if !sort.is_null() {
                put(sort, s.as_ptr(), "sort")?;
            }
        }
        Ok(())
    })
}

/// One node of a term of this result (an invariant body or a node below it): kind, symbol,
/// sort, children, bound variables. Walk a term by calling this on the children.
///
/// # Safety
/// `res` as in [`cove_result_free`]; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_term(
    res: *const CoveResult,
    term: CoveTerm,
    out: *mut CoveTermInfo,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { result(res)? };
        let Some(n) = r.nodes.get(&term) else {
            return arg_error(format!("term {term} is not a term of this result"));
        };
        let info = CoveTermInfo {
            kind: n.kind,
            symbol: n.symbol.as_ptr(),
            sort: n.sort.as_ptr(),
            num_children: n.children.len(),
            children: n.children.as_ptr(),
            num_bound: n.bound.len(),
            bound: n.bound.as_ptr(),
        };
        // SAFETY: caller's guarantee.
        unsafe { put(out, info, "out") }
    })
}

/// For `unsat`: the number of counterexample steps and the index of the root step (the one
/// deriving `false`). Either pointer may be NULL. `COVE_STATUS_STATE` unless `unsat`.
///
/// # Safety
/// `res` as in [`cove_result_free`]; out pointers NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_num_steps(
    res: *const CoveResult,
    num_steps: *mut usize,
    root: *mut usize,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { result(res)? };
        if r.answer != CoveAnswer::Unsat {
            return Err(Error(
                CoveStatus::State,
                "the answer is not unsat: no counterexample".into(),
            ));
        }
        // SAFETY: each pointer is NULL (skipped) or writable (caller's guarantee).
        unsafe {
            if !num_steps.is_null() {
                put(num_steps, r.steps.len(), "num_steps")?;
            }
            if !root.is_null() {
                put(root, r.root, "root")?;
            }
        }
        Ok(())
    })
}

/// Counterexample step `i`.
///
/// # Safety
/// `res` as in [`cove_result_free`]; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_result_step(
    res: *const CoveResult,
    i: usize,
    out: *mut CoveStep,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { result(res)? };
        let Some(st) = r.steps.get(i) else {
            return arg_error(format!("step {i} of {}", r.steps.len()));
        };
        let step = CoveStep {
            predicate: st.pred.as_ref().map_or(ptr::null(), |p| p.as_ptr()),
            clause: st.clause,
            num_args: st.arg_ptrs.len(),
            args: st.arg_ptrs.as_ptr(),
            num_premises: st.premises.len(),
            premises: st.premises.as_ptr(),
        };
        // SAFETY: caller's guarantee.
        unsafe { put(out, step, "out") }
    })
}
