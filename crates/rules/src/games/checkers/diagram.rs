//! The checkers board as text: pieces, the key of square numbers, the last move, and at the
//! console the pieces that can move or the squares a selected piece can reach.

use super::game::Checkers;
use super::position::colour_name;
use super::squares::{index_at, NONE};
use crate::games::diagram::Cells;
use crate::games::{Diagram, Game, Outcome, Side, Tone, View};

impl Checkers {
    /// The board as on the usual diagram, Black at the top: `b`/`B` black man/king, `w`/`W`
    /// white man/king, `.` an empty dark square, light squares blank; the piece that moved last
    /// is in brackets. Beside it, a key with the PDN number of every dark square in the same
    /// place. Then the last move and who is to move (unless the view is narrated), or how the
    /// game ended. The pieces that can move are toned as allowed; with a selected square, its
    /// piece is toned as selected and the squares it can reach are drawn `*`. Compact, squares
    /// and the key's numbers are two characters wide.
    pub(super) fn draw(&self, view: &View) -> Diagram {
        let last_to = self.last_move().map(|mv| mv.end_index());
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let selected = view.selected.filter(|square| (1..=32).contains(square));
        let movable = |index: u8| moves.iter().any(|mv| mv.from == index);
        let reachable = |index: u8| {
            selected.is_some_and(|square| {
                moves
                    .iter()
                    .any(|mv| mv.from() == square && mv.end_index() == index)
            })
        };
        let mut out = Diagram::new();
        let (light, gap) = if view.compact {
            ("  ", "  ")
        } else {
            ("   ", "   ")
        };
        for row in 0..8 {
            let mut key = String::new();
            let mut cells = Cells::new(view);
            for col in 0..8 {
                let index = index_at(row, col);
                if index == NONE {
                    cells.blank(&mut out);
                    key.push_str(light);
                    continue;
                }
                let piece = self.position.piece_at(index + 1);
                let (mark, tone) = match piece {
                    None if reachable(index) => ('*', Tone::Allowed),
                    None => ('.', Tone::Plain),
                    Some(piece) => (
                        piece.letter(),
                        if selected == Some(index + 1) {
                            Tone::Selected
                        } else if selected.is_none() && movable(index) {
                            Tone::Allowed
                        } else if piece.side == Side::First {
                            Tone::First
                        } else {
                            Tone::Second
                        },
                    ),
                };
                cells.mark(&mut out, mark, tone, last_to == Some(index));
                key.push_str(&format!("{:>2}", index + 1));
                key.push_str(&light[2..]);
            }
            cells.end(&mut out);
            out.text(gap);
            out.push(Tone::Label, key);
            out.end_line();
        }
        match self.last_move() {
            Some(mv) if !view.narrated => {
                let mover = colour_name(self.position.to_move.opponent());
                out.text(format!("{mover} played {mv}\n"));
            }
            _ => {}
        }
        match Game::outcome(self) {
            None if view.narrated => {}
            None => out.text(format!("{} to move\n", colour_name(self.position.to_move))),
            Some(Outcome {
                winner: Some(winner),
                ending,
            }) => out.text(format!("{} wins: {ending}\n", colour_name(winner))),
            Some(Outcome {
                winner: None,
                ending,
            }) => out.text(format!("Draw: {ending}\n")),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::games::checkers::test_games::*;
    use crate::games::{Game, Tone, View};

    #[test]
    fn a_selected_piece_shows_where_it_can_go_and_movable_pieces_are_allowed() {
        let g = game(STANDARD_FEN);
        let toned = |view: &View, tone| -> String {
            g.diagram(view)
                .spans()
                .filter(|(t, _)| *t == tone)
                .map(|(_, text)| text.trim().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Black's men on 9-12 can move.
        assert_eq!(toned(&View::default(), Tone::Allowed), "b b b b");
        let view = View {
            selected: Some(11),
            ..View::default()
        };
        let drawing = g.diagram(&view).to_string();
        let row = drawing.lines().nth(3).unwrap();
        // Row 4 holds squares 13-16: 11 reaches 15 and 16.
        assert_eq!(row, " .     .     *     *       13    14    15    16");
        assert_eq!(toned(&view, Tone::Selected), "b");
        assert_eq!(toned(&view, Tone::Allowed), "* *");
        // A square without a movable piece selects nothing to reach.
        let view = View {
            selected: Some(1),
            ..View::default()
        };
        assert!(!g.diagram(&view).to_string().contains('*'));
    }

    /// Compact, the board and its key fit a terminal of 40 columns (the usual drawing is 50
    /// wide).
    #[test]
    fn the_compact_view_keeps_the_key_beside_the_board() {
        let mut g = game(STANDARD_FEN);
        play(&mut g, &["11-15"]);
        let view = View {
            compact: true,
            narrated: true,
            ..View::default()
        };
        assert_eq!(
            g.diagram(&view).to_string(),
            concat!(
                "   b   b   b   b      1   2   3   4\n",
                " b   b   b   b      5   6   7   8\n",
                "   b   b   .   b      9  10  11  12\n",
                " .   .  [b]  .     13  14  15  16\n",
                "   .   .   .   .     17  18  19  20\n",
                " w   w   w   w     21  22  23  24\n",
                "   w   w   w   w     25  26  27  28\n",
                " w   w   w   w     29  30  31  32\n",
            )
        );
        assert_eq!(g.diagram(&view).width(), 35);
        let usual = View {
            narrated: true,
            ..View::default()
        };
        assert_eq!(g.diagram(&usual).width(), 50);
    }

    #[test]
    fn render_shows_pieces_numbers_and_the_last_move() {
        let mut g = game("B:W18,K30:B14,K3");
        play(&mut g, &["14x23"]);
        assert_eq!(
            g.render(),
            concat!(
                "    .     .     B     .        1     2     3     4\n",
                " .     .     .     .        5     6     7     8\n",
                "    .     .     .     .        9    10    11    12\n",
                " .     .     .     .       13    14    15    16\n",
                "    .     .     .     .       17    18    19    20\n",
                " .     .    [b]    .       21    22    23    24\n",
                "    .     .     .     .       25    26    27    28\n",
                " .     W     .     .       29    30    31    32\n",
                "Black played 14x23\n",
                "White to move\n",
            )
        );
        assert!(game(STANDARD_FEN).render().starts_with(
            "    b     b     b     b        1     2     3     4\n b     b     b     b        5"
        ));
        // Narrated (the console says who played and who moves), only the board and the result.
        let narrated = View {
            narrated: true,
            ..View::default()
        };
        let board = g.diagram(&narrated).to_string();
        assert!(
            board.ends_with(" .     W     .     .       29    30    31    32\n"),
            "{board}"
        );
        let mut over = game("B:W18:B14");
        play(&mut over, &["14x23"]);
        let board = over.diagram(&narrated).to_string();
        assert!(
            board.ends_with("32\nBlack wins: no legal move\n"),
            "{board}"
        );
    }
}
