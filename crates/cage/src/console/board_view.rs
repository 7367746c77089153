//! Boards as the console draws them: the game's own drawing in the console's view (column
//! letters for the friendly notation, a selected checkers piece's destinations), and the lines
//! around it: who played what, whose turn it is.

use super::notation::both;
use referee_rules::games::{AnyGame, Diagram, GameSpec, Side, View};

/// Who sits on each side, for what the console says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// What each side's player is called, by side: "you", "builtin:strong", a command line; an
    /// empty name for people sharing the keyboard, who go by their side's name alone.
    pub names: [String; 2],
    /// The sides a person plays at this keyboard.
    pub humans: [bool; 2],
}

impl Seating {
    /// The side's name and its player: `X (you)`, `O (builtin:random)`, or `X` alone.
    pub fn who(&self, spec: &GameSpec, side: Side) -> String {
        let name = &self.names[side.index()];
        if name.is_empty() {
            side_name(spec, side).to_string()
        } else {
            format!("{} ({name})", side_name(spec, side))
        }
    }
}

/// How the game names a side, as its drawing does: X and O, Black and White, A and B.
pub fn side_name(spec: &GameSpec, side: Side) -> &'static str {
    spec.side_names()[side.index()]
}

/// The position drawn for the console, narrated (the console says who played what and whose
/// turn it is, in its own notation); `selected` is a checkers square whose piece's moves are
/// marked. On a terminal `columns` wide too narrow for the usual drawing, the compact one
/// (cells two characters wide), and when even that does not fit, a line saying how wide the
/// terminal must be: a terminal wraps a line too long for it, and the board falls apart.
pub fn draw(game: &dyn AnyGame, selected: Option<u8>, columns: Option<usize>) -> Diagram {
    let view = |compact| View {
        letters: true,
        narrated: true,
        selected,
        compact,
    };
    let usual = game.diagram(&view(false));
    let Some(columns) = columns.filter(|&columns| usual.width() > columns) else {
        return usual;
    };
    let mut compact = game.diagram(&view(true));
    let needed = compact.width();
    if needed > columns {
        compact.text(format!("(Widen the terminal to {needed} columns.)"));
        compact.end_line();
    }
    compact
}

/// `X (you) played b2 (1 2)`.
pub fn played_line(spec: &GameSpec, seating: &Seating, side: Side, notation: &str) -> String {
    format!(
        "{} {}",
        seating.who(spec, side),
        move_words(spec, notation, false)
    )
}

/// What a move did, in words that follow the player's name (`you`: said to the person who
/// played it): `played b2 (1 2)`. A swap opening's choices are said for what they do, not in
/// the protocol's notation (`6 6 more`, `swap`).
pub fn move_words(spec: &GameSpec, notation: &str, you: bool) -> String {
    let words: Vec<&str> = notation.split_whitespace().collect();
    let (take, place) = if you {
        ("swap colours: you take Black", "place")
    } else {
        ("swaps colours and takes Black", "places")
    };
    match words[..] {
        ["swap"] => take.to_string(),
        [x, y, "more"] => format!(
            "played {} for White, and {place} Black's next stone too",
            both(spec, &format!("{x} {y}"))
        ),
        _ => format!("played {}", both(spec, notation)),
    }
}

/// `Move 5: O (you) to move`; `number` counts the moves after the opening, as verdicts do.
pub fn turn_line(spec: &GameSpec, seating: &Seating, game: &dyn AnyGame, number: usize) -> String {
    format!(
        "Move {number}: {} to move",
        seating.who(spec, game.side_to_move())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_go_by_the_game_and_their_player() {
        let seating = Seating {
            names: ["you".into(), "builtin:random".into()],
            humans: [true, false],
        };
        let spec = GameSpec::from_words::<&str>("checkers", &[]).unwrap();
        assert_eq!(seating.who(&spec, Side::First), "Black (you)");
        let spec = GameSpec::from_words::<&str>("dots", &[]).unwrap();
        assert_eq!(
            played_line(&spec, &seating, Side::Second, "h 1 0"),
            "B (builtin:random) played b0-c0 (h 1 0)"
        );
        let swap2 = GameSpec::from_words("gomoku", &["swap=swap2"]).unwrap();
        assert_eq!(
            move_words(&swap2, "6 6 more", true),
            "played g6 (6 6) for White, and place Black's next stone too"
        );
        assert_eq!(
            played_line(&swap2, &seating, Side::Second, "swap"),
            "Second (builtin:random) swaps colours and takes Black"
        );
        assert_eq!(
            move_words(&swap2, "swap", true),
            "swap colours: you take Black"
        );
        let together = Seating {
            names: [String::new(), String::new()],
            humans: [true, true],
        };
        let spec = GameSpec::Tictactoe;
        let game = spec.new_game();
        assert_eq!(
            turn_line(&spec, &together, game.as_ref(), 1),
            "Move 1: X to move"
        );
        assert!(draw(game.as_ref(), None, None)
            .to_string()
            .starts_with("    a  b  c\n    0  1  2\n"));
    }

    /// On a terminal of 40 columns every game's board fits, compact where its usual drawing is
    /// wider; one that cannot fit says how wide the terminal must be. A wide terminal, or
    /// output that is not a terminal, gets the usual drawing.
    #[test]
    fn a_narrow_terminal_gets_a_compact_board_or_is_told_its_width() {
        let games = [
            ("tictactoe", vec![]),
            ("gomoku", vec![]),
            ("gomoku", vec!["swap=swap2"]),
            ("mnk", vec!["width=18", "height=6", "line=4"]),
            ("uttt", vec![]),
            ("checkers", vec![]),
            ("dots", vec!["rows=10", "cols=10"]),
        ];
        for (name, params) in games {
            let spec = GameSpec::from_words(name, &params).unwrap();
            let mut game = spec.new_game();
            let first = game.legal_moves_text().pop().unwrap();
            game.play_text(&first).unwrap();
            let usual = draw(game.as_ref(), None, None);
            assert_eq!(draw(game.as_ref(), None, Some(80)), usual, "{spec}");
            let narrow = draw(game.as_ref(), None, Some(40)).to_string();
            assert!(
                narrow.lines().all(|line| line.len() <= 40),
                "{spec}:\n{narrow}"
            );
            assert!(!narrow.contains("Widen"), "{spec}:\n{narrow}");
        }
        let spec = GameSpec::from_words("gomoku", &["size=20"]).unwrap();
        let narrow = draw(spec.new_game().as_ref(), None, Some(40)).to_string();
        assert!(narrow.starts_with("    a b c d e f g h i j k l m n o p q r s t\n"));
        assert!(
            narrow.ends_with("\n(Widen the terminal to 43 columns.)\n"),
            "{narrow}"
        );
    }
}
