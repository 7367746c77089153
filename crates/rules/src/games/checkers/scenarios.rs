//! The checkers edge case `referee check` plays: a capture of two pieces in one move, which a
//! bot must write with every landing square.

use crate::games::Scenario;

/// Black to move must jump 1x10x19 (over 6 and 15): the only legal move, a two-jump capture.
const MULTI_JUMP_FEN: &str = "B:W6,15,29,30:B1,4";

pub(super) fn scenarios() -> Vec<Scenario> {
    vec![Scenario {
        title: "a forced multi-jump: 1x10x19".into(),
        params: vec![("fen", MULTI_JUMP_FEN.into())],
        opening: Vec::new(),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::Checkers;
    use crate::games::Game;

    #[test]
    fn the_multi_jump_position_has_exactly_that_move() {
        let game = Checkers::from_fen(MULTI_JUMP_FEN).unwrap();
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        let moves: Vec<String> = moves.iter().map(|m| game.format_move(*m)).collect();
        assert_eq!(moves, ["1x10x19"]);
    }
}
