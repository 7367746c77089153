//! The built-in bots of the m,n,k family (tic-tac-toe, gomoku, any m,n,k board): level 2 plays
//! the best move one ply ahead, level 3 searches under the clock. Both see the position through
//! [`board::Board`], the rules engine's board plus live-window counts that give threats and an
//! evaluation.

mod board;
mod greedy;
mod search;
mod swap;
mod table;
mod threat_space;

#[cfg(test)]
mod rule_tests;

pub(crate) use greedy::GreedyBrain;
pub(crate) use search::StrongBrain;
pub(crate) use swap::{Judgement, SwapBrain};

use board::Board;
use referee_rules::games::mnk::Mnk;

/// A board kept from move to move: its tables depend only on the game's parameters, which may
/// change from one game to the next.
#[derive(Default)]
struct BoardSlot(Option<Board>);

impl BoardSlot {
    /// The kept board set to `game`'s position (built anew when the parameters changed, which
    /// the second value tells), lent out until [`BoardSlot::put`].
    fn take(&mut self, game: &Mnk) -> (Board, bool) {
        let (mut board, rebuilt) = match self.0.take() {
            Some(board) if board.params() == game.params() => (board, false),
            _ => (Board::new(game.params()), true),
        };
        board.load(game);
        (board, rebuilt)
    }

    fn put(&mut self, board: Board) {
        self.0 = Some(board);
    }
}

#[cfg(test)]
mod tests {
    use referee_rules::games::mnk::Mnk;
    use referee_rules::games::{Game, GameSpec};

    /// The game of `spec` after `moves`, for the bots' tests.
    pub(super) fn position(spec: GameSpec, moves: &[&str]) -> Mnk {
        let mut game = Mnk::new(spec.mnk_params().unwrap());
        for mv in moves {
            let square = game.parse_move(mv).unwrap();
            game.play(square).unwrap();
        }
        game
    }
}
