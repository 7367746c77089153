//! The checkers board as a picture: the 32 dark squares numbered, Black at the top as in the
//! text diagram, kings crowned, the last move's path drawn with its captured pieces crossed
//! out, and the squares of the legal moves as targets (the page builds a move square by
//! square: a piece, then each landing).

use super::game::Checkers;
use super::squares::coordinates;
use crate::games::picture::{Picture, Target};
use crate::games::{Game, Side};

/// A square's side, in the picture's units.
const SQUARE: i32 = 48;

/// The centre of square `n` (1..32).
fn centre(square: u8) -> (i32, i32) {
    let (row, col) = coordinates(usize::from(square - 1));
    (col * SQUARE + SQUARE / 2, row * SQUARE + SQUARE / 2)
}

impl Checkers {
    pub(super) fn draw_picture(&self) -> Picture {
        let mut picture = Picture::new("checkers", 8 * SQUARE, 8 * SQUARE);
        for row in 0..8 {
            for col in 0..8 {
                let class = if (row + col) % 2 == 1 {
                    "dark"
                } else {
                    "light"
                };
                picture.rect(col * SQUARE, row * SQUARE, SQUARE, SQUARE, class);
            }
        }
        // What every position shares comes first (the squares and their numbers), so that
        // the pictures of a game start alike (the static report stores that part once).
        for square in 1..=32u8 {
            let (x, y) = centre(square);
            picture.text(
                x - SQUARE / 2 + 8,
                y - SQUARE / 2 + 9,
                "number",
                square.to_string(),
            );
        }
        let last = self.last_move();
        if let Some(mv) = last {
            for square in std::iter::once(mv.from()).chain(mv.landings()) {
                let (x, y) = centre(square);
                picture.rect(x - SQUARE / 2, y - SQUARE / 2, SQUARE, SQUARE, "last");
            }
        }
        for square in 1..=32u8 {
            let (x, y) = centre(square);
            if let Some(piece) = self.piece_at(square) {
                let class = match piece.side {
                    Side::First => "black",
                    Side::Second => "white",
                };
                picture.circle(x, y, SQUARE * 3 / 8, class);
                if piece.king {
                    picture.circle(x, y, SQUARE / 6, "crown");
                }
            }
        }
        if let Some(mv) = last {
            let path = std::iter::once(mv.from())
                .chain(mv.landings())
                .map(centre)
                .collect();
            picture.polyline(path, "path");
            for square in mv.captured() {
                picture.cross(centre(square), SQUARE / 4, "captured");
            }
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let mut squares: Vec<u8> = moves
            .iter()
            .flat_map(|mv| std::iter::once(mv.from()).chain(mv.landings()))
            .collect();
        squares.sort_unstable();
        squares.dedup();
        for square in squares {
            let (x, y) = centre(square);
            picture.target(
                x - SQUARE / 2,
                y - SQUARE / 2,
                SQUARE,
                SQUARE,
                Target::Square(square),
            );
        }
        picture
    }

    /// The picture with the squares `text` names (`11-15`, `9x18x27`) marked as a refused
    /// move, joined in order, when each is a square of the board.
    pub(super) fn draw_refused(&self, text: &str) -> Option<Picture> {
        let squares = text
            .split(['-', 'x'])
            .map(|n| n.trim().parse().ok().filter(|n| (1..=32).contains(n)))
            .collect::<Option<Vec<u8>>>()
            .filter(|squares| squares.len() >= 2)?;
        let mut picture = self.draw_picture();
        for &square in &squares {
            let (x, y) = centre(square);
            picture.rect(x - SQUARE / 2, y - SQUARE / 2, SQUARE, SQUARE, "refused");
        }
        picture.polyline(squares.into_iter().map(centre).collect(), "refused");
        Some(picture)
    }
}

#[cfg(test)]
mod tests {
    use crate::games::checkers::test_games::game;
    use crate::games::picture::Target;
    use crate::games::{AnyGame, Game};

    #[test]
    fn a_refused_move_is_marked_on_the_squares_it_names() {
        let position = game("B:W14,23,32:B9");
        let svg = Game::refused_picture(&position, "9-13")
            .unwrap()
            .to_svg(false);
        assert_eq!(svg.matches("<rect class=\"refused\"").count(), 2, "{svg}");
        for text in ["9", "9-33", "banana"] {
            assert!(Game::refused_picture(&position, text).is_none(), "{text}");
        }
    }

    #[test]
    fn the_last_capture_shows_its_path_and_what_it_took() {
        // Black's man on 9 jumps 14 and 23: a double jump.
        let mut position = game("B:W14,23,32:B9");
        position.play_text("9x18x27").unwrap();
        let svg = Game::picture(&position).to_svg(true);
        assert!(
            svg.contains("class=\"path\" points=\"72,120 168,216 264,312\""),
            "{svg}"
        );
        assert_eq!(
            svg.matches("class=\"captured\"").count(),
            4,
            "two pieces, two strokes each"
        );
        assert_eq!(svg.matches("class=\"black\"").count(), 1);
    }

    #[test]
    fn only_squares_of_legal_moves_are_targets() {
        // Black must capture: 9x18 is its only move.
        let position = game("B:W14:B9,1");
        let targets: Vec<Target> = Game::picture(&position).targets().cloned().collect();
        assert_eq!(targets, [Target::Square(9), Target::Square(18)]);
    }
}
