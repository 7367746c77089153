//! The ultimate tic-tac-toe board as text: small boards, marks, decided boards and where the
//! next move may go.

use super::game::{area, letter, BoardStatus, Uttt};
use crate::games::diagram::letter_row;
use crate::games::{Diagram, Game, Side, Tone, View};

impl Uttt {
    /// Column numbers across the top (letters above them if asked), row numbers down the side,
    /// lines between small boards; `X`, `O`, `.` for empty, and the last move in brackets. The
    /// empty cells of a won board show its winner in lower case so decided boards stand out; the
    /// empty cells of the forced board are toned as allowed. A summary line lists the boards won
    /// and full, and the last line says where the next move may go (or the result).
    pub(super) fn draw(&self, view: &View) -> Diagram {
        let mut out = Diagram::new();
        if view.letters {
            letter_row(&mut out, "   ", 9, Some(3), |c| format!("{c:^3}"));
        }
        out.text("   ");
        for x in 0..9 {
            if x > 0 && x % 3 == 0 {
                out.text(" ");
            }
            out.push(Tone::Label, format!("{x:^3}"));
        }
        out.end_line();
        let tone_of = |side: Side| match side {
            Side::First => Tone::First,
            Side::Second => Tone::Second,
        };
        for y in 0..9 {
            if y > 0 && y % 3 == 0 {
                out.text("   ---------+---------+---------\n");
            }
            out.push(Tone::Label, format!("{y:>3}"));
            for x in 0..9 {
                if x > 0 && x % 3 == 0 {
                    out.text("|");
                }
                let board = (y / 3) * 3 + x / 3;
                let (mark, tone) = match (self.mark_at(x, y), self.board_status(board)) {
                    (Some(side), _) => (letter(side), tone_of(side)),
                    (None, BoardStatus::Won(side)) => {
                        (letter(side).to_ascii_lowercase(), tone_of(side))
                    }
                    (None, _) if self.forced_board() == Some(board) => ('.', Tone::Allowed),
                    (None, _) => ('.', Tone::Plain),
                };
                if self.last_move() == Some(Uttt::square(x, y)) {
                    out.push(Tone::LastMove, format!("[{mark}]"));
                } else {
                    out.text(" ");
                    out.push(tone, mark.to_string());
                    out.text(" ");
                }
            }
            out.end_line();
        }
        let list = |status: BoardStatus| {
            let boards: Vec<String> = (0..9)
                .filter(|&board| self.board_status(board) == status)
                .map(|board| board.to_string())
                .collect();
            if boards.is_empty() {
                "none".to_string()
            } else {
                boards.join(" ")
            }
        };
        out.text(format!(
            "won: X {}, O {}; full: {}\n",
            list(BoardStatus::Won(Side::First)),
            list(BoardStatus::Won(Side::Second)),
            list(BoardStatus::Full)
        ));
        let player = letter(self.side_to_move());
        match (Game::outcome(self), self.forced_board()) {
            (Some(outcome), _) => {
                let winner = match outcome.winner {
                    Some(side) => format!("{} wins", letter(side)),
                    None => "draw".to_string(),
                };
                out.text(format!("result: {winner} ({})\n", outcome.ending));
            }
            (None, Some(board)) => {
                out.text(format!("next: {player} in "));
                out.push(Tone::Allowed, format!("small board {board}"));
                // Compact, the area goes on a line of its own: the line would be 48 wide.
                if view.compact {
                    out.end_line();
                } else {
                    out.push(Tone::Allowed, " ");
                }
                out.push(Tone::Allowed, format!("({})", area(board, view.letters)));
                out.text("\n");
            }
            (None, None) => out.text(format!("next: {player} in any undecided board\n")),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::games::uttt::test_positions::*;
    use crate::games::uttt::{Uttt, UtttParams};
    use crate::games::{Game, Tone, View};

    #[test]
    fn the_forced_board_is_toned_as_allowed() {
        let game = after(UtttParams::default(), "4 4, 3 3");
        // O's mark in cell 0 of board 4 sends X to board 0: its nine empty cells are allowed.
        let drawing = Game::diagram(&game, &View::default());
        let allowed: String = drawing
            .spans()
            .filter(|(tone, _)| *tone == Tone::Allowed)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(
            allowed,
            format!("{}small board 0 (columns 0-2, rows 0-2)", ".".repeat(9))
        );
        assert_eq!(drawing.to_string(), Game::render(&game));
        let lettered = Game::diagram(
            &game,
            &View {
                letters: true,
                ..View::default()
            },
        )
        .to_string();
        assert!(lettered.starts_with("    a  b  c   d  e  f   g  h  i\n    0  1  2   3"));
        // The forced board is named by the letters the console reads moves in.
        assert!(lettered.ends_with("next: X in small board 0 (columns a-c, rows 0-2)\n"));
        let compact = Game::diagram(
            &game,
            &View {
                letters: true,
                compact: true,
                ..View::default()
            },
        );
        assert!(compact
            .to_string()
            .ends_with("next: X in small board 0\n(columns a-c, rows 0-2)\n"));
        assert!(compact.width() <= crate::games::COMPACT_COLUMNS);
    }

    #[test]
    fn render_shows_boards_marks_and_where_to_play() {
        let game = after(UtttParams::default(), X_WINS_BOARD_0);
        assert_eq!(
            Game::render(&game),
            "    0  1  2   3  4  5   6  7  8
  0[X] X  X | O  .  . | O  .  .
  1 x  x  x | .  .  . | .  .  .
  2 x  x  x | .  .  . | .  .  .
   ---------+---------+---------
  3 .  .  . | .  .  . | .  .  .
  4 .  .  . | .  .  . | .  .  .
  5 .  .  . | .  .  . | .  .  .
   ---------+---------+---------
  6 .  .  . | .  .  . | .  .  .
  7 .  .  . | .  .  . | .  .  .
  8 .  .  . | .  .  . | .  .  .
won: X 0, O none; full: none
next: O in any undecided board
"
        );
        let last_line = |game: &Uttt| Game::render(game).lines().last().unwrap().to_string();
        assert_eq!(
            last_line(&after(UtttParams::default(), "4 4")),
            "next: O in small board 4 (columns 3-5, rows 3-5)"
        );
        assert_eq!(
            last_line(&after(UtttParams::default(), X_TOP_ROW)),
            "result: X wins (line completed)"
        );
        let equal = Game::render(&after(UtttParams::default(), EQUAL_BOARDS));
        assert!(
            equal.ends_with("won: X 1 2 3 4, O 0 5 6 7; full: 8\nresult: draw (no move left)\n"),
            "{equal}"
        );
    }
}
