//! Which game to play and with which parameters, validated before any bot is started.
//!
//! A spec is written as a name and `key=value` parameters, the same way on the command line
//! (`-p key=value`), in the protocol's `game` line and in records, so one parser serves all.

use super::checkers::{Checkers, Position};
use super::dots::Dots;
use super::mnk::Mnk;
use super::uttt::Uttt;
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

/// How ultimate tic-tac-toe is decided when no move is left and nobody has a line of boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UtttTiebreak {
    /// A draw (theaigames / riddles.io).
    #[default]
    None,
    /// More small boards won wins (CodinGame).
    Codingame,
}

impl UtttTiebreak {
    pub const ALL: [UtttTiebreak; 2] = [UtttTiebreak::None, UtttTiebreak::Codingame];

    /// The value of the `tiebreak` parameter.
    pub fn as_str(self) -> &'static str {
        match self {
            UtttTiebreak::None => "none",
            UtttTiebreak::Codingame => "codingame",
        }
    }
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

/// The rule variations of ultimate tic-tac-toe (the board itself is fixed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UtttParams {
    pub tiebreak: UtttTiebreak,
}

/// Board of a dots-and-boxes game, counted in boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DotsParams {
    /// Rows of boxes, 1..=10.
    pub rows: u8,
    /// Columns of boxes, 1..=10.
    pub cols: u8,
}

/// A validated game and its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum GameSpec {
    Tictactoe,
    Gomoku { exact: bool },
    Mnk(MnkParams),
    Uttt(UtttParams),
    Dots(DotsParams),
    Checkers(CheckersParams),
}

const MNK_SIZE: std::ops::RangeInclusive<i64> = 3..=20;
const MNK_LINE: std::ops::RangeInclusive<i64> = 3..=10;
const DOTS_SIZE: std::ops::RangeInclusive<i64> = 1..=10;

impl GameSpec {
    pub const NAMES: [&'static str; 6] = ["tictactoe", "gomoku", "mnk", "uttt", "dots", "checkers"];

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
                    "tictactoe" if exact => {
                        return Err(reader.bad(
                            "exact",
                            "tic-tac-toe has no overlines: only exact=no is allowed".into(),
                        ))
                    }
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
            "uttt" => GameSpec::Uttt(UtttParams {
                tiebreak: reader.choice(
                    "tiebreak",
                    &UtttTiebreak::ALL.map(|t| (t.as_str(), t)),
                    UtttTiebreak::default(),
                )?,
            }),
            "dots" => {
                // Counted in boxes, as the rules tables count them; `size` sets both.
                let size = reader.number("size", DOTS_SIZE, 3)?;
                let rows = reader.number("rows", DOTS_SIZE, size)?;
                let cols = reader.number("cols", DOTS_SIZE, size)?;
                GameSpec::Dots(DotsParams {
                    rows: rows as u8,
                    cols: cols as u8,
                })
            }
            "checkers" => {
                let defaults = CheckersParams::default();
                let start = match reader.take("fen") {
                    None => defaults.start,
                    Some(fen) => fen
                        .parse()
                        .map_err(|e: super::checkers::FenError| reader.bad("fen", e.to_string()))?,
                };
                let repetition = reader.number("repetition", 2..=10, 3)?;
                let move_rule = reader.number("moverule", 0..=200, 40)?;
                GameSpec::Checkers(CheckersParams {
                    start,
                    repetition: repetition as u32,
                    move_rule: move_rule as u32,
                })
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
            GameSpec::Uttt(_) => "uttt",
            GameSpec::Dots(_) => "dots",
            GameSpec::Checkers(_) => "checkers",
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
            GameSpec::Uttt(p) => vec![("tiebreak", p.tiebreak.as_str().to_string())],
            GameSpec::Dots(p) => vec![("rows", p.rows.to_string()), ("cols", p.cols.to_string())],
            GameSpec::Checkers(p) => vec![
                ("fen", p.start.to_fen()),
                ("repetition", p.repetition.to_string()),
                ("moverule", p.move_rule.to_string()),
            ],
        }
    }

    /// Whether every move is written as one word (checkers' `11-15`), so that a line of moves
    /// can be split on spaces; the other games' moves have spaces inside (`4 4`, `h 0 1`).
    pub fn moves_are_single_words(&self) -> bool {
        matches!(self, GameSpec::Checkers(_))
    }

    /// Whether a player may offer a draw with its move (checkers, as in tournament play).
    pub fn allows_draw_offers(&self) -> bool {
        matches!(self, GameSpec::Checkers(_))
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
            GameSpec::Uttt(_) => None,
            GameSpec::Dots(_) => None,
            GameSpec::Checkers(_) => None,
        }
    }

    /// The starting position.
    pub fn new_game(&self) -> Box<dyn AnyGame> {
        match self {
            GameSpec::Tictactoe | GameSpec::Gomoku { .. } | GameSpec::Mnk(_) => {
                Box::new(Mnk::new(self.mnk_params().expect("an m,n,k game")))
            }
            GameSpec::Uttt(params) => Box::new(Uttt::new(*params)),
            GameSpec::Dots(params) => Box::new(Dots::new(*params)),
            GameSpec::Checkers(params) => Box::new(Checkers::new(*params)),
        }
    }

    /// Counts the leaf positions `depth` moves from the start (see [`super::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            GameSpec::Tictactoe | GameSpec::Gomoku { .. } | GameSpec::Mnk(_) => {
                super::perft(&Mnk::new(self.mnk_params().expect("an m,n,k game")), depth)
            }
            GameSpec::Uttt(params) => super::perft(&Uttt::new(*params), depth),
            GameSpec::Dots(params) => super::perft(&Dots::new(*params), depth),
            GameSpec::Checkers(params) => super::perft(&Checkers::new(*params), depth),
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

    /// One of a fixed set of words, each standing for a value of `T`.
    fn choice<T: Copy>(
        &mut self,
        key: &'static str,
        allowed: &[(&str, T)],
        default: T,
    ) -> Result<T, SpecError> {
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

    const STANDARD_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

    #[test]
    fn checkers_writes_every_parameter_with_the_fen_in_full() {
        let spec = GameSpec::from_parts::<&str, &str>("checkers", &[]).unwrap();
        assert_eq!(spec, GameSpec::Checkers(CheckersParams::default()));
        assert_eq!(
            spec.to_string(),
            format!("checkers fen={STANDARD_FEN} repetition=3 moverule=40")
        );
        let spec = GameSpec::from_words(
            "checkers",
            &["fen=W:B1-3,K9 :WK30", "repetition=2", "moverule=0"],
        )
        .unwrap();
        assert_eq!(
            spec.to_string(),
            "checkers fen=W:WK30:B1,2,3,K9 repetition=2 moverule=0"
        );
        let GameSpec::Checkers(params) = spec else {
            panic!("{spec:?}")
        };
        assert_eq!(params.start.to_fen(), "W:WK30:B1,2,3,K9");
        assert_eq!((params.repetition, params.move_rule), (2, 0));
    }

    #[test]
    fn checkers_parameters_are_validated() {
        let err = GameSpec::from_words("checkers", &["fen=B:W21:B33"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "parameter 'fen' of game 'checkers': 'B:W21:B33' is not a checkers FEN: \
             '33' is not a square number from 1 to 32"
        );
        let err = GameSpec::from_words("checkers", &["repetition=1"]).unwrap_err();
        assert!(err.to_string().contains("from 2 to 10"), "{err}");
        let err = GameSpec::from_words("checkers", &["moverule=201"]).unwrap_err();
        assert!(err.to_string().contains("from 0 to 200"), "{err}");
        let err = GameSpec::from_words("checkers", &["size=8"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 'checkers' has no parameter 'size' (its parameters: fen, repetition, moverule)"
        );
    }

    #[test]
    fn checkers_games_start_from_the_spec() {
        let spec = GameSpec::from_words::<&str>("checkers", &[]).unwrap();
        assert_eq!(spec.perft(3), 302);
        let mut game = spec.new_game();
        assert_eq!(game.legal_moves_text().len(), 7);
        assert_eq!(game.play_text("11-15").unwrap(), "11-15");
        let spec = GameSpec::from_words("checkers", &["fen=B:W6,15:B1"]).unwrap();
        let mut game = spec.new_game();
        assert_eq!(game.play_text("1x19").unwrap(), "1x10x19");
        assert_eq!(
            game.outcome().unwrap().winner,
            Some(crate::games::Side::First)
        );
        // The draw rules are passed on: a second repetition draws at once.
        let spec = GameSpec::from_words("checkers", &["fen=B:WK32:BK1", "repetition=2"]).unwrap();
        let mut game = spec.new_game();
        for mv in ["1-5", "32-28", "5-1", "28-32"] {
            assert_eq!(game.outcome(), None);
            game.play_text(mv).unwrap();
        }
        assert_eq!(game.outcome().unwrap().winner, None);
    }

    #[test]
    fn checkers_specs_serialize_with_the_fen() {
        let spec = GameSpec::from_words("checkers", &["fen=W:WK30:B1", "moverule=25"]).unwrap();
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(
            json,
            r#"{"name":"checkers","start":"W:WK30:B1","repetition":3,"move_rule":25}"#
        );
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), spec);
        let bad = json.replace("WK30", "W33");
        let err = serde_json::from_str::<GameSpec>(&bad).unwrap_err();
        assert!(
            err.to_string().contains("'33' is not a square number"),
            "{err}"
        );
    }

    #[test]
    fn the_display_form_reads_back() {
        for spec in [
            GameSpec::from_words("mnk", &["width=9", "height=5", "line=4", "exact=yes"]).unwrap(),
            GameSpec::from_words("gomoku", &["exact=yes"]).unwrap(),
            GameSpec::from_words("uttt", &["tiebreak=codingame"]).unwrap(),
            GameSpec::from_words("uttt", &["tiebreak=none"]).unwrap(),
            GameSpec::from_words("dots", &["rows=2", "cols=7"]).unwrap(),
            GameSpec::from_words::<&str>("dots", &[]).unwrap(),
            GameSpec::from_words::<&str>("checkers", &[]).unwrap(),
            GameSpec::from_words("checkers", &["fen=W:WK1-3:B9, K30-32", "moverule=7"]).unwrap(),
        ] {
            let text = spec.to_string();
            let mut words = text.split(' ');
            let name = words.next().unwrap();
            let params: Vec<&str> = words.collect();
            assert_eq!(GameSpec::from_words(name, &params).unwrap(), spec);
        }
    }

    #[test]
    fn uttt_has_a_tiebreak_and_nothing_else() {
        let default = GameSpec::from_words::<&str>("uttt", &[]).unwrap();
        assert_eq!(
            default,
            GameSpec::Uttt(UtttParams {
                tiebreak: UtttTiebreak::None
            })
        );
        assert_eq!(default.to_string(), "uttt tiebreak=none");
        assert_eq!(default.mnk_params(), None);
        let codingame = GameSpec::from_words("uttt", &["tiebreak=codingame"]).unwrap();
        assert_eq!(codingame.params(), [("tiebreak", "codingame".to_string())]);
        let err = GameSpec::from_words("uttt", &["tiebreak=draw"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "parameter 'tiebreak' of game 'uttt': 'draw' is not one of: none, codingame"
        );
        let err = GameSpec::from_words("uttt", &["size=9"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 'uttt' has no parameter 'size' (its parameters: tiebreak)"
        );
    }

    /// Records store the spec as JSON: the name tag with the parameters beside it.
    #[test]
    fn uttt_specs_serialize_flat() {
        let spec = GameSpec::from_words("uttt", &["tiebreak=codingame"]).unwrap();
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(json, r#"{"name":"uttt","tiebreak":"codingame"}"#);
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), spec);
    }

    #[test]
    fn dots_is_3x3_by_default_and_size_sets_both() {
        let default = GameSpec::from_words::<&str>("dots", &[]).unwrap();
        assert_eq!(default, GameSpec::Dots(DotsParams { rows: 3, cols: 3 }));
        assert_eq!(default.to_string(), "dots rows=3 cols=3");
        assert_eq!(
            GameSpec::from_words("dots", &["size=5", "cols=2"])
                .unwrap()
                .to_string(),
            "dots rows=5 cols=2"
        );
        assert_eq!(
            GameSpec::from_words("dots", &["rows=1", "cols=10"])
                .unwrap()
                .params(),
            [("rows", "1".to_string()), ("cols", "10".to_string())]
        );
        assert_eq!(default.mnk_params(), None);
        let json = serde_json::to_string(&default).unwrap();
        assert_eq!(json, r#"{"name":"dots","rows":3,"cols":3}"#);
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), default);
        let mut game = default.new_game();
        assert_eq!(game.legal_moves_text().len(), 24);
        assert_eq!(game.scores(), Some([0, 0]));
        assert_eq!(game.play_text("V 3 2").unwrap(), "v 3 2");
        assert_eq!(
            GameSpec::from_words("dots", &["size=2"]).unwrap().perft(2),
            12 * 11
        );
    }

    #[test]
    fn dots_boards_outside_1_to_10_are_refused_with_the_range() {
        for (word, key) in [("rows=0", "rows"), ("cols=11", "cols"), ("size=-1", "size")] {
            let value = word.split_once('=').unwrap().1;
            assert_eq!(
                GameSpec::from_words("dots", &[word])
                    .unwrap_err()
                    .to_string(),
                format!(
                    "parameter '{key}' of game 'dots': '{value}' is not a whole number from 1 to 10"
                )
            );
        }
        let err = GameSpec::from_words("dots", &["rows=three"]).unwrap_err();
        assert!(err.to_string().contains("from 1 to 10"), "{err}");
        let err = GameSpec::from_words("dots", &["width=4"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 'dots' has no parameter 'width' (its parameters: size, rows, cols)"
        );
    }
}
