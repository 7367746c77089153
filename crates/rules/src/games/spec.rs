//! The registry of games: which game to play and with which parameters, validated before any
//! bot is started. It is the one place that lists the games; everything else asks the game
//! itself through [`Variant`]. A new game brings its folder and is listed here: a variant of
//! [`GameSpec`], its name in [`GameSpec::NAMES`] and in `from_parts`, and its arm in `variant`.
//!
//! A spec is written as a name and `key=value` parameters, the same way on the command line
//! (`-p key=value`), in the protocol's `game` line and in records, so one parser serves all.

use super::checkers::CheckersParams;
use super::dots::DotsParams;
use super::mnk::{Gomoku, MnkParams, TICTACTOE};
use super::param_reader::{ParamError, ParamReader};
use super::uttt::UtttParams;
use super::{AnyGame, Geometry, Scenario, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A game name or parameter that cannot be played, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A name not in [`GameSpec::NAMES`], as given.
    #[error("unknown game '{0}' (known games: {known})", known = GameSpec::NAMES.join(", "))]
    UnknownGame(String),
    /// A parameter the game does not have, or a value it cannot play.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A parameter word without `=`, as given.
    #[error("parameter '{0}' must be written key=value")]
    NotKeyValue(String),
}

/// A validated game and its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum GameSpec {
    /// Tic-tac-toe: m,n,k on 3x3 with three in a row, and no parameters of its own.
    Tictactoe,
    /// Gomoku: five in a row on a square board.
    Gomoku(Gomoku),
    /// Any m,n,k game: board, line and rule set as given.
    Mnk(MnkParams),
    /// Ultimate tic-tac-toe.
    Uttt(UtttParams),
    /// Dots and boxes.
    Dots(DotsParams),
    /// English checkers.
    Checkers(CheckersParams),
}

impl GameSpec {
    /// Every game's name, as written in specs; an unknown name is answered with this list.
    pub const NAMES: [&'static str; 6] = ["tictactoe", "gomoku", "mnk", "uttt", "dots", "checkers"];

    /// Builds a spec from a name and `key=value` pairs; unknown keys and out-of-range values are
    /// refused with a message that names the allowed range.
    pub fn from_parts<K: AsRef<str>, V: AsRef<str>>(
        name: &str,
        params: &[(K, V)],
    ) -> Result<GameSpec, SpecError> {
        let mut reader = ParamReader::new(name, params);
        let spec = match name {
            "tictactoe" => {
                TICTACTOE.read(&mut reader)?;
                GameSpec::Tictactoe
            }
            "gomoku" => GameSpec::Gomoku(Gomoku::read(&mut reader)?),
            "mnk" => GameSpec::Mnk(MnkParams::read(&mut reader)?),
            "uttt" => GameSpec::Uttt(UtttParams::read(&mut reader)?),
            "dots" => GameSpec::Dots(DotsParams::read(&mut reader)?),
            "checkers" => GameSpec::Checkers(CheckersParams::read(&mut reader)?),
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

    /// The same game with some parameters changed, such as a check scenario's.
    pub fn with_params(&self, changes: &[(&str, String)]) -> Result<GameSpec, SpecError> {
        let mut params: Vec<(&str, String)> = self.params();
        params.extend_from_slice(changes);
        GameSpec::from_parts(self.name(), &params)
    }

    /// The game's name, as written in specs and in [`GameSpec::NAMES`].
    pub fn name(&self) -> &'static str {
        match self {
            GameSpec::Tictactoe => "tictactoe",
            GameSpec::Gomoku(_) => "gomoku",
            GameSpec::Mnk(_) => "mnk",
            GameSpec::Uttt(_) => "uttt",
            GameSpec::Dots(_) => "dots",
            GameSpec::Checkers(_) => "checkers",
        }
    }

    /// The game behind the spec, which answers everything else asked of it.
    fn variant(&self) -> &dyn Variant {
        match self {
            GameSpec::Tictactoe => &TICTACTOE,
            GameSpec::Gomoku(gomoku) => gomoku,
            GameSpec::Mnk(params) => params,
            GameSpec::Uttt(params) => params,
            GameSpec::Dots(params) => params,
            GameSpec::Checkers(params) => params,
        }
    }

    /// Every parameter with its value, defaults included, in a fixed order: what a bot is told.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        self.variant().params()
    }

    /// Whether every move is written as one word (checkers' `11-15`), so that a line of moves
    /// can be split on spaces; the other games' moves have spaces inside (`4 4`, `h 0 1`).
    pub fn moves_are_single_words(&self) -> bool {
        self.variant().moves_are_single_words()
    }

    /// Whether a player may offer a draw with its move (checkers, as in tournament play).
    pub fn allows_draw_offers(&self) -> bool {
        self.variant().allows_draw_offers()
    }

    /// The board of an m,n,k game (tic-tac-toe and gomoku included); `None` for other games.
    pub fn mnk_params(&self) -> Option<MnkParams> {
        match *self {
            GameSpec::Tictactoe => Some(TICTACTOE.params),
            GameSpec::Gomoku(gomoku) => Some(gomoku.params()),
            GameSpec::Mnk(params) => Some(params),
            _ => None,
        }
    }

    /// The starting position.
    pub fn new_game(&self) -> Box<dyn AnyGame> {
        self.variant().new_game()
    }

    /// Counts the leaf positions `depth` moves from the start (see [`perft`](fn@super::perft)).
    pub fn perft(&self, depth: u32) -> u64 {
        self.variant().perft(depth)
    }

    /// How the board's squares are laid out, for naming them at the console.
    pub fn geometry(&self) -> Geometry {
        self.variant().geometry()
    }

    /// What the first and the second player are called, as the game's drawing shows them.
    pub fn side_names(&self) -> [&'static str; 2] {
        self.variant().side_names()
    }

    /// The edge cases `referee check` plays besides a game from the start as each side; a
    /// scenario's parameters apply through [`GameSpec::with_params`].
    pub fn check_scenarios(&self) -> Vec<Scenario> {
        self.variant().check_scenarios()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::uttt::UtttTiebreak;

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
    fn gomoku_takes_gomocups_board_sizes_and_its_game_line_reads_back() {
        let twenty = GameSpec::from_words("gomoku", &["size=20"]).unwrap();
        assert_eq!(
            twenty.to_string(),
            "gomoku width=20 height=20 line=5 exact=no"
        );
        assert_eq!(twenty.mnk_params().unwrap().width, 20);
        let words: Vec<String> = twenty
            .params()
            .into_iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        assert_eq!(GameSpec::from_words("gomoku", &words).unwrap(), twenty);
        for refused in [
            &["width=20", "height=15"][..],
            &["size=20", "width=15"],
            &["line=6"],
        ] {
            assert!(
                GameSpec::from_words("gomoku", refused).is_err(),
                "{refused:?}"
            );
        }
        // Records written before the size could change read as 15x15.
        let old: GameSpec = serde_json::from_str(r#"{"name":"gomoku","exact":false}"#).unwrap();
        assert_eq!(old.mnk_params().unwrap().width, 15);
        let json = serde_json::to_string(&twenty).unwrap();
        assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), twenty);
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
        // A position whose side to move cannot move would end every game before it began.
        let err = GameSpec::from_words("checkers", &["fen=W:W:B1"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "parameter 'fen' of game 'checkers': in 'W:W:B1' White, to move, has no move: a \
             game from it would be over before it began"
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
