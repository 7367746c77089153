//! Positions and helpers shared by the checkers tests.

use super::{Checkers, CheckersParams, Move};
use crate::games::{Game, IllegalMove, MoveError};

pub(super) const STANDARD_FEN: &str =
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

pub(super) fn game(fen: &str) -> Checkers {
    Checkers::from_fen(fen).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn with_rules(fen: &str, repetition: u32, move_rule: u32) -> Checkers {
    Checkers::new(CheckersParams {
        start: fen.parse().unwrap(),
        repetition,
        move_rule,
    })
}

pub(super) fn play(g: &mut Checkers, moves: &[&str]) {
    for text in moves {
        let mv = g
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
        g.play(mv).unwrap();
    }
}

/// The legal moves in notation, sorted.
pub(super) fn legal(g: &Checkers) -> Vec<String> {
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    texts.sort();
    texts
}

pub(super) fn illegal(g: &Checkers, text: &str) -> IllegalMove {
    match g.parse_move(text) {
        Err(MoveError::Illegal(e)) => e,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

pub(super) fn reason(g: &Checkers, text: &str) -> String {
    match illegal(g, text) {
        IllegalMove::NotLegal { reason } => reason,
        other => panic!("{text}: expected NotLegal, got {other:?}"),
    }
}

pub(super) const SHUFFLE: [&str; 4] = ["1-5", "32-28", "5-1", "28-32"];

/// Two kings on non-overlapping cycles of 4 and 6 squares, far apart: their positions repeat
/// every 24 plies, so with `repetition=10` only the move rule can end a long run.
pub(super) const TOURS: &str = "B:WK26,29:BK5,4";
/// A king in the middle of four white men can go round them either way.
pub(super) const DIAMOND: &str = "B:W14,15,22,23:BK17";
