//! The words engine options are written in, the same everywhere: after an engine's name on
//! the command line (`--engine spacer:may-only,no-mbp`), in a portfolio's schedule (`"ic3:
//! no-predict"`), in the bindings' `engine` argument; and as the command line's own flags
//! (`--may-only` is the word `may-only`). Each engine's config says which words it takes
//! (`set_option` in `cove-chc` and `cove-aig`); this module only splits the text, so that
//! every registry reads the same grammar:
//!
//! ```text
//! spec   := name [":" word ("," word)*]
//! word   := key            switch the option on
//!         | "no-" key      switch it off
//!         | key "=" value  set it to a value
//! ```

/// What a word does to its option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionValue<'a> {
    /// `key`: on.
    On,
    /// `no-key`: off.
    Off,
    /// `key=value`.
    Value(&'a str),
}

/// One option word, split.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptionWord<'a> {
    /// The option's name (without `no-` and `=value`).
    pub key: &'a str,
    /// What the word sets it to.
    pub value: OptionValue<'a>,
}

impl<'a> OptionWord<'a> {
    /// Splits `word` (see the module's grammar).
    pub fn parse(word: &'a str) -> OptionWord<'a> {
        let word = word.trim();
        if let Some((key, value)) = word.split_once('=') {
            return OptionWord {
                key: key.trim(),
                value: OptionValue::Value(value.trim()),
            };
        }
        match word.strip_prefix("no-") {
            Some(key) => OptionWord {
                key,
                value: OptionValue::Off,
            },
            None => OptionWord {
                key: word,
                value: OptionValue::On,
            },
        }
    }

    /// The word's value as a switch: `Err` for `key=value` unless the value is `on`/`off`,
    /// `true`/`false`.
    pub fn switch(&self) -> Result<bool, String> {
        match self.value {
            OptionValue::On | OptionValue::Value("on" | "true") => Ok(true),
            OptionValue::Off | OptionValue::Value("off" | "false") => Ok(false),
            OptionValue::Value(v) => Err(format!(
                "option '{}' is a switch ('{0}' or 'no-{0}'), not '{}={v}'",
                self.key, self.key
            )),
        }
    }

    /// The word's value as a number (`key=N`).
    pub fn number<T: std::str::FromStr>(&self) -> Result<T, String> {
        match self.value {
            OptionValue::Value(v) => v
                .parse()
                .map_err(|_| format!("option '{}' takes a number, not '{v}'", self.key)),
            _ => Err(format!("option '{}' takes a value: '{0}=N'", self.key)),
        }
    }
}

/// Splits an engine spec into the engine's name and its option words (empty words, as in a
/// trailing comma, are skipped).
pub fn split_spec(spec: &str) -> (&str, Vec<OptionWord<'_>>) {
    match spec.split_once(':') {
        None => (spec.trim(), vec![]),
        Some((name, words)) => (
            name.trim(),
            words
                .split(',')
                .filter(|w| !w.trim().is_empty())
                .map(OptionWord::parse)
                .collect(),
        ),
    }
}

/// The word that sets a switch to `on` (`key` or `no-key`), for printing a spec.
pub fn switch_word(key: &str, on: bool) -> String {
    if on {
        key.to_string()
    } else {
        format!("no-{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_into_name_and_words() {
        let (name, words) = split_spec("spacer:may-only, no-mbp,max-level=7,");
        assert_eq!(name, "spacer");
        assert_eq!(words.len(), 3);
        assert_eq!((words[0].key, words[0].switch()), ("may-only", Ok(true)));
        assert_eq!((words[1].key, words[1].switch()), ("mbp", Ok(false)));
        assert_eq!(words[2].number::<usize>(), Ok(7));
        assert!(words[2].switch().is_err());
        assert!(words[0].number::<usize>().is_err());
        assert_eq!(split_spec("ic3"), ("ic3", vec![]));
        assert_eq!(switch_word("predict", false), "no-predict");
    }
}
