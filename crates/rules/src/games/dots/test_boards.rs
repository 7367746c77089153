//! Boards and moves shared by the dots-and-boxes tests.

use super::{Dots, DotsParams};
use crate::games::Game;

pub(super) fn board(rows: u8, cols: u8) -> Dots {
    Dots::new(DotsParams { rows, cols })
}

pub(super) fn play_all(game: &mut Dots, moves: &[&str]) {
    for text in moves {
        let line = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(line).unwrap();
    }
}
