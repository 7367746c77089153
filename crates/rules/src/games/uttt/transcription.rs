//! A direct transcription of the rules on a 9x9 grid, with none of the bitboard tricks, and
//! random games played on both side by side.

use super::test_positions::{legal, CODINGAME};
use super::{BoardStatus, Uttt, UtttParams, UtttTiebreak};
use crate::games::{Ending, Game, Outcome, Side};

/// A direct transcription of the rules on a 9x9 grid, with none of the bitboard tricks.
struct Plain {
    grid: [[Option<Side>; 9]; 9],
    to_move: Side,
    last: Option<(usize, usize)>,
    tiebreak: UtttTiebreak,
}

impl Plain {
    fn status(&self, board: usize) -> BoardStatus {
        let (bx, by) = (board % 3 * 3, board / 3 * 3);
        let cell = |c: usize| self.grid[by + c / 3][bx + c % 3];
        let lines = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        for line in lines {
            if let Some(side) = cell(line[0]) {
                if line.iter().all(|&c| cell(c) == Some(side)) {
                    return BoardStatus::Won(side);
                }
            }
        }
        if (0..9).all(|c| cell(c).is_some()) {
            BoardStatus::Full
        } else {
            BoardStatus::Undecided
        }
    }

    fn big_line(&self) -> Option<Side> {
        let won = |b: usize, side| self.status(b) == BoardStatus::Won(side);
        let lines = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        Side::BOTH
            .into_iter()
            .find(|&side| lines.iter().any(|l| l.iter().all(|&b| won(b, side))))
    }

    fn forced(&self) -> Option<u8> {
        let (x, y) = self.last?;
        let board = y % 3 * 3 + x % 3;
        (self.status(board) == BoardStatus::Undecided).then_some(board as u8)
    }

    fn moves(&self) -> Vec<String> {
        if self.big_line().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for y in 0..9 {
            for x in 0..9 {
                let board = y / 3 * 3 + x / 3;
                if self.grid[y][x].is_none()
                    && self.status(board) == BoardStatus::Undecided
                    && self.forced().map_or(true, |f| f as usize == board)
                {
                    moves.push(format!("{x} {y}"));
                }
            }
        }
        moves
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.big_line() {
            return Some(Outcome {
                winner: Some(side),
                ending: Ending::Line,
            });
        }
        if !self.moves().is_empty() {
            return None;
        }
        let count = |side| {
            (0..9)
                .filter(|&b| self.status(b) == BoardStatus::Won(side))
                .count()
        };
        let (first, second) = (count(Side::First), count(Side::Second));
        Some(match self.tiebreak {
            UtttTiebreak::Codingame if first != second => Outcome {
                winner: Some(if first > second {
                    Side::First
                } else {
                    Side::Second
                }),
                ending: Ending::MoreSmallBoards,
            },
            _ => Outcome {
                winner: None,
                ending: Ending::NoMovesLeft,
            },
        })
    }
}

/// Plays seeded random games with both rules side by side and compares everything visible
/// after every move: this reaches the endings perft is too shallow for.
#[test]
fn random_games_agree_with_a_plain_transcription_of_the_rules() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut random = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut endings = Vec::new();
    for round in 0..400 {
        let params = if round % 2 == 0 {
            UtttParams::default()
        } else {
            CODINGAME
        };
        let mut game = Uttt::new(params);
        let mut plain = Plain {
            grid: [[None; 9]; 9],
            to_move: Side::First,
            last: None,
            tiebreak: params.tiebreak,
        };
        loop {
            let mut moves = legal(&game);
            moves.sort();
            let mut expected = plain.moves();
            expected.sort();
            assert_eq!(moves, expected);
            assert_eq!(Game::outcome(&game), plain.outcome());
            assert_eq!(
                game.forced_board(),
                plain.forced().filter(|_| !moves.is_empty())
            );
            for board in 0..9 {
                assert_eq!(game.board_status(board), plain.status(board as usize));
            }
            for y in 0..9 {
                for x in 0..9 {
                    assert_eq!(game.mark_at(x, y), plain.grid[y as usize][x as usize]);
                }
            }
            if moves.is_empty() {
                endings.push((params.tiebreak, Game::outcome(&game).unwrap().ending));
                break;
            }
            let mv = game.parse_move(&moves[random(moves.len())]).unwrap();
            game.play(mv).unwrap();
            let (x, y) = Uttt::coordinates(mv);
            plain.grid[y as usize][x as usize] = Some(plain.to_move);
            plain.to_move = plain.to_move.opponent();
            plain.last = Some((x as usize, y as usize));
        }
    }
    // Every way a game can end came up.
    assert!(endings.contains(&(UtttTiebreak::None, Ending::Line)));
    assert!(endings.contains(&(UtttTiebreak::None, Ending::NoMovesLeft)));
    assert!(endings.contains(&(UtttTiebreak::Codingame, Ending::MoreSmallBoards)));
}
