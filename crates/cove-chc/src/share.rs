//! Lemma sharing between the engines of a portfolio.
//!
//! An engine that learns candidate invariants while it runs (Spacer's lemmas at its top
//! levels) offers them to a [`LemmaPool`]; an engine that starts later takes them as
//! *candidates*: they are filtered to an inductive subset (Houdini, in the driver) before
//! anything relies on them, so an offered lemma never needs to be true — a wrong or bounded
//! lemma is simply dropped. Lemmas travel as [`Detached`] terms over the predicate's
//! parameters by position, because every engine works in its own clone of the term store.
//!
//! Each sender's offer replaces its previous one: Spacer's top frame changes as its bound
//! grows, and only the latest lemmas are good candidates.

use cove_logic::{Detached, FuncId, TermId, TermStore, VarId};
use std::sync::{Arc, Mutex};

/// One offered lemma: a formula over `pred`'s parameters (by position).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SharedLemma {
    /// The predicate.
    pub pred: FuncId,
    /// The formula.
    pub formula: Detached,
}

impl SharedLemma {
    /// `formula` over `params` (the predicate's parameters in order); `None` if it mentions
    /// anything else (see [`Detached::detach`]).
    pub fn new(
        store: &TermStore,
        pred: FuncId,
        params: &[VarId],
        formula: TermId,
    ) -> Option<SharedLemma> {
        Detached::detach(store, formula, params).map(|formula| SharedLemma { pred, formula })
    }
}

/// At most this many candidates are handed out: each one that fails costs the receiver an
/// SMT check, and a late engine should not spend its slice filtering.
pub const MAX_CANDIDATES: usize = 2000;

/// One sender's latest offer: its name and lemmas.
type Offer = (String, Vec<SharedLemma>);

/// The lemmas the engines of one portfolio run offer each other. Clones share the offers;
/// each clone made by [`LemmaPool::for_sender`] offers under its own name.
#[derive(Clone, Default)]
pub struct LemmaPool {
    offers: Arc<Mutex<Vec<Offer>>>,
    sender: String,
}

impl LemmaPool {
    /// This pool, offering as `sender` (a portfolio entry's label).
    pub fn for_sender(&self, sender: &str) -> LemmaPool {
        LemmaPool {
            offers: Arc::clone(&self.offers),
            sender: sender.to_string(),
        }
    }

    /// Replaces this sender's offer with `lemmas`.
    pub fn offer(&self, lemmas: Vec<SharedLemma>) {
        let mut offers = self.offers.lock().unwrap_or_else(|e| e.into_inner());
        match offers.iter_mut().find(|(s, _)| *s == self.sender) {
            Some((_, old)) => *old = lemmas,
            None => offers.push((self.sender.clone(), lemmas)),
        }
    }

    /// Every sender's latest offer, without duplicates, at most [`MAX_CANDIDATES`].
    pub fn candidates(&self) -> Vec<SharedLemma> {
        let offers = self.offers.lock().unwrap_or_else(|e| e.into_inner());
        let mut seen = rustc_hash::FxHashSet::default();
        offers
            .iter()
            .flat_map(|(_, v)| v.iter())
            .filter(|l| seen.insert(*l))
            .take(MAX_CANDIDATES)
            .cloned()
            .collect()
    }
}
