//! Building and-inverter graphs with structural hashing and constant folding, shared by the
//! reduction ([`crate::reduce`]) and the certificate construction ([`crate::witness_circuit`]).

use crate::{ALit, And, FALSE, TRUE};
use rustc_hash::FxHashMap;

/// And gates on consecutive fresh variables: `a ∧ b` is built at most once per ordered pair,
/// and constants, `a ∧ a` and `a ∧ ¬a` fold without a gate.
pub(crate) struct Strash {
    /// The gates built so far, in topological order.
    pub(crate) ands: Vec<And>,
    /// The variable the next gate gets.
    pub(crate) next_var: u32,
    table: FxHashMap<(ALit, ALit), ALit>,
}

impl Strash {
    /// A builder whose first gate is variable `next_var`.
    pub(crate) fn new(next_var: u32) -> Strash {
        Strash {
            ands: Vec::new(),
            next_var,
            table: FxHashMap::default(),
        }
    }

    pub(crate) fn and(&mut self, a: ALit, b: ALit) -> ALit {
        let (a, b) = if a < b { (b, a) } else { (a, b) };
        if b == FALSE || a == (b ^ 1) {
            return FALSE;
        }
        if b == TRUE || a == b {
            return a;
        }
        if let Some(&x) = self.table.get(&(a, b)) {
            return x;
        }
        let var = self.next_var;
        self.next_var += 1;
        self.ands.push(And {
            var,
            rhs0: a,
            rhs1: b,
        });
        self.table.insert((a, b), 2 * var);
        2 * var
    }

    pub(crate) fn or(&mut self, a: ALit, b: ALit) -> ALit {
        self.and(a ^ 1, b ^ 1) ^ 1
    }

    pub(crate) fn and_all(&mut self, lits: impl IntoIterator<Item = ALit>) -> ALit {
        lits.into_iter().fold(TRUE, |acc, l| self.and(acc, l))
    }

    pub(crate) fn or_all(&mut self, lits: impl IntoIterator<Item = ALit>) -> ALit {
        lits.into_iter().fold(FALSE, |acc, l| self.or(acc, l))
    }

    /// `a ↔ b`.
    pub(crate) fn eq(&mut self, a: ALit, b: ALit) -> ALit {
        let both = self.and(a, b);
        let neither = self.and(a ^ 1, b ^ 1);
        self.or(both, neither)
    }
}
