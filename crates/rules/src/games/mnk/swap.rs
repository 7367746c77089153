//! Swap openings (`swap=swap1|swap2`): the players choose their colours during the opening, so
//! that the first player cannot simply take Black's advantage.
//!
//! The first player places three stones (Black, White, Black) in three consecutive turns. The
//! second player then chooses: `swap` (take Black; the first player, now White, plays the fourth
//! stone) or a stone `x y` (stay White and play it). Under swap2 (Gomocup's `SWAP2BOARD`) the
//! second player may instead answer `x y more`: White's fourth stone, then in its next turn
//! Black's fifth, after which the first player chooses the same way: `swap` (take Black; the
//! second player plays White's sixth stone) or White's sixth stone `x y`. At each choice the
//! player asked is the one about to play for White, and `swap` hands White's move to the
//! opponent. Once the colours are settled the game is the m,n,k game on the board as it stands.
//!
//! [`Side`] stays the seat throughout (the first player opens, whatever colour it ends with);
//! the stones on the board keep their colours, Black being the board's first player.

use super::game::{Mnk, Square};
use super::params::{MnkParams, SwapRule};
use crate::games::picture::Picture;
use crate::games::{
    Colour, Diagram, Game, IllegalMove, MoveError, OpeningStone, Outcome, Side, SwapStep, View,
};

/// A move of a game with a swap opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwapMove {
    /// A stone of the colour to move: `x y`.
    Stone(Square),
    /// At a choice: take Black, leaving White's next stone to the opponent: `swap`.
    Swap,
    /// Swap2, at the second player's choice: White's fourth stone, with Black's fifth to follow
    /// from the same player and the choice of colours left to the first player: `x y more`.
    More(Square),
}

/// Where the opening stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The first player places the first three stones.
    Placing,
    /// The seat chooses: `swap`, or White's next stone (and under swap2, at three stones, `x y
    /// more`).
    Choice(Side),
    /// The second player, after `x y more`, places Black's fifth stone.
    FifthStone,
    /// The colours are settled: the seat playing Black.
    Settled { black: Side },
}

/// A game of m,n,k with a swap opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapGame {
    board: Mnk,
    stage: Stage,
}

/// Stones placed before the first choice.
const OPENING_STONES: u16 = 3;

impl SwapGame {
    /// The empty board, the first player to place the three opening stones. `params` must name
    /// a swap rule.
    pub fn new(params: MnkParams) -> SwapGame {
        debug_assert_ne!(params.swap, SwapRule::None);
        SwapGame {
            board: Mnk::new(params),
            stage: Stage::Placing,
        }
    }

    /// The board as it stands: Black is its first player, whoever plays Black.
    pub fn board(&self) -> &Mnk {
        &self.board
    }

    /// The seat playing Black, once the colours are settled.
    pub fn black(&self) -> Option<Side> {
        match self.stage {
            Stage::Settled { black } => Some(black),
            _ => None,
        }
    }

    /// Whether the side to move is choosing its colour (`swap` is among its moves).
    pub fn choosing(&self) -> bool {
        matches!(self.stage, Stage::Choice(_)) && self.board.outcome().is_none()
    }

    /// Whether `x y more` is among the moves: swap2, the second player's choice.
    pub fn may_place_more(&self) -> bool {
        self.board.params().swap == SwapRule::Swap2 && self.stage == Stage::Choice(Side::Second)
    }

    /// The seat that plays the stone of `colour` (the board's side) once settled.
    fn seat_of(&self, colour: Side, black: Side) -> Side {
        match colour {
            Side::First => black,
            Side::Second => black.opponent(),
        }
    }

    fn stones(&self) -> u16 {
        let mut count = 0;
        let params = self.board.params();
        for y in 0..params.height {
            for x in 0..params.width {
                count += u16::from(self.board.mark_at(x, y).is_some());
            }
        }
        count
    }

    fn not_now(reason: &str) -> IllegalMove {
        IllegalMove::NotLegal {
            reason: reason.to_string(),
        }
    }

    /// What the side to move may answer at a choice of the opening, for a message; `None`
    /// when it places a stone, which the board's message says.
    fn expected(&self) -> Option<&'static str> {
        if self.may_place_more() {
            Some("expected 'swap', a stone 'x y' (column, then row) or 'x y more'")
        } else if self.choosing() {
            Some("expected 'swap' or a stone 'x y' (column, then row)")
        } else {
            None
        }
    }

    /// The stone the side to move places before the colours are chosen; `None` at a choice
    /// and once they are chosen.
    fn opening_stone(&self) -> Option<OpeningStone> {
        let colour = match self.board.side_to_move() {
            Side::First => Colour::Black,
            Side::Second => Colour::White,
        };
        let (number, of) = match self.stage {
            Stage::Placing => (self.stones() as u8 + 1, OPENING_STONES as u8),
            // White's fourth stone placed with `x y more`: Black's fifth is the second of two.
            Stage::FifthStone => (2, 2),
            Stage::Choice(_) | Stage::Settled { .. } => return None,
        };
        Some(OpeningStone { colour, number, of })
    }

    /// The caption under the board: who plays which colour, or what the opening waits for (the
    /// stone named as a person is told it at their turn).
    fn caption(&self) -> String {
        let asked = match (self.stage, self.opening_stone()) {
            (Stage::Settled { black }, _) => {
                return format!(
                    "X Black: {black} player; O White: {} player",
                    black.opponent()
                )
            }
            (_, Some(stone)) => format!("places {stone}"),
            (_, None) => format!(
                "chooses: 'swap' (Black) or White's stone{}",
                if self.may_place_more() {
                    " (or 'x y more')"
                } else {
                    ""
                }
            ),
        };
        format!(
            "{} opening: the {} player {asked}",
            self.board.params().swap.as_str(),
            self.side_to_move()
        )
    }
}

impl Game for SwapGame {
    type Move = SwapMove;

    fn side_to_move(&self) -> Side {
        match self.stage {
            Stage::Placing => Side::First,
            Stage::Choice(side) => side,
            Stage::FifthStone => Side::Second,
            Stage::Settled { black } => self.seat_of(self.board.side_to_move(), black),
        }
    }

    /// The board's moves as stones; at a choice `swap` first, then the stones, then (swap2,
    /// second player) every `x y more`.
    fn generate_moves(&self, moves: &mut Vec<SwapMove>) {
        moves.clear();
        let mut squares = Vec::new();
        self.board.generate_moves(&mut squares);
        if squares.is_empty() {
            return;
        }
        if self.choosing() {
            moves.push(SwapMove::Swap);
        }
        moves.extend(squares.iter().map(|&square| SwapMove::Stone(square)));
        if self.may_place_more() {
            moves.extend(squares.iter().map(|&square| SwapMove::More(square)));
        }
    }

    fn parse_move(&self, text: &str) -> Result<SwapMove, MoveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (mv, square_text) = match words.as_slice() {
            ["swap"] => {
                let mv = SwapMove::Swap;
                self.check_move(mv)?;
                return Ok(mv);
            }
            [x, y, "more"] => (SwapMove::More as fn(Square) -> SwapMove, format!("{x} {y}")),
            _ => (SwapMove::Stone as fn(Square) -> SwapMove, text.to_string()),
        };
        let square = match self.board.parse_move(&square_text) {
            Ok(square) => square,
            Err(MoveError::NotAMove(board_says)) => {
                let expected = self.expected().map_or(board_says, Into::into);
                return Err(MoveError::NotAMove(expected));
            }
            Err(illegal) => return Err(illegal),
        };
        let mv = mv(square);
        self.check_move(mv)?;
        Ok(mv)
    }

    fn check_move(&self, mv: SwapMove) -> Result<(), IllegalMove> {
        match mv {
            SwapMove::Swap if self.board.outcome().is_some() => Err(IllegalMove::GameOver),
            SwapMove::Swap if self.choosing() => Ok(()),
            SwapMove::Swap => Err(SwapGame::not_now(
                "'swap' is not a move now: colours are chosen only at the choice of the swap \
                 opening",
            )),
            SwapMove::More(square) if self.may_place_more() => self.board.check_move(square),
            SwapMove::More(_) => Err(SwapGame::not_now(
                "'x y more' is a move of swap2 only, at the second player's choice after the \
                 first three stones",
            )),
            SwapMove::Stone(square) => self.board.check_move(square),
        }
    }

    fn play_unchecked(&mut self, mv: SwapMove) {
        let placed_by = self.side_to_move();
        self.stage = match (self.stage, mv) {
            // Taking Black: the opponent plays White's next stone.
            (Stage::Choice(side), SwapMove::Swap) => Stage::Settled { black: side },
            (Stage::Choice(_), SwapMove::More(square)) => {
                self.board.play_unchecked(square);
                Stage::FifthStone
            }
            (stage, SwapMove::Stone(square)) => {
                self.board.play_unchecked(square);
                match stage {
                    Stage::Placing if self.stones() < OPENING_STONES => Stage::Placing,
                    Stage::Placing => Stage::Choice(Side::Second),
                    Stage::FifthStone => Stage::Choice(Side::First),
                    // Staying White with a stone: the opponent plays Black.
                    Stage::Choice(_) => Stage::Settled {
                        black: placed_by.opponent(),
                    },
                    settled => settled,
                }
            }
            // Not legal here (`check_move` refuses them): nothing changes.
            (stage, SwapMove::Swap | SwapMove::More(_)) => stage,
        };
    }

    fn format_move(&self, mv: SwapMove) -> String {
        match mv {
            SwapMove::Stone(square) => self.board.format_move(square),
            SwapMove::Swap => "swap".to_string(),
            SwapMove::More(square) => format!("{} more", self.board.format_move(square)),
        }
    }

    /// The board's outcome, its winner the seat of the winning colour. No line can be made
    /// before the colours are settled (a swap takes a line of 4 or more, and the opening has at
    /// most three Black stones).
    fn outcome(&self) -> Option<Outcome> {
        let outcome = self.board.outcome()?;
        let black = self.black().unwrap_or(Side::First);
        Some(Outcome {
            winner: outcome.winner.map(|colour| self.seat_of(colour, black)),
            ending: outcome.ending,
        })
    }

    fn diagram(&self, view: &View) -> Diagram {
        let mut diagram = self.board.diagram(view);
        diagram.words(&self.caption(), view.compact);
        diagram
    }

    fn picture(&self) -> Picture {
        self.board.picture()
    }

    fn refused_picture(&self, text: &str) -> Option<Picture> {
        self.board.refused_picture(text)
    }

    fn colours(&self) -> Option<[Colour; 2]> {
        let black = self.black()?;
        Some(Side::BOTH.map(|seat| {
            if seat == black {
                Colour::Black
            } else {
                Colour::White
            }
        }))
    }

    fn swap_step(&self) -> Option<SwapStep> {
        match self.stage {
            _ if self.board.outcome().is_some() => None,
            Stage::Choice(_) => Some(SwapStep::Choose {
                more: self.may_place_more(),
            }),
            _ => self.opening_stone().map(SwapStep::Place),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, Ending, GameSpec};

    fn game(swap: &str) -> SwapGame {
        let spec = GameSpec::from_words("gomoku", &[format!("swap={swap}")]).unwrap();
        SwapGame::new(spec.mnk_params().unwrap())
    }

    /// Plays `moves`, checking that each is made by the seat given before it.
    fn play(game: &mut SwapGame, moves: &[(Side, &str)]) {
        for &(side, text) in moves {
            assert_eq!(Game::side_to_move(game), side, "before {text}");
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    const OPENING: [(Side, &str); 3] = [
        (Side::First, "7 7"),
        (Side::First, "8 8"),
        (Side::First, "7 8"),
    ];

    #[test]
    fn the_first_player_places_three_stones_then_the_second_chooses() {
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        assert_eq!(g.board().mark_at(7, 7), Some(Side::First));
        assert_eq!(g.board().mark_at(8, 8), Some(Side::Second));
        assert_eq!(g.board().mark_at(7, 8), Some(Side::First));
        assert!(g.choosing() && !g.may_place_more());
        assert_eq!(Game::colours(&g), None);
        let legal = g.legal_moves_text();
        assert_eq!(legal.len(), 1 + 222);
        assert_eq!(legal[0], "swap");
    }

    #[test]
    fn swap1_swap_gives_black_to_the_second_player_and_white_moves_next() {
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        play(&mut g, &[(Side::Second, "swap"), (Side::First, "6 6")]);
        assert_eq!(g.black(), Some(Side::Second));
        assert_eq!(Game::colours(&g), Some([Colour::White, Colour::Black]));
        assert_eq!(g.board().mark_at(6, 6), Some(Side::Second));
        assert_eq!(Game::side_to_move(&g), Side::Second);
        assert!(!g.choosing());
        assert!(matches!(
            g.play_text("swap"),
            Err(MoveError::Illegal(IllegalMove::NotLegal { .. }))
        ));
    }

    #[test]
    fn swap1_a_stone_keeps_white_and_the_first_player_stays_black() {
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        play(&mut g, &[(Side::Second, "6 6"), (Side::First, "9 9")]);
        assert_eq!(g.black(), Some(Side::First));
        assert_eq!(Game::colours(&g), Some([Colour::Black, Colour::White]));
        assert!(matches!(
            g.play_text("5 5 more"),
            Err(MoveError::Illegal(IllegalMove::NotLegal { .. }))
        ));
    }

    #[test]
    fn swap1_has_no_third_option() {
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        let error = g.play_text("5 5 more").unwrap_err();
        assert!(error.to_string().contains("swap2 only"), "{error}");
    }

    #[test]
    fn swap2_more_places_two_stones_then_the_first_player_chooses() {
        for (choice, black, next) in [
            ("swap", Side::First, Side::Second),
            ("6 6", Side::Second, Side::Second),
        ] {
            let mut g = game("swap2");
            play(&mut g, &OPENING);
            assert!(g.may_place_more());
            assert_eq!(g.legal_moves_text().len(), 1 + 2 * 222);
            play(&mut g, &[(Side::Second, "9 9 more"), (Side::Second, "6 8")]);
            assert_eq!(g.board().mark_at(9, 9), Some(Side::Second));
            assert_eq!(g.board().mark_at(6, 8), Some(Side::First));
            assert!(g.choosing() && !g.may_place_more());
            play(&mut g, &[(Side::First, choice)]);
            assert_eq!(g.black(), Some(black), "{choice}");
            assert_eq!(Game::side_to_move(&g), next, "{choice}");
        }
    }

    /// Each step of a swap2 opening names the stone to place or the choice, until the colours
    /// are chosen.
    #[test]
    fn the_swap_step_names_each_stone_and_choice() {
        let place = |colour, number, of| Some(SwapStep::Place(OpeningStone { colour, number, of }));
        let mut g = game("swap2");
        let mut steps = Vec::new();
        for mv in ["7 7", "8 8", "7 8", "9 9 more", "6 8", "6 6"] {
            steps.push(Game::swap_step(&g));
            g.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        steps.push(Game::swap_step(&g));
        assert_eq!(
            steps,
            [
                place(Colour::Black, 1, 3),
                place(Colour::White, 2, 3),
                place(Colour::Black, 3, 3),
                Some(SwapStep::Choose { more: true }),
                place(Colour::Black, 2, 2),
                Some(SwapStep::Choose { more: false }),
                None,
            ]
        );
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        assert_eq!(Game::swap_step(&g), Some(SwapStep::Choose { more: false }));
    }

    /// The caption under the board (the console shows it at each turn) names the stone to
    /// place as the browser's message does: its colour and mark, which of how many (it said
    /// 'places stone 2 of 3', no colour).
    #[test]
    fn the_caption_names_each_stone_to_place() {
        let mut g = game("swap2");
        let mut captions = Vec::new();
        for mv in ["7 7", "8 8", "7 8", "9 9 more", "6 8", "6 6"] {
            let diagram = Game::diagram(&g, &View::default()).to_string();
            captions.push(diagram.lines().last().unwrap().to_string());
            g.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
        assert_eq!(
            captions,
            [
                "swap2 opening: the first player places a black stone (X), 1 of 3",
                "swap2 opening: the first player places a white stone (O), 2 of 3",
                "swap2 opening: the first player places a black stone (X), 3 of 3",
                "swap2 opening: the second player chooses: 'swap' (Black) or White's stone (or 'x y more')",
                "swap2 opening: the second player places a black stone (X), 2 of 2",
                "swap2 opening: the first player chooses: 'swap' (Black) or White's stone",
            ]
        );
    }

    #[test]
    fn opening_moves_are_stones_only_and_words_are_told_apart_from_moves() {
        let mut g = game("swap2");
        assert!(matches!(
            g.play_text("swap"),
            Err(MoveError::Illegal(IllegalMove::NotLegal { .. }))
        ));
        assert!(matches!(
            g.play_text("7 7 more"),
            Err(MoveError::Illegal(IllegalMove::NotLegal { .. }))
        ));
        assert!(matches!(g.play_text("b2"), Err(MoveError::NotAMove(_))));
        play(&mut g, &OPENING);
        assert_eq!(
            g.play_text("swap please"),
            Err(MoveError::NotAMove(
                "expected 'swap', a stone 'x y' (column, then row) or 'x y more'".into()
            ))
        );
        assert!(matches!(
            g.play_text("7 7 more"),
            Err(MoveError::Illegal(IllegalMove::Occupied { .. }))
        ));
        assert!(matches!(
            g.play_text("15 0 more"),
            Err(MoveError::Illegal(IllegalMove::OffBoard { .. }))
        ));
        assert_eq!(g.play_text(" 9   9  more").unwrap(), "9 9 more");
    }

    #[test]
    fn the_winner_is_the_seat_of_the_winning_colour() {
        // The second player swaps to Black and makes five.
        let mut g = game("swap1");
        play(
            &mut g,
            &[
                (Side::First, "0 0"),
                (Side::First, "0 5"),
                (Side::First, "1 0"),
            ],
        );
        play(&mut g, &[(Side::Second, "swap")]);
        for (white, black) in [("0 6", "2 0"), ("0 7", "3 0"), ("0 8", "4 0")] {
            play(&mut g, &[(Side::First, white), (Side::Second, black)]);
        }
        let outcome = Game::outcome(&g).unwrap();
        assert_eq!(outcome.winner, Some(Side::Second));
        assert_eq!(outcome.ending, Ending::Line);
    }

    #[test]
    fn renju_forbids_black_whoever_plays_it() {
        let spec = GameSpec::from_words("gomoku", &["swap=swap1", "rule=renju"]).unwrap();
        let mut g = SwapGame::new(spec.mnk_params().unwrap());
        // Black: 4 2, 4 3 and 2 4, 3 4; 4 4 would be a double three, and Black is the second
        // player.
        play(
            &mut g,
            &[
                (Side::First, "4 2"),
                (Side::First, "10 10"),
                (Side::First, "4 3"),
            ],
        );
        play(&mut g, &[(Side::Second, "swap"), (Side::First, "12 12")]);
        play(
            &mut g,
            &[
                (Side::Second, "2 4"),
                (Side::First, "12 0"),
                (Side::Second, "3 4"),
            ],
        );
        play(&mut g, &[(Side::First, "0 12")]);
        assert!(!g.legal_moves_text().contains(&"4 4".to_string()));
        g.play_text("4 4").unwrap();
        let outcome = Game::outcome(&g).unwrap();
        assert_eq!(outcome.winner, Some(Side::First));
        assert!(matches!(outcome.ending, Ending::Forbidden(_)));
    }

    #[test]
    fn perft_counts_the_choices() {
        let g = game("swap2");
        assert_eq!(crate::games::perft(&g, 1), 225);
        let mut g = game("swap2");
        play(&mut g, &OPENING);
        // swap, 222 stones, 222 'more'; then 222 White stones after swap (no stone was
        // placed), 221 Black after a stone, 221 Black fifth stones after 'more'.
        assert_eq!(crate::games::perft(&g, 2), 222 + 222 * 221 + 222 * 221);
        let mut g = game("swap1");
        play(&mut g, &OPENING);
        assert_eq!(crate::games::perft(&g, 2), 222 + 222 * 221);
    }
}
