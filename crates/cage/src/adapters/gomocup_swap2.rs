//! Gomocup's swap2 opening (`SWAP2BOARD`, Gomocup 2022), for a brain playing `swap=swap2`.
//!
//! While the colours are open, each decision of the brain's is asked with `SWAP2BOARD`, one
//! `x,y` line per stone on the board in the order placed (Black, White, Black, ...), and `DONE`.
//! The brain answers in one line: on the empty board, its three opening stones
//! (`x1,y1 x2,y2 x3,y3`); on three stones, `SWAP` (it takes Black), one stone (it stays White
//! and plays it) or two stones (White's fourth and Black's fifth: the opponent chooses); on
//! five, `SWAP` (it takes Black) or one stone (White's sixth). The referee's game takes them as
//! moves of their own (`7 7` three times, `swap`, `x y more` then `x y`): the first is the
//! brain's answer to the arbiter, the others follow at the arbiter's next requests, at once.
//! Once the colours are settled, the brain's next request is a `BOARD` with every stone, its
//! own colour's as field 1, as Gomocup managers do.
//!
//! Gomocup has no swap1 command (its `SWAP2BOARD` lets a brain answer with two stones, which
//! swap1 does not allow), so Gomocup brains are refused swap1 games.

use crate::Reading;
use referee_rules::games::mnk::{MnkParams, SwapGame};
use referee_rules::games::{AnyGame, Colour, Game, Side};
use referee_rules::protocol::{trim_blanks, words};
use std::collections::VecDeque;

/// The adapter's copy of a swap2 opening, and the brain's answers not yet handed over.
pub(super) struct Swap2 {
    game: SwapGame,
    /// The rest of the brain's last answer, in the referee's notation, in order.
    pending: VecDeque<String>,
}

impl Swap2 {
    pub(super) fn new(params: MnkParams) -> Swap2 {
        Swap2 {
            game: SwapGame::new(params),
            pending: VecDeque::new(),
        }
    }

    /// Follows a move of the game, either player's, in the referee's notation.
    pub(super) fn play(&mut self, notation: &str) {
        // An illegal move ends the game: the arbiter rules on it.
        let _ = self.game.play_text(notation);
    }

    /// Whether the colours are still open: the brain's requests are `SWAP2BOARD`.
    pub(super) fn open(&self) -> bool {
        self.game.black().is_none()
    }

    /// The brain's colour once settled.
    pub(super) fn colour(&self, side: Side) -> Option<Colour> {
        Game::colours(&self.game).map(|colours| colours[side.index()])
    }

    /// The next of the brain's answers not yet handed to the arbiter.
    pub(super) fn pending(&mut self) -> Option<String> {
        self.pending.pop_front()
    }

    /// `SWAP2BOARD`, the stones in the order placed, `DONE`.
    pub(super) fn request(&self, stones: &[(u8, u8, Side)]) -> Vec<String> {
        let mut lines = vec!["SWAP2BOARD".to_string()];
        lines.extend(stones.iter().map(|&(x, y, _)| format!("{x},{y}")));
        lines.push("DONE".into());
        lines
    }

    /// The brain's answer `line` (as [`read_answer`] kept it) as the game's moves: the first is
    /// returned, the others kept for the next requests. An answer that does not fit the stage
    /// (three stones but on the empty board, two only at the second player's choice, ...) is
    /// returned as the brain wrote it, which the arbiter rules not a move.
    pub(super) fn take_answer(&mut self, line: &str) -> String {
        let mut moves = self.moves(line).unwrap_or_else(|| vec![line.to_string()]);
        let first = moves.remove(0);
        self.pending = moves.into();
        first
    }

    fn moves(&self, line: &str) -> Option<Vec<String>> {
        let stones = stones(line);
        let choosing = self.game.choosing();
        match stones.as_deref() {
            None if choosing && keyword(line) == "SWAP" => Some(vec!["swap".into()]),
            Some([a, b, c]) if !choosing => Some(vec![a.clone(), b.clone(), c.clone()]),
            Some([stone]) if choosing => Some(vec![stone.clone()]),
            Some([white, black]) if self.game.may_place_more() => {
                Some(vec![format!("{white} more"), black.clone()])
            }
            _ => None,
        }
    }
}

fn keyword(line: &str) -> String {
    words(line).next().unwrap_or("").to_ascii_uppercase()
}

/// The stones of a line `x1,y1 x2,y2 ...` in the referee's notation (`x y`), or `None` when it
/// is not a list of stones.
fn stones(line: &str) -> Option<Vec<String>> {
    let list: Option<Vec<String>> = words(line)
        .map(|word| {
            let (x, y) = word.split_once(',')?;
            let (x, y) = super::number_pair(x, y)?;
            Some(format!("{x} {y}"))
        })
        .collect();
    list.filter(|stones| !stones.is_empty())
}

/// What a brain's line is while an answer to `SWAP2BOARD` is awaited: `SWAP` or stones are the
/// answer, and so are `UNKNOWN` and `ERROR` (a brain without swap2 says so, and loses with its
/// words quoted, rather than on time); `MESSAGE` is kept with the move; anything else (`OK`,
/// `DEBUG`, an empty line) is passed over.
pub(super) fn read_answer(line: &str) -> Reading {
    let keyword = keyword(line);
    if keyword == "MESSAGE" {
        return Reading::Message(trim_blanks(&trim_blanks(line)["MESSAGE".len()..]).to_string());
    }
    if stones(line).is_some() || matches!(keyword.as_str(), "SWAP" | "UNKNOWN" | "ERROR") {
        Reading::Answer(trim_blanks(line).to_string())
    } else {
        Reading::Skip
    }
}

/// Whether Gomocup brains can play `params` from `opening`: swap1 never, swap2 from an opening
/// that stops where `SWAP2BOARD` can ask (no stone, three, or five after `x y more`) or past the
/// swap. `Err` says why not.
pub(super) fn check(params: MnkParams, opening: &[String]) -> Result<(), &'static str> {
    use referee_rules::games::mnk::SwapRule;
    match params.swap {
        SwapRule::None => Ok(()),
        SwapRule::Swap1 => Err(
            "Gomocup has no swap1 command (its SWAP2BOARD lets a brain answer with two more \
             stones, which swap1 does not allow): play swap=swap2, or swap=none",
        ),
        SwapRule::Swap2 => {
            let mut game = SwapGame::new(params);
            for mv in opening {
                let _ = game.play_text(mv);
            }
            let placed = opening.iter().filter(|mv| mv.as_str() != "swap").count();
            if game.black().is_some() || game.choosing() || placed == 0 {
                Ok(())
            } else {
                Err(
                    "a swap2 opening for Gomocup brains must stop before the first stone, at \
                     a choice (three stones, or five after 'x y more') or after the choice: \
                     SWAP2BOARD cannot ask for the stones in between",
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::GameSpec;

    fn params(swap: &str) -> MnkParams {
        GameSpec::from_words("gomoku", &[format!("swap={swap}")])
            .unwrap()
            .mnk_params()
            .unwrap()
    }

    fn opening(moves: &[&str]) -> Swap2 {
        let mut swap2 = Swap2::new(params("swap2"));
        for mv in moves {
            swap2.play(mv);
        }
        swap2
    }

    #[test]
    fn the_brains_answers_become_moves() {
        let mut empty = opening(&[]);
        assert_eq!(empty.take_answer("7,7 8,8 7,8"), "7 7");
        assert_eq!(empty.pending(), Some("8 8".into()));
        assert_eq!(empty.pending(), Some("7 8".into()));
        assert_eq!(empty.pending(), None);

        let mut three = opening(&["7 7", "8 8", "7 8"]);
        assert_eq!(three.take_answer("SWAP"), "swap");
        assert_eq!(three.take_answer("swap"), "swap");
        assert_eq!(three.take_answer("6,6"), "6 6");
        assert_eq!(three.take_answer("9,9 6,8"), "9 9 more");
        assert_eq!(three.pending(), Some("6 8".into()));

        let mut five = opening(&["7 7", "8 8", "7 8", "9 9 more", "6 8"]);
        assert!(five.open());
        assert_eq!(five.take_answer("SWAP"), "swap");
        assert_eq!(five.take_answer("6,6"), "6 6");
        // Two stones at the first player's choice, one on the empty board: as written.
        assert_eq!(five.take_answer("6,6 5,5"), "6,6 5,5");
        assert_eq!(empty.take_answer("7,7"), "7,7");
        assert_eq!(empty.take_answer("SWAP"), "SWAP");
        assert_eq!(three.take_answer("UNKNOWN swap2"), "UNKNOWN swap2");
    }

    #[test]
    fn the_request_lists_the_stones_in_the_order_placed() {
        let swap2 = opening(&["7 7", "8 8", "7 8"]);
        let stones = [
            (7, 7, Side::First),
            (8, 8, Side::Second),
            (7, 8, Side::First),
        ];
        assert_eq!(
            swap2.request(&stones),
            ["SWAP2BOARD", "7,7", "8,8", "7,8", "DONE"]
        );
        assert_eq!(swap2.request(&[]), ["SWAP2BOARD", "DONE"]);
    }

    #[test]
    fn the_colour_is_known_once_chosen() {
        let mut swap2 = opening(&["7 7", "8 8", "7 8"]);
        assert_eq!(swap2.colour(Side::Second), None);
        swap2.play("swap");
        assert!(!swap2.open());
        assert_eq!(swap2.colour(Side::Second), Some(Colour::Black));
        assert_eq!(swap2.colour(Side::First), Some(Colour::White));
    }

    #[test]
    fn answers_and_chatter() {
        assert_eq!(
            read_answer("7,7 8,8 7,8"),
            Reading::Answer("7,7 8,8 7,8".into())
        );
        assert_eq!(read_answer(" SWAP "), Reading::Answer("SWAP".into()));
        assert_eq!(read_answer("UNKNOWN"), Reading::Answer("UNKNOWN".into()));
        assert_eq!(
            read_answer("MESSAGE winrate 48%"),
            Reading::Message("winrate 48%".into())
        );
        for skipped in ["OK", "DEBUG x", "", "7 7"] {
            assert_eq!(read_answer(skipped), Reading::Skip, "{skipped}");
        }
    }

    #[test]
    fn gomocup_brains_play_swap2_from_openings_it_can_ask_about() {
        let owned = |moves: &[&str]| moves.iter().map(|m| (*m).to_string()).collect::<Vec<_>>();
        assert!(check(params("swap1"), &[])
            .unwrap_err()
            .contains("no swap1"));
        for ok in [
            &[][..],
            &["7 7", "8 8", "7 8"],
            &["7 7", "8 8", "7 8", "9 9 more", "6 8"],
            &["7 7", "8 8", "7 8", "swap"],
            &["7 7", "8 8", "7 8", "6 6"],
        ] {
            assert!(check(params("swap2"), &owned(ok)).is_ok(), "{ok:?}");
        }
        for refused in [
            &["7 7"][..],
            &["7 7", "8 8"],
            &["7 7", "8 8", "7 8", "9 9 more"],
        ] {
            assert!(
                check(params("swap2"), &owned(refused)).is_err(),
                "{refused:?}"
            );
        }
        assert!(check(params("none"), &owned(&["7 7"])).is_ok());
    }
}
