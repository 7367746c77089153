//! Level 2 for checkers: every legal move is judged by the position it leaves, with the
//! evaluation, after the opponent's best immediate capture when it has one (captures are
//! mandatory, so it will have to take). A move that leaves the opponent without a move wins.
//! Equal moves are chosen between at random.

use super::eval::{evaluate, WIN};
use crate::bots::{Brain, Budget};
use crate::games::checkers::{Checkers, Move, Position};
use crate::games::Game;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub struct GreedyBrain {
    rng: StdRng,
    moves: Vec<Move>,
    replies: Vec<Move>,
    best: Vec<Move>,
}

impl GreedyBrain {
    pub fn new(seed: u64) -> GreedyBrain {
        GreedyBrain {
            rng: StdRng::seed_from_u64(seed),
            moves: Vec::new(),
            replies: Vec::new(),
            best: Vec::new(),
        }
    }

    /// What `after`, with the opponent to move, is worth to the player who just moved.
    fn judge(&mut self, after: &Position) -> i32 {
        after.legal_moves(&mut self.replies);
        if self.replies.is_empty() {
            return WIN;
        }
        if !after.must_capture() {
            return -evaluate(after);
        }
        self.replies
            .iter()
            .map(|&capture| {
                let mut next = *after;
                next.apply(capture);
                if next.can_move() {
                    evaluate(&next)
                } else {
                    -WIN
                }
            })
            .min()
            .expect("a capture to make")
    }
}

impl Brain<Checkers> for GreedyBrain {
    fn choose(&mut self, game: &Checkers, _budget: &Budget) -> Move {
        game.generate_moves(&mut self.moves);
        let position = game.position();
        let mut best_score = i32::MIN;
        self.best.clear();
        for i in 0..self.moves.len() {
            let mv = self.moves[i];
            let mut after = position;
            after.apply(mv);
            let score = self.judge(&after);
            if score > best_score {
                best_score = score;
                self.best.clear();
            }
            if score == best_score {
                self.best.push(mv);
            }
        }
        self.best[self.rng.gen_range(0..self.best.len())]
    }
}
