//! The start and draw rules of a checkers game, read from `key=value` parameters.

use super::fen::FenError;
use super::position::{colour_name, Position};
use crate::games::param_reader::{ParamError, ParamReader};
use serde::{Deserialize, Serialize};

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

/// The position of `fen`, if a game can start from it: one whose side to move has no move
/// would be over before its first move, each game of a match decided by the FEN alone.
fn playable(fen: &str) -> Result<Position, String> {
    let start: Position = fen.parse().map_err(|e: FenError| e.to_string())?;
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    if moves.is_empty() {
        return Err(format!(
            "in '{fen}' {}, to move, has no move: a game from it would be over before it began",
            colour_name(start.to_move)
        ));
    }
    Ok(start)
}

impl CheckersParams {
    /// Reads `fen`, `repetition` and `moverule`, each its default unless given.
    pub(crate) fn read(reader: &mut ParamReader) -> Result<CheckersParams, ParamError> {
        let defaults = CheckersParams::default();
        let start = match reader.take("fen") {
            None => defaults.start,
            Some(fen) => playable(&fen).map_err(|message| reader.bad("fen", message))?,
        };
        let repetition = reader.number("repetition", 2..=10, 3)?;
        let move_rule = reader.number("moverule", 0..=200, 40)?;
        Ok(CheckersParams {
            start,
            repetition: repetition as u32,
            move_rule: move_rule as u32,
        })
    }

    /// Every parameter with its value, in the order a bot is told them; the FEN in full.
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("fen", self.start.to_fen()),
            ("repetition", self.repetition.to_string()),
            ("moverule", self.move_rule.to_string()),
        ]
    }
}
