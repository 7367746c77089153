//! The rule sets played out: renju's forbidden moves, fives and move limit, caro's blocked
//! lines, and the `rule` parameter as the registry reads and writes it.

use super::params::Rule;
use super::{renju, Mnk};
use crate::games::{AnyGame, Ending, Forbidden, Game, GameSpec, Outcome, Side};

fn spec(words: &[&str]) -> GameSpec {
    GameSpec::from_words("gomoku", words).unwrap()
}

/// The game after `moves`, Black (X) and White (O) alternating.
fn after(words: &[&str], moves: &[&str]) -> Box<dyn AnyGame> {
    let mut game = spec(words).new_game();
    for mv in moves {
        assert_eq!(game.outcome(), None, "the game ended before {mv}");
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

/// White's moves far from Black's, in the bottom row, that make nothing.
const FAR: [&str; 6] = ["0 14", "2 14", "4 14", "6 14", "8 14", "10 14"];

/// Black's and White's moves in the order played (as many pairs as the shorter has).
fn alternate<'a>(black: &[&'a str], white: &[&'a str]) -> Vec<&'a str> {
    black
        .iter()
        .zip(white)
        .flat_map(|(b, w)| [*b, *w])
        .collect()
}

/// Black's moves interleaved with White's far ones.
fn black_with_far_white(black: &[&'static str]) -> Vec<&'static str> {
    alternate(black, &FAR)
}

fn won_by(side: Side, ending: Ending) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(side),
        ending,
    })
}

#[test]
fn the_game_line_tells_the_rule_only_when_there_is_one() {
    assert_eq!(
        spec(&["rule=renju"]).to_string(),
        "gomoku width=15 height=15 line=5 exact=no rule=renju"
    );
    assert_eq!(
        spec(&["rule=caro", "exact=yes"]).to_string(),
        "gomoku width=15 height=15 line=5 exact=yes rule=caro"
    );
    assert_eq!(
        spec(&["rule=none"]).to_string(),
        "gomoku width=15 height=15 line=5 exact=no"
    );
    let mnk = GameSpec::from_words("mnk", &["size=20", "rule=renju"]).unwrap();
    assert_eq!(
        mnk.to_string(),
        "mnk width=20 height=20 line=5 exact=no rule=renju"
    );
    for spec in [spec(&["rule=renju"]), spec(&["rule=caro"]), mnk] {
        let text = spec.to_string();
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(GameSpec::from_words(words[0], &words[1..]).unwrap(), spec);
    }
    // A spec stored before rule sets existed reads as no rule.
    let old: GameSpec = serde_json::from_str(r#"{"name":"gomoku","exact":true}"#).unwrap();
    assert_eq!(old.mnk_params().unwrap().rule, Rule::None);
}

#[test]
fn rules_that_cannot_be_played_are_refused_with_the_reason() {
    let refused =
        |name: &str, words: &[&str]| GameSpec::from_words(name, words).unwrap_err().to_string();
    assert!(refused("gomoku", &["rule=renju", "exact=yes"]).contains("it takes exact=no"));
    assert!(refused("mnk", &["rule=renju", "line=4"]).contains("not line=4"));
    assert!(refused("tictactoe", &["rule=caro"]).contains("has no parameter 'rule'"));
    assert!(refused("gomoku", &["rule=freestyle"]).contains("not one of: none, renju, caro"));
}

#[test]
fn renju_black_loses_by_a_double_three() {
    // Black: 5 7, 6 7 (a two across) and 7 5, 7 6 (a two down); 7 7 makes two open threes.
    let moves = black_with_far_white(&["5 7", "7 5", "6 7", "7 6"]);
    let mut game = after(&["rule=renju"], &moves);
    assert!(!game.legal_moves_text().contains(&"7 7".to_string()));
    // ... but the move is accepted, and loses.
    game.play_text("7 7").unwrap();
    assert_eq!(
        game.outcome(),
        won_by(Side::Second, Ending::Forbidden(Forbidden::DoubleThree))
    );
    // Without renju the same move is an ordinary one.
    let mut free = after(&[], &moves);
    free.play_text("7 7").unwrap();
    assert_eq!(free.outcome(), None);
}

#[test]
fn renju_white_may_make_a_double_three() {
    let moves = alternate(&FAR, &["5 7", "7 5", "6 7", "7 6"]);
    let mut game = after(&["rule=renju"], &moves);
    game.play_text("12 14").unwrap();
    assert!(game.legal_moves_text().contains(&"7 7".to_string()));
    game.play_text("7 7").unwrap();
    assert_eq!(game.outcome(), None);
}

#[test]
fn renju_overlines_lose_for_black_and_win_for_white() {
    let black = black_with_far_white(&["0 0", "1 0", "2 0", "4 0", "5 0"]);
    let mut game = after(&["rule=renju"], &black);
    game.play_text("3 0").unwrap();
    assert_eq!(
        game.outcome(),
        won_by(Side::Second, Ending::Forbidden(Forbidden::Overline))
    );
    let white = alternate(
        &["0 5", "2 5", "4 5", "6 5", "8 5", "10 5"],
        &["0 0", "1 0", "2 0", "4 0", "5 0"],
    );
    let mut game = after(&["rule=renju"], &white);
    game.play_text("12 5").unwrap();
    game.play_text("3 0").unwrap();
    assert_eq!(game.outcome(), won_by(Side::Second, Ending::Line));
}

#[test]
fn renju_exactly_five_wins_even_with_a_double_four() {
    // Across: 1..4 and the move on 5 is five; down: 5 2, 5 3, 5 4 and the move make a four;
    // on the diagonal: 4 2, 3 3, 2 4 and the move make another.
    let black = ["1 1", "2 1", "3 1", "4 1", "5 2", "5 3", "5 4"];
    let white = ["9 9", "11 9", "13 9", "9 11", "11 11", "13 11", "9 13"];
    let mut moves = alternate(&black, &white);
    moves.extend(["4 2", "12 13", "3 3", "0 14", "2 4", "14 14"]);
    let mut game = after(&["rule=renju"], &moves);
    game.play_text("5 1").unwrap();
    assert_eq!(game.outcome(), won_by(Side::First, Ending::Line));
}

#[test]
fn renju_draws_after_200_moves() {
    // Plays the first square, in a scan that spreads the stones, that neither wins nor is
    // forbidden, until the game ends.
    let params = spec(&["rule=renju"]).mnk_params().unwrap();
    let mut game = Mnk::new(params);
    let order: Vec<u16> = (0..225u16).map(|i| (i * 7) % 225).collect();
    while Game::outcome(&game).is_none() {
        let placed = order.iter().filter(|&&s| game.mark(s).is_some()).count();
        assert!(placed < renju::MOVE_LIMIT);
        let quiet = order.iter().copied().find(|&square| {
            let mut child = game.clone();
            game.mark(square).is_none() && {
                child.play_unchecked(square);
                Game::outcome(&child).is_none()
                    || Game::outcome(&child).map(|o| o.ending) == Some(Ending::MoveRule)
            }
        });
        game.play_unchecked(quiet.expect("a quiet move"));
    }
    let placed = (0..225).filter(|&s| game.mark(s).is_some()).count();
    assert_eq!(placed, renju::MOVE_LIMIT);
    assert_eq!(
        Game::outcome(&game),
        Some(Outcome {
            winner: None,
            ending: Ending::MoveRule
        })
    );
}

#[test]
fn caro_a_five_blocked_at_both_ends_does_not_win() {
    // White at 0 3 and 6 3; Black fills 1..5 on row 3.
    let black = ["1 3", "2 3", "3 3", "4 3"];
    let white = ["0 3", "6 3", "10 10", "12 12"];
    let moves = alternate(&black, &white);
    let mut caro = after(&["rule=caro"], &moves);
    caro.play_text("5 3").unwrap();
    assert_eq!(caro.outcome(), None);
    let mut free = after(&[], &moves);
    free.play_text("5 3").unwrap();
    assert_eq!(free.outcome(), won_by(Side::First, Ending::Line));
}

#[test]
fn caro_the_edge_of_the_board_is_no_block() {
    // Black fills 0..4 on row 3, White at 5 3: blocked at one end only.
    let black = ["0 3", "1 3", "2 3", "3 3"];
    let white = ["5 3", "10 10", "12 12", "14 14"];
    let moves = alternate(&black, &white);
    let mut caro = after(&["rule=caro"], &moves);
    caro.play_text("4 3").unwrap();
    assert_eq!(caro.outcome(), won_by(Side::First, Ending::Line));
}

#[test]
fn caro_overlines_win_unless_exact() {
    let black = ["0 5", "1 5", "2 5", "4 5", "5 5"];
    let white = ["0 9", "2 9", "4 9", "6 9", "8 9"];
    let moves = alternate(&black, &white);
    let mut caro = after(&["rule=caro"], &moves);
    caro.play_text("3 5").unwrap();
    assert_eq!(caro.outcome(), won_by(Side::First, Ending::Line));
    let mut exact = after(&["rule=caro", "exact=yes"], &moves);
    exact.play_text("3 5").unwrap();
    assert_eq!(exact.outcome(), None);
}

#[test]
fn only_renju_restricts_black() {
    let moves = black_with_far_white(&["5 7", "7 5", "6 7", "7 6"]);
    for words in [&[][..], &["exact=yes"], &["rule=caro"]] {
        assert!(after(words, &moves)
            .legal_moves_text()
            .contains(&"7 7".to_string()));
    }
}
