//! Level 2 for m,n,k games: complete a line if possible, otherwise block the opponent's
//! winning square, otherwise the move that most improves the balance of live windows (one's
//! own runs lengthened, the opponent's cut), at random among equals. In renju, Black never
//! plays a forbidden point, even to block.

use super::board::Threats;
use super::BoardSlot;
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::mnk::{Mnk, Square};
use referee_rules::seeded::SeededRng;

pub(crate) struct GreedyBrain {
    rng: SeededRng,
    board: BoardSlot,
    candidates: Vec<Square>,
    best: Vec<Square>,
}

impl GreedyBrain {
    pub(crate) fn new(seed: u64) -> GreedyBrain {
        GreedyBrain {
            rng: SeededRng::seed_from_u64(seed),
            board: BoardSlot::default(),
            candidates: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl Brain<Mnk> for GreedyBrain {
    fn choose(&mut self, game: &Mnk, _budget: &Budget) -> Square {
        let (board, _) = self.board.take(game);
        let me = board.side_to_move();
        let choice = match (board.threats(me), board.threats(me.opponent())) {
            (Threats::One(win) | Threats::Several(win), _) => win,
            (Threats::None, Threats::One(block) | Threats::Several(block))
                if !board.forbidden(block) =>
            {
                block
            }
            _ => {
                self.candidates.clear();
                board.candidates(&mut self.candidates);
                self.candidates.retain(|&square| !board.forbidden(square));
                if self.candidates.is_empty() {
                    // Every point near the stones is forbidden: any allowed point will do.
                    self.candidates.extend(board.allowed_moves());
                }
                let mut top = i32::MIN;
                self.best.clear();
                for &square in &self.candidates {
                    let gain = board.gain(square, me);
                    if gain > top {
                        top = gain;
                        self.best.clear();
                    }
                    if gain == top {
                        self.best.push(square);
                    }
                }
                *self.best.choose(&mut self.rng).expect("a candidate move")
            }
        };
        self.board.put(board);
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::tests::position;
    use referee_rules::games::mnk::Gomoku;
    use referee_rules::games::{Game, GameSpec};
    use std::time::{Duration, Instant};

    fn choice(game: &Mnk, seed: u64) -> String {
        let budget = Budget::fixed(Instant::now(), Duration::from_secs(1));
        game.format_move(GreedyBrain::new(seed).choose(game, &budget))
    }

    #[test]
    fn completes_a_line_rather_than_blocking() {
        // X: 0 0, 1 0 (wins at 2 0); O: 0 1, 1 1 (would win at 2 1). X to move.
        let game = position(GameSpec::Tictactoe, &["0 0", "0 1", "1 0", "1 1"]);
        for seed in 0..10 {
            assert_eq!(choice(&game, seed), "2 0");
        }
    }

    #[test]
    fn blocks_the_opponents_winning_square() {
        let gomoku = GameSpec::Gomoku(Gomoku::STANDARD);
        // O has four in column 3 (rows 3..6), open at both ends but one; X must take 3 7.
        let game = position(
            gomoku,
            &["3 2", "3 3", "10 10", "3 4", "11 11", "3 5", "12 10", "3 6"],
        );
        for seed in 0..10 {
            assert_eq!(choice(&game, seed), "3 7");
        }
    }

    #[test]
    fn opens_in_the_centre_of_tictactoe() {
        let game = position(GameSpec::Tictactoe, &[]);
        assert_eq!(choice(&game, 3), "1 1");
    }
}
