//! The dots-and-boxes position: the lines drawn, the boxes each side owns and whose turn it is,
//! and the rules that change them.

use super::params::DotsParams;
use crate::games::picture::Picture;
use crate::games::{
    parse_coordinate, written_square, Diagram, Ending, Game, IllegalMove, MoveError, Outcome, Side,
    View,
};

/// A line, numbered horizontal lines first (row by row, `y * cols + x`), then vertical lines
/// (row by row, `(rows + 1) * cols + y * (cols + 1) + x`). Convert with [`Dots::line`] and
/// [`Dots::line_coordinates`].
pub type Line = u16;

/// Which way a line runs: from its dot (x, y) to (x + 1, y), or to (x, y + 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// From dot (x, y) to the dot on its right, (x + 1, y).
    Horizontal,
    /// From dot (x, y) to the dot below it, (x, y + 1).
    Vertical,
}

impl Orientation {
    /// The letter of the notation: `h` or `v`.
    pub fn letter(self) -> char {
        match self {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        }
    }
}

/// Enough bits for the largest board: 2 * 10 * 10 + 10 + 10 = 220 lines.
type LineSet = [u64; 4];

/// What a bot author is told when a text is not in the notation.
const NOTATION: &str = "expected 'h x y' or 'v x y' (for example 'h 0 0'): h joins dot (x, y) \
                        to (x+1, y), v joins it to (x, y+1); x is the column, y the row, \
                        from 0 at the top left";

/// A dots-and-boxes position with its last turn: a few bitmasks and counters, no heap, so
/// searches clone it freely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dots {
    rows: u8,
    cols: u8,
    drawn: LineSet,
    drawn_count: u16,
    /// The boxes each side owns, one bit per box (`row * cols + col`), indexed by [`Side::index`].
    boxes: [u128; 2],
    to_move: Side,
    last_move: Option<Line>,
    /// Whether the last line completed a box, so that its mover is still to move.
    last_scored: bool,
    /// The lines of the latest turn: a scoring move keeps the turn, so a turn can be several lines.
    last_turn: LineSet,
}

impl Dots {
    /// The empty board. `params` must be within 1..=10 each (as reading them checks).
    pub fn new(params: DotsParams) -> Dots {
        assert!(
            (1..=10).contains(&params.rows) && (1..=10).contains(&params.cols),
            "a dots board is 1..=10 boxes each way, not {}x{}",
            params.rows,
            params.cols
        );
        Dots {
            rows: params.rows,
            cols: params.cols,
            drawn: [0; 4],
            drawn_count: 0,
            boxes: [0; 2],
            to_move: Side::First,
            last_move: None,
            last_scored: false,
            last_turn: [0; 4],
        }
    }

    /// Rows of boxes (the dots go from row 0 to row `rows()`).
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Columns of boxes (the dots go from column 0 to column `cols()`).
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// Every line of the board, drawn or not: 2 * rows * cols + rows + cols.
    pub fn line_count(&self) -> u16 {
        let (rows, cols) = (self.rows as u16, self.cols as u16);
        2 * rows * cols + rows + cols
    }

    /// Lines drawn so far.
    pub fn drawn_count(&self) -> u16 {
        self.drawn_count
    }

    /// Whether `line` is drawn; false for a line that is not on the board.
    pub fn is_drawn(&self, line: Line) -> bool {
        contains(&self.drawn, line)
    }

    /// The line starting at dot (x, y) going right (horizontal) or down (vertical); `None` when
    /// it is not on the board.
    pub fn line(&self, orientation: Orientation, x: u8, y: u8) -> Option<Line> {
        self.line_at(orientation, x as i64, y as i64)
    }

    /// Orientation and starting dot (x, y) of a line on the board.
    pub fn line_coordinates(&self, line: Line) -> (Orientation, u8, u8) {
        let cols = self.cols as u16;
        let horizontal = self.horizontal_count();
        if line < horizontal {
            (
                Orientation::Horizontal,
                (line % cols) as u8,
                (line / cols) as u8,
            )
        } else {
            let line = line - horizontal;
            (
                Orientation::Vertical,
                (line % (cols + 1)) as u8,
                (line / (cols + 1)) as u8,
            )
        }
    }

    /// The four sides of box (col, row): top, bottom, left, right.
    pub fn box_lines(&self, col: u8, row: u8) -> [Line; 4] {
        let (cols, col, row) = (self.cols as u16, col as u16, row as u16);
        let top = row * cols + col;
        let left = self.horizontal_count() + row * (cols + 1) + col;
        [top, top + cols, left, left + 1]
    }

    /// The boxes (col, row) that `line` is a side of: one on the edge of the board, else two.
    pub fn boxes_beside(&self, line: Line) -> [Option<(u8, u8)>; 2] {
        match self.line_coordinates(line) {
            (Orientation::Horizontal, x, y) => [
                (y > 0).then(|| (x, y - 1)),
                (y < self.rows).then_some((x, y)),
            ],
            (Orientation::Vertical, x, y) => [
                (x > 0).then(|| (x - 1, y)),
                (x < self.cols).then_some((x, y)),
            ],
        }
    }

    /// How many of the four sides of box (col, row) are drawn: a box with three is free to take.
    pub fn sides_drawn(&self, col: u8, row: u8) -> u8 {
        self.box_lines(col, row)
            .iter()
            .filter(|&&line| self.is_drawn(line))
            .count() as u8
    }

    /// Who completed box (col, row); `None` while it is open.
    pub fn box_owner(&self, col: u8, row: u8) -> Option<Side> {
        let bit = 1u128 << self.box_index(col, row);
        Side::BOTH
            .into_iter()
            .find(|side| self.boxes[side.index()] & bit != 0)
    }

    /// Boxes completed by each side, indexed by [`Side::index`].
    pub fn box_counts(&self) -> [u32; 2] {
        self.boxes.map(u128::count_ones)
    }

    /// The last line drawn; `None` before the first move.
    pub fn last_move(&self) -> Option<Line> {
        self.last_move
    }

    /// Who drew the last line: the player to move if that line scored, else the other one.
    pub fn last_mover(&self) -> Option<Side> {
        self.last_move?;
        Some(if self.last_scored {
            self.to_move
        } else {
            self.to_move.opponent()
        })
    }

    /// The lines [`last_mover`](Dots::last_mover) drew in its latest turn, in line order (not
    /// the order they were played): all but the last of them completed a box.
    pub fn last_turn(&self) -> Vec<Line> {
        (0..self.line_count())
            .filter(|&line| contains(&self.last_turn, line))
            .collect()
    }

    fn horizontal_count(&self) -> u16 {
        (self.rows as u16 + 1) * self.cols as u16
    }

    fn box_index(&self, col: u8, row: u8) -> u32 {
        debug_assert!(col < self.cols && row < self.rows, "box {col} {row}");
        row as u32 * self.cols as u32 + col as u32
    }

    /// Like [`Dots::line`], for any parsed numbers (negative or huge ones are off the board).
    fn line_at(&self, orientation: Orientation, x: i64, y: i64) -> Option<Line> {
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let index = match orientation {
            Orientation::Horizontal if (0..cols).contains(&x) && (0..=rows).contains(&y) => {
                y * cols + x
            }
            Orientation::Vertical if (0..=cols).contains(&x) && (0..rows).contains(&y) => {
                self.horizontal_count() as i64 + y * (cols + 1) + x
            }
            _ => return None,
        };
        Some(index as Line)
    }

    /// Rows by columns, the way the rules tables name dots boards: "2x3-box" has 2 rows of 3.
    fn board_name(&self) -> String {
        format!("{}x{}-box", self.rows, self.cols)
    }

    /// What a line's coordinates run over, for [`IllegalMove::OffBoard`].
    fn coordinate_ranges(&self) -> String {
        format!(
            "h x y: x from 0 to {}, y from 0 to {}; v x y: x from 0 to {}, y from 0 to {}",
            self.cols - 1,
            self.rows,
            self.cols,
            self.rows - 1
        )
    }
}

fn contains(set: &LineSet, line: Line) -> bool {
    set.get(line as usize / 64)
        .is_some_and(|word| word & (1 << (line % 64)) != 0)
}

fn insert(set: &mut LineSet, line: Line) {
    set[line as usize / 64] |= 1 << (line % 64);
}

impl Game for Dots {
    type Move = Line;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Line>) {
        moves.clear();
        let count = self.line_count() as u32;
        for (word_index, &word) in self.drawn.iter().enumerate() {
            let base = word_index as u32 * 64;
            if base >= count {
                break;
            }
            let on_board = match count - base {
                64.. => u64::MAX,
                n => (1 << n) - 1,
            };
            let mut free = !word & on_board;
            while free != 0 {
                moves.push((base + free.trailing_zeros()) as Line);
                free &= free - 1;
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Line, MoveError> {
        let not_a_move = || MoveError::NotAMove(NOTATION.into());
        let mut words = text.split_whitespace();
        let (Some(letter), Some(x), Some(y), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(not_a_move());
        };
        let orientation = match letter {
            "h" | "H" => Orientation::Horizontal,
            "v" | "V" => Orientation::Vertical,
            _ => return Err(not_a_move()),
        };
        let (x_written, y_written) = (x, y);
        let (Some(x), Some(y)) = (parse_coordinate(x), parse_coordinate(y)) else {
            return Err(not_a_move());
        };
        let Some(line) = self.line_at(orientation, x, y) else {
            return Err(IllegalMove::OffBoard {
                // Only spelt out for the verdict: a legal move allocates nothing here.
                square: format!(
                    "{} {}",
                    orientation.letter(),
                    written_square(x_written, y_written)
                ),
                board: self.board_name(),
                coordinates: self.coordinate_ranges(),
            }
            .into());
        };
        self.check_move(line)?;
        Ok(line)
    }

    fn check_move(&self, line: Line) -> Result<(), IllegalMove> {
        if self.drawn_count == self.line_count() {
            Err(IllegalMove::GameOver)
        } else if line >= self.line_count() {
            Err(IllegalMove::OffBoard {
                square: format!("line #{line}"),
                board: self.board_name(),
                coordinates: self.coordinate_ranges(),
            })
        } else if self.is_drawn(line) {
            Err(IllegalMove::LineTaken {
                line: self.format_move(line),
            })
        } else {
            Ok(())
        }
    }

    fn play_unchecked(&mut self, line: Line) {
        let mover = self.to_move;
        if !self.last_scored {
            self.last_turn = [0; 4];
        }
        insert(&mut self.last_turn, line);
        insert(&mut self.drawn, line);
        self.drawn_count += 1;
        self.last_move = Some(line);
        let mut scored = false;
        for (col, row) in self.boxes_beside(line).into_iter().flatten() {
            if self.sides_drawn(col, row) == 4 {
                self.boxes[mover.index()] |= 1 << self.box_index(col, row);
                scored = true;
            }
        }
        self.last_scored = scored;
        if !scored {
            self.to_move = mover.opponent();
        }
    }

    fn format_move(&self, line: Line) -> String {
        let (orientation, x, y) = self.line_coordinates(line);
        format!("{} {x} {y}", orientation.letter())
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.drawn_count < self.line_count() {
            return None;
        }
        let [first, second] = self.box_counts();
        Some(Outcome {
            winner: match first.cmp(&second) {
                std::cmp::Ordering::Greater => Some(Side::First),
                std::cmp::Ordering::Less => Some(Side::Second),
                std::cmp::Ordering::Equal => None,
            },
            ending: Ending::AllLinesDrawn,
        })
    }
    /// Drawn in `diagram.rs`.
    fn diagram(&self, view: &View) -> Diagram {
        self.draw(view)
    }

    fn picture(&self) -> Picture {
        self.draw_picture()
    }

    fn scores(&self) -> Option<[u32; 2]> {
        Some(self.box_counts())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::test_boards::{board, play_all};
    use crate::games::perft;

    #[test]
    fn a_board_has_2rc_plus_r_plus_c_lines() {
        for (rows, cols, lines) in [
            (1, 1, 4),
            (2, 2, 12),
            (3, 3, 24),
            (4, 4, 40),
            (5, 5, 60),
            (2, 3, 17),
            (3, 2, 17),
            (1, 10, 31),
            (10, 10, 220),
        ] {
            let game = board(rows, cols);
            assert_eq!(game.line_count(), lines, "{rows}x{cols}");
            assert_eq!(perft(&game, 1), lines as u64, "{rows}x{cols}");
        }
    }

    #[test]
    fn perft_counts_every_line_order_until_a_box_is_taken() {
        let single = board(1, 1);
        assert_eq!(perft(&single, 2), 4 * 3);
        assert_eq!(perft(&single, 4), 4 * 3 * 2);
        assert_eq!(perft(&single, 5), 0);
        assert_eq!(perft(&board(3, 3), 2), 24 * 23);
    }

    #[test]
    fn every_line_converts_both_ways() {
        for (rows, cols) in [(1, 1), (2, 3), (3, 2), (10, 10)] {
            let game = board(rows, cols);
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            assert_eq!(moves, (0..game.line_count()).collect::<Vec<_>>());
            for line in moves {
                let (orientation, x, y) = game.line_coordinates(line);
                assert_eq!(game.line(orientation, x, y), Some(line));
                assert_eq!(game.parse_move(&game.format_move(line)), Ok(line));
            }
        }
    }

    #[test]
    fn notation_is_letter_column_row() {
        // 2 rows of 3 boxes: dots 0..=3 across, 0..=2 down.
        let game = board(2, 3);
        assert_eq!(game.line(Orientation::Horizontal, 2, 2), Some(8));
        assert_eq!(game.line(Orientation::Horizontal, 3, 0), None);
        assert_eq!(game.line(Orientation::Vertical, 3, 1), Some(16));
        assert_eq!(game.line(Orientation::Vertical, 3, 2), None);
        assert_eq!(game.format_move(0), "h 0 0");
        assert_eq!(game.format_move(9), "v 0 0");
        let line = game.parse_move("  V   3 1 ").unwrap();
        assert_eq!(game.format_move(line), "v 3 1");
        assert_eq!(game.parse_move("H 1 2"), game.parse_move("h 1 2"));
        assert_eq!(game.box_lines(1, 0), [1, 4, 10, 11]);
        assert_eq!(
            game.box_lines(1, 0).map(|line| game.format_move(line)),
            ["h 1 0", "h 1 1", "v 1 0", "v 2 0"]
        );
        assert_eq!(game.boxes_beside(4), [Some((1, 0)), Some((1, 1))]);
        assert_eq!(game.boxes_beside(9), [None, Some((0, 0))]);
        assert_eq!(game.boxes_beside(16), [Some((2, 1)), None]);
    }

    #[test]
    fn each_wrong_move_gets_its_own_verdict() {
        let mut game = board(3, 3);
        for text in [
            "",
            "h",
            "h 1",
            "h 0 0 0",
            "x 0 0",
            "0 0",
            "h0 0",
            "hv 0 0",
            "h a 0",
            "h 1.0 0",
            "h 0,0",
            "horizontal 0 0",
        ] {
            assert_eq!(
                game.parse_move(text),
                Err(MoveError::NotAMove(NOTATION.into())),
                "{text:?}"
            );
        }
        assert_eq!(
            game.parse_move("h 3 0"),
            Err(MoveError::Illegal(IllegalMove::OffBoard {
                square: "h 3 0".into(),
                board: "3x3-box".into(),
                coordinates:
                    "h x y: x from 0 to 2, y from 0 to 3; v x y: x from 0 to 3, y from 0 to 2"
                        .into()
            }))
        );
        for text in [
            "h 0 4",
            "v 4 0",
            "v 0 3",
            "h -1 0",
            "V 0 99999999999999999999",
        ] {
            assert!(
                matches!(
                    game.parse_move(text),
                    Err(MoveError::Illegal(IllegalMove::OffBoard { .. }))
                ),
                "{text:?}"
            );
        }
        assert_eq!(
            game.check_move(24),
            Err(IllegalMove::OffBoard {
                square: "line #24".into(),
                board: "3x3-box".into(),
                coordinates:
                    "h x y: x from 0 to 2, y from 0 to 3; v x y: x from 0 to 3, y from 0 to 2"
                        .into()
            })
        );
        play_all(&mut game, &["v 1 2"]);
        assert_eq!(
            game.parse_move("V 1  2"),
            Err(MoveError::Illegal(IllegalMove::LineTaken {
                line: "v 1 2".into()
            }))
        );
        assert_eq!(
            game.play(game.line(Orientation::Vertical, 1, 2).unwrap()),
            Err(IllegalMove::LineTaken {
                line: "v 1 2".into()
            })
        );
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        for line in moves {
            game.play(line).unwrap();
        }
        assert!(game.outcome().is_some());
        assert_eq!(
            game.parse_move("h 0 0"),
            Err(MoveError::Illegal(IllegalMove::GameOver))
        );
        assert_eq!(game.check_move(0), Err(IllegalMove::GameOver));
    }

    #[test]
    fn completing_a_box_scores_it_and_moves_again() {
        let mut game = board(2, 2);
        play_all(&mut game, &["h 0 0", "v 0 0", "h 0 1"]);
        assert_eq!(game.side_to_move(), Side::Second);
        assert_eq!(game.sides_drawn(0, 0), 3);
        assert_eq!(game.sides_drawn(0, 1), 1);
        assert_eq!(game.box_owner(0, 0), None);
        play_all(&mut game, &["v 1 0"]);
        assert_eq!(game.box_owner(0, 0), Some(Side::Second));
        assert_eq!(game.sides_drawn(0, 0), 4);
        assert_eq!(game.sides_drawn(1, 0), 1);
        assert_eq!(game.scores(), Some([0, 1]));
        assert_eq!(game.side_to_move(), Side::Second);
        assert_eq!(game.last_mover(), Some(Side::Second));
        // The extra move does not score, so the turn passes.
        play_all(&mut game, &["h 1 2"]);
        assert_eq!(game.side_to_move(), Side::First);
        assert_eq!(game.last_mover(), Some(Side::Second));
        assert_eq!(game.outcome(), None);
        assert_eq!(game.drawn_count(), 5);
    }

    #[test]
    fn one_line_can_complete_two_boxes() {
        let mut game = board(1, 2);
        // The six outer lines complete nothing, so the players alternate.
        play_all(
            &mut game,
            &["h 0 0", "h 1 0", "h 0 1", "h 1 1", "v 0 0", "v 2 0"],
        );
        assert_eq!(game.scores(), Some([0, 0]));
        assert_eq!(game.side_to_move(), Side::First);
        play_all(&mut game, &["v 1 0"]);
        assert_eq!(game.box_owner(0, 0), Some(Side::First));
        assert_eq!(game.box_owner(1, 0), Some(Side::First));
        assert_eq!(game.scores(), Some([2, 0]));
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(Side::First),
                ending: Ending::AllLinesDrawn
            })
        );
        let mut moves = vec![0];
        game.generate_moves(&mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn the_last_line_ends_the_game_and_the_boxes_decide() {
        // 1x1: the second player always draws the fourth line.
        let mut game = board(1, 1);
        play_all(&mut game, &["h 0 0", "h 0 1", "v 0 0"]);
        assert_eq!(game.outcome(), None);
        play_all(&mut game, &["v 1 0"]);
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(Side::Second),
                ending: Ending::AllLinesDrawn
            })
        );
        // 1x2 shared one box each: a draw.
        let mut game = board(1, 2);
        play_all(&mut game, &["v 0 0", "v 2 0", "h 0 0", "h 0 1", "v 1 0"]);
        assert_eq!(game.scores(), Some([1, 0]));
        play_all(&mut game, &["h 1 0"]);
        assert_eq!(game.side_to_move(), Side::Second);
        play_all(&mut game, &["h 1 1"]);
        assert_eq!(game.scores(), Some([1, 1]));
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: None,
                ending: Ending::AllLinesDrawn
            })
        );
    }

    #[test]
    fn the_last_turn_holds_every_line_of_it() {
        let mut game = board(1, 2);
        assert_eq!(game.last_move(), None);
        assert_eq!(game.last_mover(), None);
        assert!(game.last_turn().is_empty());
        play_all(&mut game, &["h 0 0", "h 0 1", "v 0 0"]);
        assert_eq!(
            game.last_turn(),
            [game.line(Orientation::Vertical, 0, 0).unwrap()]
        );
        // Second takes the box, then draws one more line: one turn of two lines.
        play_all(&mut game, &["v 1 0", "h 1 0"]);
        let turn: Vec<String> = game
            .last_turn()
            .into_iter()
            .map(|line| game.format_move(line))
            .collect();
        assert_eq!(turn, ["h 1 0", "v 1 0"]);
        assert_eq!(game.last_move(), game.line(Orientation::Horizontal, 1, 0));
        assert_eq!(game.last_mover(), Some(Side::Second));
        play_all(&mut game, &["v 2 0"]);
        assert_eq!(
            game.last_turn(),
            [game.line(Orientation::Vertical, 2, 0).unwrap()]
        );
        assert_eq!(game.last_mover(), Some(Side::First));
    }
}
