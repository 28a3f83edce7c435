//! Labelled probabilistic transition systems (thesis Definition 7).
//!
//! An [`Lpts`] is `⟨S, s⁰, α, τ⟩`: states are dense indices `0..num_states()`, actions are
//! interned names (dense indices into the alphabet), and `τ` is a *set* of transitions
//! `s −a→ μ`. Several transitions on the same action from the same state are allowed
//! (non-determinism is kept on purpose, Sec. 4.2).
//!
//! # Invariants
//! * Every [`Dist`] is a genuine distribution: its entries are sorted by state, have
//!   pairwise distinct states, strictly positive exact [`Rational`] probabilities, and sum
//!   to exactly 1. Nothing is ever normalized: a constructor that is handed masses that do
//!   not sum to 1 fails.
//! * `τ` has set semantics: adding a transition equal to an existing one returns the
//!   existing id.
//! * Every state mentioned by a distribution exists.
//!
//! Actions of two different LPTSes are matched **by name** (simulation, composition).

use cove_logic::Rational;
use std::collections::HashMap;
use std::fmt;

/// Index of a state of an [`Lpts`].
pub type StateId = usize;
/// Index of an action in the alphabet of an [`Lpts`].
pub type ActionId = usize;
/// Index of a transition of an [`Lpts`].
pub type TransId = usize;

/// Why a list of masses is not a distribution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DistError {
    /// The list is empty.
    #[error("a distribution needs at least one state")]
    Empty,
    /// A mass is zero or negative.
    #[error("probability {0} is not positive")]
    NonPositive(Rational),
    /// A state occurs twice.
    #[error("state occurs twice in one distribution")]
    Duplicate(StateId),
    /// The masses do not add up to one.
    #[error("probabilities sum to {0}, not 1")]
    BadSum(Rational),
}

/// A discrete probability distribution with finite support and exact rational masses.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dist {
    entries: Vec<(StateId, Rational)>,
}

impl Dist {
    /// The Dirac distribution `δ_s`.
    pub fn dirac(s: StateId) -> Dist {
        Dist {
            entries: vec![(s, Rational::ONE)],
        }
    }

    /// Builds a distribution, rejecting duplicates, non-positive masses and sums other than 1.
    pub fn new(mut entries: Vec<(StateId, Rational)>) -> Result<Dist, DistError> {
        if entries.is_empty() {
            return Err(DistError::Empty);
        }
        entries.sort_by_key(|e| e.0);
        let mut sum = Rational::ZERO;
        for (i, (s, p)) in entries.iter().enumerate() {
            if !p.is_positive() {
                return Err(DistError::NonPositive(p.clone()));
            }
            if i > 0 && entries[i - 1].0 == *s {
                return Err(DistError::Duplicate(*s));
            }
            sum += p;
        }
        if !sum.is_one() {
            return Err(DistError::BadSum(sum));
        }
        Ok(Dist { entries })
    }

    /// Builds a distribution, adding up the masses of repeated states and dropping zero
    /// masses (used for lifting through a map of states). The total must still be exactly 1.
    pub fn merged(
        entries: impl IntoIterator<Item = (StateId, Rational)>,
    ) -> Result<Dist, DistError> {
        let mut acc: Vec<(StateId, Rational)> = entries.into_iter().collect();
        acc.sort_by_key(|e| e.0);
        let mut out: Vec<(StateId, Rational)> = Vec::with_capacity(acc.len());
        for (s, p) in acc {
            if p.is_negative() {
                return Err(DistError::NonPositive(p));
            }
            match out.last_mut() {
                Some((t, q)) if *t == s => *q += &p,
                _ => out.push((s, p)),
            }
        }
        out.retain(|e| e.1.is_positive());
        Dist::new(out)
    }

    /// The entries `(state, mass)`, sorted by state, all masses positive.
    pub fn entries(&self) -> &[(StateId, Rational)] {
        &self.entries
    }

    /// `Supp(μ)` in increasing order.
    pub fn support(&self) -> impl Iterator<Item = StateId> + '_ {
        self.entries.iter().map(|e| e.0)
    }

    /// Size of the support.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a distribution has a non-empty support.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `μ(s)` (zero outside the support).
    pub fn prob(&self, s: StateId) -> Rational {
        match self.entries.binary_search_by_key(&s, |e| e.0) {
            Ok(i) => self.entries[i].1.clone(),
            Err(_) => Rational::ZERO,
        }
    }

    /// Position of `s` in [`Dist::entries`], if it is in the support.
    pub fn position(&self, s: StateId) -> Option<usize> {
        self.entries.binary_search_by_key(&s, |e| e.0).ok()
    }

    /// Whether this is a Dirac distribution.
    pub fn is_dirac(&self) -> bool {
        self.entries.len() == 1
    }

    /// The image of the distribution under a map of states (masses of merged states add up).
    pub fn map(&self, f: impl Fn(StateId) -> StateId) -> Dist {
        Dist::merged(self.entries.iter().map(|(s, p)| (f(*s), p.clone())))
            .expect("the image of a distribution is a distribution")
    }

    /// The product `μ ⊗ ν` with states combined by `pair`, which must be injective.
    pub fn product(&self, other: &Dist, mut pair: impl FnMut(StateId, StateId) -> StateId) -> Dist {
        let mut e = Vec::with_capacity(self.len() * other.len());
        for (s, p) in &self.entries {
            for (t, q) in &other.entries {
                e.push((pair(*s, *t), p * q));
            }
        }
        Dist::new(e).expect("product of distributions with an injective pairing")
    }
}

impl fmt::Debug for Dist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .entries
            .iter()
            .map(|(s, p)| format!("{p}:{s}"))
            .collect();
        write!(f, "[{}]", parts.join(" + "))
    }
}

/// A transition `src −action→ dist`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// The source state.
    pub src: StateId,
    /// The action (index into the alphabet of the owning LPTS).
    pub action: ActionId,
    /// The target distribution.
    pub dist: Dist,
}

/// A labelled probabilistic transition system.
#[derive(Clone, Debug)]
pub struct Lpts {
    names: Vec<String>,
    initial: StateId,
    actions: Vec<String>,
    action_index: HashMap<String, ActionId>,
    trans: Vec<Transition>,
    out: Vec<Vec<TransId>>,
}

impl Lpts {
    /// An LPTS with one state, named `initial_name`, which is the start state.
    pub fn new(initial_name: impl Into<String>) -> Lpts {
        Lpts {
            names: vec![initial_name.into()],
            initial: 0,
            actions: Vec::new(),
            action_index: HashMap::new(),
            trans: Vec::new(),
            out: vec![Vec::new()],
        }
    }

    /// Adds a state and returns its id. Names are labels only; they need not be unique.
    pub fn add_state(&mut self, name: impl Into<String>) -> StateId {
        self.names.push(name.into());
        self.out.push(Vec::new());
        self.names.len() - 1
    }

    /// Interns an action name into the alphabet (idempotent) and returns its id.
    pub fn add_action(&mut self, name: &str) -> ActionId {
        if let Some(&a) = self.action_index.get(name) {
            return a;
        }
        self.actions.push(name.to_string());
        self.action_index
            .insert(name.to_string(), self.actions.len() - 1);
        self.actions.len() - 1
    }

    /// The id of an action name, if it is in the alphabet.
    pub fn action_id(&self, name: &str) -> Option<ActionId> {
        self.action_index.get(name).copied()
    }

    /// Adds `src −action→ dist` (set semantics: an identical transition is not duplicated).
    ///
    /// # Preconditions
    /// `src` and every state of `dist` exist, and `action` is in the alphabet.
    pub fn add_transition(&mut self, src: StateId, action: ActionId, dist: Dist) -> TransId {
        assert!(src < self.names.len() && action < self.actions.len());
        assert!(
            dist.support().all(|s| s < self.names.len()),
            "distribution over unknown states"
        );
        for &t in &self.out[src] {
            let tr = &self.trans[t];
            if tr.action == action && tr.dist == dist {
                return t;
            }
        }
        self.trans.push(Transition { src, action, dist });
        self.out[src].push(self.trans.len() - 1);
        self.trans.len() - 1
    }

    /// Changes the start state.
    pub fn set_initial(&mut self, s: StateId) {
        assert!(s < self.names.len());
        self.initial = s;
    }

    /// The start state `s⁰`.
    pub fn initial(&self) -> StateId {
        self.initial
    }

    /// `|S|`.
    pub fn num_states(&self) -> usize {
        self.names.len()
    }

    /// `|τ|`.
    pub fn num_transitions(&self) -> usize {
        self.trans.len()
    }

    /// The label of a state.
    pub fn state_name(&self, s: StateId) -> &str {
        &self.names[s]
    }

    /// The alphabet `α`, indexed by [`ActionId`].
    pub fn actions(&self) -> &[String] {
        &self.actions
    }

    /// The name of an action.
    pub fn action_name(&self, a: ActionId) -> &str {
        &self.actions[a]
    }

    /// All transitions, indexed by [`TransId`].
    pub fn transitions(&self) -> &[Transition] {
        &self.trans
    }

    /// One transition.
    pub fn transition(&self, t: TransId) -> &Transition {
        &self.trans[t]
    }

    /// The outgoing transitions of a state, in insertion order.
    pub fn outgoing(&self, s: StateId) -> &[TransId] {
        &self.out[s]
    }

    /// Reactive: at most one transition per (state, action) — a labelled MDP.
    pub fn is_reactive(&self) -> bool {
        self.out.iter().all(|ts| {
            let mut acts: Vec<ActionId> = ts.iter().map(|&t| self.trans[t].action).collect();
            acts.sort_unstable();
            acts.windows(2).all(|w| w[0] != w[1])
        })
    }

    /// Fully probabilistic: at most one transition per state — a Markov chain.
    pub fn is_fully_probabilistic(&self) -> bool {
        self.out.iter().all(|ts| ts.len() <= 1)
    }

    /// Every distribution is Dirac: the LPTS is an LTS.
    pub fn is_lts(&self) -> bool {
        self.trans.iter().all(|t| t.dist.is_dirac())
    }

    /// Stochastic tree: the start state is in no support, every other state is in the
    /// support of exactly one transition's distribution.
    pub fn is_tree(&self) -> bool {
        let mut parents = vec![0usize; self.names.len()];
        for t in &self.trans {
            for s in t.dist.support() {
                parents[s] += 1;
            }
        }
        parents
            .iter()
            .enumerate()
            .all(|(s, &n)| if s == self.initial { n == 0 } else { n == 1 })
    }

    /// States reachable from the start state, in breadth-first order (start state first).
    pub fn reachable(&self) -> Vec<StateId> {
        let mut seen = vec![false; self.names.len()];
        let mut order = vec![self.initial];
        seen[self.initial] = true;
        let mut i = 0;
        while i < order.len() {
            let s = order[i];
            i += 1;
            for &t in &self.out[s] {
                for u in self.trans[t].dist.support() {
                    if !seen[u] {
                        seen[u] = true;
                        order.push(u);
                    }
                }
            }
        }
        order
    }

    /// The reachable part, renumbered in breadth-first order (the alphabet is kept whole).
    pub fn restrict_to_reachable(&self) -> Lpts {
        let order = self.reachable();
        let mut new_id = vec![usize::MAX; self.names.len()];
        for (i, &s) in order.iter().enumerate() {
            new_id[s] = i;
        }
        let mut l = Lpts::new(self.names[order[0]].clone());
        for a in &self.actions {
            l.add_action(a);
        }
        for &s in &order[1..] {
            l.add_state(self.names[s].clone());
        }
        for &s in &order {
            for &t in &self.out[s] {
                let tr = &self.trans[t];
                l.add_transition(new_id[s], tr.action, tr.dist.map(|u| new_id[u]));
            }
        }
        l
    }
}
