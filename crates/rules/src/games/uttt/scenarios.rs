//! The ultimate tic-tac-toe edge cases `referee check` plays: a move forced into one small board,
//! and a move free to go anywhere because the board it was sent to is decided.

use super::{BoardStatus, Uttt, UtttParams};
use crate::games::{Game, Scenario};
use crate::seeded::SeededRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

pub(super) fn scenarios(params: &UtttParams) -> Vec<Scenario> {
    vec![
        Scenario {
            title: "the forced board: small board 0".into(),
            params: Vec::new(),
            opening: vec!["0 0".into()],
        },
        Scenario {
            title: "a free choice: the forced board is decided".into(),
            params: Vec::new(),
            opening: free_choice_opening(*params),
        },
    ]
}

/// A short opening after which the side to move may play in any undecided board because the
/// board it was sent to is decided. Found by seeded random play, so always the same.
fn free_choice_opening(params: UtttParams) -> Vec<String> {
    let mut rng = SeededRng::seed_from_u64(1);
    let mut moves = Vec::new();
    loop {
        let mut game = Uttt::new(params);
        let mut opening = Vec::new();
        while game.outcome().is_none() {
            let decided = (0..9).any(|b| game.board_status(b) != BoardStatus::Undecided);
            if decided && game.forced_board().is_none() {
                return opening;
            }
            game.generate_moves(&mut moves);
            let mv = *moves.choose(&mut rng).expect("a game not over has moves");
            opening.push(game.format_move(mv));
            game.play_unchecked(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_choice_opening_frees_the_choice_with_a_decided_board() {
        let opening = free_choice_opening(Default::default());
        let mut game = Uttt::new(Default::default());
        for mv in &opening {
            let mv = game.parse_move(mv).unwrap();
            game.play(mv).unwrap();
        }
        assert_eq!(game.forced_board(), None);
        assert!(game.outcome().is_none());
        assert!((0..9).any(|b| game.board_status(b) != BoardStatus::Undecided));
        assert!(opening.len() > 2);
    }
}
