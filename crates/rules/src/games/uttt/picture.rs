//! The ultimate tic-tac-toe board as a picture: the boards where the next move may go lit,
//! decided boards marked (a large X or O over a won board, grey over a full one), the last
//! move lit, and only the squares that may be played are targets.

use super::game::{BoardStatus, Uttt};
use crate::games::mnk::picture::{coordinates, light, mark, marks, targets, CELL, MARGIN};
use crate::games::picture::Picture;
use crate::games::Game;

impl Uttt {
    pub(super) fn draw_picture(&self) -> Picture {
        let size = MARGIN + 9 * CELL + 4;
        let mut picture = Picture::new("uttt", size, size);
        picture.rect(MARGIN, MARGIN, 9 * CELL, 9 * CELL, "ground");
        coordinates(&mut picture, 9, 9);
        let corner = |board: u8| {
            (
                MARGIN + i32::from(board % 3) * 3 * CELL,
                MARGIN + i32::from(board / 3) * 3 * CELL,
            )
        };
        let over = Game::outcome(self).is_some();
        for board in 0..9 {
            let (left, top) = corner(board);
            let open = self.board_status(board) == BoardStatus::Undecided;
            let allowed = match self.forced_board() {
                Some(forced) => forced == board,
                None => open,
            };
            if allowed && !over {
                picture.rect(left, top, 3 * CELL, 3 * CELL, "allowed");
            }
            if self.board_status(board) == BoardStatus::Full {
                picture.rect(left, top, 3 * CELL, 3 * CELL, "full");
            }
        }
        for i in 0..=9 {
            let at = MARGIN + i * CELL;
            let class = if i % 3 == 0 { "grid major" } else { "grid" };
            picture.line((at, MARGIN), (at, MARGIN + 9 * CELL), class);
            picture.line((MARGIN, at), (MARGIN + 9 * CELL, at), class);
        }
        if let Some(last) = self.last_move() {
            light(&mut picture, Uttt::coordinates(last), "last");
        }
        marks(&mut picture, 9, 9, |x, y| self.mark_at(x, y));
        let middle = |board: u8| {
            let (left, top) = corner(board);
            (left + 3 * CELL / 2, top + 3 * CELL / 2)
        };
        for board in 0..9 {
            if let BoardStatus::Won(side) = self.board_status(board) {
                mark(
                    &mut picture,
                    side,
                    middle(board),
                    CELL * 5 / 4,
                    ["won x", "won o"],
                );
            }
        }
        if let Some([from, _, to]) = self.winning_boards() {
            picture.line(middle(from), middle(to), "win-line");
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let moves = moves
            .into_iter()
            .map(|square| (Uttt::coordinates(square), self.format_move(square)));
        targets(&mut picture, moves);
        picture
    }
}

#[cfg(test)]
mod tests {
    use crate::games::uttt::test_positions::{after, X_TOP_ROW};
    use crate::games::uttt::UtttParams;
    use crate::games::Game;

    #[test]
    fn only_the_forced_board_is_lit_and_playable() {
        // O's mark in cell 0 of board 4 sends X to board 0.
        let game = after(UtttParams::default(), "4 4, 3 3");
        let picture = Game::picture(&game);
        let svg = picture.to_svg(true);
        assert_eq!(svg.matches("class=\"allowed\"").count(), 1);
        assert!(
            svg.contains("<rect class=\"allowed\" x=\"24\" y=\"24\""),
            "{svg}"
        );
        assert_eq!(picture.targets().count(), 9);
    }

    #[test]
    fn the_line_of_won_boards_is_drawn() {
        assert!(after(UtttParams::default(), "").winning_boards().is_none());
        let game = after(UtttParams::default(), X_TOP_ROW);
        assert_eq!(game.winning_boards(), Some([0, 1, 2]));
        let svg = Game::picture(&game).to_svg(false);
        assert!(
            svg.contains("<polyline class=\"win-line\" points=\"72,72 264,72\"/>"),
            "{svg}"
        );
    }
}
