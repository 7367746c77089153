//! The dots and boxes board as a picture: the dots, the lines drawn (the last turn's lit),
//! each box coloured by its owner with its letter (A for the first player, B for the second,
//! as in the text diagram), and each line not drawn yet a target.

use super::game::{Dots, Orientation};
use crate::games::picture::{Picture, Target};
use crate::games::{Game, Side};

/// The distance between two dots, in the picture's units.
const GAP: i32 = 48;
/// Room around the dots.
const MARGIN: i32 = 16;
/// The width of a line's clickable area.
const REACH: i32 = 14;

/// Where dot (x, y) is.
fn dot(x: u8, y: u8) -> (i32, i32) {
    (MARGIN + i32::from(x) * GAP, MARGIN + i32::from(y) * GAP)
}

impl Dots {
    pub(super) fn draw_picture(&self) -> Picture {
        let (rows, cols) = (self.rows(), self.cols());
        let mut picture = Picture::new(
            "dots",
            2 * MARGIN + i32::from(cols) * GAP,
            2 * MARGIN + i32::from(rows) * GAP,
        );
        for row in 0..rows {
            for col in 0..cols {
                let Some(owner) = self.box_owner(col, row) else {
                    continue;
                };
                let (x, y) = dot(col, row);
                let (class, letter) = match owner {
                    Side::First => ("box first", "A"),
                    Side::Second => ("box second", "B"),
                };
                picture.rect(x, y, GAP, GAP, class);
                picture.text(x + GAP / 2, y + GAP / 2, "owner", letter);
            }
        }
        let last_turn = self.last_turn();
        for line in 0..self.line_count() {
            let (orientation, x, y) = self.line_coordinates(line);
            let start = dot(x, y);
            let end = match orientation {
                Orientation::Horizontal => dot(x + 1, y),
                Orientation::Vertical => dot(x, y + 1),
            };
            if self.is_drawn(line) {
                let class = if last_turn.contains(&line) {
                    "drawn last"
                } else {
                    "drawn"
                };
                picture.line(start, end, class);
            } else {
                picture.line(start, end, "undrawn");
            }
        }
        for y in 0..=rows {
            for x in 0..=cols {
                let (cx, cy) = dot(x, y);
                picture.circle(cx, cy, 4, "dot");
            }
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        for line in moves {
            let (orientation, x, y) = self.line_coordinates(line);
            let (left, top) = dot(x, y);
            let (width, height) = match orientation {
                Orientation::Horizontal => (GAP - 8, REACH),
                Orientation::Vertical => (REACH, GAP - 8),
            };
            let (left, top) = match orientation {
                Orientation::Horizontal => (left + 4, top - REACH / 2),
                Orientation::Vertical => (left - REACH / 2, top + 4),
            };
            picture.target(
                left,
                top,
                width,
                height,
                Target::Move(self.format_move(line)),
            );
        }
        picture
    }
}

#[cfg(test)]
mod tests {
    use crate::games::dots::{Dots, DotsParams};
    use crate::games::picture::Target;
    use crate::games::{AnyGame, Game};

    #[test]
    fn a_box_is_coloured_by_its_owner_and_drawn_lines_are_no_targets() {
        let mut game = Dots::new(DotsParams { rows: 1, cols: 2 });
        for line in ["h 0 0", "h 0 1", "v 0 0", "v 1 0"] {
            game.play_text(line).unwrap();
        }
        let picture = Game::picture(&game);
        let svg = picture.to_svg(true);
        // The second player drew the fourth side of box (0, 0).
        assert!(
            svg.contains("<rect class=\"box second\" x=\"16\" y=\"16\""),
            "{svg}"
        );
        assert_eq!(svg.matches("class=\"drawn").count(), 4);
        let targets: Vec<Target> = picture.targets().cloned().collect();
        assert_eq!(targets.len(), 3);
        assert!(!targets.contains(&Target::Move("v 1 0".into())));
    }
}
