//! Translation of simplified terms into clauses and theory atoms (Tseitin encoding).
//!
//! Every Boolean subterm gets a literal equivalent to it (both directions of the
//! definition are added), so a literal may be assumed, asserted under an activation
//! literal, or read back from a model. All definitional clauses are permanent: they only
//! name subterms or introduce variables that are functions of others (`ite`, `div`, `mod`,
//! `abs`, `to_int`), so they never constrain the original variables and survive `pop`.
//!
//! Arithmetic terms become linear forms over simplex variables; comparisons become bound
//! atoms on the slack of their form (see [`crate::theory`]). `(= s k)` is the conjunction
//! of two bound atoms, so its negation is the disjunction `s < k ∨ s > k` for free.
//! Terms outside the fragment (nonlinear products, division by a non-constant or zero,
//! uninterpreted functions, quantifiers) are replaced by fresh unconstrained variables: an
//! over-approximation, so `unsat` stays sound and `sat` has to be confirmed by evaluation.

use crate::simplex::TVar;
use crate::solver::SmtSolver;
use cove_logic::{Op, Rational, Sort, TermId, TermStore, linearize};
use cove_sat::{GuardId, Lit};

impl SmtSolver {
    /// A fresh SAT variable's positive literal.
    pub(crate) fn fresh_lit(&mut self) -> Lit {
        let v = self.sat.new_var();
        if let Some(g) = self.enc.scope {
            self.sat.guard_new_var(v, g);
        }
        Lit::new(v, false)
    }

    /// `l`, a variable shared between assertions, is used under the current scope: it is
    /// relevant when any of its users' guards is on (or always, after an unguarded use).
    fn share(&mut self, l: Lit) {
        match self.enc.scope {
            Some(g) => self.sat.add_var_guard(l.var(), g),
            None => self.sat.unguard_var(l.var()),
        }
    }

    /// Runs `f` outside any guard scope: arithmetic definitions (`ite`, `div`, `mod`,
    /// `to_int`, `abs`) are cached for every later use, so their clauses and atoms must
    /// always be decided.
    fn unscoped<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.enc.scope.take();
        let r = f(self);
        self.enc.scope = saved;
        r
    }

    /// Asserts the valid fact `t` permanently (unscoped, in no frame): the facts of a
    /// theory reduction and refinement lemmas, which hold whatever the assertions.
    pub(crate) fn assert_fact(&mut self, store: &mut TermStore, t: TermId) {
        let saved = self.enc.scope.take();
        let l = self.lit_of(store, t);
        self.enc.scope = saved;
        self.sat.add_clause(&[l]);
    }

    pub(crate) fn clause(&mut self, lits: &[Lit]) {
        self.sat.add_clause(lits);
    }

    /// The literal of a simplified Bool term.
    pub(crate) fn lit_of(&mut self, store: &mut TermStore, t: TermId) -> Lit {
        if !self.enc.in_prepass && !self.bool_encoded(t, self.enc.scope) {
            self.prepass(store, t);
        }
        self.lit_of_here(store, t)
    }

    /// Whether `lit_of(t)` under `scope` is a cache hit.
    fn bool_encoded(&self, t: TermId, scope: Option<GuardId>) -> bool {
        self.enc.lits.contains_key(&t)
            || scope.is_some_and(|g| self.enc.scoped.contains_key(&(g, t)))
    }

    /// Encodes the subterms `lit_of(t)` will ask for, deepest first, with an explicit stack
    /// and each in the scope the encoding gives it (arithmetic atoms are unscoped). The
    /// encoding functions themselves recurse into subterms, but after this pass every such
    /// call is a cache hit, so the native stack stays shallow whatever the term depth.
    fn prepass(&mut self, store: &mut TermStore, root: TermId) {
        #[derive(Clone, Copy)]
        enum Item {
            Bool(TermId, Option<GuardId>),
            Arith(TermId),
            Floor(TermId),
        }
        let saved = self.enc.scope;
        self.enc.in_prepass = true;
        let mut stack = vec![(Item::Bool(root, saved), false)];
        let mut deps: Vec<Item> = Vec::new();
        while let Some((item, expanded)) = stack.pop() {
            let done = match item {
                Item::Bool(t, g) => self.bool_encoded(t, g),
                Item::Arith(t) => self.enc.tvars.contains_key(&t),
                Item::Floor(t) => self.enc.to_int.contains_key(&t),
            };
            if done {
                continue;
            }
            if expanded {
                match item {
                    Item::Bool(t, g) => {
                        self.enc.scope = g;
                        self.lit_of_here(store, t);
                    }
                    Item::Arith(t) => {
                        self.arith_var(store, t);
                    }
                    Item::Floor(t) => {
                        self.enc.scope = None;
                        self.floor_var(store, t);
                    }
                }
                continue;
            }
            stack.push((item, true));
            deps.clear();
            let atoms_of = |store: &TermStore, a: TermId, deps: &mut Vec<Item>| {
                for (atom, _) in linearize(store, a).terms {
                    deps.push(Item::Arith(atom));
                }
            };
            match item {
                Item::Bool(t, _) if crate::bv::Blaster::is_bv_atom(store, t) => {
                    // Bit-vector atoms are encoded unscoped; so are the Boolean leaves
                    // below them (like the conditions of arithmetic `ite`s).
                    for l in crate::bv::Blaster::leaves_below(store, t) {
                        deps.push(Item::Bool(l, None));
                    }
                }
                Item::Bool(t, g) => match store.op(t) {
                    Op::App(_) | Op::Forall(_) | Op::Exists(_) | Op::Var(_) | Op::Bool(_) => {}
                    _ => {
                        for &a in store.args(t) {
                            if store.sort(a) == Sort::Bool {
                                deps.push(Item::Bool(a, g));
                            } else {
                                atoms_of(store, a, &mut deps);
                            }
                        }
                        if matches!(store.op(t), Op::IsInt) {
                            deps.push(Item::Floor(store.args(t)[0]));
                        }
                    }
                },
                Item::Arith(t) => match store.op(t) {
                    Op::Ite => {
                        let args = store.args(t);
                        deps.push(Item::Bool(args[0], None));
                        atoms_of(store, args[1], &mut deps);
                        atoms_of(store, args[2], &mut deps);
                    }
                    Op::IntDiv | Op::Mod | Op::Abs => atoms_of(store, store.args(t)[0], &mut deps),
                    Op::ToInt => deps.push(Item::Floor(store.args(t)[0])),
                    _ => {}
                },
                Item::Floor(x) => atoms_of(store, x, &mut deps),
            }
            for &d in deps.iter().rev() {
                stack.push((d, false));
            }
        }
        self.enc.scope = saved;
        self.enc.in_prepass = false;
    }

    /// [`Self::lit_of`] without the pre-pass.
    fn lit_of_here(&mut self, store: &mut TermStore, t: TermId) -> Lit {
        if let Some(&l) = self.enc.lits.get(&t) {
            // Variables are shared by every assertion; Tseitin literals in this cache were
            // made outside any scope and are never guarded.
            self.share(l);
            self.note_array_use(store, t);
            return l;
        }
        // Variables, reads and array equalities are shared by every assertion (the array
        // check reads their values from `lits`).
        let is_var = match store.op(t) {
            Op::Var(_) | Op::Select => true,
            Op::Eq => store.sort(store.args(t)[0]).is_array(),
            _ => false,
        };
        match self.enc.scope {
            Some(g) if !is_var => {
                if let Some(&l) = self.enc.scoped.get(&(g, t)) {
                    return l;
                }
                let l = self.encode_bool(store, t);
                self.enc.scoped.insert((g, t), l);
                l
            }
            _ => {
                let l = self.encode_bool(store, t);
                self.enc.lits.insert(t, l);
                self.note_array_use(store, t);
                l
            }
        }
    }

    /// A read or array equality `t` is used by the assertion being encoded: its scope (and
    /// its array subterms') narrows to the current guard (see [`crate::array_scope`]).
    fn note_array_use(&mut self, store: &TermStore, t: TermId) {
        let arrayish = match store.op(t) {
            Op::Select => true,
            Op::Eq => store.sort(store.args(t)[0]).is_array(),
            _ => false,
        };
        if arrayish && self.enc.registering == 0 {
            let scope = self.current_scope();
            self.note_use(store, t, &scope);
        }
    }

    /// Registers array terms with nested uses not recorded (the outer use's walk reaches
    /// them with the right scope).
    pub(crate) fn registering<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.enc.registering += 1;
        let r = self.unscoped(f);
        self.enc.registering -= 1;
        r
    }

    fn encode_bool(&mut self, store: &mut TermStore, t: TermId) -> Lit {
        let term = store.get(t).clone();
        let args = &term.args;
        match &term.op {
            Op::Bool(b) => {
                if *b {
                    self.true_lit
                } else {
                    !self.true_lit
                }
            }
            Op::Var(_) => self.fresh_lit(),
            Op::Not => {
                let a = self.lit_of(store, args[0]);
                !a
            }
            Op::And | Op::Or => {
                let lits: Vec<Lit> = args.iter().map(|&a| self.lit_of(store, a)).collect();
                let is_and = term.op == Op::And;
                // Encode or as the dual of and: or(a) = not and(not a).
                let ins: Vec<Lit> = if is_and {
                    lits
                } else {
                    lits.iter().map(|&l| !l).collect()
                };
                let v = self.fresh_lit();
                let mut big = vec![v];
                for &a in &ins {
                    self.clause(&[!v, a]);
                    big.push(!a);
                }
                self.clause(&big);
                if is_and { v } else { !v }
            }
            Op::Implies => {
                let a = self.lit_of(store, args[0]);
                let b = self.lit_of(store, args[1]);
                let v = self.fresh_lit();
                self.clause(&[!v, !a, b]);
                self.clause(&[v, a]);
                self.clause(&[v, !b]);
                v
            }
            Op::Xor => {
                let a = self.lit_of(store, args[0]);
                let b = self.lit_of(store, args[1]);
                !self.iff(a, b)
            }
            Op::Select => {
                let l = self.fresh_lit();
                self.registering(|s| s.register_read(store, t));
                l
            }
            Op::Eq if store.sort(args[0]).is_array() => {
                let l = self.fresh_lit();
                self.registering(|s| s.register_eq(store, t));
                l
            }
            _ if crate::bv::Blaster::is_bv_atom(store, t) => {
                self.unscoped(|s| s.bv_atom_lit(store, t))
            }
            Op::Eq if store.sort(args[0]) == Sort::Bool => {
                let a = self.lit_of(store, args[0]);
                let b = self.lit_of(store, args[1]);
                self.iff(a, b)
            }
            Op::Eq => {
                let (lin, c) = self.arith_diff(store, args[0], args[1]);
                self.eq_atom(&lin, &c)
            }
            Op::Distinct => {
                let mut neqs = Vec::new();
                for i in 0..args.len() {
                    for j in i + 1..args.len() {
                        let e = store.mk_eq(args[i], args[j]);
                        let l = self.lit_of(store, e);
                        neqs.push(!l);
                    }
                }
                let v = self.fresh_lit();
                let mut big = vec![v];
                for &n in &neqs {
                    self.clause(&[!v, n]);
                    big.push(!n);
                }
                self.clause(&big);
                v
            }
            Op::Ite => {
                let c = self.lit_of(store, args[0]);
                let a = self.lit_of(store, args[1]);
                let b = self.lit_of(store, args[2]);
                let v = self.fresh_lit();
                self.clause(&[!v, !c, a]);
                self.clause(&[!v, c, b]);
                self.clause(&[v, !c, !a]);
                self.clause(&[v, c, !b]);
                self.clause(&[!a, !b, v]);
                self.clause(&[a, b, !v]);
                v
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                // a op b  ->  (a - b) op 0, as a bound on the form.
                let (lin, c) = self.arith_diff(store, args[0], args[1]);
                match term.op {
                    Op::Le => self.le_atom(&lin, &c, false),
                    Op::Lt => self.le_atom(&lin, &c, true),
                    Op::Ge => !self.le_atom(&lin, &c, true),
                    _ => !self.le_atom(&lin, &c, false),
                }
            }
            Op::IsInt => {
                // is_int(x) <-> x - to_int(x) <= 0 (it is always >= 0).
                let (mut lin, c) = self.arith_lin(store, args[0]);
                let w = self.unscoped(|s| s.floor_var(store, args[0]));
                lin.push((w, Rational::MINUS_ONE));
                self.le_atom(&lin, &c, false)
            }
            Op::App(_) | Op::Forall(_) | Op::Exists(_) => self.fresh_lit(),
            _ => unreachable!("arithmetic operator at Bool sort"),
        }
    }

    fn iff(&mut self, a: Lit, b: Lit) -> Lit {
        let v = self.fresh_lit();
        self.clause(&[!v, !a, b]);
        self.clause(&[!v, a, !b]);
        self.clause(&[v, a, b]);
        self.clause(&[v, !a, !b]);
        v
    }

    /// `a - b` as a linear form over simplex variables plus a constant.
    fn arith_diff(
        &mut self,
        store: &mut TermStore,
        a: TermId,
        b: TermId,
    ) -> (Vec<(TVar, Rational)>, Rational) {
        let (mut la, ca) = self.arith_lin(store, a);
        let (lb, cb) = self.arith_lin(store, b);
        la.extend(lb.into_iter().map(|(v, k)| (v, -k)));
        (la, ca - cb)
    }

    /// The linear form of an arithmetic term over simplex variables plus a constant.
    pub(crate) fn arith_lin(
        &mut self,
        store: &mut TermStore,
        t: TermId,
    ) -> (Vec<(TVar, Rational)>, Rational) {
        let sum = linearize(store, t);
        let mut lin = Vec::with_capacity(sum.terms.len());
        for (atom, k) in &sum.terms {
            let v = self.arith_var(store, *atom);
            lin.push((v, k.clone()));
        }
        (lin, sum.constant)
    }

    /// The simplex variable standing for a non-linear-structure arithmetic term.
    fn arith_var(&mut self, store: &mut TermStore, t: TermId) -> TVar {
        if let Some(&v) = self.enc.tvars.get(&t) {
            self.note_array_use(store, t);
            return v;
        }
        let v = if store.op(t) == &Op::Select {
            self.registering(|s| s.encode_arith_atom(store, t))
        } else {
            self.unscoped(|s| s.encode_arith_atom(store, t))
        };
        self.enc.tvars.insert(t, v);
        self.note_array_use(store, t);
        v
    }

    fn encode_arith_atom(&mut self, store: &mut TermStore, t: TermId) -> TVar {
        let term = store.get(t).clone();
        let is_int = term.sort == Sort::Int;
        let args = &term.args;
        match &term.op {
            Op::Var(_) => self.th.add_var(is_int),
            Op::Ite => {
                let c = self.lit_of(store, args[0]);
                let w = self.th.add_var(is_int);
                for (guard, branch) in [(!c, args[1]), (c, args[2])] {
                    let (mut lin, k) = self.arith_lin(store, branch);
                    // w - branch = 0
                    for e in lin.iter_mut() {
                        e.1 = -e.1.clone();
                    }
                    lin.push((w, Rational::ONE));
                    let eq = self.eq_atom(&lin, &-k);
                    self.clause(&[guard, eq]);
                }
                w
            }
            Op::IntDiv | Op::Mod => match store.as_num(args[1]).cloned() {
                Some(k) if !k.is_zero() => {
                    let (q, r) = self.div_mod(store, args[0], &k);
                    if term.op == Op::IntDiv { q } else { r }
                }
                _ => self.abstraction(is_int),
            },
            Op::Abs => {
                let (lin, c) = self.arith_lin(store, args[0]);
                let w = self.th.add_var(is_int);
                // nonneg <-> x >= 0  <->  not (x < 0)
                let nonneg = !self.le_atom(&lin, &c, true);
                let mut pos = vec![(w, Rational::ONE)];
                pos.extend(lin.iter().map(|(v, k)| (*v, -k.clone())));
                let e1 = self.eq_atom(&pos, &-c.clone());
                let mut neg = vec![(w, Rational::ONE)];
                neg.extend(lin.iter().cloned());
                let e2 = self.eq_atom(&neg, &c);
                self.clause(&[!nonneg, e1]);
                self.clause(&[nonneg, e2]);
                w
            }
            Op::ToInt => self.floor_var(store, args[0]),
            Op::Mul => {
                // A nonlinear product: abstracted, refined on candidates (`nonlinear.rs`).
                let w = self.abstraction(is_int);
                self.enc.tvars.insert(t, w);
                self.nl_register(store, t);
                w
            }
            Op::Bv(cove_logic::BvOp::ToNat) => self.bv_to_nat(store, args[0]),
            Op::Select => {
                let v = self.abstraction(is_int);
                self.enc.tvars.insert(t, v);
                self.register_read(store, t);
                v
            }
            _ => self.abstraction(is_int),
        }
    }

    /// A fresh unconstrained variable for a term outside the fragment.
    fn abstraction(&mut self, is_int: bool) -> TVar {
        self.th.add_var(is_int)
    }

    /// `w = to_int(x)`: `w <= x < w + 1`.
    fn floor_var(&mut self, store: &mut TermStore, x: TermId) -> TVar {
        if let Some(&w) = self.enc.to_int.get(&x) {
            return w;
        }
        let (lin, c) = self.arith_lin(store, x);
        let w = self.th.add_var(true);
        // w - x <= 0
        let mut a = vec![(w, Rational::ONE)];
        a.extend(lin.iter().map(|(v, k)| (*v, -k.clone())));
        let l1 = self.le_atom(&a, &-c.clone(), false);
        // x - w - 1 < 0
        let mut b = vec![(w, Rational::MINUS_ONE)];
        b.extend(lin.iter().cloned());
        let l2 = self.le_atom(&b, &(c - Rational::ONE), true);
        self.clause(&[l1]);
        self.clause(&[l2]);
        self.enc.to_int.insert(x, w);
        w
    }

    /// `x = k·q + r`, `0 <= r <= |k| - 1` with fresh integers `q`, `r`.
    fn div_mod(&mut self, store: &mut TermStore, x: TermId, k: &Rational) -> (TVar, TVar) {
        if let Some(&qr) = self.enc.div_mod.get(&(x, k.clone())) {
            return qr;
        }
        let (lin, c) = self.arith_lin(store, x);
        let q = self.th.add_var(true);
        let r = self.th.add_var(true);
        // x - k q - r = 0
        let mut e = lin.clone();
        e.push((q, -k.clone()));
        e.push((r, Rational::MINUS_ONE));
        let eq = self.eq_atom(&e, &c);
        self.clause(&[eq]);
        let lo = !self.le_atom(&[(r, Rational::ONE)], &Rational::ZERO, true);
        let hi = self.le_atom(&[(r, Rational::ONE)], &(Rational::ONE - k.abs()), false);
        self.clause(&[lo]);
        self.clause(&[hi]);
        self.enc.div_mod.insert((x, k.clone()), (q, r));
        (q, r)
    }

    /// The literal of `Σ lin + c ≤ 0` (`< 0` when `strict`).
    pub(crate) fn le_atom(&mut self, lin: &[(TVar, Rational)], c: &Rational, strict: bool) -> Lit {
        let sat = &mut self.sat;
        let scope = self.enc.scope;
        let mut created = false;
        let res = self.th.form_atom(lin, true, &-c.clone(), strict, &mut || {
            created = true;
            let v = sat.new_var();
            if let Some(g) = scope {
                sat.guard_new_var(v, g);
            }
            v
        });
        match res {
            Ok(l) => {
                if !created {
                    self.share(l);
                }
                l
            }
            Err(true) => self.true_lit,
            Err(false) => !self.true_lit,
        }
    }

    /// The literal of `Σ lin + c = 0`: the conjunction of two bound atoms.
    pub(crate) fn eq_atom(&mut self, lin: &[(TVar, Rational)], c: &Rational) -> Lit {
        let le = self.le_atom(lin, c, false);
        let neg: Vec<(TVar, Rational)> = lin.iter().map(|(v, k)| (*v, -k.clone())).collect();
        let ge = self.le_atom(&neg, &-c.clone(), false);
        if le == self.true_lit {
            return ge;
        }
        if ge == self.true_lit {
            return le;
        }
        if le == !self.true_lit || ge == !self.true_lit {
            return !self.true_lit;
        }
        let v = self.fresh_lit();
        self.clause(&[!v, le]);
        self.clause(&[!v, ge]);
        self.clause(&[v, !le, !ge]);
        v
    }
}
