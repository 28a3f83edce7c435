//! Runs an SMT-LIB2 script file through `cove_smt::run_script` (what `cove smt FILE` does).
fn main() {
    let path = std::env::args().nth(1).expect("usage: smtfile FILE.smt2");
    let src = std::fs::read(&path).expect("read file");
    let code = cove_smt::run_script(&src, &mut std::io::stdout().lock()).expect("write output");
    std::process::exit(code);
}
