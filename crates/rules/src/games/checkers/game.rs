//! A checkers game: the position with the draw rules in force and the history they need, and
//! the [`Game`] rules built on it.

use super::fen::FenError;
use super::moves::Move;
use super::notation::parse_notation;
use super::params::CheckersParams;
use super::position::{Piece, Position};
use super::squares::bit;
use crate::games::picture::Picture;
use crate::games::{Diagram, Ending, Game, IllegalMove, MoveError, Outcome, Side, View};

/// A checkers game: the position, the draw rules in force and the history they need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkers {
    pub(super) position: Position,
    /// Occurrences (same player to move) of a position that draw.
    repetition: u32,
    /// Plies without a man move or a capture that draw; 0 never.
    move_rule_plies: u32,
    /// Plies since the last man move or capture.
    quiet_plies: u32,
    /// [`Position::king_key`] of every position since the last man move or capture, the current
    /// one last. Left empty unless both sides have kings: otherwise the side without one must
    /// move a man on its next turn, so nothing can repeat before the history is cleared anyway.
    /// This keeps clones free of allocation for searches in the usual middle game.
    history: Vec<u64>,
    /// The current position has occurred `repetition` times.
    repeated: bool,
    last_move: Option<Move>,
}

impl Default for Checkers {
    /// The standard start with the default draw rules.
    fn default() -> Checkers {
        Checkers::new(CheckersParams::default())
    }
}

impl Checkers {
    /// Starts from `params.start` with its draw rules. The ranges are checked by the game spec;
    /// a `move_rule` of 0 disables the move rule.
    pub fn new(params: CheckersParams) -> Checkers {
        let position = params.start;
        Checkers {
            position,
            repetition: params.repetition,
            move_rule_plies: params.move_rule.saturating_mul(2),
            quiet_plies: 0,
            history: if position.both_sides_have_kings() {
                vec![position.king_key()]
            } else {
                Vec::new()
            },
            repeated: false,
            last_move: None,
        }
    }

    /// Starts from a PDN FEN (see [`Position`]'s `FromStr`) with the default draw rules.
    pub fn from_fen(fen: &str) -> Result<Checkers, FenError> {
        Ok(Checkers::new(CheckersParams {
            start: fen.parse()?,
            ..CheckersParams::default()
        }))
    }

    /// The position as PDN FEN, without the history (see [`Position::to_fen`]).
    pub fn to_fen(&self) -> String {
        self.position.to_fen()
    }

    /// The pieces and the side to move, without the history.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The piece on a square 1..32; `None` when it is empty or not a square.
    pub fn piece_at(&self, square: u8) -> Option<Piece> {
        self.position.piece_at(square)
    }

    /// The move that led here, which the diagram and picture highlight; `None` at the start.
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Plies played since the last man move or capture (the move rule's count).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// How many plies without a man move or a capture draw the game; `None` when the move rule
    /// is off.
    pub fn move_rule_plies(&self) -> Option<u32> {
        (self.move_rule_plies > 0).then_some(self.move_rule_plies)
    }

    /// The positions since the last man move or capture, oldest first and the current one last,
    /// that a later position could repeat: for searches that score repetitions. Empty while a
    /// side has no king, since that side's next move is then a man move, after which nothing
    /// before it can occur again.
    pub fn repeatable_positions(&self) -> impl Iterator<Item = Position> + '_ {
        let Position {
            pieces,
            kings,
            to_move,
        } = self.position;
        let men = [pieces[0] & !kings, pieces[1] & !kings];
        let count = self.history.len();
        self.history.iter().enumerate().map(move |(i, &key)| {
            // The men have not moved since, and the keys alternate between the two sides.
            let black_kings = key as u32;
            let white_kings = (key >> 32) as u32;
            Position {
                pieces: [men[0] | black_kings, men[1] | white_kings],
                kings: black_kings | white_kings,
                to_move: if (count - 1 - i) % 2 == 0 {
                    to_move
                } else {
                    to_move.opponent()
                },
            }
        })
    }

    /// The legal moves of the piece on `square` (1..32), e.g. to show where it may go; empty
    /// when it is not the mover's piece or it has no move (another piece may have to capture).
    pub fn moves_from(&self, square: u8) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.retain(|mv| mv.from() == square);
        moves
    }

    fn drawn(&self) -> Option<Ending> {
        if self.repeated {
            Some(Ending::Repetition)
        } else if self.move_rule_plies > 0 && self.quiet_plies >= self.move_rule_plies {
            Some(Ending::MoveRule)
        } else {
            None
        }
    }
}

impl Game for Checkers {
    type Move = Move;

    fn side_to_move(&self) -> Side {
        self.position.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.drawn().is_none() {
            self.position.generate(moves);
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let (numbers, capture) = parse_notation(text)?;
        if let Some(&off) = numbers.iter().find(|&&n| !(1..=32).contains(&n)) {
            return Err(IllegalMove::OffBoard {
                square: off.to_string(),
                board: "32-square checkers".into(),
                coordinates: "squares 1 to 32".into(),
            }
            .into());
        }
        let indices: Vec<u8> = numbers.iter().map(|&n| n as u8 - 1).collect();
        let short_text = (capture && indices.len() == 2).then(|| text.trim());
        Ok(self.judge(indices[0], &indices[1..], capture, short_text)?)
    }

    fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        self.judge(mv.from, mv.landing_indices(), mv.is_capture(), None)
            .map(drop)
    }

    fn play_unchecked(&mut self, mv: Move) {
        let man = self.position.kings & bit(mv.from) == 0;
        self.position.apply(mv);
        self.last_move = Some(mv);
        if man || mv.is_capture() {
            // Nothing before this move can occur again.
            self.quiet_plies = 0;
            self.history.clear();
            self.repeated = false;
            if self.position.both_sides_have_kings() {
                self.history.push(self.position.king_key());
            }
        } else {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
            if !self.history.is_empty() {
                let key = self.position.king_key();
                self.history.push(key);
                // Every other entry has the same player to move.
                let seen = self.history.iter().rev().step_by(2).filter(|&&k| k == key);
                self.repeated = seen.count() >= self.repetition as usize;
            }
        }
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// The player to move loses when it has no legal move, even when the move that left it
    /// without one also reached a draw by repetition or by the move rule (as checkmate does in
    /// chess).
    fn outcome(&self) -> Option<Outcome> {
        if !self.position.can_move() {
            return Some(Outcome {
                winner: Some(self.position.to_move.opponent()),
                ending: Ending::NoLegalMove,
            });
        }
        self.drawn().map(|ending| Outcome {
            winner: None,
            ending,
        })
    }

    /// Drawn in `diagram.rs`.
    fn diagram(&self, view: &View) -> Diagram {
        self.draw(view)
    }

    fn picture(&self) -> Picture {
        self.draw_picture()
    }

    fn refused_picture(&self, text: &str) -> Option<Picture> {
        self.draw_refused(text)
    }

    fn piece_squares(&self, mv: Move) -> Option<(u8, u8)> {
        Some((mv.from(), mv.to()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::squares::CROWN_ROW;
    use crate::games::checkers::test_games::*;
    use crate::games::PieceMove;
    use crate::seeded::SeededRng;
    use rand::{Rng, SeedableRng};

    fn draw(ending: Ending) -> Option<Outcome> {
        Some(Outcome {
            winner: None,
            ending,
        })
    }

    /// The console picks pieces by square: each move names where its piece starts and ends.
    #[test]
    fn piece_moves_name_the_start_and_end_squares() {
        let jumping = game("B:W6,15:B1");
        assert_eq!(
            crate::games::AnyGame::piece_moves(&jumping),
            [PieceMove {
                notation: "1x10x19".into(),
                from: 1,
                to: 19
            }]
        );
        let mut ends: Vec<(u8, u8)> = crate::games::AnyGame::piece_moves(&Checkers::default())
            .iter()
            .map(|mv| (mv.from, mv.to))
            .collect();
        ends.sort_unstable();
        let plain = [
            (9, 13),
            (9, 14),
            (10, 14),
            (10, 15),
            (11, 15),
            (11, 16),
            (12, 16),
        ];
        assert_eq!(ends, plain);
    }

    #[test]
    fn the_standard_start() {
        let g = Checkers::default();
        assert_eq!(g.to_fen(), STANDARD_FEN);
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(
            legal(&g),
            ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
        );
        let black_man = Piece {
            side: Side::First,
            king: false,
        };
        assert_eq!(g.piece_at(1), Some(black_man));
        assert_eq!(g.piece_at(12), Some(black_man));
        assert_eq!(g.piece_at(13), None);
        assert_eq!(g.piece_at(21).map(|p| p.side), Some(Side::Second));
        assert_eq!(g.piece_at(0), None);
        assert_eq!(g.piece_at(33), None);
        assert_eq!(g.position().pieces(Side::First), 0xFFF);
        assert_eq!(g.position().kings(), 0);
        assert_eq!(g.last_move(), None);
        assert_eq!(Game::outcome(&g), None);
    }

    #[test]
    fn a_player_without_a_legal_move_loses() {
        // White's only man is blocked.
        let g = game("W:W29:B22,25");
        let black_wins = Some(Outcome {
            winner: Some(Side::First),
            ending: Ending::NoLegalMove,
        });
        assert_eq!(Game::outcome(&g), black_wins);
        assert!(legal(&g).is_empty());
        assert_eq!(illegal(&g, "29-25"), IllegalMove::GameOver);
        // White has no piece left.
        assert_eq!(Game::outcome(&game("W:W:B1")), black_wins);
        // Taking the last piece wins.
        let mut g = game("B:W6:B1");
        play(&mut g, &["1x10"]);
        assert_eq!(Game::outcome(&g), black_wins);
        assert!(g
            .render()
            .ends_with("Black played 1x10\nBlack wins: no legal move\n"));
    }

    #[test]
    fn a_third_repetition_draws() {
        let mut g = game("B:WK32:BK1");
        for (ply, mv) in SHUFFLE.iter().chain(&SHUFFLE).enumerate() {
            assert_eq!(Game::outcome(&g), None, "before ply {ply}");
            play(&mut g, &[mv]);
        }
        assert_eq!(Game::outcome(&g), draw(Ending::Repetition));
        assert!(legal(&g).is_empty());
        assert_eq!(illegal(&g, "1-5"), IllegalMove::GameOver);
        assert!(g.render().ends_with("Draw: threefold repetition\n"));
    }

    #[test]
    fn the_repetition_count_is_configurable() {
        for repetition in [2, 3, 5] {
            let mut g = with_rules("B:WK32:BK1", repetition, 40);
            let plies = 4 * (repetition as usize - 1);
            for ply in 0..plies {
                assert_eq!(Game::outcome(&g), None, "{repetition}: before ply {ply}");
                play(&mut g, &[SHUFFLE[ply % 4]]);
            }
            assert_eq!(Game::outcome(&g), draw(Ending::Repetition), "{repetition}");
        }
    }

    #[test]
    fn repetitions_count_from_the_last_man_move() {
        let mut g = game("B:WK32,21:BK1,12");
        play(&mut g, &SHUFFLE);
        play(&mut g, &["12-16"]);
        // The position after 12-16 occurs for the third time eight plies later.
        let after: [&str; 4] = ["32-28", "1-5", "28-32", "5-1"];
        for (ply, mv) in after.iter().chain(&after).enumerate() {
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
            play(&mut g, &[mv]);
        }
        assert_eq!(Game::outcome(&g), draw(Ending::Repetition));
    }

    const BLACK_TOUR: [&str; 4] = ["5-1", "1-6", "6-9", "9-5"];
    const WHITE_TOUR: [&str; 6] = ["26-23", "23-19", "19-24", "24-27", "27-31", "31-26"];

    /// Plays the next king move of the side to move along its tour.
    fn tour_ply(g: &mut Checkers) {
        let side = g.side_to_move();
        let tour: &[&str] = if side == Side::First {
            &BLACK_TOUR
        } else {
            &WHITE_TOUR
        };
        let mv = tour
            .iter()
            .find(|text| {
                let from: u8 = text.split('-').next().unwrap().parse().unwrap();
                g.piece_at(from) == Some(Piece { side, king: true })
            })
            .unwrap();
        play(g, &[mv]);
    }

    #[test]
    fn forty_moves_each_without_progress_draw() {
        let mut g = with_rules(TOURS, 10, 40);
        for ply in 0..79 {
            tour_ply(&mut g);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        assert_eq!(g.quiet_plies(), 79);
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
        assert!(legal(&g).is_empty());
    }

    #[test]
    fn a_man_move_restarts_the_move_rule() {
        let mut g = with_rules(TOURS, 10, 40);
        for _ in 0..79 {
            tour_ply(&mut g);
        }
        play(&mut g, &["29-25"]);
        assert_eq!(g.quiet_plies(), 0);
        for ply in 0..79 {
            tour_ply(&mut g);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
    }

    #[test]
    fn a_capture_restarts_the_move_rule() {
        // Four moves each: 8 plies. Black's king walks to 18 and must then take 14.
        let mut g = with_rules("B:WK29,14:BK31", 10, 4);
        play(
            &mut g,
            &["31-27", "29-25", "27-23", "25-29", "23-18", "29-25"],
        );
        assert_eq!(g.quiet_plies(), 6);
        play(&mut g, &["18x9"]);
        assert_eq!(g.quiet_plies(), 0);
        let shuffle = ["25-29", "9-5", "29-25", "5-9"];
        for ply in 0..7 {
            play(&mut g, &[shuffle[ply % 4]]);
            assert_eq!(Game::outcome(&g), None, "ply {ply}");
        }
        play(&mut g, &[shuffle[3]]);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));
    }

    #[test]
    fn the_move_rule_is_configurable_and_can_be_disabled() {
        let mut g = with_rules(TOURS, 10, 2);
        for _ in 0..3 {
            tour_ply(&mut g);
        }
        assert_eq!(Game::outcome(&g), None);
        tour_ply(&mut g);
        assert_eq!(Game::outcome(&g), draw(Ending::MoveRule));

        let mut g = with_rules(TOURS, 10, 0);
        for _ in 0..200 {
            tour_ply(&mut g);
        }
        assert_eq!(g.quiet_plies(), 200);
        assert_eq!(Game::outcome(&g), None);
    }

    /// Random games from the start and from positions with kings: every generated move is
    /// accepted by `check_move` and reads back from its notation, the board stays consistent,
    /// and the game has no move exactly when it is over.
    #[test]
    fn random_games_keep_every_invariant() {
        let mut rng = SeededRng::seed_from_u64(7);
        let starts = [STANDARD_FEN, DIAMOND, "W:WK1,K3,20,21:BK30,K32,9,12", TOURS];
        let mut moves = Vec::new();
        for game_number in 0..60 {
            let mut g = game(starts[game_number % starts.len()]);
            for _ in 0..400 {
                let p = g.position();
                assert_eq!(p.pieces[0] & p.pieces[1], 0);
                assert_eq!(p.kings & !(p.pieces[0] | p.pieces[1]), 0);
                assert_eq!(p.pieces[0] & !p.kings & CROWN_ROW[0], 0);
                assert_eq!(p.pieces[1] & !p.kings & CROWN_ROW[1], 0);
                assert_eq!(g.to_fen().parse::<Position>(), Ok(p));
                g.generate_moves(&mut moves);
                assert_eq!(
                    moves.is_empty(),
                    Game::outcome(&g).is_some(),
                    "{}",
                    g.render()
                );
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    assert_eq!(g.check_move(mv), Ok(()), "{mv}");
                    assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
                }
                g.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn every_ballot_opening_is_legal() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openings/checkers-3move.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut numbers = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [number, moves @ ..] = &words[..] else {
                unreachable!("lines are not empty")
            };
            assert_eq!(moves.len(), 3, "{line}");
            numbers.push(number.parse::<u32>().unwrap());
            let mut g = Checkers::default();
            for &text in moves {
                let mv = g
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("opening {number}, {text}: {e}"));
                assert_eq!(g.format_move(mv), text);
                g.play(mv).unwrap();
            }
            assert_eq!(Game::outcome(&g), None, "{line}");
        }
        assert_eq!(numbers.len(), 157);
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "numbered in order");
        assert!(numbers.iter().all(|n| (1..=174).contains(n)));
    }
    #[test]
    fn repeatable_positions_are_those_since_the_last_man_move() {
        let mut g = game("B:WK32,21:BK1,12");
        let mut played = vec![g.position()];
        assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), played);
        for mv in SHUFFLE {
            play(&mut g, &[mv]);
            played.push(g.position());
            assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), played);
        }
        play(&mut g, &["12-16"]);
        assert_eq!(g.repeatable_positions().collect::<Vec<_>>(), [g.position()]);
        // White has no king: nothing can repeat.
        let g = game("B:W32,21:BK1,12");
        assert_eq!(g.repeatable_positions().count(), 0);
        assert_eq!(g.move_rule_plies(), Some(80));
        assert_eq!(with_rules(TOURS, 3, 0).move_rule_plies(), None);
    }
}
