//! Adapters: seats for bots written for other systems, run unchanged. Each adapter wraps a
//! [`BotProcess`], receives the referee's own messages from the arbiter like any seat, speaks
//! the bot's protocol to the process, and hands back the bot's move in the referee's notation
//! with the bot's timing (the clock runs from the flush of the request to the read of the line
//! that carries the move).
//!
//! The foreign protocols describe the board rather than the moves (riddles.io's `field`,
//! CodinGame's valid actions, Gomocup's `BOARD`), so an adapter keeps its own copy of the
//! position, through the rules in [`crate::games`]; it never judges a move (the arbiter does).

mod codingame;
mod gomocup;
mod gomocup_rule;
mod gomocup_swap2;
mod riddles;

use super::process::{BotProcess, SpawnError};
use super::process_options::ProcessOptions;
use super::supervisor::Supervisor;
use super::{Protocol, Seat};
use referee_rules::games::{Game, GameSpec, Side};
use referee_rules::protocol::trim_blanks;

pub use codingame::Codingame;
pub use gomocup::Gomocup;
pub use riddles::{Dialect, Riddles};

/// Starts `command` as a seat speaking `protocol`, a bot of `supervisor`. The games it is then
/// given must have passed [`check_game`] (as `run_match` makes sure): an adapter cannot express
/// any other. `seed` decides what the bot's own system leaves to chance (the order of
/// CodinGame's valid actions), so that the same seed replays the same game.
pub fn start(
    supervisor: &Supervisor,
    protocol: Protocol,
    command: &[String],
    options: ProcessOptions,
    seed: u64,
) -> Result<Box<dyn Seat + Send>, SpawnError> {
    let options = ProcessOptions {
        clock_start: protocol.clock_start(),
        ..options
    };
    let spawn = |options| BotProcess::spawn(supervisor, command, options);
    Ok(match protocol {
        Protocol::Native => Box::new(spawn(options)?),
        Protocol::Gomocup => Box::new(Gomocup::start(supervisor, command, options)?),
        Protocol::Codingame => Box::new(Codingame::new(spawn(options)?, seed)),
        Protocol::Theaigames => Box::new(Riddles::new(spawn(options)?, Dialect::THEAIGAMES)),
        Protocol::Riddles => Box::new(Riddles::new(spawn(options)?, Dialect::RIDDLES)),
    })
}

/// A game that a protocol cannot express: the user's mistake, reported before any bot starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{protocol} bots cannot play {game}: {reason}")]
pub struct UnsupportedGame {
    /// The protocol the player's bot speaks.
    pub protocol: Protocol,
    /// The game with its parameters, as the user would write it (`dots rows=3 cols=3`).
    pub game: String,
    /// Why the protocol cannot express it, for the user.
    pub reason: String,
}

/// The smallest and largest board side a Gomocup brain is asked to play on.
const GOMOCUP_SIDES: std::ops::RangeInclusive<u8> = 5..=20;

/// Checks that bots of `protocol` can play `spec` from `opening`.
pub fn check_game(
    protocol: Protocol,
    spec: &GameSpec,
    opening: &[String],
) -> Result<(), UnsupportedGame> {
    let refuse = |reason: &str| {
        Err(UnsupportedGame {
            protocol,
            game: spec.to_string(),
            reason: reason.to_string(),
        })
    };
    match protocol {
        Protocol::Native => Ok(()),
        Protocol::Gomocup => match spec.mnk_params() {
            Some(p)
                if p.line == 5
                    && GOMOCUP_SIDES.contains(&p.width)
                    && GOMOCUP_SIDES.contains(&p.height) =>
            {
                gomocup_swap2::check(p, opening).or_else(refuse)
            }
            _ => refuse(
                "Gomocup brains play five in a row only, on boards from 5x5 to 20x20 \
                 (gomoku, or mnk with line=5; exact=yes for exactly five)",
            ),
        },
        Protocol::Codingame | Protocol::Theaigames | Protocol::Riddles
            if !matches!(spec, GameSpec::Uttt(_)) =>
        {
            refuse("these bots play ultimate tic-tac-toe (uttt) only")
        }
        Protocol::Codingame if !opening.is_empty() => refuse(
            "CodinGame bots are told only the opponent's last move, so they cannot start \
             from an opening",
        ),
        Protocol::Codingame | Protocol::Theaigames | Protocol::Riddles => Ok(()),
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

    #[test]
    fn protocols_are_matched_with_their_games() {
        let gomoku = spec("gomoku", &[]);
        let uttt = spec("uttt", &[]);
        for protocol in Protocol::ALL {
            let uttt_bot = matches!(
                protocol,
                Protocol::Native | Protocol::Codingame | Protocol::Theaigames | Protocol::Riddles
            );
            assert_eq!(check_game(protocol, &uttt, &[]).is_ok(), uttt_bot);
            let gomoku_bot = matches!(protocol, Protocol::Native | Protocol::Gomocup);
            assert_eq!(check_game(protocol, &gomoku, &[]).is_ok(), gomoku_bot);
        }
        for ok in [
            spec("gomoku", &["exact=yes"]),
            spec("mnk", &["size=5"]),
            spec("mnk", &["width=20", "height=6"]),
        ] {
            assert!(check_game(Protocol::Gomocup, &ok, &[]).is_ok(), "{ok}");
        }
        for refused in [
            spec("tictactoe", &[]),
            spec("mnk", &["size=15", "line=4"]),
            spec("mnk", &["width=20", "height=4"]),
            spec("checkers", &[]),
        ] {
            let error = check_game(Protocol::Gomocup, &refused, &[]).unwrap_err();
            assert!(error.to_string().contains("five in a row only"), "{error}");
        }
        let error = check_game(Protocol::Riddles, &spec("dots", &[]), &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "riddles bots cannot play dots rows=3 cols=3: these bots play ultimate \
             tic-tac-toe (uttt) only"
        );
        let opening = ["4 4".to_string()];
        assert!(check_game(Protocol::Codingame, &uttt, &opening).is_err());
        assert!(check_game(Protocol::Riddles, &uttt, &opening).is_ok());
        assert!(check_game(Protocol::Gomocup, &gomoku, &opening).is_ok());
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
