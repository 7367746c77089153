//! Ultimate tic-tac-toe positions as bitboards: the marks, the boards decided, where the next
//! move must go, and the rules that change them.

use super::params::{UtttParams, UtttTiebreak};
use super::tables::{
    Square, ALL_CELLS, BIT_OF_SQUARE, BOARD_CELLS, HAS_LINE, LINES, SQUARE_OF_BIT,
};
use crate::games::diagram::column_letter;
use crate::games::mnk::picture::with_refused;
use crate::games::picture::Picture;
use crate::games::{
    parse_coordinate, written_square, Diagram, Ending, Game, IllegalMove, MoveError, Outcome, Side,
    View,
};

/// What a small board contributes to the big board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStatus {
    /// Still open: it has empty cells and nobody has a line in it.
    Undecided,
    /// Three in a row inside it; no more marks may go there.
    Won(Side),
    /// Filled without a line: it counts for nobody.
    Full,
}

/// An ultimate tic-tac-toe position: bitboards only, so it is `Copy` and searches clone it
/// without touching the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uttt {
    params: UtttParams,
    /// Each player's marks, bit `board * 9 + cell`: a small board's cells are nine adjacent bits,
    /// so one shift extracts it for the win table.
    marks: [u128; 2],
    /// Empty cells of undecided boards, same layout: exactly the squares a free move may take,
    /// and a board with no bit left here is decided.
    playable: u128,
    /// Per player, bit `board` set when that small board is won: the big board for the win table.
    won: [u16; 2],
    /// The small board the side to move must play in; `None` when play is free.
    forced: Option<u8>,
    to_move: Side,
    last_move: Option<Square>,
    outcome: Option<Outcome>,
}

/// What the coordinates run over, for [`IllegalMove::OffBoard`].
const COORDINATES: &str = "x and y from 0 to 8";

/// What a move is, with an example, for [`MoveError::NotAMove`].
const NOTATION: &str = "expected 'x y', two whole numbers separated by a space (column, then \
                        row, each 0 to 8, from the top left), e.g. '4 4'";

impl Uttt {
    /// The empty board, X (the first player) to move anywhere.
    pub fn new(params: UtttParams) -> Uttt {
        Uttt {
            params,
            marks: [0; 2],
            playable: ALL_CELLS,
            won: [0; 2],
            forced: None,
            to_move: Side::First,
            last_move: None,
            outcome: None,
        }
    }

    /// The rule variations this game is played with (the tie-break).
    pub fn params(&self) -> UtttParams {
        self.params
    }

    /// The square at column `x`, row `y` (both 0..8); panics off the board, where the
    /// arithmetic would silently name another square.
    pub fn square(x: u8, y: u8) -> Square {
        assert!(x < 9 && y < 9, "({x}, {y}) is off the 9x9 board");
        y * 9 + x
    }

    /// Column and row of a square.
    pub fn coordinates(square: Square) -> (u8, u8) {
        (square % 9, square / 9)
    }

    /// The mark on column `x`, row `y` (both 0..8): `None` when empty.
    pub fn mark_at(&self, x: u8, y: u8) -> Option<Side> {
        let bit = 1u128 << BIT_OF_SQUARE[Uttt::square(x, y) as usize];
        Side::BOTH
            .into_iter()
            .find(|side| self.marks[side.index()] & bit != 0)
    }

    /// Whether small board `board` (0..8, row by row) is still open, won, or full: what a bot
    /// needs to weigh a board, and what the referee needs to explain a refusal.
    pub fn board_status(&self, board: u8) -> BoardStatus {
        assert!(board < 9, "there is no small board {board}");
        if let Some(side) = Side::BOTH
            .into_iter()
            .find(|side| self.won[side.index()] & 1 << board != 0)
        {
            BoardStatus::Won(side)
        } else if self.playable_in(board) == 0 {
            BoardStatus::Full
        } else {
            BoardStatus::Undecided
        }
    }

    /// The small board the side to move must play in; `None` when it may choose any undecided
    /// board (the first move, after being sent to a decided board, and once the game is over).
    pub fn forced_board(&self) -> Option<u8> {
        self.forced
    }

    /// How many small boards `side` has won: the CodinGame tie-break, and a common evaluation.
    pub fn boards_won(&self, side: Side) -> u32 {
        self.won[side.index()].count_ones()
    }

    /// The cells of small board `board` holding `side`'s marks, as 9 bits (bit = cell, row by
    /// row): with [`Uttt::playable_in`], a small board in two numbers, for a bot's tables.
    pub fn marks_in(&self, side: Side, board: u8) -> u16 {
        (self.marks[side.index()] >> (board as u32 * 9) & BOARD_CELLS) as u16
    }

    /// The last move played: its cell chose the forced board, and the console highlights it.
    pub fn last_move(&self) -> Option<Square> {
        self.last_move
    }

    /// The three small boards in a line that won the game, in order along it, for the picture
    /// to draw; `None` unless the game was won by a line of boards.
    pub(crate) fn winning_boards(&self) -> Option<[u8; 3]> {
        let outcome = self.outcome?;
        let winner = outcome.winner.filter(|_| outcome.ending == Ending::Line)?;
        let won = (0..9u8)
            .filter(|&board| self.board_status(board) == BoardStatus::Won(winner))
            .fold(0u16, |set, board| set | 1 << board);
        let line = LINES.iter().find(|&&line| won & line == line)?;
        let mut boards = (0..9u8).filter(|board| line & 1 << board != 0);
        Some([boards.next()?, boards.next()?, boards.next()?])
    }

    /// Whether a mark of `side` on `square` would complete a line in its small board, whoever
    /// is to move: a bot weighs both taking a board and blocking the opponent from taking it.
    pub fn completes_board(&self, side: Side, square: Square) -> bool {
        let bit = BIT_OF_SQUARE[square as usize] as u32;
        let shift = bit / 9 * 9;
        let cells = (self.marks[side.index()] >> shift & BOARD_CELLS) as usize | 1 << (bit - shift);
        HAS_LINE[cells]
    }

    /// The legal moves as bits (`board * 9 + cell`): [`Uttt::move_count`] and
    /// [`Uttt::nth_move`] pick from it without building a list.
    fn legal_bits(&self) -> u128 {
        match (self.outcome, self.forced) {
            (Some(_), _) => 0,
            (None, Some(board)) => (self.playable_in(board) as u128) << (board as u32 * 9),
            (None, None) => self.playable,
        }
    }

    /// How many legal moves there are: with [`Uttt::nth_move`], a random move for a playout
    /// costs a few bit operations instead of a list.
    pub fn move_count(&self) -> u32 {
        self.legal_bits().count_ones()
    }

    /// The legal move of rank `index` (0 <= index < [`Uttt::move_count`]), in the order of
    /// [`Game::generate_moves`].
    pub fn nth_move(&self, index: u32) -> Square {
        let bits = self.legal_bits();
        let (low, high) = (bits as u64, (bits >> 64) as u64);
        let (mut word, rank, base) = match low.count_ones() {
            below if index < below => (low, index, 0),
            below => (high, index - below, 64),
        };
        for _ in 0..rank {
            word &= word.wrapping_sub(1);
        }
        debug_assert!(word != 0, "no move {index} among {}", self.move_count());
        SQUARE_OF_BIT[base + word.trailing_zeros() as usize]
    }

    /// The empty cells of `board` as 9 bits (bit = cell), or 0 if the board is decided.
    pub fn playable_in(&self, board: u8) -> u16 {
        (self.playable >> (board as u32 * 9) & BOARD_CELLS) as u16
    }

    /// The outcome when the side to move has no move left and nobody has a line of boards.
    fn no_moves_left(&self) -> Outcome {
        let [first, second] = [Side::First, Side::Second].map(|side| self.boards_won(side));
        let winner = match self.params.tiebreak {
            UtttTiebreak::Codingame if first > second => Some(Side::First),
            UtttTiebreak::Codingame if second > first => Some(Side::Second),
            _ => None,
        };
        Outcome {
            winner,
            ending: if winner.is_some() {
                Ending::MoreSmallBoards
            } else {
                Ending::NoMovesLeft
            },
        }
    }
}

/// Small board `board` (0..8) as the columns and rows it covers, for messages; the columns by
/// their letters when `letters` (as the console names them).
pub(super) fn area(board: u8, letters: bool) -> String {
    let (x, y) = (board % 3 * 3, board / 3 * 3);
    let columns = if letters {
        format!("{}-{}", column_letter(x), column_letter(x + 2))
    } else {
        format!("{}-{}", x, x + 2)
    };
    format!("columns {columns}, rows {}-{}", y, y + 2)
}

/// The letter a side's marks are drawn with.
pub(super) fn letter(side: Side) -> char {
    match side {
        Side::First => 'X',
        Side::Second => 'O',
    }
}

impl Game for Uttt {
    type Move = Square;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Square>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        // Writing into a fixed-size slice of the vector and trimming it afterwards is markedly
        // faster than pushing: a push stores a byte that may alias the vector's length, so the
        // length is reloaded after every push, and copying from a local array calls `memcpy`.
        moves.resize(81, 0);
        let squares: &mut [Square; 81] = (&mut moves[..81]).try_into().expect("81 squares");
        let mut count = 0;
        match self.forced {
            Some(board) => {
                let base = board as usize * 9;
                let mut cells = self.playable_in(board);
                while cells != 0 {
                    squares[count] = SQUARE_OF_BIT[base + cells.trailing_zeros() as usize];
                    count += 1;
                    cells &= cells - 1;
                }
            }
            None => {
                let mut bits = self.playable;
                while bits != 0 {
                    squares[count] = SQUARE_OF_BIT[bits.trailing_zeros() as usize];
                    count += 1;
                    bits &= bits - 1;
                }
            }
        }
        moves.truncate(count);
    }

    fn parse_move(&self, text: &str) -> Result<Square, MoveError> {
        let mut words = text.split_whitespace();
        let (Some(x), Some(y), None) = (words.next(), words.next(), words.next()) else {
            return Err(MoveError::NotAMove(NOTATION.into()));
        };
        let (x_written, y_written) = (x, y);
        let (Some(x), Some(y)) = (parse_coordinate(x), parse_coordinate(y)) else {
            return Err(MoveError::NotAMove(NOTATION.into()));
        };
        if !(0..9).contains(&x) || !(0..9).contains(&y) {
            return Err(IllegalMove::OffBoard {
                // Only spelt out for the verdict: a legal move allocates nothing here.
                square: written_square(x_written, y_written),
                board: "9x9".into(),
                coordinates: COORDINATES.into(),
            }
            .into());
        }
        let square = Uttt::square(x as u8, y as u8);
        self.check_move(square)?;
        Ok(square)
    }

    /// Checks the board before the square, so a bot that plays in the wrong board hears about
    /// the board (forced elsewhere, or already decided) even if the square is also taken.
    fn check_move(&self, square: Square) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let Some(&bit) = BIT_OF_SQUARE.get(square as usize) else {
            return Err(IllegalMove::OffBoard {
                square: format!("square #{square}"),
                board: "9x9".into(),
                coordinates: COORDINATES.into(),
            });
        };
        let board = bit / 9;
        match self.forced {
            Some(forced) if forced != board => {
                return Err(IllegalMove::OutsideForcedBoard {
                    square: self.format_move(square),
                    board: forced,
                    area: area(forced, false),
                })
            }
            _ => {}
        }
        match self.board_status(board) {
            BoardStatus::Won(side) => {
                return Err(IllegalMove::NotLegal {
                    reason: format!("small board {board} is already won by {}", letter(side)),
                })
            }
            BoardStatus::Full => {
                return Err(IllegalMove::NotLegal {
                    reason: format!("small board {board} is already full"),
                })
            }
            BoardStatus::Undecided => {}
        }
        if (self.marks[0] | self.marks[1]) & 1 << bit != 0 {
            return Err(IllegalMove::Occupied {
                square: self.format_move(square),
            });
        }
        Ok(())
    }

    /// Works on local copies and stores each field once: updating the bitboards in place lets
    /// the compiler store a few bytes and reload the whole word, which stalls the CPU.
    fn play_unchecked(&mut self, square: Square) {
        let me = self.to_move.index();
        let bit = BIT_OF_SQUARE[square as usize] as u32;
        let (board, cell) = (bit / 9, bit % 9);
        let shift = board * 9;
        let marks = self.marks[me] | 1 << bit;
        let mut playable = self.playable & !(1 << bit);
        let mut outcome = None;
        if HAS_LINE[(marks >> shift & BOARD_CELLS) as usize] {
            playable &= !(BOARD_CELLS << shift);
            let won = self.won[me] | 1 << board;
            self.won[me] = won;
            if HAS_LINE[won as usize] {
                outcome = Some(Outcome {
                    winner: Some(self.to_move),
                    ending: Ending::Line,
                });
            }
        }
        self.marks[me] = marks;
        self.playable = playable;
        if outcome.is_none() && playable == 0 {
            outcome = Some(self.no_moves_left());
        }
        self.forced = if outcome.is_none() && playable >> (cell * 9) & BOARD_CELLS != 0 {
            Some(cell as u8)
        } else {
            None
        };
        self.outcome = outcome;
        self.last_move = Some(square);
        self.to_move = self.to_move.opponent();
    }

    fn format_move(&self, square: Square) -> String {
        let (x, y) = Uttt::coordinates(square);
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
        with_refused(self.draw_picture(), text, 9, 9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::perft;
    use crate::games::uttt::test_positions::*;

    fn statuses(game: &Uttt) -> Vec<BoardStatus> {
        (0..9).map(|board| game.board_status(board)).collect()
    }

    fn illegal(game: &Uttt, text: &str) -> IllegalMove {
        match game.parse_move(text) {
            Err(MoveError::Illegal(verdict)) => verdict,
            other => panic!("{text:?}: expected an illegal move, got {other:?}"),
        }
    }

    #[test]
    fn perft_matches_the_published_table() {
        let start = Uttt::new(UtttParams::default());
        for (depth, count) in [(1, 81), (2, 720), (3, 6336), (4, 55_080), (5, 473_256)] {
            assert_eq!(perft(&start, depth), count, "depth {depth}");
        }
        // The tie-break plays no part before the end.
        assert_eq!(perft(&Uttt::new(CODINGAME), 3), 6336);
    }

    #[test]
    fn notation_is_column_then_row_and_picks_board_and_cell() {
        let mut game = Uttt::new(UtttParams::default());
        for square in 0..81 {
            assert_eq!(game.parse_move(&game.format_move(square)), Ok(square));
        }
        // Column 7, row 2: small board 2 (top right), cell 7 (bottom middle).
        let mv = game.parse_move(" 7   2 ").unwrap();
        assert_eq!(mv, 2 * 9 + 7);
        assert_eq!(Uttt::coordinates(mv), (7, 2));
        assert_eq!(game.format_move(mv), "7 2");
        game.play(mv).unwrap();
        assert_eq!(game.mark_at(7, 2), Some(Side::First));
        assert_eq!(game.mark_at(2, 7), None);
        assert_eq!(game.last_move(), Some(mv));
        assert_eq!(game.forced_board(), Some(7));
        let mut expected = Vec::new();
        for y in 6..9 {
            for x in 3..6 {
                expected.push(format!("{x} {y}"));
            }
        }
        expected.sort();
        let mut moves = legal(&game);
        moves.sort();
        assert_eq!(moves, expected);
    }

    #[test]
    fn the_first_move_is_free_and_then_the_cell_picks_the_board() {
        let mut game = Uttt::new(UtttParams::default());
        assert_eq!(game.forced_board(), None);
        assert_eq!(legal(&game).len(), 81);
        game.play(Uttt::square(4, 4)).unwrap();
        assert_eq!(game.forced_board(), Some(4));
        assert_eq!(game.side_to_move(), Side::Second);
        // Board 4 is still open: its eight empty cells, and nothing else.
        assert_eq!(
            legal(&game),
            ["3 3", "4 3", "5 3", "3 4", "5 4", "3 5", "4 5", "5 5"]
        );
    }

    #[test]
    fn a_won_board_takes_no_more_marks_and_frees_whoever_is_sent_there() {
        let mut game = after(UtttParams::default(), X_WINS_BOARD_0);
        assert_eq!(game.board_status(0), BoardStatus::Won(Side::First));
        assert_eq!(game.boards_won(Side::First), 1);
        assert_eq!(game.boards_won(Side::Second), 0);
        assert_eq!(Game::outcome(&game), None);
        // O was sent to board 0, which is won: O may play anywhere but there.
        assert_eq!(game.forced_board(), None);
        let moves = legal(&game);
        assert_eq!(moves.len(), 81 - 5 - 6);
        assert!(!moves.contains(&"1 1".to_string()));
        assert_eq!(
            illegal(&game, "1 1"),
            IllegalMove::NotLegal {
                reason: "small board 0 is already won by X".into()
            }
        );
        // Later moves into cell 0 free the choice too.
        game.play(Uttt::square(4, 4)).unwrap();
        game.play(Uttt::square(3, 3)).unwrap();
        assert_eq!(game.forced_board(), None);
        assert_eq!(legal(&game).len(), 81 - 7 - 6);
    }

    #[test]
    fn a_full_board_counts_for_nobody_and_frees_whoever_is_sent_there() {
        let mut game = after(UtttParams::default(), BOARD_4_FULL);
        assert_eq!(game.board_status(4), BoardStatus::Full);
        assert_eq!(
            game.boards_won(Side::First) + game.boards_won(Side::Second),
            0
        );
        assert_eq!(game.forced_board(), Some(5));
        // X plays cell 7 of board 5, O cell 4 of board 7: X is sent to the full board.
        game.play(Uttt::square(7, 5)).unwrap();
        game.play(Uttt::square(4, 7)).unwrap();
        assert_eq!(game.forced_board(), None);
        assert_eq!(legal(&game).len(), 81 - 24);
        assert_eq!(
            illegal(&game, "4 4"),
            IllegalMove::NotLegal {
                reason: "small board 4 is already full".into()
            }
        );
    }

    #[test]
    fn completes_board_finds_the_third_mark_of_a_line_for_either_side() {
        // X holds cells 1 and 2 of board 0 (squares 1 0 and 2 0); O holds nothing there.
        let game = after(UtttParams::default(), "1 0, 3 0, 2 0, 6 0");
        let square = |x, y| Uttt::square(x, y);
        assert!(game.completes_board(Side::First, square(0, 0)));
        assert!(!game.completes_board(Side::Second, square(0, 0)));
        assert!(!game.completes_board(Side::First, square(1, 1)));
        // O's two marks are in different boards: no line for O anywhere.
        assert!(!(0..81).any(|sq| game.completes_board(Side::Second, sq)));
        // The move completes the board, as playing it shows.
        let mut played = game;
        played.play(square(0, 0)).unwrap();
        assert_eq!(played.board_status(0), BoardStatus::Won(Side::First));
    }

    #[test]
    fn nth_move_walks_the_generated_moves_in_order() {
        let mut moves = Vec::new();
        let mut freed_later = 0;
        // Fixed walks through whole games, which pass through forced and free positions.
        for stride in 1..8 {
            let mut game = Uttt::new(CODINGAME);
            let mut step = 0;
            loop {
                game.generate_moves(&mut moves);
                assert_eq!(game.move_count() as usize, moves.len());
                for (index, &square) in moves.iter().enumerate() {
                    assert_eq!(game.nth_move(index as u32), square);
                }
                if moves.is_empty() {
                    break;
                }
                if game.last_move().is_some() && game.forced_board().is_none() {
                    freed_later += 1;
                }
                step += stride;
                game.play_unchecked(moves[step % moves.len()]);
            }
            assert!(game.outcome().is_some());
        }
        assert!(freed_later > 5, "{freed_later} free positions");
    }

    #[test]
    fn a_board_filled_by_its_winning_move_is_won() {
        let game = after(UtttParams::default(), BOARD_3_FILLED_BY_A_WIN);
        assert_eq!(game.board_status(3), BoardStatus::Won(Side::First));
        assert_eq!(game.boards_won(Side::First), 1);
    }

    #[test]
    fn three_boards_in_a_line_win_the_game() {
        let game = after(UtttParams::default(), X_TOP_ROW);
        assert_eq!(
            Game::outcome(&game),
            Some(Outcome {
                winner: Some(Side::First),
                ending: Ending::Line,
            })
        );
        assert_eq!(game.boards_won(Side::First), 3);
        assert!(legal(&game).is_empty());
        assert_eq!(game.forced_board(), None);
        assert_eq!(illegal(&game, "4 4"), IllegalMove::GameOver);
    }

    #[test]
    fn no_move_left_without_a_line_is_a_draw_by_default() {
        for moves in [O_MORE_BOARDS, X_MORE_BOARDS, EQUAL_BOARDS] {
            let game = after(UtttParams::default(), moves);
            assert!(legal(&game).is_empty());
            assert!(statuses(&game).iter().all(|s| *s != BoardStatus::Undecided));
            assert_eq!(
                Game::outcome(&game),
                Some(Outcome {
                    winner: None,
                    ending: Ending::NoMovesLeft,
                })
            );
        }
    }

    #[test]
    fn the_codingame_tiebreak_gives_the_game_to_more_small_boards() {
        for (moves, won, winner) in [
            (O_MORE_BOARDS, [4, 5], Some(Side::Second)),
            (X_MORE_BOARDS, [5, 4], Some(Side::First)),
            (EQUAL_BOARDS, [4, 4], None),
        ] {
            let game = after(CODINGAME, moves);
            assert_eq!(Side::BOTH.map(|side| game.boards_won(side)), won, "{moves}");
            let ending = if winner.is_some() {
                Ending::MoreSmallBoards
            } else {
                Ending::NoMovesLeft
            };
            assert_eq!(Game::outcome(&game), Some(Outcome { winner, ending }));
        }
        // Board 8 of the equal game is full: it counts for nobody.
        assert_eq!(
            after(CODINGAME, EQUAL_BOARDS).board_status(8),
            BoardStatus::Full
        );
    }

    #[test]
    fn each_wrong_move_gets_its_own_verdict() {
        let mut game = Uttt::new(UtttParams::default());
        for text in ["", "4", "4 4 4", "a b", "4,4", "4.0 4", "four four"] {
            match game.parse_move(text) {
                Err(MoveError::NotAMove(message)) => {
                    assert!(message.contains("'x y'"), "{text:?}: {message}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            illegal(&game, "9 0"),
            IllegalMove::OffBoard {
                square: "9 0".into(),
                board: "9x9".into(),
                coordinates: COORDINATES.into()
            }
        );
        for text in ["0 9", "-1 4", "99999999999999999999 0"] {
            assert_eq!(illegal(&game, text).code(), "off-board", "{text:?}");
        }
        assert_eq!(
            game.check_move(81),
            Err(IllegalMove::OffBoard {
                square: "square #81".into(),
                board: "9x9".into(),
                coordinates: COORDINATES.into()
            })
        );
        game.play(Uttt::square(4, 4)).unwrap();
        assert_eq!(
            illegal(&game, "4 4"),
            IllegalMove::Occupied {
                square: "4 4".into()
            }
        );
        let outside = illegal(&game, "0 0");
        assert_eq!(
            outside,
            IllegalMove::OutsideForcedBoard {
                square: "0 0".into(),
                board: 4,
                area: "columns 3-5, rows 3-5".into()
            }
        );
        assert_eq!(
            outside.to_string(),
            "0 0 is outside the forced board: you must play in small board 4 (columns 3-5, rows 3-5)"
        );
        // The board is checked before the square: a taken square elsewhere is still "outside".
        game.play(Uttt::square(3, 3)).unwrap();
        game.play(Uttt::square(1, 1)).unwrap();
        assert_eq!(game.forced_board(), Some(4));
        assert_eq!(illegal(&game, "3 3").code(), "occupied");
        assert_eq!(illegal(&game, "1 1").code(), "outside-forced-board");
        // Won board, full board and game over are covered with their positions above.
    }
}
