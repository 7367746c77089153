//! The dots-and-boxes board as text: dots, lines, owned boxes, the score and the latest turn.

use super::{Dots, Line, Orientation};
use crate::games::diagram::letter_row;
use crate::games::{Diagram, Game, Side, Tone, View};

impl Dots {
    /// Dot columns across the top (letters above them if asked), dot rows down the side; dots
    /// `+`, lines `---` and `|`, and a completed box shows its owner: `A` for the first player,
    /// `B` for the second (letters, so they cannot be mistaken for coordinates). Then the score
    /// and (unless the view is narrated) the latest turn, whose lines are toned as the last move
    /// in any case. Compact, a line between two dots is two characters long, not three.
    pub(super) fn draw(&self, view: &View) -> Diagram {
        let span = if view.compact { 2 } else { 3 };
        let mut out = Diagram::new();
        let last_turn = self.last_turn();
        let tone_of = |line: Line| {
            if last_turn.contains(&line) {
                Tone::LastMove
            } else {
                Tone::Plain
            }
        };
        if view.letters {
            letter_row(&mut out, "   ", self.cols() + 1, None, |c| {
                format!("{c:<width$}", width = span + 1)
            });
        }
        out.text("   ");
        for x in 0..=self.cols() {
            out.push(Tone::Label, format!("{x:<width$}", width = span + 1));
        }
        out.end_line();
        for y in 0..=self.rows() {
            out.push(Tone::Label, format!("{y:>2} "));
            for x in 0..=self.cols() {
                out.text("+");
                if let Some(line) = self.line(Orientation::Horizontal, x, y) {
                    if self.is_drawn(line) {
                        out.push(tone_of(line), "-".repeat(span));
                    } else {
                        out.text(" ".repeat(span));
                    }
                }
            }
            out.end_line();
            if y == self.rows() {
                break;
            }
            out.text("   ");
            for x in 0..=self.cols() {
                let line = self
                    .line(Orientation::Vertical, x, y)
                    .expect("on the board");
                if self.is_drawn(line) {
                    out.push(tone_of(line), "|");
                } else {
                    out.text(" ");
                }
                if x < self.cols() {
                    let inside = |owner: char| format!(" {owner:<width$}", width = span - 1);
                    match self.box_owner(x, y) {
                        Some(Side::First) => out.push(Tone::First, inside('A')),
                        Some(Side::Second) => out.push(Tone::Second, inside('B')),
                        None => out.text(" ".repeat(span)),
                    }
                }
            }
            out.end_line();
        }
        let [first, second] = self.box_counts();
        out.text(format!("boxes: A (first) {first} - B (second) {second}\n"));
        if let Some(mover) = self.last_mover().filter(|_| !view.narrated) {
            let lines: Vec<String> = last_turn
                .into_iter()
                .map(|line| self.format_move(line))
                .collect();
            out.text(format!("last turn: {mover} drew {}\n", lines.join(", ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::games::dots::test_boards::{board, play_all};
    use crate::games::{Game, Tone, View};

    #[test]
    fn the_console_view_letters_the_dots_and_tones_the_last_turn() {
        let mut game = board(1, 2);
        play_all(&mut game, &["h 0 0", "v 0 0", "h 0 1", "v 1 0"]);
        let drawing = game.diagram(&View {
            letters: true,
            ..View::default()
        });
        assert!(drawing
            .to_string()
            .starts_with("   a   b   c\n   0   1   2\n"));
        let last: Vec<&str> = drawing
            .spans()
            .filter(|(tone, _)| *tone == Tone::LastMove)
            .map(|(_, text)| text)
            .collect();
        // The second player drew v 1 0, completing box (0, 0): only that line is its turn's.
        assert_eq!(last, ["|"]);
        let owners: Vec<&str> = drawing
            .spans()
            .filter(|(tone, _)| *tone == Tone::Second)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(owners, [" B "]);
    }

    /// Compact, the largest board (10 by 10 boxes) fits a terminal of 40 columns.
    #[test]
    fn the_compact_view_has_lines_of_two_characters() {
        let mut game = board(1, 2);
        play_all(&mut game, &["h 0 0", "v 0 0", "h 0 1", "v 1 0"]);
        let compact = View {
            letters: true,
            compact: true,
            ..View::default()
        };
        assert_eq!(
            game.diagram(&compact).to_string(),
            "   a  b  c\n   0  1  2\n 0 +--+  +\n   | B|\n 1 +--+  +\n\
             boxes: A (first) 0 - B (second) 1\n\
             last turn: second drew v 1 0\n"
        );
        let largest = board(10, 10);
        assert_eq!(largest.diagram(&compact).width(), 35);
        assert_eq!(largest.diagram(&View::default()).width(), 45);
    }

    #[test]
    fn render_draws_lines_owners_and_the_score() {
        let mut game = board(2, 2);
        play_all(
            &mut game,
            &[
                "h 0 0", "h 1 0", "v 0 0", "v 2 1", "h 0 1", "v 1 0", "h 1 2",
            ],
        );
        assert_eq!(
            game.render(),
            "   0   1   2\n\
             \x200 +---+---+\n\
             \x20  | B |\n\
             \x201 +---+   +\n\
             \x20          |\n\
             \x202 +   +---+\n\
             boxes: A (first) 0 - B (second) 1\n\
             last turn: second drew h 1 2, v 1 0\n"
        );
        // Narrated (the console says each line played), the board and the score only.
        let narrated = game.diagram(&View {
            narrated: true,
            ..View::default()
        });
        assert!(narrated
            .to_string()
            .ends_with("2 +   +---+\nboxes: A (first) 0 - B (second) 1\n"));
        let fresh = board(1, 10).render();
        assert_eq!(
            fresh,
            "   0   1   2   3   4   5   6   7   8   9   10\n\
             \x200 +   +   +   +   +   +   +   +   +   +   +\n\
             \n\
             \x201 +   +   +   +   +   +   +   +   +   +   +\n\
             boxes: A (first) 0 - B (second) 0\n"
        );
    }
}
