//! The m,n,k position: the marks on the board, whose turn it is and whether a line ended it.

use super::params::{MnkParams, Rule};
use super::picture::with_refused;
use super::renju::{self, Lines};
use crate::games::picture::Picture;
use crate::games::{
    parse_coordinate, written_square, Diagram, Ending, Forbidden, Game, IllegalMove, MoveError,
    Outcome, Side, View,
};

/// A square, as `y * width + x`.
pub type Square = u16;

/// An m,n,k position (gomoku and tic-tac-toe included) once the colours are settled: the marks,
/// whose turn it is and how the game ended, if it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mnk {
    params: MnkParams,
    /// Row-major cells: 0 empty, 1 first player (X), 2 second player (O).
    cells: Vec<u8>,
    to_move: Side,
    placed: u16,
    outcome: Option<Outcome>,
    last_move: Option<Square>,
}

/// The four line directions: right, down, down-right, down-left.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

impl Mnk {
    /// The empty board, the first player (X, Black) to move.
    pub fn new(params: MnkParams) -> Mnk {
        Mnk {
            params,
            cells: vec![0; params.width as usize * params.height as usize],
            to_move: Side::First,
            placed: 0,
            outcome: None,
            last_move: None,
        }
    }

    /// The board, line and rules this game is played with.
    pub fn params(&self) -> MnkParams {
        self.params
    }

    /// The mark on column `x`, row `y`: `None` when empty.
    pub fn mark_at(&self, x: u8, y: u8) -> Option<Side> {
        match self.cells[self.index(x, y)] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// The last mark placed, which the drawings highlight; `None` on the empty board.
    pub fn last_move(&self) -> Option<Square> {
        self.last_move
    }

    /// The mark on a square: `None` when empty. The square-number twin of [`Mnk::mark_at`],
    /// for searches that work on square numbers.
    pub fn mark(&self, square: Square) -> Option<Side> {
        match self.cells[square as usize] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// Takes back `square`, which must be the last move played, so a search can walk the tree
    /// without cloning the board. `previous` is the move played before it (`None` at the start),
    /// which becomes [`Mnk::last_move`] again.
    pub fn undo(&mut self, square: Square, previous: Option<Square>) {
        debug_assert_eq!(
            self.last_move,
            Some(square),
            "only the last move can be taken back"
        );
        debug_assert_ne!(self.cells[square as usize], 0);
        self.cells[square as usize] = 0;
        self.placed -= 1;
        self.to_move = self.to_move.opponent();
        self.outcome = None;
        self.last_move = previous;
    }

    /// The square on column `x`, row `y`: the inverse of [`Mnk::coordinates`].
    pub fn square(&self, x: u8, y: u8) -> Square {
        self.index(x, y) as Square
    }

    /// Column and row of a square.
    pub fn coordinates(&self, square: Square) -> (u8, u8) {
        let width = self.params.width as u16;
        ((square % width) as u8, (square / width) as u8)
    }

    fn index(&self, x: u8, y: u8) -> usize {
        y as usize * self.params.width as usize + x as usize
    }

    fn board_name(&self) -> String {
        format!("{}x{}", self.params.width, self.params.height)
    }

    /// What a move is, with an example (the centre), for [`MoveError::NotAMove`].
    fn notation(&self) -> String {
        format!(
            "expected 'x y', two whole numbers separated by a space (column, then row, from 0 \
             at the top left), e.g. '{} {}'",
            self.params.width / 2,
            self.params.height / 2
        )
    }

    /// What the coordinates run over, for [`IllegalMove::OffBoard`].
    fn coordinate_ranges(&self) -> String {
        format!(
            "x from 0 to {}, y from 0 to {}",
            self.params.width - 1,
            self.params.height - 1
        )
    }

    /// Length of the run of `mark` through (x, y) along (dx, dy), both ways.
    fn run_length(&self, x: i32, y: i32, (dx, dy): (i32, i32), mark: u8) -> u32 {
        let (w, h) = (self.params.width as i32, self.params.height as i32);
        let mut length = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while cx >= 0 && cy >= 0 && cx < w && cy < h {
                if self.cells[(cy * w + cx) as usize] != mark {
                    break;
                }
                length += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        length
    }

    /// The mark on (x, y), `None` off the board.
    fn cell(&self, x: i32, y: i32) -> Option<u8> {
        let (w, h) = (self.params.width as i32, self.params.height as i32);
        (x >= 0 && y >= 0 && x < w && y < h).then(|| self.cells[(y * w + x) as usize])
    }

    /// Whether the mark just placed on `square` wins: a run of `line` (exactly, with `exact`;
    /// in renju exactly for Black, at least for White) which, in caro, is not blocked at both
    /// ends by the opponent's marks (the edge of the board blocks nothing).
    fn makes_line(&self, square: Square, mark: u8) -> bool {
        self.line_direction(square, mark).is_some()
    }

    /// The direction of the winning run that `makes_line` finds through `square`.
    fn line_direction(&self, square: Square, mark: u8) -> Option<(i32, i32)> {
        let (x, y) = self.coordinates(square);
        let (x, y) = (x as i32, y as i32);
        let need = self.params.line as u32;
        let exact = match self.params.rule {
            Rule::Renju => mark == 1,
            Rule::None | Rule::Caro => self.params.exact,
        };
        DIRECTIONS.iter().copied().find(|&(dx, dy)| {
            let run = self.run_length(x, y, (dx, dy), mark);
            let long_enough = if exact { run == need } else { run >= need };
            long_enough && !(self.params.rule == Rule::Caro && self.blocked(x, y, (dx, dy), mark))
        })
    }

    /// The two end squares of the line that won the game, for the picture to draw it; `None`
    /// unless the last move made a winning line.
    pub(crate) fn winning_line(&self) -> Option<((u8, u8), (u8, u8))> {
        let outcome = self.outcome?;
        if outcome.ending != Ending::Line {
            return None;
        }
        let square = self.last_move?;
        let mark = self.cells[square as usize];
        let (dx, dy) = self.line_direction(square, mark)?;
        let (x, y) = self.coordinates(square);
        let end = |sign: i32| {
            let (mut cx, mut cy) = (i32::from(x), i32::from(y));
            while self.cell(cx + sign * dx, cy + sign * dy) == Some(mark) {
                cx += sign * dx;
                cy += sign * dy;
            }
            (cx as u8, cy as u8)
        };
        Some((end(-1), end(1)))
    }

    /// Black's forbidden points when Black is to move in renju, with their shapes: what the
    /// picture marks, since they are left out of the moves.
    pub(crate) fn forbidden_points(&self) -> Vec<(Square, Forbidden)> {
        if !self.black_restricted() || self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.cells.len() as Square)
            .filter_map(|square| Some((square, self.forbidden(square)?)))
            .collect()
    }

    /// Whether both ends of the run of `mark` through (x, y) along (dx, dy) hold the
    /// opponent's mark.
    fn blocked(&self, x: i32, y: i32, (dx, dy): (i32, i32), mark: u8) -> bool {
        let opponent = 3 - mark;
        [1, -1].into_iter().all(|sign| {
            let (mut cx, mut cy) = (x, y);
            while self.cell(cx, cy) == Some(mark) {
                cx += sign * dx;
                cy += sign * dy;
            }
            self.cell(cx, cy) == Some(opponent)
        })
    }

    /// Whether Black's forbidden points are left out of the moves: renju, Black to move.
    fn black_restricted(&self) -> bool {
        self.params.rule == Rule::Renju && self.to_move == Side::First
    }

    /// The forbidden shape the first player's stone on the empty `square` would make under
    /// renju (`None` under other rules, on a taken square, and for a move that makes five).
    pub fn forbidden(&self, square: Square) -> Option<Forbidden> {
        if self.params.rule != Rule::Renju || self.cells.get(square as usize) != Some(&0) {
            return None;
        }
        let (x, y) = self.coordinates(square);
        let (width, height) = (self.params.width, self.params.height);
        if !renju::may_be_forbidden(&self.cells, width as i32, height as i32, x as i32, y as i32) {
            return None;
        }
        let mut cells = self.cells.clone();
        Lines::new(&mut cells, width, height).forbidden_at(x as i32, y as i32)
    }
}

impl Game for Mnk {
    type Move = Square;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Every empty square; under renju, Black's forbidden points are left out (the RIF rules
    /// forbid them: a bot's move generator leaves them out), unless every empty square is
    /// forbidden. The referee still accepts a forbidden move, which loses (see `play`).
    fn generate_moves(&self, moves: &mut Vec<Square>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        moves.extend(
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, &cell)| cell == 0)
                .map(|(index, _)| index as Square),
        );
        if self.black_restricted() {
            let mut cells = self.cells.clone();
            let (width, height) = (self.params.width, self.params.height);
            let mut lines = Lines::new(&mut cells, width, height);
            let before = moves.len();
            moves.retain(|&square| {
                let (x, y) = (square % width as u16, square / width as u16);
                lines.forbidden_at(x as i32, y as i32).is_none()
            });
            if moves.is_empty() && before > 0 {
                moves.extend(
                    (0..self.cells.len() as Square).filter(|&s| self.cells[s as usize] == 0),
                );
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Square, MoveError> {
        let mut words = text.split_whitespace();
        let (Some(x), Some(y), None) = (words.next(), words.next(), words.next()) else {
            return Err(MoveError::NotAMove(self.notation()));
        };
        let (x_written, y_written) = (x, y);
        let (Some(x), Some(y)) = (parse_coordinate(x), parse_coordinate(y)) else {
            return Err(MoveError::NotAMove(self.notation()));
        };
        let (w, h) = (self.params.width as i64, self.params.height as i64);
        if !(0..w).contains(&x) || !(0..h).contains(&y) {
            return Err(IllegalMove::OffBoard {
                // Only spelt out for the verdict: a legal move allocates nothing here.
                square: written_square(x_written, y_written),
                board: self.board_name(),
                coordinates: self.coordinate_ranges(),
            }
            .into());
        }
        let square = self.square(x as u8, y as u8);
        self.check_move(square)?;
        Ok(square)
    }

    fn check_move(&self, square: Square) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        match self.cells.get(square as usize) {
            None => Err(IllegalMove::OffBoard {
                square: format!("square #{square}"),
                board: self.board_name(),
                coordinates: self.coordinate_ranges(),
            }),
            Some(0) => Ok(()),
            Some(_) => Err(IllegalMove::Occupied {
                square: self.format_move(square),
            }),
        }
    }

    /// Plays the move; under renju a forbidden move of Black's is played and loses
    /// (`Ending::Forbidden`), as in Gomocup, and 200 stones on the board draw.
    fn play_unchecked(&mut self, square: Square) {
        // Checked on the empty point: `forbidden` says `None` for a move that makes five.
        let forbidden = if self.black_restricted() {
            self.forbidden(square)
        } else {
            None
        };
        let mark = if self.to_move == Side::First { 1 } else { 2 };
        self.cells[square as usize] = mark;
        self.placed += 1;
        self.last_move = Some(square);
        let ending = if self.makes_line(square, mark) {
            Some((Some(self.to_move), Ending::Line))
        } else if let Some(shape) = forbidden {
            Some((Some(Side::Second), Ending::Forbidden(shape)))
        } else if self.placed as usize == self.cells.len() {
            Some((None, Ending::BoardFull))
        } else if self.params.rule == Rule::Renju && self.placed as usize >= renju::MOVE_LIMIT {
            Some((None, Ending::MoveRule))
        } else {
            None
        };
        self.outcome = ending.map(|(winner, ending)| Outcome { winner, ending });
        self.to_move = self.to_move.opponent();
    }

    fn format_move(&self, square: Square) -> String {
        let (x, y) = self.coordinates(square);
        format!("{x} {y}")
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Drawn in `diagram.rs`.
    fn diagram(&self, view: &View) -> Diagram {
        self.draw(view)
    }

    fn picture(&self) -> Picture {
        self.draw_picture()
    }

    fn refused_picture(&self, text: &str) -> Option<Picture> {
        with_refused(
            self.draw_picture(),
            text,
            self.params.width,
            self.params.height,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Gomoku, MnkParams, Rule, SwapRule, TICTACTOE};
    use crate::games::{perft, AnyGame};

    fn game(params: MnkParams) -> Box<dyn AnyGame> {
        Box::new(Mnk::new(params))
    }

    fn play_all(game: &mut dyn AnyGame, moves: &[&str]) {
        for mv in moves {
            game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }

    #[test]
    fn tictactoe_perft_matches_the_published_table() {
        let expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0];
        let start = Mnk::new(TICTACTOE.params);
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft(&start, depth as u32 + 1),
                count,
                "depth {}",
                depth + 1
            );
        }
    }

    /// Walks every complete game: 255,168 games, 131,184 won by X, 77,904 by O, 46,080 drawn.
    #[test]
    fn tictactoe_complete_games_match_the_published_counts() {
        fn walk(game: &Mnk, tally: &mut [u64; 3]) {
            if let Some(outcome) = Game::outcome(game) {
                let slot = match outcome.winner {
                    Some(Side::First) => 0,
                    Some(Side::Second) => 1,
                    None => 2,
                };
                tally[slot] += 1;
                return;
            }
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            for mv in moves {
                let mut child = game.clone();
                child.play_unchecked(mv);
                walk(&child, tally);
            }
        }
        let mut tally = [0; 3];
        walk(&Mnk::new(TICTACTOE.params), &mut tally);
        assert_eq!(tally, [131_184, 77_904, 46_080]);
        assert_eq!(tally.iter().sum::<u64>(), 255_168);
    }

    #[test]
    fn tictactoe_has_5478_reachable_positions() {
        fn visit(game: &Mnk, seen: &mut std::collections::HashSet<Vec<u8>>) {
            if !seen.insert(game.cells.clone()) {
                return;
            }
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            for mv in moves {
                let mut child = game.clone();
                child.play_unchecked(mv);
                visit(&child, seen);
            }
        }
        let mut seen = std::collections::HashSet::new();
        visit(&Mnk::new(TICTACTOE.params), &mut seen);
        assert_eq!(seen.len(), 5478);
    }

    /// Taking back each move of every sequence (to a depth of six, wins and a full 3x3 board
    /// included) restores the position before it exactly.
    #[test]
    fn undo_restores_the_position_before_the_move() {
        fn walk(game: &mut Mnk, depth: u32) {
            if depth == 0 || Game::outcome(game).is_some() {
                return;
            }
            let mut legal = Vec::new();
            game.generate_moves(&mut legal);
            for mv in legal {
                let before = game.clone();
                game.play_unchecked(mv);
                assert_eq!(game.mark(mv), Some(Game::side_to_move(&before)));
                walk(game, depth - 1);
                game.undo(mv, before.last_move());
                assert_eq!(*game, before);
                assert_eq!(game.mark(mv), None);
            }
        }
        let rectangle = MnkParams {
            width: 4,
            height: 3,
            line: 3,
            exact: false,
            rule: Rule::None,
            swap: SwapRule::None,
        };
        for params in [TICTACTOE.params, rectangle] {
            let mut game = Mnk::new(params);
            walk(&mut game, if params.width == 3 { 9 } else { 6 });
            assert_eq!(game, Mnk::new(params));
        }
    }

    #[test]
    fn moves_are_column_then_row() {
        let mut g = Mnk::new(MnkParams {
            width: 5,
            height: 3,
            line: 3,
            exact: false,
            rule: Rule::None,
            swap: SwapRule::None,
        });
        let mv = g.parse_move("4 2").unwrap();
        g.play(mv).unwrap();
        assert_eq!(g.mark_at(4, 2), Some(Side::First));
        assert_eq!(g.format_move(mv), "4 2");
        assert!(matches!(
            g.parse_move("2 4"),
            Err(MoveError::Illegal(IllegalMove::OffBoard { .. }))
        ));
    }

    #[test]
    fn each_wrong_move_gets_its_own_verdict() {
        let mut g = game(TICTACTOE.params);
        for text in ["", "1", "1 2 3", "a b", "1,1", "1.0 2", "one two"] {
            assert!(
                matches!(g.play_text(text), Err(MoveError::NotAMove(_))),
                "{text:?}"
            );
        }
        for text in ["3 0", "0 3", "-1 0", "99999999999999999999 0"] {
            assert!(
                matches!(
                    g.play_text(text),
                    Err(MoveError::Illegal(IllegalMove::OffBoard { .. }))
                ),
                "{text:?}"
            );
        }
        // The square as the bot wrote it, not as far as an i64 reaches.
        assert_eq!(
            g.play_text("99999999999999999999 1")
                .unwrap_err()
                .to_string(),
            "illegal move: 99999999999999999999 1 is off the 3x3 board (x from 0 to 2, y from 0 to 2)"
        );
        g.play_text("1 1").unwrap();
        assert_eq!(
            g.play_text("1 1"),
            Err(MoveError::Illegal(IllegalMove::Occupied {
                square: "1 1".into()
            }))
        );
        // Extra white space is tolerated: the notation is two numbers.
        assert_eq!(g.play_text("  0   2 ").unwrap(), "0 2");
    }

    #[test]
    fn a_line_wins_and_ends_the_game() {
        let mut g = game(TICTACTOE.params);
        play_all(g.as_mut(), &["0 0", "0 1", "1 0", "1 1", "2 0"]);
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Side::First),
                ending: Ending::Line
            })
        );
        assert!(g.legal_moves_text().is_empty());
        assert_eq!(
            g.play_text("2 2"),
            Err(MoveError::Illegal(IllegalMove::GameOver))
        );
    }

    #[test]
    fn both_diagonals_win() {
        let mut g = game(TICTACTOE.params);
        play_all(g.as_mut(), &["2 0", "0 0", "1 1", "1 0", "0 2"]);
        assert_eq!(g.outcome().unwrap().winner, Some(Side::First));
        let mut g = game(TICTACTOE.params);
        play_all(g.as_mut(), &["0 1", "0 0", "2 1", "1 1", "1 0", "2 2"]);
        assert_eq!(g.outcome().unwrap().winner, Some(Side::Second));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let mut g = game(TICTACTOE.params);
        play_all(
            g.as_mut(),
            &[
                "0 0", "1 1", "2 2", "1 0", "1 2", "0 2", "2 0", "2 1", "0 1",
            ],
        );
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: None,
                ending: Ending::BoardFull
            })
        );
    }

    const EXACT: Gomoku = Gomoku {
        exact: true,
        ..Gomoku::STANDARD
    };

    /// X plays five stones in a row at the top with a gap, then fills it to make six.
    fn overline_game(params: MnkParams) -> Box<dyn AnyGame> {
        let mut g = game(params);
        play_all(
            g.as_mut(),
            &[
                "0 0", "0 5", "1 0", "1 5", "2 0", "2 5", "4 0", "4 5", "5 0", "6 6", "3 0",
            ],
        );
        g
    }

    #[test]
    fn freestyle_gomoku_counts_an_overline() {
        assert_eq!(
            overline_game(Gomoku::STANDARD.params())
                .outcome()
                .unwrap()
                .winner,
            Some(Side::First)
        );
    }

    #[test]
    fn exactly_five_does_not_count_an_overline() {
        let g = overline_game(EXACT.params());
        assert_eq!(g.outcome(), None);
        // ... but an exact five still wins.
        let mut g = game(EXACT.params());
        play_all(
            g.as_mut(),
            &[
                "0 0", "0 5", "1 0", "1 5", "2 0", "2 5", "3 0", "3 5", "4 0",
            ],
        );
        assert_eq!(g.outcome().unwrap().winner, Some(Side::First));
    }

    #[test]
    fn rectangular_boards_find_lines_near_every_edge() {
        let params = MnkParams {
            width: 10,
            height: 4,
            line: 4,
            exact: false,
            rule: Rule::None,
            swap: SwapRule::None,
        };
        let mut g = game(params);
        play_all(
            g.as_mut(),
            &["9 0", "0 0", "8 1", "0 1", "7 2", "0 2", "6 3"],
        );
        assert_eq!(g.outcome().unwrap().winner, Some(Side::First));
        assert_eq!(perft(&Mnk::new(params), 2), 40 * 39);
    }
}
