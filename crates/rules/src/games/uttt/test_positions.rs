//! Positions and helpers shared by the ultimate tic-tac-toe tests.

use super::{Uttt, UtttParams, UtttTiebreak};
use crate::games::{AnyGame, Game};

/// X wins small board 0 (cells 0, 1, 2) while O plays the top-left cell of boards 1 and 2;
/// X's last mark sends O to board 0, which is decided.
pub(super) const X_WINS_BOARD_0: &str = "1 0, 3 0, 2 0, 6 0, 0 0";
/// Fills small board 4 without a line; X, who played last, is sent to board 5.
pub(super) const BOARD_4_FULL: &str =
    "4 4, 4 3, 3 1, 1 4, 3 3, 1 1, 3 4, 2 4, 7 4, 3 5, 1 6, 4 1, 5 3, \
     7 1, 4 5, 5 8, 7 7, 5 5, 6 7, 0 5, 1 7, 5 4";
/// X's last mark is the ninth in small board 3 and completes column 1 of it.
pub(super) const BOARD_3_FILLED_BY_A_WIN: &str =
    "2 4, 8 4, 6 4, 2 3, 6 1, 2 5, 6 6, 0 1, 1 5, 3 7, \
     1 3, 3 1, 0 5, 0 7, 0 3, 1 1, 3 4, 0 4, 1 4";
/// X wins small boards 0, 1 and 2: the top row of the big board.
pub(super) const X_TOP_ROW: &str =
    "3 2, 0 6, 2 0, 8 0, 8 1, 6 3, 1 1, 5 3, 6 1, 0 3, 0 1, 1 3, 5 1, \
     7 3, 5 0, 7 0, 5 2, 6 6, 0 2, 2 6, 7 1";
/// No move left, no line: X won boards 2 3 4 8, O won 0 1 5 6 7.
pub(super) const O_MORE_BOARDS: &str =
    "4 3, 3 0, 1 0, 5 2, 8 8, 8 6, 7 0, 4 1, 4 5, 5 8, 8 7, 8 4, \
     6 3, 2 0, 6 0, 1 1, 4 4, 4 7, 4 8, 5 6, 8 0, 6 4, 0 5, 0 6, \
     0 0, 0 2, 1 7, 1 6, 6 7, 1 4, 6 6, 1 8, 3 8, 2 6, 0 3, 7 4, \
     7 7, 4 6, 1 3, 2 4, 1 5, 5 7, 2 5";
/// No move left, no line: X won boards 0 2 3 4 7, O won 1 5 6 8.
pub(super) const X_MORE_BOARDS: &str =
    "3 8, 0 6, 2 0, 8 0, 7 0, 4 2, 5 8, 6 6, 0 0, 1 1, 3 3, 1 2, \
     4 8, 7 4, 5 5, 6 7, 1 3, 4 0, 5 0, 6 0, 1 0, 4 1, 4 4, 6 4, \
     0 3, 1 8, 2 8, 7 6, 0 5, 2 6, 7 1, 1 6, 7 3, 8 6, 8 1, 6 5, \
     2 4, 6 3, 1 5, 6 2, 6 1, 1 4, 2 3";
/// No move left, no line: four boards each (X 1 2 3 4, O 0 5 6 7), board 8 full.
pub(super) const EQUAL_BOARDS: &str =
    "3 2, 1 6, 4 2, 5 6, 6 0, 2 2, 8 7, 6 4, 2 5, 6 7, 1 5, 4 7, \
     5 3, 6 1, 0 5, 0 7, 5 1, 6 3, 0 1, 3 8, 0 8, 2 6, 7 1, 5 4, \
     8 4, 7 3, 3 1, 8 3, 8 2, 7 6, 5 2, 8 8, 6 6, 1 1, 3 3, 0 0, \
     3 5, 0 6, 4 4, 8 6, 7 7, 7 8, 6 8";

pub(super) const CODINGAME: UtttParams = UtttParams {
    tiebreak: UtttTiebreak::Codingame,
};

pub(super) fn after(params: UtttParams, moves: &str) -> Uttt {
    let mut game = Uttt::new(params);
    for mv in moves.split(',').filter(|mv| !mv.trim().is_empty()) {
        AnyGame::play_text(&mut game, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

pub(super) fn legal(game: &Uttt) -> Vec<String> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    moves.iter().map(|&mv| game.format_move(mv)).collect()
}
