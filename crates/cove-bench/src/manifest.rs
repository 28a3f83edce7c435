//! Benchmark manifests: one instance per line, `track<TAB>path<TAB>expected`.
//!
//! Blank lines and lines starting with `#` are ignored. `expected` is `sat` or `unsat`
//! (the manifest only lists instances with a known status, so every answer can be judged).
//!
//! Hardware designs with several properties (bad-state properties `b<i>`, justice properties
//! `j<i>`) may instead list one answer per property in the HWMCC witness convention:
//! `b0=1 b1=0 j0=0` (`1` = the property fails, `0` = it holds), separated by spaces. The
//! design's overall status is then `sat` (in the hardware convention: something fails) when
//! any property fails and `unsat` when all hold, and [`crate::answer::judge_instance`] judges
//! every property's witness, not only the first line.
//! Paths are kept exactly as written (relative to the benchmark root); resolving them is the
//! caller's business. Every error names its 1-based line number so a broken manifest can be
//! fixed without guessing.

use std::fmt;

/// The known status of an instance, as recorded in the manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expected {
    /// The clause system is satisfiable (the program is safe).
    Sat,
    /// The clause system is unsatisfiable (a counterexample exists).
    Unsat,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Sat => "sat",
            Expected::Unsat => "unsat",
        })
    }
}

/// One benchmark instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Track (category) name, e.g. `LIA-Lin`.
    pub track: String,
    /// Path as written in the manifest (relative to the benchmark root unless absolute).
    pub path: String,
    /// Known status (for a per-property line: `sat` if any property fails).
    pub expected: Expected,
    /// Per-property known answers (`None` for an ordinary line).
    pub properties: Option<Vec<PropertyExpected>>,
}

/// One property's known answer on a per-property manifest line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyExpected {
    /// Its name in the HWMCC witness format: `b<i>` or `j<i>`.
    pub name: String,
    /// Whether it fails (a bad state is reachable, a fair lasso exists).
    pub fails: bool,
}

/// Reads `b0=1 j0=0`-style per-property answers; `None` if `text` is not of that form (or
/// names a property twice).
pub fn parse_properties(text: &str) -> Option<Vec<PropertyExpected>> {
    let mut out: Vec<PropertyExpected> = Vec::new();
    for item in text.split_whitespace() {
        let (name, value) = item.split_once('=')?;
        let index = name.strip_prefix('b').or_else(|| name.strip_prefix('j'))?;
        if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let fails = match value {
            "1" => true,
            "0" => false,
            _ => return None,
        };
        if out.iter().any(|p| p.name == name) {
            return None;
        }
        out.push(PropertyExpected {
            name: name.to_string(),
            fails,
        });
    }
    (!out.is_empty()).then_some(out)
}

/// Writes per-property answers back in the manifest's form (`b0=1 j0=0`).
pub fn format_properties(props: &[PropertyExpected]) -> String {
    let items: Vec<String> = props
        .iter()
        .map(|p| format!("{}={}", p.name, u8::from(p.fails)))
        .collect();
    items.join(" ")
}

/// A manifest line that could not be parsed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("manifest line {line}: {kind}")]
pub struct ManifestError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub kind: ManifestErrorKind,
}

/// The ways a manifest line can be malformed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ManifestErrorKind {
    /// Not exactly three tab-separated fields.
    #[error("expected 3 tab-separated fields (track, path, expected), found {0}")]
    FieldCount(usize),
    /// A field is empty (after trimming).
    #[error("empty {0} field")]
    EmptyField(&'static str),
    /// The expected status is neither `sat` nor `unsat` nor per-property answers.
    #[error(
        "expected status must be `sat`, `unsat` or per-property answers like `b0=1 j0=0`, found `{0}`"
    )]
    BadExpected(String),
}

/// Parses a whole manifest. Returns the instances in file order.
pub fn parse_manifest(text: &str) -> Result<Vec<Instance>, ManifestError> {
    let mut out = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let err = |kind| ManifestError { line, kind };
        let fields: Vec<&str> = trimmed.split('\t').map(str::trim).collect();
        if fields.len() != 3 {
            return Err(err(ManifestErrorKind::FieldCount(fields.len())));
        }
        for (name, value) in ["track", "path", "expected"].iter().zip(&fields) {
            if value.is_empty() {
                return Err(err(ManifestErrorKind::EmptyField(name)));
            }
        }
        let (expected, properties) = match fields[2].to_ascii_lowercase().as_str() {
            "sat" => (Expected::Sat, None),
            "unsat" => (Expected::Unsat, None),
            other => match parse_properties(other) {
                Some(props) => {
                    let any_fails = props.iter().any(|p| p.fails);
                    let overall = if any_fails {
                        Expected::Sat
                    } else {
                        Expected::Unsat
                    };
                    (overall, Some(props))
                }
                None => return Err(err(ManifestErrorKind::BadExpected(fields[2].to_string()))),
            },
        };
        out.push(Instance {
            track: fields[0].to_string(),
            path: fields[1].to_string(),
            expected,
            properties,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_comments_and_blanks() {
        let text = "# header\n\nLIA\ta/b.smt2\tsat\r\nLIA-Lin\tc.smt2\tUNSAT\n   \n";
        let got = parse_manifest(text).unwrap();
        assert_eq!(
            got,
            vec![
                Instance {
                    track: "LIA".into(),
                    path: "a/b.smt2".into(),
                    expected: Expected::Sat,
                    properties: None,
                },
                Instance {
                    track: "LIA-Lin".into(),
                    path: "c.smt2".into(),
                    expected: Expected::Unsat,
                    properties: None,
                },
            ]
        );
    }

    #[test]
    fn per_property_lines() {
        let got = parse_manifest("AIGER\tm.aag\tb0=0 b1=1 j0=0\nAIGER\tl.aag\tj0=0\n").unwrap();
        assert_eq!(got[0].expected, Expected::Sat);
        assert_eq!(got[1].expected, Expected::Unsat);
        let props = got[0].properties.as_ref().unwrap();
        assert_eq!(props.len(), 3);
        assert_eq!((props[1].name.as_str(), props[1].fails), ("b1", true));
        assert_eq!(format_properties(props), "b0=0 b1=1 j0=0");
    }

    #[test]
    fn errors_carry_line_numbers() {
        let e = parse_manifest("LIA\ta.smt2\tsat\n\nLIA\tb.smt2\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.kind, ManifestErrorKind::FieldCount(2));
        assert_eq!(
            e.to_string(),
            "manifest line 3: expected 3 tab-separated fields (track, path, expected), found 2"
        );

        let e = parse_manifest("# c\nLIA\ta.smt2\tmaybe\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, ManifestErrorKind::BadExpected("maybe".into()));

        let e = parse_manifest("AIGER\ta.aag\tb0=1 b0=0\n").unwrap_err();
        assert_eq!(e.kind, ManifestErrorKind::BadExpected("b0=1 b0=0".into()));
        let e = parse_manifest("AIGER\ta.aag\tb0=2\n").unwrap_err();
        assert_eq!(e.kind, ManifestErrorKind::BadExpected("b0=2".into()));
        let e = parse_manifest("AIGER\ta.aag\tx0=1\n").unwrap_err();
        assert_eq!(e.kind, ManifestErrorKind::BadExpected("x0=1".into()));

        let e = parse_manifest("LIA\t \tsat\n").unwrap_err();
        assert_eq!((e.line, e.kind), (1, ManifestErrorKind::EmptyField("path")));

        // Spaces are not separators: a space-separated line is one field.
        let e = parse_manifest("LIA a.smt2 sat\n").unwrap_err();
        assert_eq!(e.kind, ManifestErrorKind::FieldCount(1));

        let e = parse_manifest("a\tb\tsat\textra\n").unwrap_err();
        assert_eq!(e.kind, ManifestErrorKind::FieldCount(4));
    }
}
