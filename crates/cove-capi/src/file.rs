//! Solving a file of any language Cove reads (Horn clauses, AIGER, BTOR2) through the
//! facade's [`cove::solve_file()`]: the same call, the same answers and the same checks as
//! `cove solve FILE`.

use crate::{CoveConfig, CoveStatus, Error, arg_error, cstring, ffi, live, options, put, text};
use cove::{FileConfig, FileError, Safety};
use std::ffi::{CString, c_char};
use std::ptr;

/// Whether the property holds, whatever the input language's words for it (see
/// [`cove_file_result_verdict`] for those).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CoveSafety {
    /// No answer: [`cove_file_result_reason`] says why.
    Unknown = 0,
    /// Nothing bad can happen, with a checked proof (CHC `sat`, HWMCC `0`, BTOR2 `unsat`).
    Safe = 1,
    /// Something bad can happen, with a checked counterexample (CHC `unsat`, HWMCC `1`,
    /// BTOR2 `sat`).
    Unsafe = 2,
}

/// The answers of [`cove_solve_file`], one per question of the file, in order.
pub struct CoveFileResult {
    format: CString,
    answers: Vec<Answer>,
}

struct Answer {
    safety: CoveSafety,
    verdict: CString,
    text: CString,
    reason: CString,
    engine: CString,
    validation: CString,
}

/// Solves the file at `path` as `cove solve FILE` does: the language is decided by the
/// file's name and header; every answer is checked before it is returned; limits give
/// `unknown` answers, never an error. `config` (NULL = [`crate::cove_config_init`]'s
/// defaults) names `portfolio` or an engine of either kind; an engine that does not solve
/// the file's language is `COVE_STATUS_INVALID_ARGUMENT`. A file that cannot be read is
/// `COVE_STATUS_IO`; one that is not a legal input is `COVE_STATUS_PARSE`, the message
/// `FILE:LINE:COL: error: …`. On `COVE_STATUS_OK`, `*out` is a result to free with
/// [`cove_file_result_free`]. (A file solve is not interrupted by [`crate::cove_interrupt`],
/// which acts on contexts: give it a timeout.)
///
/// # Safety
/// `path` a C string; `config` NULL or valid; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_solve_file(
    path: *const c_char,
    config: *const CoveConfig,
    out: *mut *mut CoveFileResult,
) -> CoveStatus {
    ffi(|| {
        // SAFETY: caller's guarantees.
        let (path, opts) = unsafe { (text(path, "path")?, options(config)?) };
        if out.is_null() {
            return arg_error("out is NULL");
        }
        let mut fc = FileConfig::with_engine(&opts.engine, opts.threads)
            .map_err(|m| Error(CoveStatus::InvalidArgument, m))?;
        if let Ok(c) = &mut fc.chc {
            c.preprocess = opts.preprocess;
            c.validate = opts.validate;
        }
        let ctl = opts.control(cove_control::Interrupt::new());
        let mut res = CoveFileResult {
            format: CString::default(),
            answers: vec![],
        };
        cove::solve_file(std::path::Path::new(path), &fc, &ctl, |a| {
            res.format = cstring(a.format.name());
            res.answers.push(Answer {
                safety: match a.safety {
                    Safety::Safe => CoveSafety::Safe,
                    Safety::Unsafe => CoveSafety::Unsafe,
                    Safety::Unknown => CoveSafety::Unknown,
                },
                verdict: cstring(a.verdict),
                text: cstring(a.text),
                reason: cstring(a.reason.unwrap_or_default()),
                engine: cstring(a.engine),
                validation: cstring(a.validation),
            });
        })
        .map_err(|e| match e {
            FileError::Io(m) => Error(CoveStatus::Io, m),
            FileError::Input(m) => Error(CoveStatus::Parse, m),
            FileError::Config(m) => Error(CoveStatus::InvalidArgument, m),
        })?;
        // SAFETY: checked non-null above; writable by the caller's guarantee.
        unsafe { put(out, Box::into_raw(Box::new(res)), "out") }
    })
}

/// `res` as a reference.
///
/// # Safety
/// `res` is NULL or a live result of [`cove_solve_file`].
unsafe fn file_result<'a>(res: *const CoveFileResult) -> Result<&'a CoveFileResult, Error> {
    // SAFETY: forwarded.
    unsafe { live(res, "result") }
}

/// Frees a result of [`cove_solve_file`] (NULL is ignored).
///
/// # Safety
/// `res` is NULL or a result from [`cove_solve_file`] not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_free(res: *mut CoveFileResult) {
    if res.is_null() {
        return;
    }
    ffi(|| {
        // SAFETY: a live result from `cove_solve_file`, owned again here exactly once.
        drop(unsafe { Box::from_raw(res) });
        Ok(())
    });
}

/// The number of answers (one per question of the file; 0 for NULL).
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_count(res: *const CoveFileResult) -> usize {
    let mut n = 0;
    ffi(|| {
        // SAFETY: caller's guarantee.
        n = unsafe { file_result(res)? }.answers.len();
        Ok(())
    });
    n
}

/// The file's language: `"chc"`, `"aiger"` or `"btor2"` ("" for NULL or a file without
/// questions). Owned by the result.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_format(res: *const CoveFileResult) -> *const c_char {
    static EMPTY: &std::ffi::CStr = c"";
    let mut p = EMPTY.as_ptr();
    ffi(|| {
        // SAFETY: caller's guarantee.
        p = unsafe { file_result(res)? }.format.as_ptr();
        Ok(())
    });
    p
}

/// Answer `i`'s safety (`COVE_SAFETY_UNKNOWN` for NULL or an index out of range).
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_safety(
    res: *const CoveFileResult,
    i: usize,
) -> CoveSafety {
    let mut s = CoveSafety::Unknown;
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { file_result(res)? };
        s = r.answers.get(i).map_or(CoveSafety::Unknown, |a| a.safety);
        Ok(())
    });
    s
}

/// One string of answer `i` (NULL for a NULL result or an index out of range).
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
unsafe fn answer_str(
    res: *const CoveFileResult,
    i: usize,
    f: impl Fn(&Answer) -> &CString,
) -> *const c_char {
    let mut p = ptr::null();
    ffi(|| {
        // SAFETY: caller's guarantee.
        let r = unsafe { file_result(res)? };
        match r.answers.get(i) {
            Some(a) => p = f(a).as_ptr(),
            None => return arg_error(format!("answer {i} of {}", r.answers.len())),
        }
        Ok(())
    });
    p
}

/// Answer `i`'s verdict in the language's words: `sat`/`unsat`/`unknown` for Horn clauses
/// (sat = safe), `safe`/`unsafe`/`unknown` for circuits. NULL out of range.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_verdict(
    res: *const CoveFileResult,
    i: usize,
) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { answer_str(res, i, |a| &a.verdict) }
}

/// Answer `i` as `cove solve` prints it: the verdict line for Horn clauses, the HWMCC
/// witness for AIGER (`1`, `b0`, the trace, `.` when a property fails), the BTOR2 witness
/// for BTOR2. NULL out of range.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_text(
    res: *const CoveFileResult,
    i: usize,
) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { answer_str(res, i, |a| &a.text) }
}

/// For an `unknown` answer `i`: why; else "". NULL out of range.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_reason(
    res: *const CoveFileResult,
    i: usize,
) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { answer_str(res, i, |a| &a.reason) }
}

/// The engine that gave answer `i`. NULL out of range.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_engine(
    res: *const CoveFileResult,
    i: usize,
) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { answer_str(res, i, |a| &a.engine) }
}

/// The certificate check of answer `i` (`valid`, `none`, `undecided: …`, `failed: …`). NULL
/// out of range.
///
/// # Safety
/// `res` as in [`cove_file_result_free`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cove_file_result_validation(
    res: *const CoveFileResult,
    i: usize,
) -> *const c_char {
    // SAFETY: forwarded.
    unsafe { answer_str(res, i, |a| &a.validation) }
}
