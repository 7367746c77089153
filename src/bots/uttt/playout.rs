//! The strong bot's playouts: from a leaf of its tree to the end of the game, random moves but
//! for taking a small board whenever the player is sent to one where it can (at most nine moves
//! to look at), which makes their results much closer to real play than uniformly random moves.
//!
//! Whether a board can be taken is one lookup in [`WINNING_CELLS`] on the player's 9-bit marks
//! there, rather than a test of each empty cell. Heavier policies were measured against
//! OpenSpiel's MCTS and scored no better, or worse (README, "Ultimate tic-tac-toe against plain
//! MCTS"): also blocking the opponent's immediate win, avoiding sending it to a board it can
//! take or to a decided one, taking a board when play is free.

use super::small_board::WINNING_CELLS;
use crate::games::uttt::{Square, Uttt};
use crate::games::{Game, Side};
use crate::seeded::SeededRng;
use rand::Rng;

/// Plays `position` to its end with the policy; the winner, if any.
pub(super) fn play_out(mut position: Uttt, rng: &mut SeededRng) -> Option<Side> {
    loop {
        if let Some(outcome) = position.outcome() {
            return outcome.winner;
        }
        let square = policy_move(&position, rng);
        position.play_unchecked(square);
    }
}

/// The policy's move in `position` (the game not over).
pub(super) fn policy_move(position: &Uttt, rng: &mut SeededRng) -> Square {
    match position.forced_board() {
        Some(board) => {
            let open = position.playable_in(board);
            let marks = position.marks_in(position.side_to_move(), board);
            let cells = match WINNING_CELLS[marks as usize] & open {
                0 => open,
                wins => wins,
            };
            square_of(board, random_bit(cells, rng))
        }
        None => position.nth_move(rng.gen_range(0..position.move_count())),
    }
}

/// A random one of the set bits of `bits` (not 0).
fn random_bit(mut bits: u16, rng: &mut SeededRng) -> u8 {
    for _ in 0..rng.gen_range(0..bits.count_ones()) {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as u8
}

/// The square of cell `cell` of small board `board` (both numbered row by row).
fn square_of(board: u8, cell: u8) -> Square {
    Uttt::square(board % 3 * 3 + cell % 3, board / 3 * 3 + cell / 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::uttt::UtttParams;
    use rand::SeedableRng;
    use std::collections::HashSet;

    #[test]
    fn takes_the_board_it_is_sent_to_when_it_can_else_any_move() {
        let mut rng = SeededRng::seed_from_u64(7);
        let mut moves = Vec::new();
        // Positions where the policy must take a board, and where any move may come.
        let (mut taking, mut random) = (0, 0);
        for _ in 0..60 {
            let mut game = Uttt::new(UtttParams::default());
            while game.outcome().is_none() {
                game.generate_moves(&mut moves);
                let me = game.side_to_move();
                // Whether a board can be taken, as the rules see it (cell by cell, no table).
                let can_take = moves.iter().any(|&square| game.completes_board(me, square));
                if game.forced_board().is_some() && can_take {
                    let square = policy_move(&game, &mut rng);
                    assert!(moves.contains(&square), "{}", game.format_move(square));
                    assert!(game.completes_board(me, square), "{}", game.render());
                    taking += 1;
                } else if !can_take {
                    // Every legal move comes up, and nothing else.
                    let chosen: HashSet<Square> = (0..40 * moves.len())
                        .map(|_| policy_move(&game, &mut rng))
                        .collect();
                    assert_eq!(chosen, moves.iter().copied().collect(), "{}", game.render());
                    random += 1;
                }
                // Uniformly random moves reach more kinds of positions than the policy's own.
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(taking > 200 && random > 200, "{taking} {random}");
    }
}
