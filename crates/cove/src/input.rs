//! Which language an input file is in: the one place that decides it, for the command line
//! and library users alike.
//!
//! AIGER is recognized by its extension (`.aig`, `.aag`) or by its header (`aig ` / `aag `,
//! so a circuit saved under another name is still a circuit); BTOR2 by its extension
//! (`.btor2`, `.btor`: its first line is an ordinary numbered node, nothing distinguishes it
//! from text); `.smt2` and `.smt` files are Horn clauses without a look inside; everything
//! else is read as Horn clauses (SMT-LIB2 `HORN` or z3's fixedpoint
//! format), whose reader reports a positioned error when it is not.

use std::io::Read;
use std::path::Path;

/// The input languages Cove solves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Constrained Horn clauses: SMT-LIB2 `HORN` or z3's fixedpoint format.
    Chc,
    /// An AIGER 1.9 circuit, binary or ASCII.
    Aiger,
    /// A BTOR2 word-level model.
    Btor2,
}

impl InputFormat {
    /// The format of a file named `path` whose first bytes are `head` (any number; four
    /// suffice).
    pub fn sniff(path: &Path, head: &[u8]) -> InputFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("aig" | "aag") => return InputFormat::Aiger,
            Some("btor2" | "btor") => return InputFormat::Btor2,
            Some("smt2" | "smt") => return InputFormat::Chc,
            _ => {}
        }
        if head.starts_with(b"aig ") || head.starts_with(b"aag ") {
            InputFormat::Aiger
        } else {
            InputFormat::Chc
        }
    }

    /// The format of the file at `path`, reading its first four bytes when the name does not
    /// tell (`-`, standard input, is never read here: its name decides; nor is a file whose
    /// extension decides, which may be a pipe that blocks).
    pub fn of_file(path: &Path) -> InputFormat {
        let by_name = InputFormat::sniff(path, b"");
        if by_name != InputFormat::Chc
            || path.extension().is_some_and(|e| e == "smt2" || e == "smt")
        {
            return by_name;
        }
        let mut head = Vec::with_capacity(4);
        if path.as_os_str() != "-"
            && let Ok(f) = std::fs::File::open(path)
        {
            let _ = f.take(4).read_to_end(&mut head);
        }
        InputFormat::sniff(path, &head)
    }

    /// The format's short name: `chc`, `aiger` or `btor2`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Chc => "chc",
            InputFormat::Aiger => "aiger",
            InputFormat::Btor2 => "btor2",
        }
    }

    /// Whether the format is a circuit (AIGER or BTOR2), solved by the hardware driver.
    pub fn is_hardware(self) -> bool {
        matches!(self, InputFormat::Aiger | InputFormat::Btor2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_headers_decide() {
        let p = |s: &str| Path::new(s).to_path_buf();
        assert_eq!(InputFormat::sniff(&p("a.aig"), b""), InputFormat::Aiger);
        assert_eq!(
            InputFormat::sniff(&p("a.aag"), b"(set-logic"),
            InputFormat::Aiger
        );
        assert_eq!(
            InputFormat::sniff(&p("a.btor2"), b"1 sort"),
            InputFormat::Btor2
        );
        assert_eq!(InputFormat::sniff(&p("a.btor"), b""), InputFormat::Btor2);
        assert_eq!(
            InputFormat::sniff(&p("circuit"), b"aag 1 0 1 0 0 1"),
            InputFormat::Aiger
        );
        assert_eq!(
            InputFormat::sniff(&p("circuit.txt"), b"aig 5"),
            InputFormat::Aiger
        );
        assert_eq!(
            InputFormat::sniff(&p("a.smt2"), b"(set-logic HORN)"),
            InputFormat::Chc
        );
        assert_eq!(InputFormat::sniff(&p("-"), b""), InputFormat::Chc);
        assert!(InputFormat::Btor2.is_hardware() && !InputFormat::Chc.is_hardware());
    }

    #[test]
    fn files_are_read_for_their_header() {
        let dir = std::env::temp_dir().join(format!("cove-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let circuit = dir.join("latch");
        std::fs::write(&circuit, "aag 1 0 1 0 0 1\n2 2\n2\n").unwrap();
        let horn = dir.join("query");
        std::fs::write(&horn, "(set-logic HORN)\n").unwrap();
        assert_eq!(InputFormat::of_file(&circuit), InputFormat::Aiger);
        assert_eq!(InputFormat::of_file(&horn), InputFormat::Chc);
        assert_eq!(
            InputFormat::of_file(&dir.join("missing.smt2")),
            InputFormat::Chc
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
