//! The rules of every game: pure code, no I/O.
//!
//! Each game is one folder implementing [`Game`], modelled on chess rules crates such as
//! shakmaty: generate the legal moves, parse a move in the game's notation (telling "not a move"
//! from "illegal move"), play it, and ask for the outcome. The referee itself works through the
//! object-safe [`AnyGame`], which every [`Game`] gets for free, so the match loop never needs to
//! know which game it runs. The game's parameters implement [`Variant`], which answers what the
//! registry ([`GameSpec`]), the console and `referee check` ask of a game, so none of them needs
//! to know which game it is either.

pub mod checkers;
pub mod diagram;
pub mod dots;
mod geometry;
pub mod mnk;
mod opening_text;
mod param_reader;
pub(crate) mod perft;
pub mod picture;
pub(crate) mod spec;
pub mod uttt;
mod variant;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use diagram::{Diagram, Tone, View, COMPACT_COLUMNS};
pub use geometry::Geometry;
pub use opening_text::opening_moves;
pub use param_reader::ParamError;
pub use perft::perft;
pub use spec::{GameSpec, SpecError};
pub use variant::{Scenario, Variant};

/// The two seats of a game: `First` moves first (X in m,n,k and ultimate tic-tac-toe, Black in
/// checkers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

impl Side {
    /// Both seats, first then second: for loops over the players.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other seat.
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second: handy to index per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// The word used on the wire and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The colour of a player's stones in gomoku and m,n,k games: Black (X on the board) moves
/// first. Fixed to the seats (the first player is Black) unless a swap opening chose them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// The colour that moves first, drawn X.
    Black,
    /// The colour that moves second, drawn O.
    White,
}

impl Colour {
    /// The mark its stones are drawn as, on the pictures and the diagrams.
    pub fn mark(self) -> char {
        match self {
            Colour::Black => 'X',
            Colour::White => 'O',
        }
    }

    /// One of its stones in words for a person, named with the mark the board draws it as:
    /// `a white stone (O)`.
    pub fn stone(self) -> String {
        format!(
            "a {} stone ({})",
            self.to_string().to_lowercase(),
            self.mark()
        )
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "Black",
            Colour::White => "White",
        })
    }
}

/// What a swap opening asks of the side to move while it chooses the colours (see
/// [`mnk::SwapGame`]): a person is told which stone to place, as a bot reads it from the
/// stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapStep {
    /// A stone to place.
    Place(OpeningStone),
    /// The choice of colours: `swap` (take Black) or White's next stone, and with `more`
    /// (swap2's first choice) `x y more` too.
    Choose {
        /// Whether `x y more` is among the moves.
        more: bool,
    },
}

/// A stone of `colour` that a swap opening has a player place, the `number`th of the `of` they
/// place in a row: the opening's three (Black, White, Black), or swap2's two more (White, then
/// Black). Shown as a person is told it, in the browser and at the console: `a white stone (O),
/// 2 of 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningStone {
    /// The colour of the stone.
    pub colour: Colour,
    /// Which of the stones it is, from 1.
    pub number: u8,
    /// How many stones the player places in a row.
    pub of: u8,
}

impl fmt::Display for OpeningStone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {} of {}", self.colour.stone(), self.number, self.of)
    }
}

/// Why a text is refused as a move. `NotAMove` means the text is not in the game's notation at
/// all; `Illegal` means it is a well-formed move that the rules forbid here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text does not follow the notation; the message says what was expected.
    #[error("not a move: {0}")]
    NotAMove(String),
    /// The text is a move in the notation, but the rules forbid it here. The rule broken is
    /// part of the message, not a source: a chain of causes would say it twice.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
}

impl From<IllegalMove> for MoveError {
    fn from(illegal: IllegalMove) -> Self {
        MoveError::Illegal(illegal)
    }
}

/// A well-formed move that the rules forbid. Every variant is a distinct verdict, with a stable
/// [`code`](IllegalMove::code) for records and a message written for a bot author.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The move names a square (or line) the board does not have.
    #[error("{square} is off the {board} board ({coordinates})")]
    OffBoard {
        /// The square as the bot wrote it (or `square #N`, `line #N` for an internal index).
        square: String,
        /// What board it is off, e.g. `15x15` or `32-square checkers`.
        board: String,
        /// What the board's coordinates run over, e.g. `x from 0 to 14, y from 0 to 14`: a bot
        /// counting from 1 sees where it went wrong.
        coordinates: String,
    },
    /// A mark on a square that already holds one.
    #[error("{square} is already taken")]
    Occupied {
        /// The square in canonical notation.
        square: String,
    },
    /// Ultimate tic-tac-toe: the previous move sent the player to another small board.
    #[error("{square} is outside the forced board: you must play in small board {board} ({area})")]
    OutsideForcedBoard {
        /// The square played, in canonical notation.
        square: String,
        /// The small board the player had to play in, 0..8, row by row from the top left.
        board: u8,
        /// That small board's columns and rows, so a bot author can find it.
        area: String,
    },
    /// A move after the game ended by its rules.
    #[error("the game is already over")]
    GameOver,
    /// Checkers: the move starts from a square with no piece.
    #[error("there is no piece on square {square}")]
    EmptySquare {
        /// The start square, 1..32.
        square: u8,
    },
    /// Checkers: the move starts from an opponent's piece.
    #[error("the piece on square {square} is not yours")]
    NotYourPiece {
        /// The start square, 1..32.
        square: u8,
    },
    /// Checkers: a plain move while some jump is available.
    #[error("a capture is mandatory: you must jump (for example {example})")]
    CaptureMandatory {
        /// One legal jump, to show the bot author what it should have played.
        example: String,
    },
    /// Checkers: a short form (start and end only) that fits more than one legal capture.
    #[error("{text} is ambiguous: it names {} moves ({})", candidates.len(), candidates.join(", "))]
    Ambiguous {
        /// The move as the bot wrote it.
        text: String,
        /// Every legal move it could mean, in full notation.
        candidates: Vec<String>,
    },
    /// Dots and boxes: the line is already drawn.
    #[error("line {line} is already drawn")]
    LineTaken {
        /// The line in canonical notation.
        line: String,
    },
    /// A well-formed move that is not legal for a game-specific reason given in the text.
    #[error("{reason}")]
    NotLegal {
        /// The reason, written for a bot author; the whole message.
        reason: String,
    },
}

impl IllegalMove {
    /// A short stable identifier, kept in the record's `result.violation`.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::OffBoard { .. } => "off-board",
            IllegalMove::Occupied { .. } => "occupied",
            IllegalMove::OutsideForcedBoard { .. } => "outside-forced-board",
            IllegalMove::GameOver => "game-over",
            IllegalMove::EmptySquare { .. } => "empty-square",
            IllegalMove::NotYourPiece { .. } => "not-your-piece",
            IllegalMove::CaptureMandatory { .. } => "capture-mandatory",
            IllegalMove::Ambiguous { .. } => "ambiguous",
            IllegalMove::LineTaken { .. } => "line-taken",
            IllegalMove::NotLegal { .. } => "not-legal",
        }
    }
}

/// How a game ended by its own rules (as opposed to a forfeit, which the match loop decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// k in a row (m,n,k) or three small boards in a line (ultimate tic-tac-toe).
    Line,
    /// Every square is filled and nobody made a line.
    BoardFull,
    /// Ultimate tic-tac-toe: no legal move is left and nobody owns a line of small boards.
    NoMovesLeft,
    /// Ultimate tic-tac-toe with the CodinGame tie-break: more small boards won.
    MoreSmallBoards,
    /// Checkers: the player to move has no legal move (no pieces left, or all blocked).
    NoLegalMove,
    /// Checkers: the same position, same player to move, for the third time.
    Repetition,
    /// Checkers: the move rule (no man advanced and no capture for the configured count).
    /// Renju: 200 moves made without a five (Gomocup's rule).
    MoveRule,
    /// Dots and boxes: every line is drawn; the boxes decide.
    AllLinesDrawn,
    /// Renju: the first player (Black) made a forbidden shape without making five, and loses.
    /// Not in [`Ending::ALL`]: its shape is told apart as a violation, not as an ending code.
    Forbidden(Forbidden),
}

/// The shapes renju forbids the first player (Black), unless the same move makes exactly five.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Two open threes (each can still become a straight four) made at once.
    DoubleThree,
    /// Two fours made at once, on two lines or on one.
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl Forbidden {
    /// Every forbidden shape, e.g. to list their codes.
    pub const ALL: [Forbidden; 3] = [
        Forbidden::DoubleThree,
        Forbidden::DoubleFour,
        Forbidden::Overline,
    ];

    /// A short stable identifier, kept in the record's `result.violation`.
    pub fn code(self) -> &'static str {
        match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        }
    }
}

impl Forbidden {
    /// The shape a move just played on `after` made, when it was a point forbidden to Black:
    /// the rules score that as a loss, which a bot gets; a person is told instead (see
    /// [`Forbidden::refusal`]) and chooses another point.
    pub fn played(after: &dyn AnyGame) -> Option<Forbidden> {
        match after.outcome() {
            Some(Outcome {
                ending: Ending::Forbidden(shape),
                ..
            }) => Some(shape),
            _ => None,
        }
    }

    /// What a person who chose the forbidden point `square` is told.
    pub fn refusal(self, square: &str) -> String {
        format!("{square} is forbidden to Black in renju: it would make a {self}; choose another")
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double three",
            Forbidden::DoubleFour => "double four",
            Forbidden::Overline => "overline",
        })
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Line => "line completed",
            Ending::BoardFull => "board full",
            Ending::NoMovesLeft => "no move left",
            Ending::MoreSmallBoards => "more small boards won",
            Ending::NoLegalMove => "no legal move",
            Ending::Repetition => "threefold repetition",
            Ending::MoveRule => "move rule",
            Ending::AllLinesDrawn => "all lines drawn",
            Ending::Forbidden(shape) => return write!(f, "forbidden move of Black ({shape})"),
        })
    }
}

impl Ending {
    /// Every ending but [`Ending::Forbidden`], e.g. to list their codes.
    pub const ALL: [Ending; 8] = [
        Ending::Line,
        Ending::BoardFull,
        Ending::NoMovesLeft,
        Ending::MoreSmallBoards,
        Ending::NoLegalMove,
        Ending::Repetition,
        Ending::MoveRule,
        Ending::AllLinesDrawn,
    ];
}

/// The end of a game by its rules: who won (None for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won; `None` for a draw.
    pub winner: Option<Side>,
    /// Which rule ended the game.
    pub ending: Ending,
}

/// The rules of one game. A value is a position (with whatever history the rules need).
pub trait Game: Clone + Send + 'static {
    /// A move in its compact internal form; a dots-and-boxes line, a checkers multi-jump, ...
    type Move: Copy + Eq + fmt::Debug + Send;

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Clears `moves` and fills it with every legal move; empty when the game is over.
    /// Callers reuse the vector so searches do not allocate.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Reads a move in the game's notation. Returns `NotAMove` when the text is not in the
    /// notation, and `Illegal` when it is well formed but cannot be played here (off the board,
    /// occupied, ...). A move returned by `parse_move` can be played.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Checks that `mv` is legal here.
    fn check_move(&self, mv: Self::Move) -> Result<(), IllegalMove>;

    /// Plays a move known to be legal (from `generate_moves` or `check_move`); searches use it.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// The move in the game's canonical notation (the form the referee sends to bots).
    fn format_move(&self, mv: Self::Move) -> String;

    /// `Some` once the game is over by its rules.
    fn outcome(&self) -> Option<Outcome>;

    /// A drawing of the position with coordinates along the edges: the console colours its
    /// tones, records keep its plain text.
    fn diagram(&self, view: &View) -> Diagram;

    /// The plain-text drawing of the position for records and logs.
    fn render(&self) -> String {
        self.diagram(&View::default()).to_string()
    }

    /// A picture of the position, with the legal moves as clickable targets: what the web
    /// viewer and the browser seat show.
    fn picture(&self) -> picture::Picture;

    /// The picture with `text`, a move the rules refused here, marked on the square it names:
    /// where an illegal move went, for the viewer. `None` when it names no square of the board
    /// (and in games whose moves name no single square).
    fn refused_picture(&self, _text: &str) -> Option<picture::Picture> {
        None
    }

    /// Points each side has scored, for games that keep a score (boxes in dots and boxes).
    fn scores(&self) -> Option<[u32; 2]> {
        None
    }

    /// The squares (as the game numbers them) a move takes a piece from and to, for games whose
    /// pieces move (checkers); `None` for games that place marks or draw lines.
    fn piece_squares(&self, _mv: Self::Move) -> Option<(u8, u8)> {
        None
    }

    /// The colour each seat plays (first, second) when a swap opening chose them, once it
    /// has; `None` while the opening goes on and in games whose colours are fixed to the seats.
    fn colours(&self) -> Option<[Colour; 2]> {
        None
    }

    /// What a swap opening asks of the side to move until the colours are chosen; `None`
    /// once they are, and in games without a swap opening.
    fn swap_step(&self) -> Option<SwapStep> {
        None
    }
}

/// A legal move that takes a piece from one square to another: the console lets a person pick
/// a piece by its square and type where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// The move in canonical notation.
    pub notation: String,
    /// The square the piece starts on, as the game numbers them (1..32 in checkers).
    pub from: u8,
    /// The square the piece ends on (after the last jump of a multi-jump).
    pub to: u8,
}

/// A game position seen through notation only: what the match loop and the console need.
/// Implemented for every [`Game`].
pub trait AnyGame: Send {
    /// See [`Game::side_to_move`].
    fn side_to_move(&self) -> Side;
    /// Parses and plays a move; returns it in canonical notation.
    fn play_text(&mut self, text: &str) -> Result<String, MoveError>;
    /// Every legal move in canonical notation.
    fn legal_moves_text(&self) -> Vec<String>;
    /// See [`Game::outcome`].
    fn outcome(&self) -> Option<Outcome>;
    /// See [`Game::render`].
    fn render(&self) -> String;
    /// See [`Game::diagram`].
    fn diagram(&self, view: &View) -> Diagram;
    /// See [`Game::picture`].
    fn picture(&self) -> picture::Picture;
    /// See [`Game::refused_picture`].
    fn refused_picture(&self, text: &str) -> Option<picture::Picture>;
    /// See [`Game::scores`].
    fn scores(&self) -> Option<[u32; 2]>;
    /// See [`Game::colours`].
    fn colours(&self) -> Option<[Colour; 2]>;
    /// See [`Game::swap_step`].
    fn swap_step(&self) -> Option<SwapStep>;
    /// Every legal move that takes a piece from one square to another, in the order of
    /// [`legal_moves_text`](AnyGame::legal_moves_text); empty for games without moving pieces.
    fn piece_moves(&self) -> Vec<PieceMove>;
    /// A copy of the position behind a new box (`Clone` is not object-safe).
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// Counts the move sequences of length `depth` from this position (see [`perft`]).
    fn perft(&self, depth: u32) -> u64;
}

impl<G: Game> AnyGame for G {
    fn side_to_move(&self) -> Side {
        Game::side_to_move(self)
    }

    fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.parse_move(text)?;
        let canonical = self.format_move(mv);
        self.play(mv)?;
        Ok(canonical)
    }

    fn legal_moves_text(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.into_iter().map(|mv| self.format_move(mv)).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn render(&self) -> String {
        Game::render(self)
    }

    fn diagram(&self, view: &View) -> Diagram {
        Game::diagram(self, view)
    }

    fn picture(&self) -> picture::Picture {
        Game::picture(self)
    }

    fn refused_picture(&self, text: &str) -> Option<picture::Picture> {
        Game::refused_picture(self, text)
    }

    fn scores(&self) -> Option<[u32; 2]> {
        Game::scores(self)
    }

    fn colours(&self) -> Option<[Colour; 2]> {
        Game::colours(self)
    }

    fn swap_step(&self) -> Option<SwapStep> {
        Game::swap_step(self)
    }

    fn piece_moves(&self) -> Vec<PieceMove> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
            .into_iter()
            .filter_map(|mv| {
                let (from, to) = self.piece_squares(mv)?;
                Some(PieceMove {
                    notation: self.format_move(mv),
                    from,
                    to,
                })
            })
            .collect()
    }

    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// Parses a non-negative integer coordinate written in decimal. Returns `None` for anything that
/// is not a run of ASCII digits with an optional leading minus; a number too large for `i64`
/// saturates, so that it reads as "off the board" rather than "not a move".
pub fn parse_coordinate(token: &str) -> Option<i64> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// The coordinates `x` and `y` as the bot wrote them, for a message: a number too large for
/// `i64` was read as its largest value, which the bot never wrote.
pub(crate) fn written_square(x: &str, y: &str) -> String {
    let show = |token: &str| crate::quote::shorten(token, 24);
    format!("{} {}", show(x), show(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_parse_digits_only() {
        assert_eq!(parse_coordinate("7"), Some(7));
        assert_eq!(parse_coordinate("-1"), Some(-1));
        assert_eq!(parse_coordinate("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_coordinate("x"), None);
        assert_eq!(parse_coordinate(""), None);
        assert_eq!(parse_coordinate("1.5"), None);
        assert_eq!(parse_coordinate("-"), None);
    }
}
