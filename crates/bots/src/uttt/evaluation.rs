//! A static evaluation of an ultimate tic-tac-toe position: the side to move's expected result
//! (0 a loss, 1 a win), the logistic of a weighted sum of twenty-five features of the big board
//! and the small boards.
//!
//! The search mixes it into each playout's result ([`super::mcts`]): a playout is one noisy
//! sample of the position's worth, the evaluation a smooth guess from what the playout ignores.
//!
//! The weights were fitted by logistic regression on 289,514 positions from 6,000 games of the
//! strong bot against itself (3,000 iterations a move, the first 0 to 7 moves at random), each
//! labelled with its game's result for the side to move: `write_training_data` below wrote
//! them (seeds 1 and 2, 3,000 games each) and `benches/uttt_evaluation/fit.py` fitted the
//! weights (docs/builtin-bots.md, "A static evaluation"). The games were played by the bot
//! with the twenty features before these (a share of 0.3); writing them again plays it with
//! these, so the weights would come out a little different. The features of the chances on
//! the small boards (9 and 10 for each side, and 24 below) brought the held-out log loss from
//! 0.6383 to 0.6280 on the same games (a constant's 0.6931).

use super::playout::{Rollout, BOARD};
use super::small_board::{FILL_WHOLE, RANDOM_FILL_WINS, TERNARY, WINNING_CELLS};
use referee_rules::games::uttt::LINES;

/// Eleven features for each side, the side to move's first, then three of the side to move's
/// situation. For a side, a line of the big board is open when none of its boards is won by
/// the other side or drawn, a board is a threat when the side can take it in one move, and its
/// chance on a board is 1 if it won it, 0 if it is the other's or drawn, else
/// [`RANDOM_FILL_WINS`]:
///
/// 0. open lines holding none of its boards,
/// 1. open lines holding one,
/// 2. open lines holding two (the side threatens to win the game),
/// 3. boards won,
/// 4. whether it won the centre board,
/// 5. lines of feature 2 whose missing board is a threat,
/// 6. undecided boards that are threats,
/// 7. those counted once per open line through each,
/// 8. the share of the eight lines still open,
/// 9. the sum over the lines of the product of its chances on their boards,
/// 10. the sum of its chances on the undecided boards;
///
/// 22. whether play is free,
/// 23. whether the board the side to move is sent to is a threat for it,
/// 24. its chance on that board (0 when play is free).
pub(super) const FEATURES: usize = 25;
/// Features for each side, the first of [`FEATURES`].
const SIDE_FEATURES: usize = 11;

/// The weights of the features, then the bias (see the module's documentation).
const WEIGHTS: [f32; FEATURES + 1] = [
    // The side to move.
    0.017, 0.042, 0.344, -0.126, 0.025, 0.794, 0.102, 0.009, 0.050, 1.707, -0.102,
    // The other side.
    0.017, 0.015, -0.221, 0.072, -0.076, -0.543, -0.071, -0.009, -0.024, -1.402, 0.010,
    // Play free, sent to a threat, the chance there; the bias.
    0.633, -0.123, 0.065, -0.090,
];

/// For each board, the lines of the big board through it, as bits of [`LINES`]' indices.
const LINES_THROUGH: [u8; 9] = {
    let mut table = [0u8; 9];
    let mut board = 0;
    while board < 9 {
        let mut line = 0;
        while line < LINES.len() {
            if LINES[line] & 1 << board != 0 {
                table[board] |= 1 << line;
            }
            line += 1;
        }
        board += 1;
    }
    table
};

impl Rollout {
    /// The side to move's expected result, from 0 (a loss) to 1 (a win).
    pub(super) fn evaluation(&self) -> f32 {
        let sum = self
            .features()
            .iter()
            .zip(WEIGHTS)
            .map(|(feature, weight)| feature * weight)
            .sum::<f32>()
            + WEIGHTS[FEATURES];
        1.0 / (1.0 + (-sum).exp())
    }

    /// The features listed at [`FEATURES`].
    pub(super) fn features(&self) -> [f32; FEATURES] {
        let mut decided = 0u16;
        let mut threats = [0u16; 2];
        // Each side's chance on each board, as in the features' list.
        let mut chances = [[0f32; 9]; 2];
        for board in 0..9 {
            let shift = board * 9;
            let open = (self.playable >> shift & BOARD) as u16;
            if open == 0 {
                decided |= 1 << board;
                for (side, chances) in chances.iter_mut().enumerate() {
                    chances[board] = f32::from(u8::from(self.won[side] & 1 << board != 0));
                }
                continue;
            }
            let marks = self.marks.map(|marks| (marks >> shift & BOARD) as usize);
            for side in 0..2 {
                let (mine, theirs) = (marks[side], marks[side ^ 1]);
                if WINNING_CELLS[mine] & open != 0 {
                    threats[side] |= 1 << board;
                }
                let state = TERNARY[mine] + 2 * TERNARY[theirs];
                chances[side][board] =
                    f32::from(RANDOM_FILL_WINS[state as usize]) / f32::from(FILL_WHOLE);
            }
        }
        let mut features = [0f32; FEATURES];
        let sides = [self.to_move, self.to_move ^ 1];
        for (side, features) in sides
            .into_iter()
            .zip(features.chunks_exact_mut(SIDE_FEATURES))
        {
            let won = self.won[side];
            let blocked = decided & !won;
            let chances = &chances[side];
            let mut open_lines = 0u8;
            let mut winnable = 0;
            for (line, &cells) in LINES.iter().enumerate() {
                features[9] += (0..9)
                    .filter(|board| cells & 1 << board != 0)
                    .map(|board| chances[board])
                    .product::<f32>();
                if cells & blocked != 0 {
                    continue;
                }
                open_lines |= 1 << line;
                let held = (cells & won).count_ones() as usize;
                features[held.min(2)] += 1.0;
                if held == 2 && cells & !won & threats[side] != 0 {
                    winnable += 1;
                }
            }
            let through_threats: u32 = (0..9)
                .filter(|board| threats[side] & 1 << board != 0)
                .map(|board| (LINES_THROUGH[board] & open_lines).count_ones())
                .sum();
            features[3] = won.count_ones() as f32;
            features[4] = f32::from(won >> 4 & 1);
            features[5] = winnable as f32;
            features[6] = threats[side].count_ones() as f32;
            features[7] = through_threats as f32;
            features[8] = open_lines.count_ones() as f32 / 8.0;
            features[10] = (0..9)
                .filter(|board| decided & 1 << board == 0)
                .map(|board| chances[board])
                .sum();
        }
        let situation = &mut features[2 * SIDE_FEATURES..];
        situation[0] = f32::from(u8::from(self.forced.is_none()));
        if let Some(board) = self.forced {
            situation[1] = f32::from(u8::from(threats[self.to_move] & 1 << board != 0));
            situation[2] = chances[self.to_move][board as usize];
        }
        features
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uttt::playout::PlayoutRng;
    use crate::uttt::UtttMcts;
    use crate::{Brain, Budget};
    use rand::{Rng, SeedableRng};
    use referee_rules::games::uttt::{Square, Uttt, UtttParams};
    use referee_rules::games::{Game, Side};
    use std::io::Write;

    /// The positions of `games` games of random moves, from `seed`.
    fn random_positions(games: u32, seed: u64) -> Vec<Uttt> {
        let mut rng = PlayoutRng::seed_from_u64(seed);
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut game = Uttt::new(UtttParams::default());
            while game.outcome().is_none() {
                positions.push(game);
                game.generate_moves(&mut moves);
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        positions
    }

    /// A map of the 9x9 grid's coordinates onto themselves.
    type Symmetry = fn(u8, u8) -> (u8, u8);

    #[test]
    fn symmetric_positions_have_the_same_features() {
        // A rotation and two reflections of the 9x9 grid, which generate all eight symmetries.
        let symmetries: [Symmetry; 3] = [|x, y| (8 - y, x), |x, y| (8 - x, y), |x, y| (y, x)];
        let mut rng = PlayoutRng::seed_from_u64(1);
        let mut moves = Vec::new();
        for _ in 0..30 {
            let mut game = Uttt::new(UtttParams::default());
            let mut images = [game; 3];
            while game.outcome().is_none() {
                let features = Rollout::new(&game).features();
                for image in &images {
                    assert_eq!(
                        Rollout::new(image).features(),
                        features,
                        "{}",
                        game.render()
                    );
                }
                game.generate_moves(&mut moves);
                let square = moves[rng.gen_range(0..moves.len())];
                game.play_unchecked(square);
                let (x, y) = Uttt::coordinates(square);
                for (image, symmetry) in images.iter_mut().zip(symmetries) {
                    let (x, y) = symmetry(x, y);
                    image
                        .play(Uttt::square(x, y))
                        .expect("a symmetry keeps moves legal");
                }
            }
        }
    }

    #[test]
    fn the_evaluation_agrees_with_playouts() {
        // Positions of random games, each with the mean result of 64 playouts for its side to
        // move: the evaluation was fitted to other positions and other results (real games),
        // yet should rank these much as the playouts do.
        let mut rng = PlayoutRng::seed_from_u64(2);
        let (mut evaluations, mut playouts) = (Vec::new(), Vec::new());
        for game in random_positions(40, 3).iter().step_by(3) {
            let rollout = Rollout::new(game);
            let me = game.side_to_move();
            let total: f32 = (0..64)
                .map(|_| result_for(me, rollout.play_out(&mut rng)))
                .sum();
            evaluations.push(rollout.evaluation());
            playouts.push(total / 64.0);
        }
        let correlation = correlation(&evaluations, &playouts);
        assert!(correlation > 0.5, "{correlation} over {}", playouts.len());
    }

    /// A game's result for `side` when `winner` won it: 1, 0.5 for a draw, or 0.
    fn result_for(side: Side, winner: Option<Side>) -> f32 {
        match winner {
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    fn correlation(a: &[f32], b: &[f32]) -> f32 {
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
        let (mean_a, mean_b) = (mean(a), mean(b));
        let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
        for (x, y) in a.iter().zip(b) {
            ab += (x - mean_a) * (y - mean_b);
            aa += (x - mean_a) * (x - mean_a);
            bb += (y - mean_b) * (y - mean_b);
        }
        ab / (aa * bb).sqrt()
    }

    /// Writes the training data of [`WEIGHTS`] for `benches/uttt_evaluation/fit.py`: one line
    /// per position, its game's number, its side to move's result (1, 0.5 or 0) and its
    /// features. Run by hand (docs/builtin-bots.md, "A static evaluation"):
    /// `UTTT_TRAINING=FILE,GAMES,SEED cargo test --release --lib write_training_data --
    /// --ignored`.
    #[test]
    #[ignore = "writes training data, by hand"]
    fn write_training_data() {
        let setting = std::env::var("UTTT_TRAINING").expect("UTTT_TRAINING=FILE,GAMES,SEED");
        let [file, games, seed] = setting.split(',').collect::<Vec<_>>()[..] else {
            panic!("UTTT_TRAINING=FILE,GAMES,SEED, not {setting}");
        };
        let games: u64 = games.parse().expect("GAMES, a number");
        let mut rng = PlayoutRng::seed_from_u64(seed.parse().expect("SEED, a number"));
        let mut out = std::io::BufWriter::new(std::fs::File::create(file).expect("FILE"));
        let mut moves = Vec::new();
        for number in 0..games {
            let mut game = Uttt::new(UtttParams::default());
            let mut brains = [UtttMcts::new(number * 2), UtttMcts::new(number * 2 + 1)];
            for side in Side::BOTH {
                brains[side.index()].new_game(&game, side);
            }
            let random_moves = rng.gen_range(0..8);
            let mut positions: Vec<(Side, [f32; FEATURES])> = Vec::new();
            let mut played = 0;
            while game.outcome().is_none() {
                if played > 0 {
                    let rollout = Rollout::new(&game);
                    positions.push((game.side_to_move(), rollout.features()));
                }
                game.generate_moves(&mut moves);
                let square: Square = if played < random_moves {
                    moves[rng.gen_range(0..moves.len())]
                } else {
                    let side = game.side_to_move().index();
                    brains[side].choose(&game, &Budget::nodes(3_000))
                };
                game.play_unchecked(square);
                played += 1;
            }
            let winner = game.outcome().and_then(|outcome| outcome.winner);
            for (side, features) in positions {
                let result = result_for(side, winner);
                let features: Vec<String> = features.iter().map(f32::to_string).collect();
                writeln!(out, "{number},{result},{}", features.join(",")).expect("FILE written");
            }
        }
    }
}
