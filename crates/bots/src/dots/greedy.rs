//! Level 2 for dots and boxes: take every box offered; otherwise draw a line that gives nothing
//! away while there is one; otherwise give away as few boxes as possible. Random among equals.

use super::coins::{Coins, LineBits, WideBits};
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::dots::{Dots, Line};
use referee_rules::seeded::SeededRng;

/// The greedy dots-and-boxes bot (level 2): deterministic given its seed, and instant.
pub struct DotsGreedy {
    rng: SeededRng,
    /// The whole board's view, built for the board being played.
    coins: Option<Coins>,
    candidates: Vec<u8>,
}

impl DotsGreedy {
    /// A greedy bot whose choices between equal lines follow `seed`.
    pub fn new(seed: u64) -> DotsGreedy {
        DotsGreedy {
            rng: SeededRng::seed_from_u64(seed),
            coins: None,
            candidates: Vec::new(),
        }
    }
}

impl Brain<Dots> for DotsGreedy {
    fn choose(&mut self, game: &Dots, _budget: &Budget) -> Line {
        let coins = Coins::whole_board_kept(&mut self.coins, game);
        let drawn: WideBits = coins.drawn_in(game);
        let free = || (0..coins.line_count() as u8).filter(|&line| !drawn.has(line));
        self.candidates.clear();
        self.candidates
            .extend(coins.captures(drawn).map(|(line, _)| line));
        if self.candidates.is_empty() {
            self.candidates
                .extend(free().filter(|&line| coins.is_safe(drawn, line)));
        }
        if self.candidates.is_empty() {
            let least = free()
                .map(|line| coins.given_away(drawn, line))
                .min()
                .expect("the game is not over");
            self.candidates
                .extend(free().filter(|&line| coins.given_away(drawn, line) == least));
        }
        let line = *self
            .candidates
            .choose(&mut self.rng)
            .expect("the game is not over");
        coins.global(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use referee_rules::games::dots::DotsParams;
    use referee_rules::games::Game;
    use std::time::{Duration, Instant};

    /// Sides already drawn of each box beside `line`, read from the rules engine itself.
    fn sides_beside(game: &Dots, line: Line) -> Vec<u8> {
        game.boxes_beside(line)
            .into_iter()
            .flatten()
            .map(|(col, row)| game.sides_drawn(col, row))
            .collect()
    }

    /// Boxes the opponent takes after `line` if it takes every box it can, by playing it out.
    fn boxes_handed_over(game: &Dots, line: Line) -> u32 {
        let mut after = game.clone();
        after.play_unchecked(line);
        let taker = after.side_to_move();
        let before = after.box_counts()[taker.index()];
        let mut moves = Vec::new();
        loop {
            after.generate_moves(&mut moves);
            let Some(&take) = moves
                .iter()
                .find(|&&l| sides_beside(&after, l).contains(&3))
            else {
                break;
            };
            after.play_unchecked(take);
        }
        after.box_counts()[taker.index()] - before
    }

    #[test]
    fn takes_boxes_then_safe_lines_then_the_smallest_gift() {
        let budget = Budget::fixed(Instant::now(), Duration::from_secs(60));
        let mut brain = DotsGreedy::new(1);
        let mut rng = SeededRng::seed_from_u64(2);
        let mut moves = Vec::new();
        let mut seen = [0; 3];
        for size in [2, 3, 4, 5] {
            for _ in 0..30 {
                let mut game = Dots::new(DotsParams {
                    rows: size,
                    cols: size + 1,
                });
                while game.outcome().is_none() {
                    let choice = brain.choose(&game, &budget);
                    game.generate_moves(&mut moves);
                    assert!(moves.contains(&choice));
                    let capture = |l: &Line| sides_beside(&game, *l).contains(&3);
                    let safe = |l: &Line| sides_beside(&game, *l).iter().all(|&s| s < 2);
                    if moves.iter().any(capture) {
                        seen[0] += 1;
                        assert!(capture(&choice), "{}", game.render());
                    } else if moves.iter().any(safe) {
                        seen[1] += 1;
                        assert!(safe(&choice), "{}", game.render());
                    } else {
                        seen[2] += 1;
                        let least = moves.iter().map(|&l| boxes_handed_over(&game, l)).min();
                        assert_eq!(Some(boxes_handed_over(&game, choice)), least);
                    }
                    // Mostly the greedy line, so that games reach the end where every line
                    // gives boxes away.
                    if rng.gen_bool(0.8) {
                        game.play_unchecked(choice);
                    } else {
                        game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&count| count > 100), "{seen:?}");
    }

    #[test]
    fn the_seed_decides_among_equal_lines() {
        let game = Dots::new(DotsParams { rows: 3, cols: 3 });
        let budget = Budget::fixed(Instant::now(), Duration::from_secs(1));
        let lines = |seed| DotsGreedy::new(seed).choose(&game, &budget);
        let first: Vec<Line> = (0..20).map(lines).collect();
        assert_eq!(first, (0..20).map(lines).collect::<Vec<_>>());
        assert!(first.iter().any(|&line| line != first[0]));
    }
}
