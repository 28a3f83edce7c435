//! Tseitin encoding of an [`Aig`]'s combinational logic into a [`Solver`], one time frame
//! at a time (the building block of every engine and of the certificate checks).

use crate::{ALit, Aig};
use cove_sat::{Lit, Solver};

/// The SAT literals of one time frame, indexed by AIG variable.
#[derive(Clone, Debug)]
pub struct Frame {
    /// `map[v]`: the SAT literal of AIG variable `v` (index 0: a literal fixed to false).
    pub map: Vec<Lit>,
}

impl Frame {
    /// The SAT literal of AIG literal `l`.
    #[inline]
    pub fn lit(&self, l: ALit) -> Lit {
        let x = self.map[(l >> 1) as usize];
        if l & 1 == 1 { !x } else { x }
    }
}

/// A literal fixed to false in `s` (create once per solver).
pub fn false_lit(s: &mut Solver) -> Lit {
    let f = Lit::new(s.new_var(), false);
    s.add_clause(&[!f]);
    f
}

/// Encodes one frame of `aig`: inputs get fresh variables, latches get `latches` (fresh
/// variables when `None`), and every and gate a fresh variable with its three clauses.
pub fn encode_frame(s: &mut Solver, aig: &Aig, fls: Lit, latches: Option<&[Lit]>) -> Frame {
    encode_frame_with(s, aig, fls, &[], latches)
}

/// Like [`encode_frame`], but the first `inputs.len()` inputs get the given literals, and a
/// `latches` slice shorter than the latch list leaves the rest fresh (used to encode two
/// circuits over shared inputs and latches, as the certificate checks do).
pub fn encode_frame_with(
    s: &mut Solver,
    aig: &Aig,
    fls: Lit,
    inputs: &[Lit],
    latches: Option<&[Lit]>,
) -> Frame {
    let mut map = vec![fls; aig.max_var as usize + 1];
    for (i, &v) in aig.inputs.iter().enumerate() {
        map[v as usize] = match inputs.get(i) {
            Some(&x) => x,
            None => Lit::new(s.new_var(), false),
        };
    }
    for (i, l) in aig.latches.iter().enumerate() {
        map[l.var as usize] = match latches.and_then(|ls| ls.get(i)) {
            Some(&x) => x,
            None => Lit::new(s.new_var(), false),
        };
    }
    let mut f = Frame { map };
    for a in &aig.ands {
        let x = Lit::new(s.new_var(), false);
        let (b, c) = (f.lit(a.rhs0), f.lit(a.rhs1));
        s.add_clause(&[!x, b]);
        s.add_clause(&[!x, c]);
        s.add_clause(&[x, !b, !c]);
        f.map[a.var as usize] = x;
    }
    f
}

/// Unit clauses fixing the latches of frame `f` to their reset values (free latches stay
/// unconstrained).
pub fn add_init(s: &mut Solver, aig: &Aig, f: &Frame) {
    for l in &aig.latches {
        match l.init {
            crate::Init::Zero => s.add_clause(&[!f.lit(2 * l.var)]),
            crate::Init::One => s.add_clause(&[f.lit(2 * l.var)]),
            crate::Init::Free => true,
        };
    }
}

/// Adds the invariant constraints of frame `f` as unit clauses.
pub fn add_constraints(s: &mut Solver, aig: &Aig, f: &Frame) {
    for &c in &aig.constraints {
        s.add_clause(&[f.lit(c)]);
    }
}

/// The next-state literals of frame `f` (inputs of the following frame's latches).
pub fn next_state(aig: &Aig, f: &Frame) -> Vec<Lit> {
    aig.latches.iter().map(|l| f.lit(l.next)).collect()
}

/// A literal equivalent to the disjunction of the bad properties in frame `f`.
pub fn any_bad(s: &mut Solver, aig: &Aig, f: &Frame) -> Lit {
    if aig.bad.len() == 1 {
        return f.lit(aig.bad[0]);
    }
    let b = Lit::new(s.new_var(), false);
    let mut big = vec![!b];
    for &x in &aig.bad {
        let l = f.lit(x);
        s.add_clause(&[b, !l]);
        big.push(l);
    }
    s.add_clause(&big);
    b
}
