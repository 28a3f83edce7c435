//! Relevancy for the array theory: every array term and array lemma has a *scope*, the
//! guard literals under which it can matter.
//!
//! # Why
//! A solver that holds many guarded alternatives (the rules of a CHC predicate in Spacer,
//! see [`SmtSolver::assert_guarded`]) decides only the atoms of the alternatives in use.
//! Array axiom instances used to be permanent *unguarded* clauses: every instance found for
//! one rule's query put its atoms (index equalities, read equalities) into the search of
//! every later query, and its mention of a guarded array equality made that equality
//! unguarded. On Ultimate's thread-modular encodings (one predicate, ~50 rules over the same
//! arrays) the instances piled up to tens of thousands of atoms that every check decided
//! and fed to the simplex, with few conflicts: the cost of a check grew with everything the
//! solver had ever seen. And the array check compared the reads of *every* rule against
//! the candidate, including reads of switched-off rules whose values are arbitrary, so
//! most instances were about terms no active assertion constrains.
//!
//! # How
//! - The scope of an array term (a read, an array, an array equality) is the intersection
//!   of the guard literal sets of its uses (empty = unguarded, always relevant); a use of a
//!   term is also a use of its array subterms. It only shrinks, so "some use's guard is on"
//!   implies "all of the scope's literals are true".
//! - The array check (`arrays.rs`) looks only at terms whose scope is on in the candidate.
//! - A lemma's scope is the union of the scopes of the relevant array terms it mentions
//!   (the ones the check derived it from): it is on when the lemma is found, and off only
//!   when one of those terms is irrelevant. The lemma is added as `(∧ scope) → lemma` with
//!   its private literals guarded by the scope, so while the scope is off the search never
//!   sees it. Instances are valid, so `Unsat` stays sound; `Sat` is still confirmed by
//!   evaluating every active assertion under the computed array values (a switched-off
//!   assertion `guard → body` is true by its guard).
//! - A lemma added under a scope that later turns out too strong (a term got a use under
//!   another guard) is added again under its new scope.

use crate::solver::SmtSolver;
use cove_logic::{Op, TermId, TermStore};
use cove_sat::{GuardId, LBool, Lit};
use rustc_hash::FxHashSet;

/// Guard literals, sorted and deduplicated; empty = unguarded.
pub(crate) type Scope = Vec<Lit>;

/// The scope a queued lemma is added under.
pub(crate) enum LemmaScope {
    /// Computed by the array check from the candidate (see [`SmtSolver::lemma_scope`]).
    Fixed(Scope),
    /// The scope of this read when the lemma is added (the eager expansion of a read of a
    /// write, constant or `ite`, queued while the read is being registered).
    Of(TermId),
}

/// Whether `t` is a term the array check values or compares.
fn is_array_term(store: &TermStore, t: TermId) -> bool {
    match store.op(t) {
        Op::Select => true,
        Op::Eq => store.sort(store.args(t)[0]).is_array(),
        _ => store.sort(t).is_array(),
    }
}

/// `a ⊆ b` for sorted literal sets.
pub(crate) fn subset(a: &[Lit], b: &[Lit]) -> bool {
    a.iter().all(|l| b.binary_search(l).is_ok())
}

impl SmtSolver {
    /// The registered guard of the literal set `lits` (sorted, deduplicated), created on
    /// first use.
    pub(crate) fn guard_for(&mut self, lits: &[Lit]) -> GuardId {
        if let Some(&id) = self.enc.guard_ids.get(lits) {
            return id;
        }
        let id = self.sat.add_guard(lits);
        self.enc.guard_ids.insert(lits.to_vec(), id);
        self.enc.guard_lits.insert(id, lits.to_vec());
        id
    }

    /// The scope of the assertion being encoded.
    pub(crate) fn current_scope(&self) -> Scope {
        self.enc
            .scope
            .and_then(|g| self.enc.guard_lits.get(&g).cloned())
            .unwrap_or_default()
    }

    /// Records a use of the term `t` under `scope`: every array term in it gets its scope
    /// narrowed to the common part. Nothing happens while an array term is being
    /// registered (its nested reads are reached by the walk of the outer use).
    pub(crate) fn note_use(&mut self, store: &TermStore, t: TermId, scope: &[Lit]) {
        if self.enc.registering > 0 {
            return;
        }
        let mut stack = vec![t];
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            if is_array_term(store, u) {
                let changed = match self.arr.scope.get_mut(&u) {
                    None => {
                        self.arr.scope.insert(u, scope.to_vec());
                        true
                    }
                    Some(old) => {
                        let before = old.len();
                        old.retain(|l| scope.binary_search(l).is_ok());
                        old.len() != before
                    }
                };
                if !changed {
                    continue;
                }
            }
            stack.extend(store.args(u).iter().copied());
        }
    }

    /// Whether the array term `t` can matter under the current assignment (its scope's
    /// literals are all true; terms without a recorded use count as relevant).
    pub(crate) fn relevant(&self, t: TermId) -> bool {
        self.arr
            .scope
            .get(&t)
            .is_none_or(|s| s.iter().all(|&l| self.sat.value(l) == LBool::True))
    }

    /// The scope of a lemma derived from the current candidate: the union of the scopes of
    /// the relevant array terms it mentions. Terms whose scope is off are the lemma's own
    /// new reads (e.g. `b[i]` in `i = j ∨ s[i] = b[i]`), made earlier under another guard;
    /// they are not why the lemma is needed, and counting them would put it under a guard
    /// that is off exactly when it is needed. Encoding the lemma narrows their scopes.
    pub(crate) fn lemma_scope(&self, store: &TermStore, lemma: TermId) -> Scope {
        let mut out: Scope = Vec::new();
        let mut stack = vec![lemma];
        let mut seen: FxHashSet<TermId> = FxHashSet::default();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            if let Some(s) = self.arr.scope.get(&u)
                && self.relevant(u)
            {
                out.extend_from_slice(s);
            }
            stack.extend(store.args(u).iter().copied());
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether `lemma` still has to be added: never added, or added under a scope that is
    /// not contained in `scope` (so that clause can be off while this one must be on).
    pub(crate) fn lemma_needed(&self, lemma: TermId, scope: &[Lit]) -> bool {
        self.arr
            .lemmas
            .get(&lemma)
            .is_none_or(|old| !subset(old, scope))
    }

    /// Adds the valid array lemma `lemma` as `(∧ scope) → lemma`, its private literals
    /// guarded by the scope.
    pub(crate) fn add_array_lemma(
        &mut self,
        store: &mut TermStore,
        lemma: TermId,
        scope: LemmaScope,
    ) {
        let scope = match scope {
            LemmaScope::Fixed(s) => s,
            LemmaScope::Of(t) => self.arr.scope.get(&t).cloned().unwrap_or_default(),
        };
        if !self.lemma_needed(lemma, &scope) {
            return;
        }
        self.arr.lemmas.insert(lemma, scope.clone());
        let s = self.simp.run(store, lemma);
        if scope.is_empty() {
            let saved = self.enc.scope.take();
            let lit = self.lit_of(store, s);
            self.enc.scope = saved;
            self.sat.add_clause(&[lit]);
            return;
        }
        let g = self.guard_for(&scope);
        let saved = self.enc.scope.replace(g);
        let lit = self.lit_of(store, s);
        self.enc.scope = saved;
        let mut clause: Vec<Lit> = scope.iter().map(|&l| !l).collect();
        clause.push(lit);
        self.sat.add_clause(&clause);
    }
}

#[cfg(test)]
mod tests {
    use crate::{SmtResult, SmtSolver};
    use cove_logic::{Rational, Sort, TermId, TermStore, Value};

    fn bool_var(store: &mut TermStore, name: &str) -> TermId {
        let v = store.var(name, Sort::Bool);
        store.mk_var(v)
    }

    /// Two rules share the arrays `c` and `p` through `c = p` (as the rules of one CHC
    /// predicate share its parameters). A lemma found under one rule (`c[2] = p[2]`) must
    /// still be added when the other rule needs it, although its read `p[2]` was made under
    /// the first rule.
    #[test]
    fn lemmas_follow_the_guards_of_their_terms() {
        let mut store = TermStore::new();
        let ai = Sort::array(Sort::Int, Sort::Int);
        let c = store.var("c", ai);
        let c = store.mk_var(c);
        let p = store.var("p", ai);
        let p = store.mk_var(p);
        let (g1, g2) = (bool_var(&mut store, "g1"), bool_var(&mut store, "g2"));
        let two = store.mk_int(2);
        let cp = store.mk_eq(c, p);
        let c2 = store.mk_select(c, two);
        let p2 = store.mk_select(p, two);
        let mut s = SmtSolver::new();
        for (g, k) in [(g1, 1), (g2, 5)] {
            let k = store.mk_int(k);
            let read = store.mk_eq(c2, k);
            let body = store.mk_and(&[cp, read]);
            s.assert_guarded(&mut store, &[g], body);
        }
        let (ng1, ng2) = (store.mk_not(g1), store.mk_not(g2));
        let one = store.mk_int(1);
        let p2_is_1 = store.mk_eq(p2, one);
        let p2_not_1 = store.mk_not(p2_is_1);
        assert_eq!(
            s.check_assuming(&mut store, &[g1, ng2, p2_not_1]),
            SmtResult::Unsat
        );
        assert_eq!(s.check_assuming(&mut store, &[g1, ng2]), SmtResult::Sat);
        assert_eq!(
            s.value(&store, p2),
            Some(Value::Num(Rational::int(1))),
            "the model reads c[2] through c = p"
        );
        // Under g2 the same lemma is needed again.
        assert_eq!(
            s.check_assuming(&mut store, &[g2, ng1, p2_is_1]),
            SmtResult::Unsat
        );
        assert_eq!(s.check_assuming(&mut store, &[g2, ng1]), SmtResult::Sat);
        assert_eq!(s.value(&store, p2), Some(Value::Num(Rational::int(5))));
        assert_eq!(s.check_assuming(&mut store, &[g1, g2]), SmtResult::Unsat);
    }

    /// Reads of a rule that is switched off are not checked: its arbitrary values produce
    /// no lemmas (the candidates of the other rule need no array rounds for them).
    #[test]
    fn reads_of_switched_off_rules_are_not_checked() {
        let mut store = TermStore::new();
        let ai = Sort::array(Sort::Int, Sort::Int);
        let a = store.var("a", ai);
        let a = store.mk_var(a);
        let (g1, g2) = (bool_var(&mut store, "g1"), bool_var(&mut store, "g2"));
        let i = store.var("i", Sort::Int);
        let i = store.mk_var(i);
        let j = store.var("j", Sort::Int);
        let j = store.mk_var(j);
        // Rule 1: a[i] = 1 ∧ a[j] = 2 (forces i ≠ j through congruence).
        let (ai_, aj) = (store.mk_select(a, i), store.mk_select(a, j));
        let (one, two) = (store.mk_int(1), store.mk_int(2));
        let e1 = store.mk_eq(ai_, one);
        let e2 = store.mk_eq(aj, two);
        let body = store.mk_and(&[e1, e2]);
        let mut s = SmtSolver::new();
        s.assert_guarded(&mut store, &[g1], body);
        let x = store.var("x", Sort::Int);
        let x = store.mk_var(x);
        let xpos = store.mk_le(one, x);
        s.assert_guarded(&mut store, &[g2], xpos);
        let ng1 = store.mk_not(g1);
        assert_eq!(s.check_assuming(&mut store, &[ng1, g2]), SmtResult::Sat);
        assert_eq!(s.stats().array_rounds, 0, "no lemma about rule 1's reads");
        let eq = store.mk_eq(i, j);
        assert_eq!(s.check_assuming(&mut store, &[g1, eq]), SmtResult::Unsat);
    }
}
