//! The engine interface.
//!
//! Every engine is one module behind the small [`Engine`] trait, with a config struct that
//! implements [`BuildEngine`] (its name and how to make the engine) and is one variant of the
//! registry [`crate::engines::EngineConfig`]. An engine that cannot handle an input answers
//! `Unknown(Unsupported(..))`; it never panics to say so.

use crate::result::ChcResult;
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_control::engine_options::OptionWord;
use cove_logic::TermStore;
use std::fmt::Debug;

/// The limits and stop flag every phase polls (shared by all Cove crates).
pub use cove_control::Control;

/// Statistics an engine reports (name, value), printed by `--stats`.
pub type Stats = Vec<(String, String)>;

/// A CHC solving engine.
pub trait Engine {
    /// Short name as used by `--engine`.
    fn name(&self) -> &'static str;

    /// Decides `sys`. Terms created along the way go into `store`.
    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult;

    /// Connects the engine to a portfolio's lemma pool (see [`crate::share`]): it may offer
    /// what it learns there, and, if [`Engine::takes_offers`], take the other engines'
    /// offers. Engines that do neither ignore it.
    fn share(&mut self, _pool: &LemmaPool) {}

    /// True if the engine takes the pool's offers itself (as candidates it filters); the
    /// portfolio then does not strengthen the system it gives the engine.
    fn takes_offers(&self) -> bool {
        false
    }

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
    }

    /// After a run a limit stopped: option words (`from=12`) with which a fresh engine on
    /// the same system continues where this one stopped instead of repeating its work. The
    /// portfolio gives them to an entry's next turn (`driver::schedule::Rounds`), so that
    /// the time of its earlier turns is not lost. `None`: it starts over.
    fn resume(&self) -> Option<String> {
        None
    }
}

/// An engine's options, and how to make the engine from them. Each engine's config struct
/// implements it in the engine's own file; the struct is then one variant of
/// [`crate::engines::EngineConfig`], which is all the CLI, the portfolio's schedule and the
/// library need to know of the engine.
pub trait BuildEngine: Clone + Debug + Default {
    /// The name `--engine` (and [`crate::engines::EngineConfig::parse`]) takes.
    const NAME: &'static str;

    /// The option words the engine takes, for `--help` and error messages (`none` when it
    /// takes none); see [`cove_control::engine_options`].
    const OPTIONS: &'static str = "none";

    /// A fresh engine with these options.
    fn create(&self) -> Box<dyn Engine>;

    /// Sets one option from its word (`--engine NAME:WORD,…`, a schedule entry, or the
    /// command line's flag of the same name). An engine without options refuses every word.
    fn set_option(&mut self, w: &OptionWord) -> Result<(), String> {
        Err(no_option(Self::NAME, w.key, Self::OPTIONS))
    }

    /// The words of the options that differ from the defaults (what
    /// [`BuildEngine::set_option`] reads back to this value).
    fn option_words(&self) -> Vec<String> {
        vec![]
    }
}

/// The error for an option word an engine does not take.
pub fn no_option(engine: &str, key: &str, options: &str) -> String {
    format!("engine '{engine}' has no option '{key}' (its options: {options})")
}

/// A field of an options struct, reached through a function (so a table can list it).
pub type Field<T, V> = fn(&mut T) -> &mut V;

/// Reads and writes the switches and numbers of an options struct from a table of words,
/// for [`BuildEngine::set_option`] and [`BuildEngine::option_words`].
pub struct OptionTable<T: 'static> {
    /// Switches: word and field.
    pub switches: &'static [(&'static str, Field<T, bool>)],
    /// Optional numbers (`word=N`): word and field.
    pub numbers: &'static [(&'static str, Field<T, Option<usize>>)],
}

impl<T: Clone + Default> OptionTable<T> {
    /// Every word, for [`BuildEngine::OPTIONS`]-style listings.
    pub fn words(&self) -> String {
        let mut v: Vec<String> = self.switches.iter().map(|(w, _)| w.to_string()).collect();
        v.extend(self.numbers.iter().map(|(w, _)| format!("{w}=N")));
        v.join(", ")
    }

    /// Sets the option of `w` in `config`; `Ok(false)` when the table has no such word.
    pub fn set(&self, config: &mut T, w: &OptionWord) -> Result<bool, String> {
        if let Some((_, field)) = self.switches.iter().find(|(k, _)| *k == w.key) {
            *field(config) = w.switch()?;
            return Ok(true);
        }
        if let Some((_, field)) = self.numbers.iter().find(|(k, _)| *k == w.key) {
            *field(config) = Some(w.number()?);
            return Ok(true);
        }
        Ok(false)
    }

    /// The words of `config`'s options that differ from the defaults, in table order.
    pub fn differences(&self, config: &T) -> Vec<String> {
        let (mut c, mut d) = (config.clone(), T::default());
        let mut v = vec![];
        for (k, field) in self.switches {
            let on = *field(&mut c);
            if on != *field(&mut d) {
                v.push(cove_control::engine_options::switch_word(k, on));
            }
        }
        for (k, field) in self.numbers {
            let n = *field(&mut c);
            if n != *field(&mut d)
                && let Some(n) = n
            {
                v.push(format!("{k}={n}"));
            }
        }
        v
    }
}
