//! Why a move is or is not legal, said precisely: a move typed by a player is followed square
//! by square, and the first thing that goes wrong is named.

use super::game::Checkers;
use super::moves::Move;
use super::squares::{bit, is_forward, CROWN_ROW, DIRECTIONS, NEIGHBOUR, NONE};
use crate::games::{Game, IllegalMove};

impl Checkers {
    /// Decides a move given as its start square, landing squares and kind. `short_text` is the
    /// text of a two-square capture typed by a player, which may be the short form of a
    /// multi-jump; `None` when the landings are complete (a [`Move`] being checked).
    pub(super) fn judge(
        &self,
        from: u8,
        landings: &[u8],
        capture: bool,
        short_text: Option<&str>,
    ) -> Result<Move, IllegalMove> {
        if Game::outcome(self).is_some() {
            return Err(IllegalMove::GameOver);
        }
        match self.position.piece_at(from + 1) {
            None => return Err(IllegalMove::EmptySquare { square: from + 1 }),
            Some(piece) if piece.side != self.position.to_move => {
                return Err(IllegalMove::NotYourPiece { square: from + 1 })
            }
            Some(_) => {}
        }
        if !capture {
            return self.judge_plain(from, landings[0]);
        }
        if let Some(text) = short_text {
            let mut candidates = Vec::new();
            self.position.captures_from(from, &mut candidates);
            candidates.retain(|mv| mv.end_index() == landings[0]);
            // The full form of a single jump wins over the short form of a multi-jump.
            if let Some(&single) = candidates.iter().find(|mv| mv.len == 1) {
                return Ok(single);
            }
            match candidates[..] {
                [only] => return Ok(only),
                [] => {}
                _ => {
                    return Err(IllegalMove::Ambiguous {
                        text: text.to_string(),
                        candidates: candidates.iter().map(Move::to_string).collect(),
                    })
                }
            }
        }
        self.walk_capture(from, landings, short_text.is_some())
    }

    fn judge_plain(&self, from: u8, to: u8) -> Result<Move, IllegalMove> {
        if self.position.jumpers() != 0 {
            let mut captures = Vec::new();
            self.position.generate(&mut captures);
            let example = captures
                .iter()
                .find(|mv| mv.from == from)
                .unwrap_or(&captures[0]);
            return Err(IllegalMove::CaptureMandatory {
                example: example.to_string(),
            });
        }
        let (a, b) = (from + 1, to + 1);
        let not_legal = |reason: String| Err(IllegalMove::NotLegal { reason });
        if from == to {
            return not_legal(format!("{a}-{b} does not move the piece"));
        }
        let Some(direction) = DIRECTIONS
            .into_iter()
            .find(|&d| NEIGHBOUR[d][from as usize] == to)
        else {
            return not_legal(format!(
                "{b} is not diagonally next to {a}: a piece moves one square along a diagonal"
            ));
        };
        let side = self.position.to_move.index();
        if self.position.kings & bit(from) == 0 && !is_forward(side, direction) {
            return not_legal(format!(
                "a man cannot move backwards ({a}-{b}); only kings can"
            ));
        }
        if self.position.empty() & bit(to) == 0 {
            return not_legal(format!("square {b} is occupied"));
        }
        Ok(Move::simple(from, to))
    }

    /// Follows a capture jump by jump and says precisely where it goes wrong; returns the move
    /// if every jump is possible and the capture is complete.
    fn walk_capture(&self, from: u8, landings: &[u8], short: bool) -> Result<Move, IllegalMove> {
        let position = &self.position;
        let side = position.to_move.index();
        let king = position.kings & bit(from) != 0;
        let own = position.pieces[side] & !bit(from);
        let empty = position.empty() | bit(from);
        let mut opponent = position.pieces[1 - side];
        let mut mv = Move::start_capture(from);
        let mut at = from;
        let not_legal = |reason: String| Err(IllegalMove::NotLegal { reason });
        for (i, &land) in landings.iter().enumerate() {
            let (a, b) = (at + 1, land + 1);
            let direction = DIRECTIONS.into_iter().find(|&d| {
                let over = NEIGHBOUR[d][at as usize];
                over != NONE && NEIGHBOUR[d][over as usize] == land
            });
            let Some(direction) = direction else {
                if DIRECTIONS
                    .into_iter()
                    .any(|d| NEIGHBOUR[d][at as usize] == land)
                {
                    return not_legal(format!(
                        "{a}x{b} is not a jump: a jump goes over a piece to the square beyond it \
                         (a plain move is written {a}-{b})"
                    ));
                }
                if short {
                    return not_legal(self.no_capture_ending_on(from, land));
                }
                return not_legal(format!(
                    "{a}x{b} is not a jump: a jump goes over a diagonal neighbour to the square \
                     just beyond it"
                ));
            };
            if !king && !is_forward(side, direction) {
                return not_legal(format!(
                    "a man cannot jump backwards ({a}x{b}); only kings can"
                ));
            }
            let over = NEIGHBOUR[direction][at as usize];
            let c = over + 1;
            if own & bit(over) != 0 {
                return not_legal(format!("{a}x{b} would jump your own piece on {c}"));
            }
            if mv.captured & bit(over) != 0 {
                return not_legal(format!(
                    "the piece on {c} is already jumped in this move; a piece is jumped once"
                ));
            }
            if opponent & bit(over) == 0 {
                return not_legal(format!("there is no piece on {c} for {a}x{b} to jump"));
            }
            if empty & bit(land) == 0 {
                return not_legal(format!("{a}x{b} cannot land on {b}: it is occupied"));
            }
            mv = mv.jump(over, land);
            opponent &= !bit(over);
            at = land;
            if !king && CROWN_ROW[side] & bit(land) != 0 {
                if i + 1 < landings.len() {
                    return not_legal(format!("the man is crowned on {b} and its move ends there"));
                }
                return Ok(mv);
            }
        }
        // Complete only if no jump is left: the continuations show one if there is.
        let mut completions = Vec::new();
        position.extend_capture(mv, at, opponent, empty, king, &mut completions);
        let example = completions[0];
        if example == mv {
            Ok(mv)
        } else {
            not_legal(format!(
                "the capture must go on: the piece can still jump from {} (for example {example})",
                at + 1
            ))
        }
    }

    /// Why a short-form capture `from`x`to` names no move.
    fn no_capture_ending_on(&self, from: u8, to: u8) -> String {
        let (a, b) = (from + 1, to + 1);
        let mut own = Vec::new();
        self.position.captures_from(from, &mut own);
        if !own.is_empty() {
            let list: Vec<String> = own.iter().map(Move::to_string).collect();
            return format!(
                "no capture by the piece on {a} ends on {b} (its captures: {})",
                list.join(", ")
            );
        }
        let mut all = Vec::new();
        self.position.generate(&mut all);
        match all.first() {
            Some(example) if example.is_capture() => {
                format!("the piece on {a} has no capture (a capture that is possible: {example})")
            }
            _ => format!("the piece on {a} has no capture, and there is nothing to capture"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::games::checkers::test_games::*;
    use crate::games::checkers::Checkers;
    use crate::games::{Game, IllegalMove, Side};

    #[test]
    fn a_multi_jump_is_one_move() {
        let mut g = game("B:W6,15,32:B1");
        assert_eq!(legal(&g), ["1x10x19"]);
        assert_eq!(
            reason(&g, "1x10"),
            "the capture must go on: the piece can still jump from 10 (for example 1x10x19)"
        );
        // The short form names the one capture from 1 to 19; it is written out in full.
        let mv = g.parse_move("1x19").unwrap();
        assert_eq!(g.format_move(mv), "1x10x19");
        assert_eq!(mv.from(), 1);
        assert_eq!(mv.to(), 19);
        assert_eq!(mv.landings().collect::<Vec<_>>(), [10, 19]);
        assert_eq!(mv.captured().collect::<Vec<_>>(), [6, 15]);
        assert!(mv.is_capture());
        g.play(mv).unwrap();
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(g.last_move(), Some(mv));
        assert_eq!(g.to_fen(), "W:W32:B19");
    }

    #[test]
    fn each_wrong_move_gets_its_own_verdict() {
        let g = Checkers::default();
        for (text, square) in [
            ("0-4", "0"),
            ("33-29", "33"),
            ("11x40", "40"),
            ("99999999999999999999999-1", "18446744073709551615"),
        ] {
            assert_eq!(
                illegal(&g, text),
                IllegalMove::OffBoard {
                    square: square.into(),
                    board: "32-square checkers".into(),
                    coordinates: "squares 1 to 32".into()
                }
            );
        }
        assert_eq!(
            illegal(&g, "33-29").to_string(),
            "33 is off the 32-square checkers board (squares 1 to 32)"
        );
        assert_eq!(
            illegal(&g, "13-17"),
            IllegalMove::EmptySquare { square: 13 }
        );
        assert_eq!(
            illegal(&g, "21-17"),
            IllegalMove::NotYourPiece { square: 21 }
        );
        assert_eq!(
            reason(&g, "11-18"),
            "18 is not diagonally next to 11: a piece moves one square along a diagonal"
        );
        assert_eq!(reason(&g, "8-11"), "square 11 is occupied");
        assert_eq!(reason(&g, "11-11"), "11-11 does not move the piece");
        assert_eq!(
            reason(&g, "9x18"),
            "there is no piece on 14 for 9x18 to jump"
        );
        assert_eq!(
            reason(&g, "11x15"),
            "11x15 is not a jump: a jump goes over a piece to the square beyond it \
             (a plain move is written 11-15)"
        );
        assert_eq!(
            reason(&g, "11x27"),
            "the piece on 11 has no capture, and there is nothing to capture"
        );
        assert_eq!(
            reason(&game("B:W18:B1,14"), "1x19"),
            "the piece on 1 has no capture (a capture that is possible: 14x23)"
        );
        assert_eq!(
            reason(&game("B:W10:B15"), "15x6"),
            "a man cannot jump backwards (15x6); only kings can"
        );
        assert_eq!(
            reason(&game("B:W32:B1,6"), "1x10"),
            "1x10 would jump your own piece on 6"
        );
        assert_eq!(
            reason(&game("B:W6,10:B1"), "1x10"),
            "1x10 cannot land on 10: it is occupied"
        );
        assert_eq!(
            reason(&game("B:W6,15:B1"), "1x10x12"),
            "10x12 is not a jump: a jump goes over a diagonal neighbour to the square just \
             beyond it"
        );
    }

    #[test]
    fn a_king_can_go_round_and_a_short_form_can_be_ambiguous() {
        let g = game(DIAMOND);
        assert_eq!(legal(&g), ["17x10x19x26x17", "17x26x19x10x17"]);
        assert_eq!(
            illegal(&g, "17x17"),
            IllegalMove::Ambiguous {
                text: "17x17".into(),
                candidates: vec!["17x10x19x26x17".into(), "17x26x19x10x17".into()]
            }
        );
        assert_eq!(
            reason(&g, "17x19"),
            "no capture by the piece on 17 ends on 19 (its captures: 17x10x19x26x17, \
             17x26x19x10x17)"
        );
        assert_eq!(
            reason(&g, "17x10x19"),
            "the capture must go on: the piece can still jump from 19 (for example \
             17x10x19x26x17)"
        );
        assert_eq!(
            reason(&g, "17x10x17"),
            "the piece on 14 is already jumped in this move; a piece is jumped once"
        );
        // However long, a text is judged jump by jump.
        assert_eq!(
            reason(&g, "17x10x19x26x17x10x19x26x17x10x19x26x17"),
            "the piece on 14 is already jumped in this move; a piece is jumped once"
        );
        let mut done = g.clone();
        play(&mut done, &[" 17X26x19X10x17 "]);
        assert_eq!(done.to_fen(), "W:W:BK17");
    }

    #[test]
    fn check_move_judges_moves_from_elsewhere() {
        let mut g = Checkers::default();
        let opening = g.parse_move("9-13").unwrap();
        play(&mut g, &["9-13", "22-18"]);
        assert_eq!(
            g.check_move(opening),
            Err(IllegalMove::EmptySquare { square: 9 })
        );
        let double = game("B:W6,15:B1").parse_move("1x10x19").unwrap();
        assert_eq!(
            game("B:W6:B1").check_move(double),
            Err(IllegalMove::NotLegal {
                reason: "there is no piece on 15 for 10x19 to jump".into()
            })
        );
        assert_eq!(game("B:W6,15:B1").check_move(double), Ok(()));
    }
}
