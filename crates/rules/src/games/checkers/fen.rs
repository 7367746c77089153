//! Positions as PDN FEN text: written in one canonical form, read in all the documented ones.

use super::position::{colour_name, Position};
use super::squares::{bit, CROWN_ROW};
use crate::games::Side;
use std::fmt;
use std::str::FromStr;

/// A FEN that cannot be read, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{fen}' is not a checkers FEN: {reason}")]
pub struct FenError {
    /// The text as given.
    pub fen: String,
    /// What is wrong with it, e.g. a square listed twice.
    pub reason: String,
}

impl Position {
    /// The PDN FEN: side to move, then White's and Black's pieces in ascending order, kings
    /// prefixed with K, no ranges, no spaces: `B:W21,22,...,32:B1,2,...,12`.
    pub fn to_fen(&self) -> String {
        let list = |side: Side| {
            (0..32u8)
                .filter(|&i| self.pieces[side.index()] & bit(i) != 0)
                .map(|i| {
                    let king = if self.kings & bit(i) != 0 { "K" } else { "" };
                    format!("{king}{}", i + 1)
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let turn = if self.to_move == Side::First {
            'B'
        } else {
            'W'
        };
        format!("{turn}:W{}:B{}", list(Side::Second), list(Side::First))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a PDN FEN such as the start, `B:W21,22,...,32:B1,2,...,12` (or `B:W21-32:B1-12`):
    /// the side to move (`B` or `W`), then a colon and each colour's list (`W...` and `B...`,
    /// either first, each exactly once, possibly empty). A list holds comma-separated squares
    /// 1..32, each optionally prefixed with `K` for a king, and ranges such as `1-12` (`K1-3`
    /// makes all three kings). White space around the parts and around each item is ignored.
    /// Letters are upper case only. Refused: a square listed twice, a man on the row where it
    /// would have been crowned, more than 12 pieces of one colour.
    fn from_str(text: &str) -> Result<Position, FenError> {
        let fail = |reason: String| FenError {
            fen: text.to_string(),
            reason,
        };
        let parts: Vec<&str> = text.split(':').map(str::trim).collect();
        let [turn, first, second] = parts[..] else {
            return Err(fail(
                "expected the side to move and the two colours' pieces separated by ':', \
                 as in B:W21-32:B1-12"
                    .into(),
            ));
        };
        let to_move = match turn {
            "B" => Side::First,
            "W" => Side::Second,
            other => {
                return Err(fail(format!(
                    "the side to move must be B or W, not '{other}'"
                )))
            }
        };
        let mut position = Position {
            pieces: [0, 0],
            kings: 0,
            to_move,
        };
        let mut listed = [false; 2];
        for section in [first, second] {
            let (side, list) = if let Some(list) = section.strip_prefix('B') {
                (Side::First, list)
            } else if let Some(list) = section.strip_prefix('W') {
                (Side::Second, list)
            } else {
                return Err(fail(format!(
                    "a list of pieces starts with B or W, not '{section}'"
                )));
            };
            if std::mem::replace(&mut listed[side.index()], true) {
                return Err(fail(format!(
                    "the {} pieces are listed twice",
                    colour_name(side)
                )));
            }
            if list.trim().is_empty() {
                continue;
            }
            for item in list.split(',').map(str::trim) {
                let (king, range) = match item.strip_prefix('K') {
                    Some(range) => (true, range),
                    None => (false, item),
                };
                let (low, high) = match range.split_once('-') {
                    Some((low, high)) => (
                        fen_square(low).map_err(&fail)?,
                        fen_square(high).map_err(&fail)?,
                    ),
                    None => {
                        let square = fen_square(range).map_err(&fail)?;
                        (square, square)
                    }
                };
                if low > high {
                    return Err(fail(format!("the range {low}-{high} runs backwards")));
                }
                for square in low..=high {
                    let square_bit = bit(square - 1);
                    if (position.pieces[0] | position.pieces[1]) & square_bit != 0 {
                        return Err(fail(format!("square {square} is listed twice")));
                    }
                    position.pieces[side.index()] |= square_bit;
                    if king {
                        position.kings |= square_bit;
                    }
                }
            }
        }
        for side in Side::BOTH {
            let pieces = position.pieces[side.index()];
            let uncrowned = pieces & !position.kings & CROWN_ROW[side.index()];
            if uncrowned != 0 {
                let square = uncrowned.trailing_zeros() + 1;
                return Err(fail(format!(
                    "a {} man on {square} would have been crowned: write K{square}",
                    colour_name(side).to_lowercase()
                )));
            }
            if pieces.count_ones() > 12 {
                return Err(fail(format!(
                    "{} has {} pieces; a side has at most 12",
                    colour_name(side),
                    pieces.count_ones()
                )));
            }
        }
        Ok(position)
    }
}

fn fen_square(token: &str) -> Result<u8, String> {
    if token.is_empty() {
        return Err(
            "a square number is missing (two commas in a row, or a comma at the end?)".into(),
        );
    }
    match token.parse::<u8>() {
        Ok(square @ 1..=32) if token.bytes().all(|b| b.is_ascii_digit()) => Ok(square),
        _ => Err(format!("'{token}' is not a square number from 1 to 32")),
    }
}

impl TryFrom<String> for Position {
    type Error = FenError;

    fn try_from(text: String) -> Result<Position, FenError> {
        text.parse()
    }
}

impl From<Position> for String {
    fn from(position: Position) -> String {
        position.to_fen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::test_games::*;
    use crate::games::checkers::{Checkers, Piece};
    use crate::games::Game;

    #[test]
    fn fen_reads_the_documented_forms() {
        let standard = Position::standard();
        for text in [
            STANDARD_FEN,
            "B:W21-32:B1-12",
            "B:B1-12:W21-32",
            " B : W21-24, 25, 26-32 : B1-4,5-8,9,10,11,12 ",
        ] {
            assert_eq!(text.parse::<Position>(), Ok(standard), "{text}");
        }
        let p: Position = "W:WK1-2,20:BK31,9".parse().unwrap();
        assert_eq!(p.to_fen(), "W:WK1,K2,20:B9,K31");
        assert_eq!(p.side_to_move(), Side::Second);
        assert_eq!(p.piece_at(2).map(Piece::letter), Some('W'));
        assert_eq!(p.piece_at(20).map(Piece::letter), Some('w'));
        assert_eq!(p.piece_at(31).map(Piece::letter), Some('B'));
        assert_eq!(p.piece_at(9).map(Piece::letter), Some('b'));
        assert_eq!(p.kings(), bit(0) | bit(1) | bit(30));
        assert_eq!(p.to_fen().parse::<Position>(), Ok(p));
        assert_eq!("B:W:B".parse::<Position>().unwrap().to_fen(), "B:W:B");
        let g = Checkers::from_fen("W:W18:B14").unwrap();
        assert_eq!(g.to_fen(), "W:W18:B14");
        assert_eq!(g.side_to_move(), Side::Second);
    }

    #[test]
    fn fen_errors_say_what_is_wrong() {
        for (text, reason) in [
            (
                "",
                "expected the side to move and the two colours' pieces separated by ':'",
            ),
            ("B:W21-32", "expected the side to move"),
            ("X:W21:B1", "the side to move must be B or W, not 'X'"),
            ("b:W21:B1", "the side to move must be B or W, not 'b'"),
            ("B:W21:W22", "the White pieces are listed twice"),
            ("B:W21:R1", "a list of pieces starts with B or W, not 'R1'"),
            ("B:W21:B0", "'0' is not a square number from 1 to 32"),
            ("B:W33:B1", "'33' is not a square number from 1 to 32"),
            ("B:W21:B+1", "'+1' is not a square number from 1 to 32"),
            ("B:W21,,22:B1", "a square number is missing"),
            ("B:W21,:B1", "a square number is missing"),
            ("B:W21:Bk1", "'k1' is not a square number"),
            ("B:W21:B5-1", "the range 5-1 runs backwards"),
            ("B:W21:B1-3,2", "square 2 is listed twice"),
            ("B:W21:B21", "square 21 is listed twice"),
            (
                "B:W21:B30",
                "a black man on 30 would have been crowned: write K30",
            ),
            (
                "B:W4:B1",
                "a white man on 4 would have been crowned: write K4",
            ),
            ("B:WK1-13:B14", "White has 13 pieces; a side has at most 12"),
        ] {
            let err = text.parse::<Position>().unwrap_err();
            assert!(err.reason.contains(reason), "{text}: {err}");
            assert_eq!(err.fen, text);
            assert_eq!(Checkers::from_fen(text).unwrap_err(), err);
        }
        assert_eq!(
            "B:W21:B0".parse::<Position>().unwrap_err().to_string(),
            "'B:W21:B0' is not a checkers FEN: '0' is not a square number from 1 to 32"
        );
    }
}
