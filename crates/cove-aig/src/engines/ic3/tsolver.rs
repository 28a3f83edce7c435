//! One incremental solver holding a copy of the transition relation: the frame solvers of
//! IC3 (with their lemmas) and the lifting solver.
//!
//! Temporary clauses (the negated cube of a relative-induction query, the negated target of
//! a lifting query) carry an activation literal; after the query the literal is fixed to
//! false, which turns the clause into a satisfied one that the SAT core removes at level 0.
//! The dead activation variables stay, so a solver is rebuilt once it has too many.
//!
//! **Decision domain** (frame solvers; GipSAT's observation, Su et al. 2025): a query
//! needs decisions only on the latches and inputs its answer can depend on. Branching is on
//! latches and inputs only (gates follow by propagation); a frame solver further restricts it
//! to the *pinned* leaves — latches of lemmas and initial units, leaves of the constraints —
//! plus, per query, the leaves of the cones of the assumed next-state functions, the bad
//! literal, and the query cube's own latches ([`TSolver::focus`]). Every clause that is not
//! a gate definition is over pinned or focused variables, so an assignment of those that
//! satisfies them extends to a model whatever the other leaves are (their gates are
//! definitions, computed forward): `Sat` answers stay exact, and reading an unassigned leaf
//! as false (as the models are read) gives one such extension. Without it, every leaf of
//! every cone a frame solver ever loaded was decided in every query, and the propagation of
//! those decisions through the whole loaded circuit dominated IC3's time (`cal128`: ~4,000
//! propagations per query).

use super::Cube;
use super::gates::{Gate, Shapes};
use crate::cnf::false_lit;
use crate::{ALit, Aig};
use cove_sat::{Config, Lit, Solver};

/// Frame solvers restrict each query to its domain only on designs with at least this many
/// and gates (after reduction). The restriction pays where a query's cones are a small part
/// of a large loaded circuit (`cal128`, 25.9k ands: 0.38 instead of 1.66 ms per query,
/// proved in 13.5 s instead of unknown at 30 s) and changed the search for the worse on
/// smaller designs with counterexamples (`frogs.2`, 8.5k ands: 0.2 s to 7.9 s;
/// `telephony.6`, 4.5k: 3.5 s to unknown; `rether.4`, 8.0k: 2.0 s to 4.9 s). The bound sits
/// between the two groups of this sample (docs/decisions.md#ic3-domain-restriction). A switch on
/// measured query cost does not separate them (same decision): over the first 256 frame queries
/// `cal128` averages 3.5k propagations, `frogs.2` 7.4k and `rether.4` 4.1k — the designs it hurts
/// have queries as expensive as the one it helps, because what hurts them is the restricted
/// search's order, not its cost.
pub const DOMAIN_MIN_ANDS: usize = 16_384;

/// A solver with the transition relation `T(s, i, s')` (primed latches as fresh variables).
///
/// The relation is encoded lazily, cone by cone: a query loads only the gates in the
/// combinational cone of the next-state functions it mentions (and of the constraints and,
/// when asked, the bad property), as ABC's PDR does. Gates that no clause refers to are pure
/// definitions, so leaving them out changes no answer over the loaded variables, while large
/// designs stop paying for their whole circuit in every query.
pub(super) struct TSolver {
    pub s: Solver,
    /// Current-state literal per latch.
    pub state: Vec<Lit>,
    /// Input literals.
    pub inputs: Vec<Lit>,
    /// The constraint literals (current state and inputs).
    pub constraints: Vec<Lit>,
    /// SAT literal per AIG variable, once encoded (nodes folded into a larger gate never are).
    map: Vec<Option<Lit>>,
    /// How each and gate is encoded.
    shapes: Shapes,
    /// Next-state literal per latch, once encoded.
    next: Vec<Option<Lit>>,
    bad: Option<Lit>,
    /// Latch index of each primed variable (by SAT variable index), `u32::MAX` elsewhere.
    next_latch: Vec<u32>,
    /// Latch index of each current-state variable.
    state_latch: Vec<u32>,
    /// Activation literals released so far.
    pub dead: usize,
    /// Per SAT variable below `leaves_end`: whether it is a latch or input not yet made a
    /// decision variable for good (not *pinned*).
    dormant: Vec<bool>,
    /// Restrict decisions to the pinned leaves and the focus of each query (see the module
    /// doc); otherwise any leaf a clause mentions is a decision variable.
    restrict: bool,
    /// With `restrict`, also restrict *decisions* to the pinned and focused leaves (on; the
    /// configuration of docs/decisions.md#ic3-domain-restriction). Off (every mentioned leaf
    /// decided, propagation still in the domain) was tried on three designs, IC3 alone: `frogs.2`
    /// 4.9 s instead of 7.3 s, `telephony.6` unknown in both, `cal128` 13.9 s in both —
    /// the unsafe designs' slowdown against the unrestricted solver (0.3 s, 3.9 s) comes
    /// from the propagation domain's different search, not from the decisions.
    focus_decisions: bool,
    /// Per latch: the leaf variables (SAT indices) of the cone of its next-state function,
    /// once encoded.
    next_leaves: Vec<Vec<u32>>,
    /// The leaf variables of the bad literal's cone, once encoded.
    bad_leaves: Vec<u32>,
    /// Per latch: the gate variables (and the primed variable) of its next-state cone.
    next_gates: Vec<Vec<u32>>,
    /// The gate variables of the bad literal's cone.
    bad_gates: Vec<u32>,
    /// Gate variables put in the propagation domain for the current query.
    dom: Vec<u32>,
    /// Per SAT variable: in the propagation domain for good (constraint cones).
    perm_dom: Vec<bool>,
    /// Dormant leaves made decision variables for the current query only.
    focused: Vec<u32>,
    /// Per SAT variable below `leaves_end`: whether it is in `focused`.
    in_focus: Vec<bool>,
    /// Stamp array over AIG variables for cone walks.
    seen: Vec<u32>,
    stamp: u32,
}

impl TSolver {
    /// A fresh solver; with `hard_constraints` the constraints hold in every model and the
    /// solver is a frame solver: decisions are restricted per query (see the module doc,
    /// [`TSolver::focus`]).
    pub fn new(aig: &Aig, hard_constraints: bool) -> TSolver {
        let restrict = hard_constraints && aig.ands.len() >= DOMAIN_MIN_ANDS;
        TSolver::with_domain(aig, hard_constraints, restrict)
    }

    /// [`TSolver::new`] with the per-query domain restriction chosen by the caller (it
    /// needs `hard_constraints`).
    pub fn with_domain(aig: &Aig, hard_constraints: bool, restrict: bool) -> TSolver {
        debug_assert!(hard_constraints || !restrict);
        // One unit per query disables its temporary clause: clean up lazily.
        let mut config = Config::default();
        config.lazy_simplify = true;
        let mut s = Solver::with_config(config);
        let fls = false_lit(&mut s);
        let mut map = vec![None; aig.max_var as usize + 1];
        map[0] = Some(fls);
        let state: Vec<Lit> = aig
            .latches
            .iter()
            .map(|l| {
                let x = Lit::new(s.new_var(), false);
                map[l.var as usize] = Some(x);
                x
            })
            .collect();
        let inputs: Vec<Lit> = aig
            .inputs
            .iter()
            .map(|&v| {
                let x = Lit::new(s.new_var(), false);
                map[v as usize] = Some(x);
                x
            })
            .collect();
        // Latches and inputs start as non-decision variables and become decision variables
        // once a clause mentions them: a model need not assign the rest of a large design.
        let dormant = vec![true; s.num_vars()];
        let n_leaves = s.num_vars();
        for v in 1..s.num_vars() {
            s.set_decision_var(cove_sat::Var(v as u32), false);
        }
        let mut state_latch = vec![u32::MAX; s.num_vars()];
        for (i, p) in state.iter().enumerate() {
            state_latch[p.var().index()] = i as u32;
        }
        let mut t = TSolver {
            s,
            state,
            inputs,
            constraints: Vec::new(),
            map,
            shapes: Shapes::new(aig),
            next: vec![None; aig.latches.len()],
            bad: None,
            next_latch: Vec::new(),
            state_latch,
            dead: 0,
            dormant,
            restrict,
            focus_decisions: true,
            next_leaves: vec![Vec::new(); aig.latches.len()],
            bad_leaves: Vec::new(),
            next_gates: vec![Vec::new(); aig.latches.len()],
            bad_gates: Vec::new(),
            dom: Vec::new(),
            perm_dom: Vec::new(),
            focused: Vec::new(),
            in_focus: vec![false; n_leaves],
            seen: vec![0; aig.max_var as usize + 1],
            stamp: 0,
        };
        t.constraints = aig.constraints.iter().map(|&c| t.encode(aig, c)).collect();
        if hard_constraints {
            for c in t.constraints.clone() {
                t.s.add_clause(&[c]);
            }
        }
        if restrict {
            // Constraint clauses are not definitions: their leaves are decided always and
            // their gates propagate always.
            let cs = aig.constraints.clone();
            let (leaves, gates) = t.cone_vars(aig, &cs);
            for x in leaves {
                t.wake(Lit::new(cove_sat::Var(x), false));
            }
            t.perm_dom = vec![false; t.s.num_vars()];
            for g in gates {
                t.perm_dom[g as usize] = true;
                t.s.set_in_domain(cove_sat::Var(g), true);
            }
            t.s.restrict_propagation(true);
        }
        t
    }

    /// The leaf and gate variables (SAT indices) of the cones of `roots`.
    fn cone_vars(&mut self, aig: &Aig, roots: &[ALit]) -> (Vec<u32>, Vec<u32>) {
        self.stamp += 1;
        let stamp = self.stamp;
        let (mut leaves, mut gates) = (Vec::new(), Vec::new());
        let mut stack: Vec<u32> = roots.iter().map(|&l| l >> 1).collect();
        while let Some(v) = stack.pop() {
            if v == 0 || self.seen[v as usize] == stamp {
                continue;
            }
            self.seen[v as usize] = stamp;
            match self.shapes.and_of(aig, v) {
                Some(a) => {
                    stack.push(a.rhs0 >> 1);
                    stack.push(a.rhs1 >> 1);
                    // Folded nodes have no variable of their own.
                    if let Some(x) = self.map[v as usize] {
                        gates.push(x.var().0);
                    }
                }
                None => {
                    if let Some(x) = self.map[v as usize] {
                        leaves.push(x.var().0);
                    }
                }
            }
        }
        (leaves, gates)
    }

    /// Makes the leaves a query about `cube` (primed, with `¬cube` possibly as a temporary
    /// clause) and, with `bad`, about the bad literal depends on decision variables until
    /// the next focus; drops the previous focus. No effect unless decisions are restricted.
    pub fn focus(&mut self, cube: &Cube, bad: bool) {
        if !self.restrict {
            return;
        }
        for v in std::mem::take(&mut self.focused) {
            self.in_focus[v as usize] = false;
            if self.dormant[v as usize] {
                self.s.set_decision_var(cove_sat::Var(v), false);
            }
        }
        for g in std::mem::take(&mut self.dom) {
            if !self.perm_dom.get(g as usize).copied().unwrap_or(false) {
                self.s.set_in_domain(cove_sat::Var(g), false);
            }
        }
        for &c in cube {
            let i = (c >> 1) as usize;
            for k in 0..self.next_gates[i].len() {
                let g = self.next_gates[i][k];
                self.s.set_in_domain(cove_sat::Var(g), true);
                self.dom.push(g);
            }
        }
        if bad {
            for k in 0..self.bad_gates.len() {
                let g = self.bad_gates[k];
                self.s.set_in_domain(cove_sat::Var(g), true);
                self.dom.push(g);
            }
        }
        if !self.focus_decisions {
            return;
        }
        let add = |t: &mut TSolver, v: u32| {
            if t.dormant[v as usize] && !t.in_focus[v as usize] {
                t.in_focus[v as usize] = true;
                t.s.set_decision_var(cove_sat::Var(v), true);
                t.focused.push(v);
            }
        };
        for &c in cube {
            let i = (c >> 1) as usize;
            add(self, self.state[i].var().0);
            for k in 0..self.next_leaves[i].len() {
                let v = self.next_leaves[i][k];
                add(self, v);
            }
        }
        if bad {
            for k in 0..self.bad_leaves.len() {
                let v = self.bad_leaves[k];
                add(self, v);
            }
        }
    }

    /// The SAT literal of AIG literal `l`, encoding its cone first (explicit stack), one
    /// [`Gate`] shape per encoded node.
    fn encode(&mut self, aig: &Aig, l: ALit) -> Lit {
        let mut stack = vec![l >> 1];
        while let Some(&v) = stack.last() {
            if self.map[v as usize].is_some() {
                stack.pop();
                continue;
            }
            let gate = self.shapes.gate(aig, v);
            let leaves = gate.leaves();
            let before = stack.len();
            stack.extend(
                leaves
                    .iter()
                    .map(|&x| x >> 1)
                    .filter(|&u| self.map[u as usize].is_none()),
            );
            if stack.len() > before {
                continue;
            }
            stack.pop();
            let ls: Vec<Lit> = leaves.iter().map(|&x| self.aig_lit(x)).collect();
            if !self.restrict || !self.focus_decisions {
                for &x in &ls {
                    self.wake(x);
                }
            }
            let g = Lit::new(self.s.new_var(), false);
            // Branch on inputs and latches only: the gates follow by propagation.
            self.s.set_decision_var(g.var(), false);
            if self.restrict {
                self.s.set_in_domain(g.var(), false);
            }
            match gate {
                Gate::And(_) => {
                    let mut big = Vec::with_capacity(ls.len() + 1);
                    big.push(g);
                    for &x in &ls {
                        self.s.add_clause(&[!g, x]);
                        big.push(!x);
                    }
                    self.s.add_clause(&big);
                    self.map[v as usize] = Some(g);
                }
                Gate::NegIte(..) => {
                    // g ↔ ite(s, a, b); the node is ¬g.
                    let (s, a, b) = (ls[0], ls[1], ls[2]);
                    self.s.add_clause(&[!s, !a, g]);
                    self.s.add_clause(&[!s, a, !g]);
                    self.s.add_clause(&[s, !b, g]);
                    self.s.add_clause(&[s, b, !g]);
                    // Redundant, but let `a = b` decide `g` without `s`.
                    self.s.add_clause(&[!a, !b, g]);
                    self.s.add_clause(&[a, b, !g]);
                    self.map[v as usize] = Some(!g);
                }
            }
        }
        let x = self.aig_lit(l);
        if !self.restrict || !self.focus_decisions {
            self.wake(x);
        }
        x
    }

    /// Makes `l`'s variable a decision variable if it is a dormant latch or input.
    #[inline]
    fn wake(&mut self, l: Lit) {
        let v = l.var().index();
        if v < self.dormant.len() && self.dormant[v] {
            self.dormant[v] = false;
            self.s.set_decision_var(l.var(), true);
        }
    }

    /// Whether a clause mentions `l`'s variable (latches and inputs start dormant).
    #[inline]
    pub fn is_live(&self, l: Lit) -> bool {
        !self.dormant.get(l.var().index()).copied().unwrap_or(false)
    }

    fn aig_lit(&self, l: ALit) -> Lit {
        let x = self.map[(l >> 1) as usize].expect("encoded");
        if l & 1 == 1 { !x } else { x }
    }

    /// Encodes the next-state functions of the latches of `cube`.
    pub fn ensure_next(&mut self, aig: &Aig, cube: &Cube) {
        for &c in cube {
            let i = (c >> 1) as usize;
            if self.next[i].is_none() {
                let n = self.encode(aig, aig.latches[i].next);
                let p = Lit::new(self.s.new_var(), false);
                self.s.add_clause(&[!p, n]);
                self.s.add_clause(&[p, !n]);
                self.s.set_decision_var(p.var(), false);
                if self.next_latch.len() <= p.var().index() {
                    self.next_latch.resize(p.var().index() + 1, u32::MAX);
                }
                self.next_latch[p.var().index()] = i as u32;
                self.next[i] = Some(p);
                if self.restrict {
                    self.s.set_in_domain(p.var(), false);
                    let (leaves, mut gates) = self.cone_vars(aig, &[aig.latches[i].next]);
                    gates.push(p.var().0);
                    self.next_leaves[i] = leaves;
                    self.next_gates[i] = gates;
                }
            }
        }
    }

    /// The bad literal (current state and inputs), encoded on first use.
    pub fn bad(&mut self, aig: &Aig) -> Lit {
        match self.bad {
            Some(b) => b,
            None => {
                let b = self.encode(aig, aig.bad[0]);
                self.bad = Some(b);
                if self.restrict {
                    let (leaves, gates) = self.cone_vars(aig, &[aig.bad[0]]);
                    self.bad_leaves = leaves;
                    self.bad_gates = gates;
                }
                b
            }
        }
    }

    /// Adds a unit clause over a latch or input.
    pub fn add_unit(&mut self, l: Lit) {
        self.wake(l);
        self.s.add_clause(&[l]);
    }

    /// The current-state literal of cube literal `c` (`2 * latch + negated`).
    #[inline]
    pub fn lit(&self, c: u32) -> Lit {
        let x = self.state[(c >> 1) as usize];
        if c & 1 == 1 { !x } else { x }
    }

    /// The next-state literal of cube literal `c`.
    #[inline]
    pub fn plit(&self, c: u32) -> Lit {
        let x = self.next[(c >> 1) as usize].expect("next state encoded");
        if c & 1 == 1 { !x } else { x }
    }

    /// The cube literal of a next-state SAT literal (`None` for other literals).
    pub fn cube_lit_of_next(&self, l: Lit) -> Option<u32> {
        match self.next_latch.get(l.var().index()) {
            Some(&i) if i != u32::MAX => Some(2 * i + l.is_neg() as u32),
            _ => None,
        }
    }

    /// The cube literals (sorted, distinct) of the next-state assumptions in the last
    /// query's unsat core.
    pub fn next_core(&self) -> Vec<u32> {
        let mut core: Vec<u32> = self
            .s
            .failed_assumptions()
            .iter()
            .filter_map(|&l| self.cube_lit_of_next(l))
            .collect();
        core.sort_unstable();
        core.dedup();
        core
    }

    /// The cube literal of a current-state SAT literal.
    pub fn cube_lit_of_state(&self, l: Lit) -> Option<u32> {
        match self.state_latch.get(l.var().index()) {
            Some(&i) if i != u32::MAX => Some(2 * i + l.is_neg() as u32),
            _ => None,
        }
    }

    /// Adds the lemma `¬cube` over current-state variables.
    pub fn add_lemma(&mut self, cube: &Cube) {
        let cl: Vec<Lit> = cube.iter().map(|&c| !self.lit(c)).collect();
        for &l in &cl {
            self.wake(l);
        }
        self.s.add_clause(&cl);
    }

    /// Adds `act → ∨ lits` with a fresh activation literal `act`, returned.
    pub fn temp_clause(&mut self, lits: &[Lit]) -> Lit {
        let act = Lit::new(self.s.new_var(), false);
        let mut cl = Vec::with_capacity(lits.len() + 1);
        cl.push(!act);
        cl.extend_from_slice(lits);
        // Restricted: the query's focus covers the clause (its cube's latches).
        if !self.restrict || !self.focus_decisions {
            for &l in lits {
                self.wake(l);
            }
        }
        self.s.add_clause(&cl);
        act
    }

    /// Disables a temporary clause for good.
    pub fn release(&mut self, act: Lit) {
        self.s.add_clause(&[!act]);
        self.dead += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_aiger;

    /// A random combinational AIG (as `aag` text) over `n_in` inputs with about `n_and`
    /// gates: each gate picks two earlier literals, and now and then three gates form a
    /// multiplexer `¬(s ∧ a) ∧ ¬(¬s ∧ b)`; the last three gates are the outputs, so most
    /// inner gates have one fanout (chains) and some have more (shared nodes).
    fn random_aag(seed: u64, n_in: u32, n_and: u32) -> String {
        let mut x = seed.wrapping_mul(6364136223846793005) ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % u64::from(m)) as u32
        };
        let mut ands: Vec<(u32, u32, u32)> = Vec::new();
        while (ands.len() as u32) < n_and {
            let v = n_in + 1 + ands.len() as u32;
            let mux = next(3) == 0;
            let mut pick = || 2 * (1 + next(v - 1)) + next(2);
            if mux {
                let (s, a, b) = (pick(), pick(), pick());
                let s = s & !1;
                ands.push((2 * v, s, a));
                ands.push((2 * v + 2, s ^ 1, b));
                ands.push((2 * v + 4, 2 * v + 1, 2 * v + 3));
            } else {
                let (a, b) = (pick(), pick());
                ands.push((2 * v, a, b));
            }
        }
        let n = ands.len() as u32;
        let mut s = format!("aag {} {n_in} 0 3 {n}\n", n_in + n);
        for i in 1..=n_in {
            s += &format!("{}\n", 2 * i);
        }
        for g in n - 3..n {
            s += &format!("{}\n", 2 * (n_in + 1 + g) + (g % 2));
        }
        for (v, a, b) in ands {
            s += &format!("{v} {a} {b}\n");
        }
        s
    }

    fn eval(aig: &Aig, inputs: &[bool], l: ALit) -> bool {
        crate::lit_val(&aig.eval_step(&[], inputs), l)
    }

    #[test]
    fn compact_encoding_agrees_with_simulation() {
        // Hand-made multiplexers and chains first, then random circuits.
        let mux = "aag 9 4 0 2 5\n2\n4\n6\n8\n15\n18\n10 2 4\n12 3 6\n14 11 13\n16 4 6\n18 16 8\n";
        let aig = parse_aiger(mux.as_bytes()).expect("valid aag");
        let mut t = TSolver::new(&aig, false);
        for &o in &aig.outputs {
            t.encode(&aig, o);
        }
        // The false literal, 4 inputs, one variable per multiplexer and per 3-input AND (not
        // one per and gate: 5).
        assert_eq!(t.s.num_vars(), 1 + 4 + 2);
        let mut srcs = vec![mux.to_string()];
        srcs.extend((0..60).map(|seed| random_aag(seed, 4, 14)));
        for src in srcs {
            let aig = parse_aiger(src.as_bytes()).expect("valid aag");
            for (oi, &out) in aig.outputs.iter().enumerate() {
                let mut t = TSolver::new(&aig, false);
                let o = t.encode(&aig, out);
                for m in 0..(1u32 << aig.inputs.len()) {
                    let inp: Vec<bool> = (0..aig.inputs.len()).map(|i| m >> i & 1 == 1).collect();
                    let assumps: Vec<Lit> = t
                        .inputs
                        .iter()
                        .zip(&inp)
                        .map(|(&l, &b)| if b { l } else { !l })
                        .collect();
                    assert_eq!(t.s.solve(&assumps), cove_sat::SolveResult::Sat);
                    let want = eval(&aig, &inp, out);
                    let got = t.s.value(o) == cove_sat::LBool::True;
                    assert_eq!(got, want, "output {oi} of\n{src}\ninputs {inp:?}");
                }
            }
        }
    }

    /// The state and inputs of a `Sat` answer, unassigned leaves read as false.
    fn model(t: &TSolver) -> (Vec<bool>, Vec<bool>) {
        let val = |l: &Lit| t.s.value(*l) == cove_sat::LBool::True;
        (
            t.state.iter().map(val).collect(),
            t.inputs.iter().map(val).collect(),
        )
    }

    /// Whether `st, inp` satisfies the lemmas (cubes they exclude), the constraints, `¬cube`
    /// when `temp`, and leads into `cube` (or to a bad state when `cube` is `None`).
    fn fits(
        a: &Aig,
        st: &[bool],
        inp: &[bool],
        lemmas: &[Cube],
        cube: Option<&Cube>,
        temp: bool,
    ) -> bool {
        let vals = a.eval_step(st, inp);
        let in_cube =
            |c: &Cube, s: &[bool]| c.iter().all(|&x| s[(x >> 1) as usize] == (x & 1 == 0));
        let next: Vec<bool> = a
            .latches
            .iter()
            .map(|l| crate::lit_val(&vals, l.next))
            .collect();
        lemmas.iter().all(|d| !in_cube(d, st))
            && a.constraints.iter().all(|&c| crate::lit_val(&vals, c))
            && match cube {
                Some(c) => !(temp && in_cube(c, st)) && in_cube(c, &next),
                None => crate::lit_val(&vals, a.bad[0]),
            }
    }

    #[test]
    fn restricted_decisions_keep_answers_and_models_exact() {
        // Random sequential circuits with a constraint: a frame solver (decisions restricted
        // per query) answers each query as brute force does, and its models, with the
        // undecided leaves read as false, satisfy the query by simulation.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |m: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(m)) as u32
        };
        let (ni, nl, na) = (3u32, 6u32, 16u32);
        let (mut sats, mut unsats) = (0, 0);
        for _ in 0..60 {
            let maxv = ni + nl + na;
            let mut s = format!("aag {maxv} {ni} {nl} 1 {na}\n");
            for i in 1..=ni {
                s += &format!("{}\n", 2 * i);
            }
            for l in 0..nl {
                s += &format!("{} {}\n", 2 * (ni + 1 + l), 2 * (1 + rnd(maxv)) + rnd(2));
            }
            s += &format!("{}\n", 2 * (ni + nl + 1 + rnd(na)) + rnd(2));
            for g in 0..na {
                let v = ni + nl + 1 + g;
                let x = 2 * (1 + rnd(v - 1)) + rnd(2);
                let y = 2 * (1 + rnd(v - 1)) + rnd(2);
                s += &format!("{} {x} {y}\n", 2 * v);
            }
            let mut a = parse_aiger(s.as_bytes()).expect("valid aag");
            a.constraints = vec![2 * (ni + nl + 1 + rnd(na)) + rnd(2)];
            let mut t = TSolver::with_domain(&a, true, true);
            let mut lemmas: Vec<Cube> = Vec::new();
            for q in 0..8 {
                let mut cube: Cube = Vec::new();
                for i in 0..nl {
                    if rnd(3) == 0 {
                        cube.push(2 * i + rnd(2));
                    }
                }
                if cube.is_empty() {
                    cube.push(2 * rnd(nl));
                }
                let want = |lem: &[Cube], c: Option<&Cube>, temp: bool| {
                    (0..1u32 << (nl + ni)).any(|m| {
                        let st: Vec<bool> = (0..nl).map(|i| m >> i & 1 == 1).collect();
                        let inp: Vec<bool> = (0..ni).map(|i| m >> (nl + i) & 1 == 1).collect();
                        fits(&a, &st, &inp, lem, c, temp)
                    })
                };
                let (got, ctx) = if q % 4 == 3 {
                    let b = t.bad(&a);
                    t.focus(&Vec::new(), true);
                    (t.s.solve(&[b]) == cove_sat::SolveResult::Sat, None)
                } else {
                    t.ensure_next(&a, &cube);
                    t.focus(&cube, false);
                    let temp = q % 2 == 0;
                    let mut assumps: Vec<Lit> = cube.iter().map(|&c| t.plit(c)).collect();
                    let act = temp.then(|| {
                        let neg: Vec<Lit> = cube.iter().map(|&c| !t.lit(c)).collect();
                        t.temp_clause(&neg)
                    });
                    assumps.extend(act);
                    let r = t.s.solve(&assumps) == cove_sat::SolveResult::Sat;
                    let m = model(&t);
                    if let Some(act) = act {
                        t.release(act);
                    }
                    if r {
                        assert!(fits(&a, &m.0, &m.1, &lemmas, Some(&cube), temp), "{s}");
                    }
                    (r, Some((cube.clone(), temp)))
                };
                let expect = match &ctx {
                    Some((c, temp)) => want(&lemmas, Some(c), *temp),
                    None => want(&lemmas, None, false),
                };
                assert_eq!(got, expect, "{s}\nlemmas {lemmas:?} query {ctx:?}");
                if ctx.is_none() && got {
                    let m = model(&t);
                    assert!(fits(&a, &m.0, &m.1, &lemmas, None, false), "{s}");
                }
                if got {
                    sats += 1
                } else {
                    unsats += 1
                }
                // A random lemma over some latches.
                let mut d: Cube = Vec::new();
                for i in 0..nl {
                    if rnd(2) == 0 {
                        d.push(2 * i + rnd(2));
                    }
                }
                if !d.is_empty() && rnd(2) == 0 {
                    t.add_lemma(&d);
                    lemmas.push(d);
                }
            }
        }
        assert!(sats > 50 && unsats > 50, "{sats} sat, {unsats} unsat");
    }
}
