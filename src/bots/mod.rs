//! The referee's own bots. They run as separate processes (`referee bot NAME`), speaking the
//! same protocol over stdin/stdout as any contestant's bot, so they exercise exactly the path a
//! contestant's bot takes.

mod random;

use crate::games::{AnyGame, GameSpec};
use crate::protocol::{Ready, RefereeMessage};
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Names accepted after `builtin:` on the command line.
pub const BUILTIN_NAMES: [&str; 1] = ["random"];

/// How a built-in bot picks its move.
pub trait Strategy {
    /// Returns a legal move, in notation, for the side to move in `game`.
    fn choose(&mut self, game: &dyn AnyGame, time: Duration) -> String;
}

/// Why a built-in bot stopped playing.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("unknown built-in bot '{0}'")]
    Unknown(String),
    #[error("i/o with the referee failed: {0}")]
    Io(#[from] io::Error),
    #[error("the referee sent '{line}' but {problem}")]
    Protocol { line: String, problem: String },
}

fn strategy(name: &str, seed: u64) -> Result<Box<dyn Strategy>, BotError> {
    match name {
        "random" => Ok(Box::new(random::RandomMover::new(seed))),
        _ => Err(BotError::Unknown(name.to_string())),
    }
}

/// Plays as the built-in bot `name` until told to quit or the input ends.
pub fn run(
    name: &str,
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), BotError> {
    let mut strategy = strategy(name, seed)?;
    let mut game: Option<Box<dyn AnyGame>> = None;
    for line in input.lines() {
        let line = line?;
        let problem = |problem: String| BotError::Protocol {
            line: line.clone(),
            problem,
        };
        let message = RefereeMessage::parse(&line).map_err(|e| problem(e.to_string()))?;
        match message {
            RefereeMessage::Game(spec) => game = Some(GameSpec::new_game(&spec)),
            RefereeMessage::Played(mv) | RefereeMessage::Opponent(mv) => {
                let game = game
                    .as_mut()
                    .ok_or_else(|| problem("no game was set up".into()))?;
                game.play_text(&mv).map_err(|e| problem(e.to_string()))?;
            }
            RefereeMessage::Start => {
                let ready = Ready {
                    name: format!("referee-{name}"),
                    version: env!("CARGO_PKG_VERSION").to_string(),
                    multi_game: true,
                };
                writeln!(output, "{ready}")?;
                output.flush()?;
            }
            RefereeMessage::Turn { ms } => {
                let game = game
                    .as_mut()
                    .ok_or_else(|| problem("no game was set up".into()))?;
                let choice = strategy.choose(game.as_ref(), Duration::from_millis(ms));
                game.play_text(&choice)
                    .map_err(|e| problem(format!("my own move {choice} failed: {e}")))?;
                writeln!(output, "{choice}")?;
                output.flush()?;
            }
            RefereeMessage::Quit => return Ok(()),
            RefereeMessage::Referee { .. }
            | RefereeMessage::Side(_)
            | RefereeMessage::Time(_)
            | RefereeMessage::Legal(_)
            | RefereeMessage::OfferDraw
            | RefereeMessage::Result { .. } => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_a_scripted_exchange() {
        let input = "referee 1\ngame tictactoe\nside second\ntime move=1000\nstart\nopponent 1 1\nturn 1000\nresult loss resign\nquit\n";
        let mut output = Vec::new();
        run("random", 7, input.as_bytes(), &mut output).unwrap();
        let output = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(
            lines[0],
            format!("ready referee-random {} multi", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(lines.len(), 2);
        let mut game = GameSpec::Tictactoe.new_game();
        game.play_text("1 1").unwrap();
        assert!(game.play_text(lines[1]).is_ok(), "{} is legal", lines[1]);
    }

    #[test]
    fn refuses_nonsense_from_the_referee() {
        let mut output = Vec::new();
        let err = run("random", 1, "opponent 1 1\n".as_bytes(), &mut output).unwrap_err();
        assert!(err.to_string().contains("no game was set up"), "{err}");
    }
}
