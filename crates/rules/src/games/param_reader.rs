//! Reading a game's `key=value` parameters, shared by every game's own parameter parser so that
//! all of them refuse a bad value or an unknown key in the same words.

use std::ops::RangeInclusive;

/// A parameter that a game does not have or cannot play, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A key the game does not have, e.g. a misspelling.
    #[error("game '{game}' has no parameter '{key}' (its parameters: {known})")]
    UnknownParameter {
        /// The game's name, as in the spec.
        game: String,
        /// The key as given.
        key: String,
        /// The keys the game does have, comma-separated (`none` if it has none).
        known: String,
    },
    /// A key the game has, with a value it cannot play.
    #[error("parameter '{key}' of game '{game}': {message}")]
    BadValue {
        /// The game's name, as in the spec.
        game: String,
        /// The key whose value is refused.
        key: String,
        /// What is wrong with the value, e.g. the range it must be in.
        message: String,
    },
}

/// Takes parameters one by one so that whatever is left over at the end is an unknown key.
pub(crate) struct ParamReader<'a> {
    game: &'a str,
    remaining: Vec<(String, String)>,
    known: Vec<&'static str>,
}

impl<'a> ParamReader<'a> {
    pub(crate) fn new<K: AsRef<str>, V: AsRef<str>>(game: &'a str, params: &[(K, V)]) -> Self {
        ParamReader {
            game,
            remaining: params
                .iter()
                .map(|(k, v)| (k.as_ref().trim().to_string(), v.as_ref().trim().to_string()))
                .collect(),
            known: Vec::new(),
        }
    }

    /// The name of the game whose parameters these are, for messages.
    pub(crate) fn game(&self) -> &str {
        self.game
    }

    /// The last value given for `key`, if any.
    pub(crate) fn take(&mut self, key: &'static str) -> Option<String> {
        self.known.push(key);
        let mut value = None;
        self.remaining.retain(|(k, v)| {
            if k == key {
                value = Some(v.clone());
                false
            } else {
                true
            }
        });
        value
    }

    pub(crate) fn bad(&self, key: &str, message: String) -> ParamError {
        ParamError::BadValue {
            game: self.game.to_string(),
            key: key.to_string(),
            message,
        }
    }

    pub(crate) fn number(
        &mut self,
        key: &'static str,
        range: RangeInclusive<i64>,
        default: i64,
    ) -> Result<i64, ParamError> {
        let Some(text) = self.take(key) else {
            return Ok(default);
        };
        match text.parse::<i64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.bad(
                key,
                format!(
                    "'{text}' is not a whole number from {} to {}",
                    range.start(),
                    range.end()
                ),
            )),
        }
    }

    pub(crate) fn flag(&mut self, key: &'static str, default: bool) -> Result<bool, ParamError> {
        match self.take(key).as_deref() {
            None => Ok(default),
            Some("yes" | "true" | "1") => Ok(true),
            Some("no" | "false" | "0") => Ok(false),
            Some(other) => Err(self.bad(key, format!("'{other}' is not yes or no"))),
        }
    }

    /// One of a fixed set of words, each standing for a value of `T`.
    pub(crate) fn choice<T: Copy>(
        &mut self,
        key: &'static str,
        allowed: &[(&str, T)],
        default: T,
    ) -> Result<T, ParamError> {
        let Some(text) = self.take(key) else {
            return Ok(default);
        };
        match allowed.iter().find(|(word, _)| *word == text) {
            Some(&(_, value)) => Ok(value),
            None => {
                let words: Vec<&str> = allowed.iter().map(|(word, _)| *word).collect();
                Err(self.bad(key, format!("'{text}' is not one of: {}", words.join(", "))))
            }
        }
    }

    pub(crate) fn finish(self) -> Result<(), ParamError> {
        match self.remaining.into_iter().next() {
            None => Ok(()),
            Some((key, _)) => Err(ParamError::UnknownParameter {
                game: self.game.to_string(),
                key,
                known: if self.known.is_empty() {
                    "none".to_string()
                } else {
                    self.known.join(", ")
                },
            }),
        }
    }
}

/// `yes` or `no`, the way a flag is written back.
pub(crate) fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}
