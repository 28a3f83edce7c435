//! Bit-vector atoms in the SMT core: blast, then Tseitin-encode the atom's cone.
//!
//! Every gate and every bit of a bit-vector variable gets an unguarded SAT variable: gate
//! definitions only name functions of their fanins, so (like arithmetic atoms) they are
//! permanent and shared by all assertions, scopes and checks.

use super::{Blaster, GLit, Node, var_of};
use crate::simplex::TVar;
use crate::solver::SmtSolver;
use cove_logic::{BvValue, Rational, Sort, TermId, TermStore, Value};
use cove_sat::{LBool, Lit};

/// The bit-vector part of the encoding state.
#[derive(Default)]
pub(crate) struct BvState {
    blaster: Option<Blaster>,
    /// SAT literal of each gate variable, once encoded.
    sat_of: Vec<Option<Lit>>,
    /// Whether a cone's encoding stopped at a limit and its root got a fresh literal.
    abstracted: bool,
}

impl BvState {
    fn blaster(&mut self) -> &mut Blaster {
        self.blaster.get_or_insert_with(Blaster::atoms)
    }
}

impl SmtSolver {
    /// The literal of a bit-vector atom (see [`Blaster::is_bv_atom`]), encoded unscoped.
    pub(crate) fn bv_atom_lit(&mut self, store: &mut TermStore, t: TermId) -> Lit {
        let poll = Some(self.limits.control.clone());
        self.bv.blaster().set_poll(poll);
        let g = self.bv.blaster().bool_lit(store, t);
        self.connect_leaves(store);
        self.gate_lit(g)
    }

    /// The SAT literals of the bits of the bit-vector term `t` (least significant first),
    /// encoded unscoped; for the array theory, which compares index and element values.
    pub(crate) fn bv_word(&mut self, store: &mut TermStore, t: TermId) -> Vec<Lit> {
        let poll = Some(self.limits.control.clone());
        self.bv.blaster().set_poll(poll);
        let bits = self.bv.blaster().word(store, t);
        self.connect_leaves(store);
        bits.into_iter().map(|g| self.gate_lit(g)).collect()
    }

    /// Gives the leaves made by the last blast their meaning: a Boolean leaf is the core's
    /// literal of that term, a bit-vector leaf gets fresh bits, and a bit-vector array read
    /// is registered with the array theory (which then constrains its bits).
    ///
    /// Bit-vector leaves are bound before the Boolean ones and before any read is
    /// registered: the literal of a Boolean leaf and the registration of a read can blast
    /// further terms and encode their cones, which may hold leaves of this batch (a Spacer
    /// query of a BTOR2 FIFO over arrays hit that as an internal error). A leaf met unbound
    /// there gets a literal of its own, tied to its meaning when it is bound (`bind`).
    fn connect_leaves(&mut self, store: &mut TermStore) {
        let leaves = self.bv.blaster().take_new_leaves();
        for &leaf in &leaves {
            if store.sort(leaf) != Sort::Bool {
                let bits = self.bv.blaster().bits(leaf).expect("leaf").to_vec();
                for b in bits {
                    let l = self.fresh_lit();
                    self.bind(b, l);
                }
            }
        }
        for &leaf in &leaves {
            if store.sort(leaf) == Sort::Bool {
                let l = self.lit_of(store, leaf);
                let gl = self.bv.blaster().bool_leaf(leaf).expect("leaf");
                self.bind(gl, l);
            }
        }
        for leaf in leaves {
            if store.op(leaf) == &cove_logic::Op::Select && store.sort(leaf) != Sort::Bool {
                self.registering(|s| s.register_read(store, leaf));
            }
            if store.op(leaf) == &cove_logic::Op::Bv(cove_logic::BvOp::OfInt) {
                self.bv_of_int(store, leaf);
            }
        }
    }

    /// The candidate value of a blasted bit-vector term (`None` while a bit is undecided).
    pub(crate) fn bv_cand_value(&self, t: TermId) -> Option<Value> {
        let bits = self.bv.blaster.as_ref()?.bits(t)?;
        let mut vals = Vec::with_capacity(bits.len());
        for &b in bits {
            vals.push(if var_of(b) == 0 {
                b == 1
            } else {
                match self.sat.value(self.sat_lit(b)?) {
                    LBool::True => true,
                    LBool::False => false,
                    LBool::Undef => return None,
                }
            });
        }
        Some(Value::Bv(BvValue::from_bits(&vals)))
    }

    /// `bv2nat(x)` as an integer variable `n = Σ 2^i·b_i` over 0/1 integers `b_i` that
    /// are the bits of `x`: exact, so the conversion needs no model check.
    pub(crate) fn bv_to_nat(&mut self, store: &mut TermStore, x: TermId) -> TVar {
        let bits = self.bv_word(store, x);
        let n = self.th.add_var(true);
        let mut lin = vec![(n, Rational::ONE)];
        self.minus_bits_value(&mut lin, &bits);
        let eq = self.eq_atom(&lin, &Rational::ZERO);
        self.clause(&[eq]);
        n
    }

    /// Gives the bits of the leaf `((_ nat2bv w) t)` their meaning: `t = 2^w·q + Σ 2^i·b_i`
    /// for an integer `q` and the 0/1 integers `b_i` of the leaf's bits (SMT-LIB: `nat2bv`
    /// is `t mod 2^w`, for negative `t` too).
    fn bv_of_int(&mut self, store: &mut TermStore, leaf: TermId) {
        let bits: Vec<Lit> = {
            let gs = self.bv.blaster().bits(leaf).expect("leaf").to_vec();
            gs.into_iter()
                .map(|g| self.sat_lit(g).expect("bound leaf bit"))
                .collect()
        };
        let arg = store.args(leaf)[0];
        let (mut lin, c) = self.arith_lin(store, arg);
        let weight = self.minus_bits_value(&mut lin, &bits);
        let q = self.th.add_var(true);
        lin.push((q, -weight));
        let eq = self.eq_atom(&lin, &c);
        self.clause(&[eq]);
    }

    /// Appends `−Σ 2^i·b_i` over 0/1 integers `b_i` equal to `bits` (least significant
    /// first) to `lin`; returns `2^w`.
    fn minus_bits_value(&mut self, lin: &mut Vec<(TVar, Rational)>, bits: &[Lit]) -> Rational {
        let mut weight = Rational::ONE;
        for &b in bits {
            let v = self.bit_as_int(b);
            lin.push((v, -weight.clone()));
            weight = &weight + &weight;
        }
        weight
    }

    /// A 0/1 integer variable equal to the literal `l` (1 when true).
    fn bit_as_int(&mut self, l: Lit) -> TVar {
        let v = self.th.add_var(true);
        let one = [(v, Rational::ONE)];
        let nonneg = !self.le_atom(&one, &Rational::ZERO, true);
        let at_most_one = self.le_atom(&one, &Rational::MINUS_ONE, false);
        let zero = self.le_atom(&one, &Rational::ZERO, false);
        self.clause(&[nonneg]);
        self.clause(&[at_most_one]);
        self.clause(&[l, zero]);
        self.clause(&[!l, !zero]);
        v
    }

    /// Whether the blaster abstracted a term because the limits were hit (every `sat`
    /// then needs a model check).
    pub(crate) fn bv_abstracted(&self) -> bool {
        self.bv.abstracted || self.bv.blaster.as_ref().is_some_and(|b| b.abstracted())
    }

    fn bind(&mut self, g: GLit, l: Lit) {
        let v = var_of(g) as usize;
        if self.bv.sat_of.len() <= v {
            self.bv.sat_of.resize(v + 1, None);
        }
        let l = if g & 1 == 1 { !l } else { l };
        match self.bv.sat_of[v] {
            // Met unbound while a nested encoding walked its cone (see `gate_lit`): the
            // literal it got there is made equal to its meaning.
            Some(x) if x != l => {
                self.sat.add_clause(&[!x, l]);
                self.sat.add_clause(&[x, !l]);
            }
            Some(_) => {}
            None => self.bv.sat_of[v] = Some(l),
        }
    }

    fn sat_lit(&self, g: GLit) -> Option<Lit> {
        let l = (*self.bv.sat_of.get(var_of(g) as usize)?)?;
        Some(if g & 1 == 1 { !l } else { l })
    }

    /// The SAT literal of gate literal `g`, encoding its cone (iteratively).
    fn gate_lit(&mut self, g: GLit) -> Lit {
        if var_of(g) == 0 {
            return if g == 1 {
                self.true_lit
            } else {
                !self.true_lit
            };
        }
        let n = self.bv.blaster().gates.num_vars();
        if self.bv.sat_of.len() < n {
            self.bv.sat_of.resize(n, None);
        }
        let mut stack = vec![(var_of(g), false)];
        let mut steps = 0u32;
        while let Some((v, expanded)) = stack.pop() {
            if self.bv.sat_of[v as usize].is_some() {
                continue;
            }
            steps += 1;
            if steps.is_multiple_of(4096) && self.limits.control.should_stop().is_some() {
                // Stopped with the cone half encoded: `g` gets a fresh, unconstrained
                // literal (an abstraction: `unsat` stays sound, every model is checked).
                // The gates encoded so far are kept; a later call finishes the cone.
                self.bv.abstracted = true;
                return self.fresh_lit();
            }
            let node = self.bv.blaster().gates.node(v);
            let Node::And(a, b) = node else {
                // A leaf of a batch whose meaning is being encoded (`connect_leaves`: the
                // literal of a Boolean leaf can need another blast, whose cone holds a leaf
                // of the same batch): a fresh literal now, tied to the leaf's meaning when
                // the batch binds it (`bind`).
                let x = self.fresh_lit();
                self.bv.sat_of[v as usize] = Some(x);
                continue;
            };
            if !expanded {
                stack.push((v, true));
                for c in [a, b] {
                    if var_of(c) == 0 {
                        continue;
                    }
                    if self.bv.sat_of[var_of(c) as usize].is_none() {
                        stack.push((var_of(c), false));
                    }
                }
                continue;
            }
            let lit = |s: &Self, c: GLit| -> Lit {
                if var_of(c) == 0 {
                    if c == 1 { s.true_lit } else { !s.true_lit }
                } else {
                    s.sat_lit(c).expect("fanin encoded")
                }
            };
            let (la, lb) = (lit(self, a), lit(self, b));
            let x = self.fresh_lit();
            self.sat.add_clause(&[!x, la]);
            self.sat.add_clause(&[!x, lb]);
            self.sat.add_clause(&[x, !la, !lb]);
            self.bv.sat_of[v as usize] = Some(x);
        }
        self.sat_lit(g).expect("encoded")
    }

    /// The value of the bit-vector variable term `t` in the SAT model (`None` if it was
    /// never blasted).
    pub(crate) fn bv_var_value(&self, t: TermId) -> Option<Value> {
        let bits = self.bv.blaster.as_ref()?.bits(t)?;
        let vals: Vec<bool> = bits
            .iter()
            .map(|&b| {
                self.sat_lit(b)
                    .is_some_and(|l| self.sat.value(l) == LBool::True)
            })
            .collect();
        Some(Value::Bv(BvValue::from_bits(&vals)))
    }
}
