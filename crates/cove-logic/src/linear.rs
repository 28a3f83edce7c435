//! Linear terms in a canonical sum form.
//!
//! A [`LinearSum`] is `c_1·a_1 + … + c_n·a_n + k` where the *atoms* `a_i` are terms that are
//! not sums, differences, negations, numerals or products with a numeral (variables,
//! applications, `ite`, `div`, `mod`, nonlinear products …). Atoms are kept sorted by id with
//! non-zero coefficients, so two linear terms are equal iff their sums are equal.

use crate::Rational;
use crate::term::{Op, Sort, TermId, TermStore};

/// `Σ coeff·atom + constant`, canonical (sorted atoms, no zero coefficients).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LinearSum {
    /// Atoms with their non-zero coefficients, sorted by atom id.
    pub terms: Vec<(TermId, Rational)>,
    /// The constant part.
    pub constant: Rational,
}

impl LinearSum {
    /// The constant `k`.
    pub fn constant(k: Rational) -> LinearSum {
        LinearSum {
            terms: Vec::new(),
            constant: k,
        }
    }

    /// `1·atom`.
    pub fn atom(a: TermId) -> LinearSum {
        LinearSum {
            terms: vec![(a, Rational::ONE)],
            constant: Rational::ZERO,
        }
    }

    /// True when there are no atoms.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// `self + c·other`.
    pub fn add_scaled(&mut self, other: &LinearSum, c: &Rational) {
        if c.is_zero() {
            return;
        }
        self.constant += &(&other.constant * c);
        let mut out = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.terms, &other.terms);
        while i < a.len() || j < b.len() {
            if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                out.push(a[i].clone());
                i += 1;
            } else if i == a.len() || b[j].0 < a[i].0 {
                out.push((b[j].0, &b[j].1 * c));
                j += 1;
            } else {
                let s = &a[i].1 + &(&b[j].1 * c);
                if !s.is_zero() {
                    out.push((a[i].0, s));
                }
                i += 1;
                j += 1;
            }
        }
        self.terms = out;
    }

    /// `c·self`.
    pub fn scale(&mut self, c: &Rational) {
        if c.is_zero() {
            self.terms.clear();
            self.constant = Rational::ZERO;
            return;
        }
        for (_, k) in &mut self.terms {
            *k *= c;
        }
        self.constant *= c;
    }

    /// The coefficient of `atom` (zero when absent).
    pub fn coeff(&self, atom: TermId) -> Rational {
        match self.terms.binary_search_by_key(&atom, |(a, _)| *a) {
            Ok(i) => self.terms[i].1.clone(),
            Err(_) => Rational::ZERO,
        }
    }
}

/// Reads `t` as a linear sum. Never fails: anything that is not linear structure becomes
/// an atom. `to_real` is transparent (its argument's atoms are used directly).
///
/// Iterative and DAG-aware: the coefficient of every linear node is accumulated over all its
/// occurrences (linearity), and nodes are expanded in decreasing id order — arguments have
/// smaller ids than their parents, so a node is expanded only once all its occurrences are
/// known. Cost is `O(n log n)` in the DAG size, whatever the nesting depth or sharing.
pub fn linearize(store: &TermStore, t: TermId) -> LinearSum {
    let mut out = LinearSum::default();
    let mut pending: std::collections::BTreeMap<TermId, Rational> = Default::default();
    let mut atoms: Vec<(TermId, Rational)> = Vec::new();
    pending.insert(t, Rational::ONE);
    while let Some((t, c)) = pending.pop_last() {
        if c.is_zero() {
            continue;
        }
        let mut push = |a: TermId, k: Rational| {
            let e = pending.entry(a).or_insert(Rational::ZERO);
            *e += &k;
        };
        let args = store.args(t);
        match store.op(t) {
            Op::Num(k) => out.constant += &(k * &c),
            Op::Add => {
                for &a in args {
                    push(a, c.clone());
                }
            }
            Op::Sub => {
                push(args[0], c.clone());
                push(args[1], -&c);
            }
            Op::Neg => push(args[0], -&c),
            Op::ToReal => push(args[0], c),
            Op::Mul => {
                // Linear iff at most one factor is not a numeral.
                let mut k = c.clone();
                let mut rest = None;
                let mut linear = true;
                for &a in args {
                    match store.as_num(a) {
                        Some(v) => k *= v,
                        None if rest.is_none() => rest = Some(a),
                        None => {
                            linear = false;
                            break;
                        }
                    }
                }
                match (linear, rest) {
                    (false, _) => atoms.push((t, c)),
                    (true, None) => out.constant += &k,
                    (true, Some(a)) => push(a, k),
                }
            }
            Op::Div => match store.as_num(args[1]) {
                Some(d) if !d.is_zero() => push(args[0], &c / d),
                _ => atoms.push((t, c)),
            },
            _ => atoms.push((t, c)),
        }
    }
    // Each atom was popped once (its coefficients were merged while pending) and atoms come
    // out in decreasing id order.
    atoms.retain(|(_, c)| !c.is_zero());
    atoms.reverse();
    out.terms = atoms;
    out
}

/// Builds the canonical term of `lin` at sort `sort`: `(+ (* c1 a1) … k)`, coefficient 1
/// omitted, constant omitted when zero. In a `Real` sum, `Int` atoms are wrapped in
/// `to_real` so the result is well sorted. `Int` sums must have integral coefficients.
pub fn mk_linear(store: &mut TermStore, lin: &LinearSum, sort: Sort) -> TermId {
    let mut parts = Vec::with_capacity(lin.terms.len() + 1);
    for (a, c) in &lin.terms {
        let mut a = *a;
        if sort == Sort::Real && store.sort(a) == Sort::Int {
            a = store.mk_raw(Op::ToReal, &[a], Sort::Real);
        }
        let part = if c.is_one() {
            a
        } else {
            let k = store.mk_num(c.clone(), sort);
            store.mk_mul(&[k, a])
        };
        parts.push(part);
    }
    if !lin.constant.is_zero() || parts.is_empty() {
        parts.push(store.mk_num(lin.constant.clone(), sort));
    }
    if parts.len() == 1 {
        parts[0]
    } else {
        store.mk_raw(Op::Add, &parts, sort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_sums_coincide() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let y = s.var("y", Sort::Int);
        let (x, y) = (s.mk_var(x), s.mk_var(y));
        let two = s.mk_int(2);
        let three = s.mk_int(3);
        // 2*(x + 3) - y  vs  (-y) + x + x + 6
        let a0 = s.mk_add(&[x, three]);
        let a1 = s.mk_mul(&[two, a0]);
        let a = s.mk_sub(a1, y);
        let ny = s.mk_neg(y);
        let six = s.mk_int(6);
        let b = s.mk_add(&[ny, x, x, six]);
        let (la, lb) = (linearize(&s, a), linearize(&s, b));
        assert_eq!(la, lb);
        assert_eq!(la.coeff(x), Rational::int(2));
        assert_eq!(
            mk_linear(&mut s, &la, Sort::Int),
            mk_linear(&mut s, &lb, Sort::Int)
        );
        // x*y is an atom.
        let xy = s.mk_mul(&[x, y]);
        assert_eq!(linearize(&s, xy), LinearSum::atom(xy));
    }
}
