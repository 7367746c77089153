//! Level 2 for m,n,k games: complete a line if possible, otherwise block the opponent's
//! winning square, otherwise the move that most improves the balance of live windows (one's
//! own runs lengthened, the opponent's cut), at random among equals.

use super::board::Threats;
use super::BoardSlot;
use crate::bots::{Brain, Budget};
use crate::games::mnk::{Mnk, Square};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

pub struct GreedyBrain {
    rng: StdRng,
    board: BoardSlot,
    candidates: Vec<Square>,
    best: Vec<Square>,
}

impl GreedyBrain {
    pub fn new(seed: u64) -> GreedyBrain {
        GreedyBrain {
            rng: StdRng::seed_from_u64(seed),
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
            (Threats::None, Threats::One(block) | Threats::Several(block)) => block,
            (Threats::None, Threats::None) => {
                self.candidates.clear();
                board.candidates(&mut self.candidates);
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
