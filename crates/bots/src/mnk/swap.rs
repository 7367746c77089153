//! The built-in bots in a swap opening (`swap=swap1|swap2`): the opening stones, the choice of
//! colour, then the level's own brain on the board once the colours are settled.
//!
//! The random level places its stones at random and picks one of the options it has (`swap`,
//! a stone, and under swap2 `x y more`) with equal odds. The greedy and strong levels open with
//! stones that keep the position as even as their evaluation can tell (so that the opponent
//! gains little by either colour), and at a choice compare the two colours: Black (`swap`),
//! valued as the position with White to move, against White, valued after the White stone
//! their own brain would play; they take the better. They never take swap2's third option.

use super::BoardSlot;
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use referee_rules::games::mnk::{Mnk, Square, SwapGame, SwapMove};
use referee_rules::games::Game;
use referee_rules::seeded::SeededRng;

/// How a swap brain opens and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// At random.
    Random,
    /// By the threat-aware evaluation of the position.
    Evaluated,
}

pub(crate) struct SwapBrain {
    judgement: Judgement,
    /// The level's brain, which plays once the colours are settled (and the White stone of a
    /// player that keeps White).
    board_brain: Box<dyn Brain<Mnk>>,
    board: BoardSlot,
    rng: SeededRng,
}

impl SwapBrain {
    pub(crate) fn new(
        judgement: Judgement,
        board_brain: Box<dyn Brain<Mnk>>,
        seed: u64,
    ) -> SwapBrain {
        SwapBrain {
            judgement,
            board_brain,
            board: BoardSlot::default(),
            rng: SeededRng::seed_from_u64(seed),
        }
    }

    fn random_square(&mut self, game: &Mnk) -> Square {
        let mut squares = Vec::new();
        game.generate_moves(&mut squares);
        *squares.choose(&mut self.rng).expect("the game goes on")
    }

    /// The static value of `game` for its side to move.
    fn value(&mut self, game: &Mnk) -> i32 {
        let (board, _) = self.board.take(game);
        let value = board.evaluate();
        self.board.put(board);
        value
    }

    /// An opening stone that leaves the position as even as the evaluation tells: the centre
    /// on an empty board, else the allowed square near the stones whose value (for the side to
    /// move next) is closest to zero.
    fn even_stone(&mut self, game: &Mnk) -> Square {
        let (mut board, _) = self.board.take(game);
        let mut candidates = Vec::new();
        board.candidates(&mut candidates);
        let allowed = board.allowed_moves();
        candidates.retain(|square| allowed.contains(square));
        candidates.shuffle(&mut self.rng);
        let params = game.params();
        let centre = game.square(params.width / 2, params.height / 2);
        let choice = if board.empty_squares() == board.squares() && allowed.contains(&centre) {
            centre
        } else {
            *candidates
                .iter()
                .min_by_key(|&&square| {
                    board.play(square);
                    let value = board.evaluate().abs();
                    board.undo();
                    value
                })
                .unwrap_or(&allowed[0])
        };
        self.board.put(board);
        choice
    }

    /// The choice of colour: `swap` (Black) or White's stone.
    fn choose_colour(&mut self, game: &SwapGame, budget: &Budget) -> SwapMove {
        let board = game.board();
        match self.judgement {
            Judgement::Random => {
                let options = if game.may_place_more() { 3 } else { 2 };
                match self.rng.gen_range(0..options) {
                    0 => SwapMove::Swap,
                    1 => SwapMove::Stone(self.random_square(board)),
                    _ => SwapMove::More(self.random_square(board)),
                }
            }
            Judgement::Evaluated => {
                // As Black, White moves next: Black's value is the opposite of White's.
                let as_black = -self.value(board);
                let stone = self.board_brain.choose(board, budget);
                let mut after = board.clone();
                after.play_unchecked(stone);
                let as_white = if after.outcome().is_some() {
                    i32::MAX
                } else {
                    -self.value(&after)
                };
                if as_black > as_white {
                    SwapMove::Swap
                } else {
                    SwapMove::Stone(stone)
                }
            }
        }
    }
}

impl Brain<SwapGame> for SwapBrain {
    fn new_game(&mut self, start: &SwapGame, side: referee_rules::games::Side) {
        self.board_brain.new_game(start.board(), side);
    }

    fn choose(&mut self, game: &SwapGame, budget: &Budget) -> SwapMove {
        if game.black().is_some() {
            return SwapMove::Stone(self.board_brain.choose(game.board(), budget));
        }
        if game.choosing() {
            return self.choose_colour(game, budget);
        }
        SwapMove::Stone(match self.judgement {
            Judgement::Random => self.random_square(game.board()),
            Judgement::Evaluated => self.even_stone(game.board()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::{GreedyBrain, StrongBrain};
    use referee_rules::games::{AnyGame, GameSpec};
    use std::time::{Duration, Instant};

    fn game(words: &[&str], moves: &[&str]) -> SwapGame {
        let spec = GameSpec::from_words("gomoku", words).unwrap();
        let mut game = SwapGame::new(spec.mnk_params().unwrap());
        for mv in moves {
            game.play_text(mv).unwrap();
        }
        game
    }

    fn budget() -> Budget {
        Budget::fixed(Instant::now(), Duration::from_millis(300))
    }

    fn brains() -> Vec<SwapBrain> {
        vec![
            SwapBrain::new(Judgement::Evaluated, Box::new(GreedyBrain::new(1)), 1),
            SwapBrain::new(Judgement::Evaluated, Box::new(StrongBrain::new(1)), 1),
        ]
    }

    #[test]
    fn an_opening_that_favours_black_is_swapped_and_one_that_favours_white_is_kept() {
        // Black has an open three: White to move must block, Black is better.
        let black_better = game(&["swap=swap1"], &["5 7", "0 0", "6 7"]);
        // ... with a Black stone on the edge far away and two White stones that are not
        // there: give White the centre instead.
        let white_better = game(&["swap=swap1"], &["0 0", "7 7", "14 14"]);
        for mut brain in brains() {
            assert_eq!(
                brain.choose(&black_better, &budget()),
                SwapMove::Swap,
                "{}",
                Game::render(&black_better)
            );
            let kept = brain.choose(&white_better, &budget());
            assert!(matches!(kept, SwapMove::Stone(_)), "{kept:?}");
        }
    }

    #[test]
    fn every_level_plays_the_whole_opening_with_legal_moves() {
        for swap in ["swap=swap1", "swap=swap2"] {
            let mut brains = brains();
            brains.push(SwapBrain::new(
                Judgement::Random,
                Box::new(crate::random::RandomBrain::new(3)),
                3,
            ));
            for mut brain in brains {
                let mut g = game(&[swap], &[]);
                while g.black().is_none() {
                    let mv = brain.choose(&g, &budget());
                    g.check_move(mv).unwrap();
                    g.play_unchecked(mv);
                }
                assert!(Game::colours(&g).is_some() && Game::outcome(&g).is_none());
            }
        }
    }

    #[test]
    fn the_random_level_takes_every_option() {
        let mut brain = SwapBrain::new(
            Judgement::Random,
            Box::new(crate::random::RandomBrain::new(5)),
            5,
        );
        let choice = game(&["swap=swap2"], &["7 7", "8 8", "7 8"]);
        let mut seen = [false; 3];
        for _ in 0..60 {
            seen[match brain.choose(&choice, &budget()) {
                SwapMove::Swap => 0,
                SwapMove::Stone(_) => 1,
                SwapMove::More(_) => 2,
            }] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
