//! Adapters: seats for bots written for other systems, run unchanged. Each adapter wraps a
//! [`BotProcess`], receives the referee's own messages from the arbiter like any seat, speaks
//! the bot's protocol to the process, and hands back the bot's move in the referee's notation
//! with the bot's timing (the clock runs from the flush of the request to the read of the line
//! that carries the move).
//!
//! The foreign protocols describe the board rather than the moves (riddles.io's `field`,
//! CodinGame's valid actions, Gomocup's `BOARD`), so an adapter keeps its own copy of the
//! position, through the rules in [`referee_rules::games`]; it never judges a move (the arbiter does).

mod codingame;
mod gomocup;
mod gomocup_rule;
mod gomocup_swap2;
mod riddles;

use super::process::{BotProcess, SpawnError};
use super::process_options::{ClockStart, ProcessOptions};
use super::supervisor::Supervisor;
use super::{Protocol, Seat};
use referee_rules::games::{Game, GameSpec, Side};
use referee_rules::protocol::trim_blanks;
use std::time::Duration;

/// What the referee knows of a protocol a bot's program may speak. Each foreign protocol's
/// file defines one beside its adapter.
pub struct Definition {
    /// The name used as a player's prefix (`gomocup:./pbrain-x`) and in configurations.
    pub name: &'static str,
    /// The least margin past a move's limit that the protocol's own managers allow; a player
    /// gets the referee's margin when that is larger.
    pub margin_floor: Duration,
    /// When a move's clock starts for its bots.
    pub clock_start: ClockStart,
    /// Refuses, saying why, a game (from an opening) that the protocol cannot express.
    pub check_game: fn(&GameSpec, &[String]) -> Result<(), String>,
    /// Starts a bot's program as a seat speaking the protocol (its options' clock start
    /// already set); `seed` decides what the bot's own system leaves to chance.
    pub start: StartFn,
}

/// How a protocol's seat is started: by `supervisor`, its command line, its options and seed.
pub type StartFn =
    fn(&Supervisor, &[String], ProcessOptions, u64) -> Result<Box<dyn Seat + Send>, SpawnError>;

/// The protocols, the referee's own first. Adding a protocol is a file of its own in this
/// folder (its adapter and its [`Definition`]) and a line here.
pub const PROTOCOLS: [&Definition; 5] = [
    &NATIVE,
    &gomocup::GOMOCUP,
    &codingame::CODINGAME,
    &riddles::THEAIGAMES,
    &riddles::RIDDLES,
];

/// The referee's own protocol (protocol.md): no adapter between the bot and the arbiter.
pub const NATIVE: Definition = Definition {
    name: "native",
    margin_floor: Duration::ZERO,
    clock_start: ClockStart::Written,
    check_game: |_, _| Ok(()),
    start: |supervisor, command, options, _| {
        Ok(Box::new(BotProcess::spawn(supervisor, command, options)?))
    },
};

/// A game that a protocol cannot express: the user's mistake, reported before any bot starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{protocol} bots cannot play {game}: {reason}")]
pub struct UnsupportedGame {
    /// The protocol of the bot that cannot play the game.
    pub protocol: Protocol,
    /// The game, as its specification is written.
    pub game: String,
    /// Why the protocol cannot express it.
    pub reason: String,
}

/// Refuses every game but ultimate tic-tac-toe, the only one CodinGame's, theaigames' and
/// riddles.io's bots were written for.
fn uttt_only(spec: &GameSpec) -> Result<(), String> {
    match spec {
        GameSpec::Uttt(_) => Ok(()),
        _ => Err("these bots play ultimate tic-tac-toe (uttt) only".into()),
    }
}

/// Plays a move given in the referee's notation on the adapter's copy of the position,
/// returning it and who played it; `None` when it cannot be played (an illegal move of the
/// bot's, which the arbiter rules on and which ends the game).
fn play_notation<G: Game>(game: &mut G, notation: &str) -> Option<(G::Move, Side)> {
    let side = game.side_to_move();
    let mv = game.parse_move(notation).ok()?;
    game.play(mv).ok()?;
    Some((mv, side))
}

/// A square as foreign protocols write it, two whole numbers (spaces and tabs around them
/// allowed, as around the words of a native bot's line).
fn number_pair(a: &str, b: &str) -> Option<(i64, i64)> {
    Some((
        referee_rules::games::parse_coordinate(trim_blanks(a))?,
        referee_rules::games::parse_coordinate(trim_blanks(b))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, params: &[&str]) -> GameSpec {
        GameSpec::from_words(name, params).unwrap()
    }

    fn protocol(name: &str) -> Protocol {
        name.parse().unwrap()
    }

    fn check_game(name: &str, spec: &GameSpec, opening: &[String]) -> Result<(), UnsupportedGame> {
        protocol(name).check_game(spec, opening)
    }

    #[test]
    fn protocols_are_matched_with_their_games() {
        let gomoku = spec("gomoku", &[]);
        let uttt = spec("uttt", &[]);
        for protocol in Protocol::all() {
            let name = protocol.name();
            let uttt_bot = ["native", "codingame", "theaigames", "riddles"].contains(&name);
            assert_eq!(check_game(name, &uttt, &[]).is_ok(), uttt_bot);
            let gomoku_bot = ["native", "gomocup"].contains(&name);
            assert_eq!(check_game(name, &gomoku, &[]).is_ok(), gomoku_bot);
        }
        for ok in [
            spec("gomoku", &["exact=yes"]),
            spec("mnk", &["size=5"]),
            spec("mnk", &["width=20", "height=6"]),
        ] {
            assert!(check_game("gomocup", &ok, &[]).is_ok(), "{ok}");
        }
        for refused in [
            spec("tictactoe", &[]),
            spec("mnk", &["size=15", "line=4"]),
            spec("mnk", &["width=20", "height=4"]),
            spec("checkers", &[]),
        ] {
            let error = check_game("gomocup", &refused, &[]).unwrap_err();
            assert!(error.to_string().contains("five in a row only"), "{error}");
        }
        let error = check_game("riddles", &spec("dots", &[]), &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "riddles bots cannot play dots rows=3 cols=3: these bots play ultimate \
             tic-tac-toe (uttt) only"
        );
        let opening = ["4 4".to_string()];
        assert!(check_game("codingame", &uttt, &opening).is_err());
        assert!(check_game("riddles", &uttt, &opening).is_ok());
        assert!(check_game("gomocup", &gomoku, &opening).is_ok());
    }

    #[test]
    fn the_registry_names_each_protocol_once_and_reads_back_its_names() {
        let names: Vec<&str> = Protocol::all().map(Protocol::name).collect();
        assert_eq!(names[0], "native", "the referee's own protocol comes first");
        for name in &names {
            assert_eq!(names.iter().filter(|other| other == &name).count(), 1);
            let json = serde_json::to_string(&protocol(name)).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Protocol>(&json).unwrap(),
                protocol(name)
            );
        }
        let error = "piskvork".parse::<Protocol>().unwrap_err().to_string();
        assert!(error.contains(&names.join(", ")), "{error}");
        assert_eq!(
            protocol("gomocup").margin(Duration::from_millis(10)),
            Duration::from_secs(1)
        );
        assert_eq!(protocol("codingame").clock_start(), ClockStart::Read);
    }

    #[test]
    fn squares_of_foreign_protocols() {
        assert_eq!(number_pair("7", " 8 "), Some((7, 8)));
        assert_eq!(number_pair("-1", "3"), Some((-1, 3)));
        for (a, b) in [("7", ""), ("a", "b"), ("7", "8,9"), ("7.0", "1")] {
            assert_eq!(number_pair(a, b), None, "{a} {b}");
        }
    }
}
