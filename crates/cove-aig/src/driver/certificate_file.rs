//! Writing an answer's files: a safe answer's certificate, the witness circuit
//! ([`crate::witness_circuit`]), is written, read back and checked against the model with the
//! five witness-circuit checks ([`crate::witness_circuit_check`]); an unsafe answer's witness
//! file (the HWMCC witnesses, [`crate::hwmcc_output`]) is written, read back and every trace
//! in it replayed. So a file that is reported has been checked as written; a file whose check
//! does not pass is removed.

use crate::{Aig, CheckError, SafeProof};
use cove_control::Control;
use std::path::Path;

/// Why a certificate file was not produced.
pub(super) enum FileError {
    /// Writing or reading back failed, or the file written does not parse.
    Io(String),
    /// The five checks did not accept the file.
    Check(CheckError),
}

/// Writes the witness circuit of `proof` for `model` to `path` (binary AIGER when `path` ends
/// in `.aig`, ASCII otherwise; `model_name` goes into the file's comment) and checks the file
/// as written. Nothing is left at `path` on failure.
pub(super) fn write_checked(
    path: &Path,
    model: &Aig,
    model_name: &str,
    proof: &SafeProof,
    ctl: &Control,
) -> Result<(), FileError> {
    let r = write_and_check(path, model, model_name, proof, ctl);
    if r.is_err() {
        let _ = std::fs::remove_file(path);
    }
    r
}

fn write_and_check(
    path: &Path,
    model: &Aig,
    model_name: &str,
    proof: &SafeProof,
    ctl: &Control,
) -> Result<(), FileError> {
    let w = crate::witness_circuit::witness_circuit(model, proof);
    let binary = path.extension().and_then(|e| e.to_str()) == Some("aig");
    let bytes = crate::witness_circuit::write_witness(&w, binary, model_name);
    std::fs::write(path, &bytes)
        .map_err(|e| FileError::Io(format!("cannot write {}: {e}", path.display())))?;
    let back = std::fs::read(path)
        .map_err(|e| FileError::Io(format!("cannot read back {}: {e}", path.display())))?;
    let back =
        crate::parse_aiger(&back).map_err(|e| FileError::Io(format!("written file: {e}")))?;
    crate::witness_circuit_check::check_witness(model, &back, ctl).map_err(FileError::Check)
}

/// Writes the witnesses `text` (of the properties `model` fails) to `path`, reads the file
/// back and replays every counterexample in it on `model` for the property it names
/// ([`crate::trace_check::check_trace_of`], [`crate::trace_check::check_lasso`]). Nothing is left at `path` on failure.
pub(super) fn write_checked_witness(path: &Path, model: &Aig, text: &str) -> Result<(), String> {
    let r = write_and_replay(path, model, text);
    if r.is_err() {
        let _ = std::fs::remove_file(path);
    }
    r
}

fn write_and_replay(path: &Path, model: &Aig, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let back = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read back {}: {e}", path.display()))?;
    let nb = model.bad.len();
    let ws = crate::hwmcc_output::parse_witnesses_of(&back, Some(nb))
        .ok_or_else(|| format!("{}: the witness file does not parse", path.display()))?;
    for w in ws {
        if let Some(t) = w.trace {
            for &p in &w.properties {
                let mut t = t.clone();
                let name = crate::hwmcc_output::property_name(p, nb);
                let r = if p < nb {
                    crate::trace_check::check_trace_of(model, &mut t, p)
                } else {
                    crate::trace_check::check_lasso(model, &t, p - nb).map(|_| ())
                };
                r.map_err(|e| format!("witness of {name} as written: {e}"))?;
            }
        }
    }
    Ok(())
}
