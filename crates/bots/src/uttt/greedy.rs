//! Level 2 for ultimate tic-tac-toe: one move of look-ahead with the game's basic knowledge.
//!
//! Every legal move is scored by what it does at once: win the game (always taken), let the
//! opponent win the game with its reply (avoided), take a small board, block a small board the
//! opponent could take, send the opponent to a board it can take at once or to a decided board
//! (which frees its choice). Ties are broken at random, with the seeded generator.

use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::uttt::{Square, Uttt};
use referee_rules::games::Game;
use referee_rules::seeded::SeededRng;

/// A move that ends the game in a loss (`tiebreak=codingame`: the last empty cell, with fewer
/// small boards).
const LOSES: i32 = -2000;
/// A move after which the opponent can win the game: only played when nothing else is left.
const LETS_OPPONENT_WIN: i32 = -1000;
const TAKES_A_BOARD: i32 = 100;
const BLOCKS_A_BOARD: i32 = 50;
/// Less than taking a board is worth, so a board is taken even if the reply takes one back.
const OPPONENT_TAKES_A_BOARD: i32 = -60;
const FREES_THE_OPPONENT: i32 = -20;

/// The greedy ultimate tic-tac-toe bot (level 2): deterministic given its seed, and instant.
pub struct UtttGreedy {
    rng: SeededRng,
    moves: Vec<Square>,
    replies: Vec<Square>,
    best: Vec<Square>,
}

impl UtttGreedy {
    /// A greedy bot whose choices between equal moves follow `seed`.
    pub fn new(seed: u64) -> UtttGreedy {
        UtttGreedy {
            rng: SeededRng::seed_from_u64(seed),
            moves: Vec::new(),
            replies: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The move's score, or `None` when it wins the game outright.
    fn score(&mut self, game: &Uttt, square: Square) -> Option<i32> {
        let me = game.side_to_move();
        let opponent = me.opponent();
        let mut after = *game;
        after.play_unchecked(square);
        if let Some(outcome) = after.outcome() {
            return match outcome.winner {
                Some(winner) if winner == me => None,
                Some(_) => Some(LOSES),
                None => Some(0),
            };
        }
        let mut score = 0;
        if game.completes_board(me, square) {
            score += TAKES_A_BOARD;
        }
        if game.completes_board(opponent, square) {
            score += BLOCKS_A_BOARD;
        }
        if after.forced_board().is_none() {
            score += FREES_THE_OPPONENT;
        }
        after.generate_moves(&mut self.replies);
        let mut takes_a_board = false;
        for &reply in &self.replies {
            if !after.completes_board(opponent, reply) {
                continue;
            }
            takes_a_board = true;
            let mut answered = after;
            answered.play_unchecked(reply);
            if answered
                .outcome()
                .is_some_and(|outcome| outcome.winner == Some(opponent))
            {
                return Some(score + LETS_OPPONENT_WIN);
            }
        }
        if takes_a_board {
            score += OPPONENT_TAKES_A_BOARD;
        }
        Some(score)
    }
}

impl Brain<Uttt> for UtttGreedy {
    fn choose(&mut self, game: &Uttt, _budget: &Budget) -> Square {
        let mut moves = std::mem::take(&mut self.moves);
        game.generate_moves(&mut moves);
        let mut best_score = i32::MIN;
        self.best.clear();
        for &square in &moves {
            let Some(score) = self.score(game, square) else {
                self.moves = moves;
                return square;
            };
            if score > best_score {
                best_score = score;
                self.best.clear();
            }
            if score == best_score {
                self.best.push(square);
            }
        }
        self.moves = moves;
        *self
            .best
            .choose(&mut self.rng)
            .expect("the game is not over")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use referee_rules::games::uttt::UtttParams;
    use referee_rules::games::Side;
    use std::time::{Duration, Instant};

    fn wins(game: &Uttt, square: Square, side: Side) -> bool {
        let mut after = *game;
        after.play_unchecked(square);
        after
            .outcome()
            .is_some_and(|outcome| outcome.winner == Some(side))
    }

    /// Whether the opponent can win the game with its reply to `square`.
    fn allows_a_win(game: &Uttt, square: Square) -> bool {
        let opponent = game.side_to_move().opponent();
        let mut after = *game;
        after.play_unchecked(square);
        let mut replies = Vec::new();
        after.generate_moves(&mut replies);
        replies.iter().any(|&reply| wins(&after, reply, opponent))
    }

    /// Every position of seeded random games, with the greedy brain's choice in it.
    fn positions_and_choices(games: u64, mut check: impl FnMut(&Uttt, Square)) {
        let budget = Budget::fixed(Instant::now(), Duration::from_secs(60));
        let mut brain = UtttGreedy::new(1);
        let mut rng = SeededRng::seed_from_u64(2);
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut game = Uttt::new(UtttParams::default());
            while game.outcome().is_none() {
                check(&game, brain.choose(&game, &budget));
                game.generate_moves(&mut moves);
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn takes_a_win_of_the_game_whenever_there_is_one() {
        let mut seen = 0;
        positions_and_choices(300, |game, choice| {
            let me = game.side_to_move();
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            if moves.iter().any(|&mv| wins(game, mv, me)) {
                seen += 1;
                assert!(wins(game, choice, me), "{}", game.render());
            }
        });
        assert!(seen > 50, "only {seen} positions with a win");
    }

    #[test]
    fn stops_the_opponents_win_when_it_can() {
        let mut seen = 0;
        positions_and_choices(300, |game, choice| {
            let me = game.side_to_move();
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            let threatened = moves.iter().any(|&mv| allows_a_win(game, mv));
            let safe = moves
                .iter()
                .any(|&mv| !allows_a_win(game, mv) && !wins(game, mv, me));
            if threatened && safe && !moves.iter().any(|&mv| wins(game, mv, me)) {
                seen += 1;
                assert!(!allows_a_win(game, choice), "{}", game.render());
            }
        });
        assert!(seen > 50, "only {seen} positions with a threat to stop");
    }

    #[test]
    fn takes_a_small_board_over_a_quiet_move() {
        let mut seen = 0;
        positions_and_choices(100, |game, choice| {
            let me = game.side_to_move();
            let opponent = me.opponent();
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            // Only positions where nothing weightier is at stake: no win, no loss, nothing to
            // block, no move that ends the game.
            let quiet = moves.iter().all(|&mv| {
                let mut after = *game;
                after.play_unchecked(mv);
                after.outcome().is_none()
                    && !allows_a_win(game, mv)
                    && !game.completes_board(opponent, mv)
            });
            if quiet && moves.iter().any(|&mv| game.completes_board(me, mv)) {
                seen += 1;
                assert!(game.completes_board(me, choice), "{}", game.render());
            }
        });
        assert!(seen > 20, "only {seen} positions with a board to take");
    }

    #[test]
    fn does_not_free_the_opponent_or_hand_it_a_board_without_need() {
        let mut seen = 0;
        positions_and_choices(100, |game, choice| {
            let me = game.side_to_move();
            let opponent = me.opponent();
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            let harmless = |mv: Square| {
                let mut after = *game;
                after.play_unchecked(mv);
                let mut replies = Vec::new();
                after.generate_moves(&mut replies);
                // A move that ends the game (in a draw: nothing wins here) frees nobody.
                after.outcome().is_some()
                    || after.forced_board().is_some()
                        && !replies.iter().any(|&r| after.completes_board(opponent, r))
            };
            let plain = moves
                .iter()
                .all(|&mv| !game.completes_board(me, mv) && !game.completes_board(opponent, mv));
            if plain && moves.iter().any(|&mv| harmless(mv)) {
                seen += 1;
                assert!(harmless(choice), "{}", game.render());
            }
        });
        assert!(seen > 100, "only {seen} quiet positions");
    }

    #[test]
    fn the_seed_decides_among_equal_moves() {
        let game = Uttt::new(UtttParams::default());
        let budget = Budget::fixed(Instant::now(), Duration::from_secs(1));
        let first: Vec<Square> = (0..20)
            .map(|seed| UtttGreedy::new(seed).choose(&game, &budget))
            .collect();
        let again: Vec<Square> = (0..20)
            .map(|seed| UtttGreedy::new(seed).choose(&game, &budget))
            .collect();
        assert_eq!(first, again);
        assert!(first.iter().any(|&mv| mv != first[0]), "{first:?}");
    }
}
