//! The m,n,k board as text: marks, coordinates, the last move and, in renju with Black to
//! move, Black's forbidden points.

use super::Mnk;
use crate::games::diagram::{letter_row, Cells};
use crate::games::{Diagram, Game, Side, Tone, View};

impl Mnk {
    /// Column numbers across the top (letters above them if asked; letters alone when compact,
    /// numbers of two digits not fitting a cell of two characters), row numbers down the side;
    /// `X`, `O`, `.` for empty, `!` for an empty point forbidden to Black (renju, Black to
    /// move); the last move is shown in brackets.
    pub(super) fn draw(&self, view: &View) -> Diagram {
        let params = self.params();
        let (w, h) = (params.width, params.height);
        let mut out = Diagram::new();
        if view.compact {
            letter_row(&mut out, "   ", w, None, |c| format!(" {c}"));
        } else {
            if view.letters {
                letter_row(&mut out, "   ", w, None, |c| format!("{c:^3}"));
            }
            out.text("   ");
            for x in 0..w {
                out.push(Tone::Label, format!("{x:^3}"));
            }
            out.end_line();
        }
        for y in 0..h {
            out.push(Tone::Label, format!("{y:>3}"));
            let mut cells = Cells::new(view);
            for x in 0..w {
                let (mark, tone) = match self.mark_at(x, y) {
                    Some(Side::First) => ('X', Tone::First),
                    Some(Side::Second) => ('O', Tone::Second),
                    None if self.forbidden_to_move(self.square(x, y)) => ('!', Tone::Forbidden),
                    None => ('.', Tone::Plain),
                };
                let last = self.last_move() == Some(self.square(x, y));
                cells.mark(&mut out, mark, tone, last);
            }
            cells.end(&mut out);
            out.end_line();
        }
        out
    }

    /// Whether the empty `square` is forbidden to the side to move while the game goes on.
    fn forbidden_to_move(&self, square: crate::games::mnk::Square) -> bool {
        self.outcome().is_none()
            && self.side_to_move() == Side::First
            && self.forbidden(square).is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::games::mnk::{Mnk, TICTACTOE};
    use crate::games::{AnyGame, Tone, View};

    fn tictactoe_after(moves: &[&str]) -> Mnk {
        let mut game = Mnk::new(TICTACTOE.params);
        for mv in moves {
            game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        game
    }

    #[test]
    fn the_console_view_adds_column_letters_and_tones_the_marks() {
        let g = tictactoe_after(&["1 1", "2 0"]);
        let view = View {
            letters: true,
            ..View::default()
        };
        let drawing = g.diagram(&view);
        assert_eq!(
            drawing.to_string(),
            "    a  b  c\n    0  1  2\n  0 .  . [O]\n  1 .  X  .\n  2 .  .  .\n"
        );
        let toned = |tone| -> Vec<&str> {
            drawing
                .spans()
                .filter(|(t, _)| *t == tone)
                .map(|(_, text)| text)
                .collect()
        };
        assert_eq!(toned(Tone::First), ["X"]);
        assert_eq!(toned(Tone::LastMove), ["[O]"]);
    }

    /// In renju with Black to move, Black's forbidden points show as `!` in the forbidden tone;
    /// with White to move, or without renju, they are plain empty points.
    #[test]
    fn forbidden_points_are_marked_for_black() {
        let spec = crate::games::GameSpec::from_words("mnk", &["size=9", "rule=renju"]).unwrap();
        let mut game = spec.new_game();
        for mv in ["2 4", "0 8", "3 4", "2 8", "4 2", "4 8", "4 3", "6 8"] {
            game.play_text(mv).unwrap();
        }
        let drawing = game.diagram(&View::default());
        let rows: Vec<String> = drawing.to_string().lines().map(str::to_string).collect();
        assert_eq!(rows[5], "  4 .  .  X  X  !  .  .  .  .");
        let forbidden: Vec<&str> = drawing
            .spans()
            .filter(|(tone, _)| *tone == Tone::Forbidden)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(forbidden, ["!"]);
        game.play_text("8 0").unwrap();
        assert!(!game.render().contains('!'), "White to move");
    }

    /// Compact, 15x15 gomoku fits a terminal of 40 columns (its usual drawing is 48 wide).
    #[test]
    fn the_compact_view_has_cells_of_two_characters() {
        let mut game = Mnk::new(crate::games::mnk::Gomoku::STANDARD.params());
        for mv in ["7 7", "14 0"] {
            game.play_text(mv).unwrap();
        }
        let view = View {
            letters: true,
            compact: true,
            ..View::default()
        };
        let drawing = game.diagram(&view).to_string();
        let rows: Vec<&str> = drawing.lines().collect();
        assert_eq!(rows[0], "    a b c d e f g h i j k l m n o");
        assert_eq!(rows[1], "  0 . . . . . . . . . . . . . .[O]");
        assert_eq!(rows[8], "  7 . . . . . . . X . . . . . . .");
        assert_eq!(rows.len(), 16);
        assert_eq!(game.diagram(&view).width(), 34);
        let usual = game.diagram(&View {
            letters: true,
            ..View::default()
        });
        assert_eq!(usual.width(), 48);
    }

    #[test]
    fn render_marks_the_last_move() {
        let g = tictactoe_after(&["1 1", "2 0"]);
        assert_eq!(
            g.render(),
            "    0  1  2\n  0 .  . [O]\n  1 .  X  .\n  2 .  .  .\n"
        );
    }
}
