//! Level 2 for checkers: every legal move is judged by the position it leaves, with the
//! evaluation, after the opponent's best immediate capture when it has one (captures are
//! mandatory, so it will have to take). A move that leaves the opponent without a move wins;
//! one that goes back to a position seen since the last man move or capture counts as a draw,
//! so a bot that is ahead does not shuffle its kings to and fro. Equal moves are chosen between
//! at random.

use super::eval::{evaluate, WIN};
use crate::{Brain, Budget};
use rand::{Rng, SeedableRng};
use referee_rules::games::checkers::{Checkers, Move, Position};
use referee_rules::games::Game;
use referee_rules::seeded::SeededRng;

/// The greedy checkers bot: deterministic given its seed, and instant.
pub struct GreedyBrain {
    rng: SeededRng,
    moves: Vec<Move>,
    replies: Vec<Move>,
    best: Vec<Move>,
    /// Hashes of the positions that could repeat.
    seen: Vec<u64>,
}

impl GreedyBrain {
    /// A greedy bot whose choices between equal moves follow `seed`.
    pub fn new(seed: u64) -> GreedyBrain {
        GreedyBrain {
            rng: SeededRng::seed_from_u64(seed),
            moves: Vec::new(),
            replies: Vec::new(),
            best: Vec::new(),
            seen: Vec::new(),
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
        self.seen.clear();
        self.seen
            .extend(game.repeatable_positions().map(|p| p.zobrist()));
        let mut best_score = i32::MIN;
        self.best.clear();
        for i in 0..self.moves.len() {
            let mv = self.moves[i];
            let mut after = position;
            after.apply(mv);
            let score = if self.seen.contains(&after.zobrist()) {
                0
            } else {
                self.judge(&after)
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// The moves greedy bots with several seeds choose in `fen`.
    fn choices(fen: &str) -> Vec<String> {
        choices_after(fen, &[])
    }

    /// The same after playing `moves` from `fen`.
    fn choices_after(fen: &str, moves: &[&str]) -> Vec<String> {
        let mut game = Checkers::from_fen(fen).unwrap();
        for text in moves {
            let mv = game.parse_move(text).unwrap();
            game.play(mv).unwrap();
        }
        let budget = Budget::fixed(Instant::now(), Duration::from_millis(100));
        let mut texts: Vec<String> = (0..12)
            .map(|seed| GreedyBrain::new(seed).choose(&game, &budget).to_string())
            .collect();
        texts.sort();
        texts.dedup();
        texts
    }

    #[test]
    fn takes_the_capture_that_is_not_taken_back() {
        // 14x23 is answered by 27x18; 14x21 keeps the man.
        assert_eq!(choices("B:W17,18,27,32:B1,14"), ["14x21"]);
    }

    #[test]
    fn does_not_hang_a_man() {
        // 14-18 would be jumped by 23x14.
        let moves = choices("B:W23:B12,14");
        assert!(!moves.contains(&"14-18".to_string()), "{moves:?}");
        assert!(!moves.is_empty());
    }

    #[test]
    fn wins_at_once_by_blocking_the_last_man() {
        // After 21-25 White's man on 29 can neither move nor jump.
        assert_eq!(choices("B:W29:B3,21,22"), ["21-25"]);
    }

    #[test]
    fn does_not_go_back_to_a_position_when_ahead() {
        // Out of the corner is the move of choice...
        assert_eq!(choices("B:WK27:BK4,K13"), ["4-8"]);
        // ...unless the king just came from there: 4-8 would repeat the starting position.
        let moves = choices_after("W:WK27:BK8,K13", &["27-31", "8-4", "31-27"]);
        assert!(!moves.contains(&"4-8".to_string()), "{moves:?}");
    }

    #[test]
    fn chooses_at_random_between_equal_moves() {
        // Some opening moves are valued alike; the seed decides between them.
        let moves = choices("B:W21-32:B1-12");
        assert!(moves.len() > 1, "{moves:?}");
    }
}
