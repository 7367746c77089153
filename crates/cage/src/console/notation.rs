//! The console's friendly notation, beside the protocol's: a column letter and a row number
//! for a square (`b3` is column b = x 1, row 3 = y 3, the protocol's `1 3`), two neighbouring
//! dots for a dots-and-boxes line (`a0-b0` is `h 0 0`), and `11 15` for the checkers move from
//! 11 to 15 whatever its kind. The same letters and numbers are drawn along the board's edges.

use referee_rules::games::diagram::{column_letter, column_of_letter};
use referee_rules::games::{AnyGame, GameSpec, Geometry};

/// The columns and rows as drawn along the edges, e.g. `columns a-c (0-2), rows 0-2`.
pub fn extent(geometry: Geometry) -> Option<String> {
    let (columns, rows, what) = match geometry {
        Geometry::Cells { width, height, .. } => (width, height, ""),
        Geometry::Dots { cols, rows } => (cols + 1, rows + 1, "dot "),
        Geometry::NumberedSquares => return None,
    };
    Some(format!(
        "{what}columns a-{} (0-{}), {what}rows 0-{}",
        column_letter(columns - 1),
        columns - 1,
        rows - 1
    ))
}

/// A text typed as a move, made ready for the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Translation {
    /// The text is (or may be) in the protocol's notation already: the rules judge it.
    Protocol,
    /// A friendly form, and the same move in the protocol's notation.
    Friendly(String),
    /// A friendly form that names no move, and why.
    Unclear(String),
}

/// Reads `text` in the friendly notation of the game, if it is written so.
pub fn translate(spec: &GameSpec, game: &dyn AnyGame, text: &str) -> Translation {
    let words: Vec<&str> = text.split_whitespace().collect();
    match spec.geometry() {
        Geometry::Cells { .. } => match words[..] {
            [word] => match cell(word) {
                Some((x, y)) => Translation::Friendly(format!("{x} {y}")),
                None => Translation::Protocol,
            },
            // A swap2 opening's `x y more`, its square written `b3`.
            [word, "more"] => match cell(word) {
                Some((x, y)) => Translation::Friendly(format!("{x} {y} more")),
                None => Translation::Protocol,
            },
            _ => Translation::Protocol,
        },
        Geometry::Dots { .. } => {
            let dots: Vec<&str> = text
                .split(|c: char| c == '-' || c.is_whitespace())
                .filter(|part| !part.is_empty())
                .collect();
            match dots[..] {
                [a, b] => match (cell(a), cell(b)) {
                    (Some(from), Some(to)) => dots_line(a, from, b, to),
                    _ => Translation::Protocol,
                },
                _ => Translation::Protocol,
            }
        }
        Geometry::NumberedSquares => match words[..] {
            [from, to] => match (from.parse::<u8>(), to.parse::<u8>()) {
                (Ok(from), Ok(to)) => piece_move(game, from, to),
                _ => Translation::Protocol,
            },
            _ => Translation::Protocol,
        },
    }
}

/// A square or dot written as a letter and a number (`b3`): its column and row. Numbers too
/// large saturate, so they read as off the board.
fn cell(word: &str) -> Option<(u8, u64)> {
    let mut chars = word.chars();
    let column = column_of_letter(chars.next()?)?;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((column, digits.parse().unwrap_or(u64::MAX)))
}

fn dots_line(a: &str, from: (u8, u64), b: &str, to: (u8, u64)) -> Translation {
    let ((x1, y1), (x2, y2)) = (from, to);
    if y1 == y2 && x1.abs_diff(x2) == 1 {
        Translation::Friendly(format!("h {} {y1}", x1.min(x2)))
    } else if x1 == x2 && y1.abs_diff(y2) == 1 {
        Translation::Friendly(format!("v {x1} {}", y1.min(y2)))
    } else {
        Translation::Unclear(format!(
            "{a} and {b} are not neighbouring dots: a line joins two dots side by side \
             (a0-b0) or one above the other (a0-a1)"
        ))
    }
}

/// The legal move from `from` that ends on `to`, a plain move or a capture alike; failing
/// that, the one capture from `from` that lands on `to` on its way (`12 19` for `12x19x28`,
/// whose jump cannot stop on 19): a person names the jump they see, the rules make it go on.
fn piece_move(game: &dyn AnyGame, from: u8, to: u8) -> Translation {
    let moves = game.piece_moves();
    let from_here = || moves.iter().filter(|mv| mv.from == from);
    let mut candidates: Vec<&str> = from_here()
        .filter(|mv| mv.to == to)
        .map(|mv| mv.notation.as_str())
        .collect();
    if candidates.is_empty() {
        candidates = from_here()
            .filter(|mv| lands_on(&mv.notation, to))
            .map(|mv| mv.notation.as_str())
            .collect();
    }
    match &candidates[..] {
        [only] => Translation::Friendly((*only).to_string()),
        [] => Translation::Friendly(format!("{from}-{to}")),
        several => Translation::Unclear(format!(
            "several captures go from {from} to {to}: {}; type the one you mean",
            several.join(", ")
        )),
    }
}

/// Whether the capture `notation` (canonical, every landing square: `12x19x28`) lands on `to`
/// before its last square.
fn lands_on(notation: &str, to: u8) -> bool {
    let mut landings: Vec<&str> = notation.split('x').skip(1).collect();
    landings.pop();
    landings.iter().any(|square| square.parse() == Ok(to))
}

/// A move in the protocol's notation as the console shows it: its friendly form when there is
/// one, e.g. `b3` for `1 3` and `a0-b0` for `h 0 0`.
pub fn friendly(spec: &GameSpec, notation: &str) -> String {
    let numbers = |words: &[&str]| -> Option<Vec<u8>> {
        words.iter().map(|word| word.parse::<u8>().ok()).collect()
    };
    let words: Vec<&str> = notation.split_whitespace().collect();
    let written = match (spec.geometry(), &words[..]) {
        (Geometry::Cells { .. }, [_, _]) => {
            numbers(&words).map(|xy| format!("{}{}", column_letter(xy[0]), xy[1]))
        }
        (Geometry::Dots { .. }, [kind, _, _]) => numbers(&words[1..]).and_then(|xy| {
            let (x, y) = (xy[0], xy[1]);
            match *kind {
                "h" => Some(format!(
                    "{}{y}-{}{y}",
                    column_letter(x),
                    column_letter(x.saturating_add(1))
                )),
                "v" => Some(format!(
                    "{}{y}-{}{}",
                    column_letter(x),
                    column_letter(x),
                    y.saturating_add(1)
                )),
                _ => None,
            }
        }),
        _ => None,
    };
    written.unwrap_or_else(|| notation.to_string())
}

/// A move shown both ways when the forms differ: `b3 (1 3)`.
pub fn both(spec: &GameSpec, notation: &str) -> String {
    let shown = friendly(spec, notation);
    if shown == notation {
        shown
    } else {
        format!("{shown} ({notation})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, params: &[&str]) -> GameSpec {
        GameSpec::from_words(name, params).unwrap()
    }

    fn translated(name: &str, params: &[&str], text: &str) -> Translation {
        let spec = spec(name, params);
        translate(&spec, spec.new_game().as_ref(), text)
    }

    fn friendly_move(text: &str) -> Translation {
        Translation::Friendly(text.to_string())
    }

    #[test]
    fn a_letter_and_a_number_name_a_square_column_first() {
        assert_eq!(translated("tictactoe", &[], "b2"), friendly_move("1 2"));
        assert_eq!(translated("tictactoe", &[], " C0 "), friendly_move("2 0"));
        assert_eq!(translated("gomoku", &[], "o14"), friendly_move("14 14"));
        assert_eq!(translated("uttt", &[], "i8"), friendly_move("8 8"));
        // Off the board stays a move for the rules to refuse with their own message.
        assert_eq!(translated("tictactoe", &[], "z9"), friendly_move("25 9"));
        for protocol in ["1 2", "b", "2b", "b-1", "b2 c3", "", "é1"] {
            assert_eq!(
                translated("tictactoe", &[], protocol),
                Translation::Protocol,
                "{protocol:?}"
            );
        }
        // A swap2 opening's third option, and its choice word as it is.
        let swap2 = ["swap=swap2"];
        assert_eq!(
            translated("gomoku", &swap2, "h7 more"),
            friendly_move("7 7 more")
        );
        assert_eq!(translated("gomoku", &swap2, "swap"), Translation::Protocol);
        let spec = spec("mnk", &["width=12", "height=11"]);
        assert_eq!(friendly(&spec, "11 10"), "l10");
        assert_eq!(both(&spec, "1 3"), "b3 (1 3)");
        assert_eq!(
            translate(&spec, spec.new_game().as_ref(), "l10"),
            friendly_move("11 10")
        );
    }

    #[test]
    fn two_neighbouring_dots_name_a_line() {
        let dots = |text| translated("dots", &[], text);
        assert_eq!(dots("a0-b0"), friendly_move("h 0 0"));
        assert_eq!(dots("b0 a0"), friendly_move("h 0 0"));
        assert_eq!(dots("c2 - c3"), friendly_move("v 2 2"));
        assert_eq!(dots("d1-d0"), friendly_move("v 3 0"));
        assert!(
            matches!(dots("a0-c0"), Translation::Unclear(why) if why.contains("not neighbouring"))
        );
        assert!(matches!(dots("a0-b1"), Translation::Unclear(_)));
        assert_eq!(dots("h 0 0"), Translation::Protocol);
        let spec = spec("dots", &[]);
        assert_eq!(friendly(&spec, "h 0 0"), "a0-b0");
        assert_eq!(friendly(&spec, "v 2 1"), "c1-c2");
        assert_eq!(both(&spec, "v 3 2"), "d2-d3 (v 3 2)");
    }

    #[test]
    fn two_checkers_squares_name_the_move_between_them() {
        let standard = spec("checkers", &[]);
        let game = standard.new_game();
        assert_eq!(
            translate(&standard, game.as_ref(), "11 15"),
            friendly_move("11-15")
        );
        // No such move: the plain form goes to the rules, which say why.
        assert_eq!(
            translate(&standard, game.as_ref(), "11 18"),
            friendly_move("11-18")
        );
        let jumping = spec("checkers", &["fen=B:W18,27:B14"]);
        let game = jumping.new_game();
        // The man on 14 must jump 18 and then 27; the space form finds the whole capture.
        assert_eq!(
            translate(&jumping, game.as_ref(), "14 32"),
            friendly_move("14x23x32")
        );
        assert_eq!(
            translate(&jumping, game.as_ref(), "14 17"),
            friendly_move("14-17")
        );
        assert_eq!(
            translate(&jumping, game.as_ref(), "11-15"),
            Translation::Protocol
        );
        assert_eq!(friendly(&standard, "9x18x27"), "9x18x27");
    }

    #[test]
    fn two_squares_name_a_multi_jump_by_its_first_landing() {
        // Black's man on 12 must jump 16 and then 24: 12x19x28, whose jump cannot stop on 19.
        let through = spec("checkers", &["fen=B:W16,24:B12"]);
        let game = through.new_game();
        let translated = |text| translate(&through, game.as_ref(), text);
        assert_eq!(translated("12 19"), friendly_move("12x19x28"));
        assert_eq!(translated("12 28"), friendly_move("12x19x28"));
        // A plain move stays a plain move, for the rules to refuse: the capture is mandatory.
        assert_eq!(translated("12 15"), friendly_move("12-15"));
        // Two captures through 19 (on to 26 or to 28): the person must say which.
        let forked = spec("checkers", &["fen=B:W16,23,24:B12"]);
        let game = forked.new_game();
        assert!(matches!(
            translate(&forked, game.as_ref(), "12 19"),
            Translation::Unclear(why) if why.contains("12x19x26") && why.contains("12x19x28")
        ));
    }
}
