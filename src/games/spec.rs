//! Which game to play and with which parameters, validated before any bot is started.
//!
//! A spec is written as a name and `key=value` parameters, the same way on the command line
//! (`-p key=value`), in the protocol's `game` line and in records, so one parser serves all.

use super::checkers::Position;
use super::mnk::Mnk;
use super::AnyGame;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A game name or parameter that cannot be played, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown game '{0}' (known games: {known})", known = GameSpec::NAMES.join(", "))]
    UnknownGame(String),
    #[error("game '{game}' has no parameter '{key}' (its parameters: {known})")]
    UnknownParameter {
        game: String,
        key: String,
        known: String,
    },
    #[error("parameter '{key}' of game '{game}': {message}")]
    BadValue {
        game: String,
        key: String,
        message: String,
    },
    #[error("parameter '{0}' must be written key=value")]
    NotKeyValue(String),
}

/// Board and line of an m,n,k game (tic-tac-toe and gomoku are presets of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MnkParams {
    /// Columns, 3..=20.
    pub width: u8,
    /// Rows, 3..=20.
    pub height: u8,
    /// Marks in a row needed to win, 3..=10 and at most the longer side... and fitting the board.
    pub line: u8,
    /// When true only a line of exactly `line` wins; an overline (longer) does not.
    pub exact: bool,
}

/// The start and draw rules of a checkers game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckersParams {
    /// The starting position, the standard one unless a FEN was given (serialized as FEN).
    pub start: Position,
    /// How many times a position must occur, same player to move, for a draw: 2..=10.
    pub repetition: u32,
    /// Moves by each player without a man advancing or a capture that draw: 0..=200, 0 never.
    pub move_rule: u32,
}

impl Default for CheckersParams {
    /// The standard start, threefold repetition and the 40-move rule (as in WCDF play).
    fn default() -> CheckersParams {
        CheckersParams {
            start: Position::standard(),
            repetition: 3,
            move_rule: 40,
        }
    }
}

/// A validated game and its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum GameSpec {
    Tictactoe,
    Gomoku { exact: bool },
    Mnk(MnkParams),
}

const MNK_SIZE: std::ops::RangeInclusive<i64> = 3..=20;
const MNK_LINE: std::ops::RangeInclusive<i64> = 3..=10;

impl GameSpec {
    pub const NAMES: [&'static str; 3] = ["tictactoe", "gomoku", "mnk"];

    /// Builds a spec from a name and `key=value` pairs; unknown keys and out-of-range values are
    /// refused with a message that names the allowed range.
    pub fn from_parts<K: AsRef<str>, V: AsRef<str>>(
        name: &str,
        params: &[(K, V)],
    ) -> Result<GameSpec, SpecError> {
        let mut reader = ParamReader::new(name, params);
        let spec = match name {
            "tictactoe" | "gomoku" | "mnk" => {
                // The presets accept their own fixed board (so every `game` line reads back)
                // and nothing else: other boards are what `mnk` is for.
                let (size, line) = match name {
                    "tictactoe" => (3..=3, 3..=3),
                    "gomoku" => (15..=15, 5..=5),
                    _ => (MNK_SIZE, MNK_LINE),
                };
                let default_size = *size.end().min(&15);
                let side = reader.number("size", size.clone(), default_size)?;
                let width = reader.number("width", size.clone(), side)?;
                let height = reader.number("height", size, side)?;
                let line = reader.number("line", line, 5.min(width.max(height)))?;
                if line > width.max(height) {
                    return Err(reader.bad(
                        "line",
                        format!("a line of {line} does not fit on a {width}x{height} board"),
                    ));
                }
                let exact = reader.flag("exact", false)?;
                match name {
                    "tictactoe" => GameSpec::Tictactoe,
                    "gomoku" => GameSpec::Gomoku { exact },
                    _ => GameSpec::Mnk(MnkParams {
                        width: width as u8,
                        height: height as u8,
                        line: line as u8,
                        exact,
                    }),
                }
            }
            _ => return Err(SpecError::UnknownGame(name.to_string())),
        };
        reader.finish()?;
        Ok(spec)
    }

    /// Parses `key=value` words, as given on the command line or in a `game` line.
    pub fn from_words<S: AsRef<str>>(name: &str, words: &[S]) -> Result<GameSpec, SpecError> {
        let pairs = words
            .iter()
            .map(|word| {
                let word = word.as_ref();
                word.split_once('=')
                    .ok_or_else(|| SpecError::NotKeyValue(word.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        GameSpec::from_parts(name, &pairs)
    }

    pub fn name(&self) -> &'static str {
        match self {
            GameSpec::Tictactoe => "tictactoe",
            GameSpec::Gomoku { .. } => "gomoku",
            GameSpec::Mnk(_) => "mnk",
        }
    }

    /// Every parameter with its value, defaults included, in a fixed order: what a bot is told.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            GameSpec::Tictactoe | GameSpec::Gomoku { .. } | GameSpec::Mnk(_) => {
                let p = self.mnk_params().expect("an m,n,k game");
                vec![
                    ("width", p.width.to_string()),
                    ("height", p.height.to_string()),
                    ("line", p.line.to_string()),
                    ("exact", yes_no(p.exact).to_string()),
                ]
            }
        }
    }

    /// The board of an m,n,k game (tic-tac-toe and gomoku included); `None` for other games.
    pub fn mnk_params(&self) -> Option<MnkParams> {
        match *self {
            GameSpec::Tictactoe => Some(MnkParams {
                width: 3,
                height: 3,
                line: 3,
                exact: false,
            }),
            GameSpec::Gomoku { exact } => Some(MnkParams {
                width: 15,
                height: 15,
                line: 5,
                exact,
            }),
            GameSpec::Mnk(params) => Some(params),
        }
    }

    /// The starting position.
    pub fn new_game(&self) -> Box<dyn AnyGame> {
        match self {
            GameSpec::Tictactoe | GameSpec::Gomoku { .. } | GameSpec::Mnk(_) => {
                Box::new(Mnk::new(self.mnk_params().expect("an m,n,k game")))
            }
        }
    }

    /// Counts the leaf positions `depth` moves from the start (see [`super::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            GameSpec::Tictactoe | GameSpec::Gomoku { .. } | GameSpec::Mnk(_) => {
                super::perft(&Mnk::new(self.mnk_params().expect("an m,n,k game")), depth)
            }
        }
    }
}

impl fmt::Display for GameSpec {
    /// `name key=value ...`: the form used by the protocol's `game` line and by records.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        for (key, value) in self.params() {
            write!(f, " {key}={value}")?;
        }
        Ok(())
    }
}

fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}

/// Takes parameters one by one so that whatever is left over at the end is an unknown key.
struct ParamReader<'a> {
    game: &'a str,
    remaining: Vec<(String, String)>,
    known: Vec<&'static str>,
}

impl<'a> ParamReader<'a> {
    fn new<K: AsRef<str>, V: AsRef<str>>(game: &'a str, params: &[(K, V)]) -> Self {
        ParamReader {
            game,
            remaining: params
                .iter()
                .map(|(k, v)| (k.as_ref().trim().to_string(), v.as_ref().trim().to_string()))
                .collect(),
            known: Vec::new(),
        }
    }

    /// The last value given for `key`, if any.
    fn take(&mut self, key: &'static str) -> Option<String> {
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

    fn bad(&self, key: &str, message: String) -> SpecError {
        SpecError::BadValue {
            game: self.game.to_string(),
            key: key.to_string(),
            message,
        }
    }

    fn number(
        &mut self,
        key: &'static str,
        range: std::ops::RangeInclusive<i64>,
        default: i64,
    ) -> Result<i64, SpecError> {
        let Some(text) = self.take(key) else {
            return Ok(default);
        };
        match text.parse::<i64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ if range.start() == range.end() => Err(self.bad(
                key,
                format!(
                    "'{text}' is not allowed: {} is always {} (the game mnk plays other boards)",
                    self.game,
                    range.start()
                ),
            )),
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

    fn flag(&mut self, key: &'static str, default: bool) -> Result<bool, SpecError> {
        match self.take(key).as_deref() {
            None => Ok(default),
            Some("yes" | "true" | "1") => Ok(true),
            Some("no" | "false" | "0") => Ok(false),
            Some(other) => Err(self.bad(key, format!("'{other}' is not yes or no"))),
        }
    }

    fn finish(self) -> Result<(), SpecError> {
        match self.remaining.into_iter().next() {
            None => Ok(()),
            Some((key, _)) => Err(SpecError::UnknownParameter {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_mnk_boards() {
        let ttt = GameSpec::from_parts::<&str, &str>("tictactoe", &[]).unwrap();
        assert_eq!(
            ttt.to_string(),
            "tictactoe width=3 height=3 line=3 exact=no"
        );
        let gomoku = GameSpec::from_words("gomoku", &["exact=yes"]).unwrap();
        assert_eq!(
            gomoku.to_string(),
            "gomoku width=15 height=15 line=5 exact=yes"
        );
    }

    #[test]
    fn mnk_is_square_by_default_and_may_be_rectangular() {
        let square = GameSpec::from_words("mnk", &["size=7", "line=4"]).unwrap();
        assert_eq!(square.to_string(), "mnk width=7 height=7 line=4 exact=no");
        let rect = GameSpec::from_words("mnk", &["width=20", "height=3", "line=10"]).unwrap();
        assert_eq!(rect.to_string(), "mnk width=20 height=3 line=10 exact=no");
    }

    #[test]
    fn out_of_range_parameters_are_refused_with_the_range() {
        let err = GameSpec::from_words("mnk", &["size=21"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "parameter 'size' of game 'mnk': '21' is not a whole number from 3 to 20"
        );
        let err = GameSpec::from_words("mnk", &["size=4", "line=5"]).unwrap_err();
        assert!(err.to_string().contains("does not fit"), "{err}");
        let err = GameSpec::from_words("mnk", &["line=2"]).unwrap_err();
        assert!(err.to_string().contains("from 3 to 10"), "{err}");
        let err = GameSpec::from_words("tictactoe", &["size=4"]).unwrap_err();
        assert!(
            err.to_string().contains("the game mnk plays other boards"),
            "{err}"
        );
        let err = GameSpec::from_words("tictactoe", &["colour=red"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 'tictactoe' has no parameter 'colour' (its parameters: size, width, height, line, exact)"
        );
        let err = GameSpec::from_words("gomoku", &["exact"]).unwrap_err();
        assert_eq!(err, SpecError::NotKeyValue("exact".into()));
        assert!(matches!(
            GameSpec::from_words::<&str>("chess", &[]),
            Err(SpecError::UnknownGame(_))
        ));
    }

    #[test]
    fn the_display_form_reads_back() {
        for spec in [
            GameSpec::from_words("mnk", &["width=9", "height=5", "line=4", "exact=yes"]).unwrap(),
            GameSpec::from_words("gomoku", &["exact=yes"]).unwrap(),
        ] {
            let text = spec.to_string();
            let mut words = text.split(' ');
            let name = words.next().unwrap();
            let params: Vec<&str> = words.collect();
            assert_eq!(GameSpec::from_words(name, &params).unwrap(), spec);
        }
    }
}
