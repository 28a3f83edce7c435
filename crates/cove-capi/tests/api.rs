//! The C API called as C would call it: results, term walking, counterexamples, every error
//! path as a status plus a message, and interruption from another thread.

use cove_capi::*;
use std::ffi::{CStr, CString, c_char};
use std::ptr;
use std::time::{Duration, Instant};

fn s(text: &str) -> CString {
    CString::new(text).unwrap()
}

fn last_error() -> String {
    // SAFETY: cove_last_error returns a valid C string owned by this thread's slot.
    unsafe { CStr::from_ptr(cove_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn str_of(p: *const c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: the API hands out valid C strings owned by a live result.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// A context with `inv(x)` counting from 0 while x < 10, and the assertion x <= `bound`.
fn counter(bound: i64) -> *mut CoveContext {
    let ctx = cove_context_new();
    assert!(!ctx.is_null());
    let sort = s("Int");
    let sorts = [sort.as_ptr()];
    let text = format!(
        "(assert (forall ((x Int)) (=> (= x 0) (inv x))))
         (assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
         (assert (forall ((x Int)) (=> (and (inv x) (> x {bound})) false)))"
    );
    let text = s(&text);
    let mut n = 0usize;
    // SAFETY: live context, valid strings and out pointer.
    unsafe {
        assert_eq!(
            cove_declare(ctx, s("inv").as_ptr(), sorts.as_ptr(), 1),
            CoveStatus::Ok
        );
        assert_eq!(cove_add_smtlib(ctx, text.as_ptr(), &mut n), CoveStatus::Ok);
    }
    assert_eq!(n, 3);
    ctx
}

fn spacer_config(engine: &CString) -> CoveConfig {
    let mut cfg = std::mem::MaybeUninit::<CoveConfig>::uninit();
    // SAFETY: writable config.
    assert_eq!(
        unsafe { cove_config_init(cfg.as_mut_ptr()) },
        CoveStatus::Ok
    );
    // SAFETY: initialized by cove_config_init.
    let mut cfg = unsafe { cfg.assume_init() };
    cfg.engine = engine.as_ptr();
    cfg.timeout_seconds = 60.0;
    cfg
}

#[test]
fn sat_with_a_walkable_invariant() {
    let ctx = counter(10);
    let engine = s("spacer");
    let cfg = spacer_config(&engine);
    let mut res = ptr::null_mut();
    // SAFETY: live context, valid config and out pointer; the result is freed below.
    unsafe {
        assert_eq!(cove_solve(ctx, &cfg, &mut res), CoveStatus::Ok);
        assert_eq!(cove_result_answer(res), CoveAnswer::Sat);
        assert_eq!(str_of(cove_result_validation(res)), "valid");
        assert!(str_of(cove_result_model(res)).starts_with("(define-fun inv ((x0 Int)) Bool"));
        assert_eq!(str_of(cove_result_reason(res)), "");
        let mut n = 0;
        assert_eq!(cove_result_num_invariants(res, &mut n), CoveStatus::Ok);
        assert_eq!(n, 1);
        let (mut pred, mut body, mut np) = (ptr::null(), 0, 0);
        assert_eq!(
            cove_result_invariant(res, 0, &mut pred, &mut body, &mut np),
            CoveStatus::Ok
        );
        assert_eq!((str_of(pred).as_str(), np), ("inv", 1));
        let (mut name, mut sort) = (ptr::null(), ptr::null());
        assert_eq!(
            cove_result_invariant_param(res, 0, 0, &mut name, &mut sort),
            CoveStatus::Ok
        );
        assert_eq!(
            (str_of(name).as_str(), str_of(sort).as_str()),
            ("x0", "Int")
        );
        // Walk the body: it mentions x0 and evaluates to true on 0..=10 and false on 11.
        let eval = |x: i64| -> bool { eval_bool(res, body, x) };
        assert!((0..=10).all(eval));
        assert!(!eval(11));
        // No counterexample of a sat answer; out-of-range indices are errors.
        assert_eq!(
            cove_result_num_steps(res, ptr::null_mut(), ptr::null_mut()),
            CoveStatus::State
        );
        assert!(last_error().contains("not unsat"));
        assert_eq!(
            cove_result_invariant(res, 5, ptr::null_mut(), ptr::null_mut(), ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        let mut info = std::mem::MaybeUninit::<CoveTermInfo>::uninit();
        assert_eq!(
            cove_result_term(res, 1 << 30, info.as_mut_ptr()),
            CoveStatus::InvalidArgument
        );
        cove_result_free(res);
        cove_context_free(ctx);
    }
}

/// Evaluates a linear integer term of a result with x0 = `x` (explicit stack).
///
/// # Safety
/// `res` is a live result and `t` one of its terms.
unsafe fn eval_bool(res: *const CoveResult, t: CoveTerm, x: i64) -> bool {
    enum V {
        I(i64),
        B(bool),
    }
    let mut todo = vec![(t, false)];
    let mut done: Vec<V> = vec![];
    while let Some((t, expanded)) = todo.pop() {
        let mut info = std::mem::MaybeUninit::<CoveTermInfo>::uninit();
        // SAFETY: live result, writable info.
        assert_eq!(
            unsafe { cove_result_term(res, t, info.as_mut_ptr()) },
            CoveStatus::Ok
        );
        // SAFETY: filled by the call above.
        let info = unsafe { info.assume_init() };
        let sym = str_of(info.symbol);
        // SAFETY: `children` points to `num_children` handles owned by the result.
        let kids = unsafe { std::slice::from_raw_parts(info.children, info.num_children) };
        match info.kind {
            CoveTermKind::Numeral => done.push(V::I(sym.parse().unwrap())),
            CoveTermKind::Var => {
                assert_eq!(sym, "x0");
                done.push(V::I(x))
            }
            CoveTermKind::Bool => done.push(V::B(sym == "true")),
            CoveTermKind::Op if !expanded => {
                todo.push((t, true));
                todo.extend(kids.iter().rev().map(|&k| (k, false)));
            }
            CoveTermKind::Op => {
                let args = done.split_off(done.len() - kids.len());
                let int = |v: &V| match v {
                    V::I(i) => *i,
                    V::B(_) => panic!("int expected"),
                };
                let boolean = |v: &V| match v {
                    V::B(b) => *b,
                    V::I(_) => panic!("bool expected"),
                };
                done.push(match sym.as_str() {
                    "<=" => V::B(int(&args[0]) <= int(&args[1])),
                    "<" => V::B(int(&args[0]) < int(&args[1])),
                    ">=" => V::B(int(&args[0]) >= int(&args[1])),
                    ">" => V::B(int(&args[0]) > int(&args[1])),
                    "=" => V::B(int(&args[0]) == int(&args[1])),
                    "+" => V::I(args.iter().map(int).sum()),
                    "-" if args.len() == 1 => V::I(-int(&args[0])),
                    "-" => V::I(int(&args[0]) - int(&args[1])),
                    "*" => V::I(args.iter().map(int).product()),
                    "and" => V::B(args.iter().all(boolean)),
                    "or" => V::B(args.iter().any(boolean)),
                    "not" => V::B(!boolean(&args[0])),
                    op => panic!("operator {op}"),
                });
            }
            k => panic!("unexpected {k:?}"),
        }
    }
    matches!(done.pop(), Some(V::B(true)))
}

#[test]
fn unsat_with_counterexample_steps_and_incremental_reuse() {
    let ctx = counter(5);
    let engine = s("spacer");
    let cfg = spacer_config(&engine);
    let mut res = ptr::null_mut();
    // SAFETY: live context and result; pointers read from the result while it lives.
    unsafe {
        assert_eq!(cove_solve(ctx, &cfg, &mut res), CoveStatus::Ok);
        assert_eq!(cove_result_answer(res), CoveAnswer::Unsat);
        assert!(str_of(cove_result_derivation(res)).starts_with("(derivation"));
        let (mut n, mut root) = (0, 0);
        assert_eq!(
            cove_result_num_steps(res, &mut n, &mut root),
            CoveStatus::Ok
        );
        let mut step = std::mem::MaybeUninit::<CoveStep>::uninit();
        assert_eq!(
            cove_result_step(res, root, step.as_mut_ptr()),
            CoveStatus::Ok
        );
        let mut st = step.assume_init();
        assert!(st.predicate.is_null());
        assert_eq!(st.clause, 2);
        let mut values = vec![];
        while st.num_premises > 0 {
            let p = *st.premises;
            assert_eq!(cove_result_step(res, p, &mut st), CoveStatus::Ok);
            assert_eq!(str_of(st.predicate), "inv");
            assert_eq!(st.num_args, 1);
            values.push(str_of(*st.args));
        }
        assert_eq!(values.first().map(String::as_str), Some("6"));
        assert_eq!(values.last().map(String::as_str), Some("0"));
        cove_result_free(res);

        // A second violated assertion in a scope: answered from the recorded facts.
        assert_eq!(cove_push(ctx), CoveStatus::Ok);
        let names = [s("y")];
        let sorts = [s("Int")];
        let (np, sp) = ([names[0].as_ptr()], [sorts[0].as_ptr()]);
        let f = s("(=> (and (inv y) (= y 3)) false)");
        assert_eq!(
            cove_add_clause_smtlib(
                ctx,
                f.as_ptr(),
                np.as_ptr(),
                sp.as_ptr(),
                1,
                ptr::null_mut()
            ),
            CoveStatus::Ok
        );
        let mut count = 0;
        assert_eq!(cove_num_clauses(ctx, &mut count), CoveStatus::Ok);
        assert_eq!(count, 4);
        assert_eq!(cove_solve(ctx, &cfg, &mut res), CoveStatus::Ok);
        assert_eq!(cove_result_answer(res), CoveAnswer::Unsat);
        assert_eq!(str_of(cove_result_engine(res)), "session:facts");
        cove_result_free(res);
        assert_eq!(cove_pop(ctx, 1), CoveStatus::Ok);
        let text = cove_to_smtlib(ctx);
        assert!(str_of(text).contains("(declare-fun inv (Int) Bool)"));
        cove_string_free(text);
        cove_context_free(ctx);
    }
}

#[test]
fn every_error_is_a_status_and_a_message() {
    let ctx = cove_context_new();
    let int = s("Int");
    let sorts = [int.as_ptr()];
    let mut t: CoveTerm = 0;
    // SAFETY: live context; deliberately bad but memory-safe arguments.
    unsafe {
        // NULL context, NULL strings, NULL arrays with a count, NULL out pointers.
        assert_eq!(cove_push(ptr::null_mut()), CoveStatus::InvalidArgument);
        assert_eq!(last_error(), "ctx is NULL");
        assert_eq!(
            cove_declare(ctx, ptr::null(), ptr::null(), 0),
            CoveStatus::InvalidArgument
        );
        assert_eq!(last_error(), "name is NULL");
        assert_eq!(
            cove_declare(ctx, s("p").as_ptr(), ptr::null(), 2),
            CoveStatus::InvalidArgument
        );
        assert_eq!(
            cove_var(ctx, s("x").as_ptr(), int.as_ptr(), ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        // Invalid UTF-8.
        let bad = CString::new(vec![0xffu8, 0xfe]).unwrap();
        assert_eq!(
            cove_add_smtlib(ctx, bad.as_ptr(), ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        assert!(last_error().contains("UTF-8"));
        // Declarations: twice is a state error; a bad sort is a parse error.
        assert_eq!(
            cove_declare(ctx, s("inv").as_ptr(), sorts.as_ptr(), 1),
            CoveStatus::Ok
        );
        assert_eq!(
            cove_declare(ctx, s("inv").as_ptr(), sorts.as_ptr(), 1),
            CoveStatus::State
        );
        let odd = [s("Foo")];
        let odd = [odd[0].as_ptr()];
        assert_ne!(
            cove_declare(ctx, s("q").as_ptr(), odd.as_ptr(), 1),
            CoveStatus::Ok
        );
        assert!(!last_error().is_empty());
        // Parse errors are located.
        let text = s("(assert (forall ((x Int))\n  (=> (inv x x) false)))");
        assert_eq!(
            cove_add_smtlib(ctx, text.as_ptr(), ptr::null_mut()),
            CoveStatus::Parse
        );
        assert!(last_error().starts_with("2:"), "{}", last_error());
        // Terms: unknown operator, sort errors, bad handles, non-Bool clause.
        assert_eq!(
            cove_var(ctx, s("x").as_ptr(), int.as_ptr(), &mut t),
            CoveStatus::Ok
        );
        let x = t;
        assert_eq!(
            cove_apply(ctx, s("frob").as_ptr(), &x, 1, &mut t),
            CoveStatus::InvalidArgument
        );
        assert!(last_error().contains("frob"));
        assert_eq!(
            cove_apply(ctx, s("not").as_ptr(), &x, 1, &mut t),
            CoveStatus::InvalidArgument
        );
        let huge: CoveTerm = u32::MAX;
        assert_eq!(
            cove_apply(ctx, s("inv").as_ptr(), &huge, 1, &mut t),
            CoveStatus::InvalidArgument
        );
        assert_eq!(
            cove_add_clause(ctx, x, ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        assert_eq!(
            cove_add_clause(ctx, huge, ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        assert!(cove_term_to_smtlib(ctx, huge).is_null());
        assert_eq!(
            cove_numeral(ctx, s("1/2").as_ptr(), false, &mut t),
            CoveStatus::InvalidArgument
        );
        assert_eq!(
            cove_numeral(ctx, s("1/2").as_ptr(), true, &mut t),
            CoveStatus::Ok
        );
        let half = cove_term_to_smtlib(ctx, t);
        assert_eq!(str_of(half), "(/ 1 2)");
        cove_string_free(half);
        // State: pop with no scope.
        assert_eq!(cove_pop(ctx, 1), CoveStatus::State);
        // Config: unknown engine, non-finite timeout; no result is written.
        let magic = s("magic");
        let mut cfg = spacer_config(&magic);
        let mut res: *mut CoveResult = ptr::null_mut();
        assert_eq!(cove_solve(ctx, &cfg, &mut res), CoveStatus::InvalidArgument);
        assert!(last_error().contains("unknown engine 'magic'"));
        assert!(res.is_null());
        cfg.engine = ptr::null();
        cfg.timeout_seconds = f64::NAN;
        assert_eq!(cove_solve(ctx, &cfg, &mut res), CoveStatus::InvalidArgument);
        assert_eq!(
            cove_solve(ctx, ptr::null(), ptr::null_mut()),
            CoveStatus::InvalidArgument
        );
        // Results: NULL is tolerated by the readers.
        assert_eq!(cove_result_answer(ptr::null()), CoveAnswer::Unknown);
        assert_eq!(str_of(cove_result_model(ptr::null())), "");
        cove_result_free(ptr::null_mut());
        cove_context_free(ptr::null_mut());
        // Nothing was added by the failed calls.
        let mut n = 1;
        assert_eq!(cove_num_clauses(ctx, &mut n), CoveStatus::Ok);
        assert_eq!(n, 0);
        cove_context_free(ctx);
    }
    assert!(str_of(cove_engines()).split(',').any(|e| e == "spacer"));
    assert!(!str_of(cove_version()).is_empty());
}

/// A context pointer handed to another thread (the API serializes access internally).
struct Shared(*mut CoveContext);
// SAFETY: the C API documents contexts as usable from several threads.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

#[test]
fn interrupt_from_another_thread_stops_a_solve() {
    // Hard for Spacer without abstraction: it runs until stopped.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/thesis-gcnr-safe.smt2"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let ctx = Shared(cove_context_new());
    let text = s(&text.replace("(check-sat)", "").replace("(exit)", ""));
    // SAFETY: live context, valid text.
    assert_eq!(
        unsafe { cove_add_smtlib(ctx.0, text.as_ptr(), ptr::null_mut()) },
        CoveStatus::Ok,
        "{}",
        last_error()
    );
    let start = Instant::now();
    let (answer, reason) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let engine = s("spacer");
            let mut cfg = spacer_config(&engine);
            cfg.timeout_seconds = 120.0;
            let mut res = ptr::null_mut();
            let c = &ctx;
            // SAFETY: live context, valid config; the result is read and freed here.
            unsafe {
                assert_eq!(cove_solve(c.0, &cfg, &mut res), CoveStatus::Ok);
                let out = (cove_result_answer(res), str_of(cove_result_reason(res)));
                cove_result_free(res);
                out
            }
        });
        std::thread::sleep(Duration::from_millis(500));
        // Repeat until the solve notices (it may not have registered its flag yet).
        while !worker.is_finished() {
            // SAFETY: live context; interrupting is allowed from any thread.
            assert_eq!(unsafe { cove_interrupt(ctx.0) }, CoveStatus::Ok);
            std::thread::sleep(Duration::from_millis(50));
        }
        worker.join().unwrap()
    });
    assert_eq!(answer, CoveAnswer::Unknown);
    assert_eq!(reason, "interrupted");
    assert!(start.elapsed() < Duration::from_secs(60));
    // SAFETY: no other call is running.
    unsafe { cove_context_free(ctx.0) };
}

/// `cove_solve_file` on a file of each language, through the facade: the verdict in the
/// language's words, the text `cove solve` prints, the checked certificate.
#[test]
fn files_of_every_language() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let solve = |rel: &str, engine: Option<&str>| -> (CoveStatus, *mut CoveFileResult) {
        let path = s(&root.join(rel).display().to_string());
        let engine = engine.map(s);
        let mut cfg = std::mem::MaybeUninit::<CoveConfig>::uninit();
        let mut res = ptr::null_mut();
        // SAFETY: writable config, valid strings that outlive the call, writable out.
        let st = unsafe {
            assert_eq!(cove_config_init(cfg.as_mut_ptr()), CoveStatus::Ok);
            let mut cfg = cfg.assume_init();
            cfg.timeout_seconds = 60.0;
            if let Some(e) = &engine {
                cfg.engine = e.as_ptr();
            }
            cove_solve_file(path.as_ptr(), &cfg, &mut res)
        };
        (st, res)
    };
    let expect = |rel: &str, format: &str, safety: CoveSafety, verdict: &str, text: &str| {
        let (st, res) = solve(rel, None);
        assert_eq!(st, CoveStatus::Ok, "{rel}: {}", last_error());
        // SAFETY: a live result, freed once at the end.
        unsafe {
            assert_eq!(str_of(cove_file_result_format(res)), format);
            assert_eq!(cove_file_result_count(res), 1);
            assert_eq!(cove_file_result_safety(res, 0), safety, "{rel}");
            assert_eq!(str_of(cove_file_result_verdict(res, 0)), verdict);
            let t = str_of(cove_file_result_text(res, 0));
            assert!(t.starts_with(text), "{rel}: {t}");
            assert_eq!(str_of(cove_file_result_validation(res, 0)), "valid");
            assert!(!str_of(cove_file_result_engine(res, 0)).is_empty());
            assert_eq!(str_of(cove_file_result_reason(res, 0)), "");
            assert!(cove_file_result_text(res, 1).is_null(), "out of range");
            cove_file_result_free(res);
        }
    };
    expect(
        "examples/counter.smt2",
        "chc",
        CoveSafety::Safe,
        "sat",
        "sat\n",
    );
    let aig = "crates/cove-aig/tests/data/";
    expect(
        &format!("{aig}mod6_safe.aag"),
        "aiger",
        CoveSafety::Safe,
        "safe",
        "0\nb0\n.\n",
    );
    expect(
        &format!("{aig}counter4_unsafe.aig"),
        "aiger",
        CoveSafety::Unsafe,
        "unsafe",
        "1\nb0\n",
    );
    expect(
        &format!("{aig}btor2/counter_unsafe.btor2"),
        "btor2",
        CoveSafety::Unsafe,
        "unsafe",
        "sat\nb0\n#0\n",
    );
    expect(
        &format!("{aig}btor2/counter_safe.btor2"),
        "btor2",
        CoveSafety::Safe,
        "safe",
        "unsat\nb0\n.\n",
    );
    // Refusals: a circuit engine on Horn clauses, an unreadable file, a malformed circuit.
    let (st, res) = solve("examples/counter.smt2", Some("ic3"));
    assert_eq!(st, CoveStatus::InvalidArgument);
    assert!(res.is_null() && last_error().contains("not Horn clauses"));
    let (st, _) = solve("no-such-file.aag", None);
    assert_eq!(st, CoveStatus::Io);
    assert!(last_error().contains("no-such-file.aag"));
    let (st, _) = solve("crates/cove-capi/include/cove.h", Some("ic3"));
    assert_eq!(
        st,
        CoveStatus::InvalidArgument,
        "a header is read as Horn clauses"
    );
    // SAFETY: NULL results are accepted and reported as such.
    unsafe {
        assert_eq!(cove_file_result_count(ptr::null()), 0);
        assert!(cove_file_result_text(ptr::null(), 0).is_null());
        cove_file_result_free(ptr::null_mut());
    }
}
