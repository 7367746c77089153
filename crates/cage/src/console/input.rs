//! What a person types at the console: a command or a move (in the protocol's notation or a
//! friendly form), the help that documents both, and hints added to the rules' refusals.

use super::notation::{extent, translate, Translation};
use referee_rules::games::diagram::column_letter;
use referee_rules::games::{AnyGame, GameSpec, Geometry, IllegalMove, MoveError};

/// What a typed line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// An empty line.
    Nothing,
    /// Show the commands and how to write a move (`help` or `?`).
    Help,
    /// List the legal moves.
    Moves,
    /// Give up the game.
    Resign,
    /// Leave the game (it counts as resigning).
    Quit,
    /// Take back the person's last move and the replies to it.
    Undo,
    /// Accept the draw offered, or offer one with the next move (checkers).
    Draw,
    /// Checkers: show where the piece on this square can go.
    Select(u8),
    /// A move: what was typed, the same move in the protocol's notation, and whether a draw
    /// is offered with it (`11-15 draw`).
    Move {
        /// The move as the person typed it, without a trailing ` draw`.
        typed: String,
        /// The move in the protocol's notation, as the arbiter reads it.
        notation: String,
        /// The line ended with ` draw`.
        offers_draw: bool,
    },
    /// A friendly form that names no move, and why.
    Unclear(String),
}

/// Reads a line typed while `game` (of `spec`) waits for the player's move.
pub fn read(spec: &GameSpec, game: &dyn AnyGame, line: &str) -> Input {
    let typed = line.trim();
    match typed.to_ascii_lowercase().as_str() {
        "" => return Input::Nothing,
        "help" | "?" => return Input::Help,
        "moves" => return Input::Moves,
        "resign" => return Input::Resign,
        "quit" | "exit" => return Input::Quit,
        "undo" | "takeback" => return Input::Undo,
        "draw" => return Input::Draw,
        _ => {}
    }
    let (text, offers_draw) = match typed.strip_suffix(" draw") {
        Some(text) => (text.trim(), true),
        None => (typed, false),
    };
    if spec.geometry() == Geometry::NumberedSquares && !offers_draw {
        if let Ok(square) = text.parse::<u8>() {
            return Input::Select(square);
        }
    }
    let notation = match translate(spec, game, text) {
        Translation::Protocol => text.to_string(),
        Translation::Friendly(notation) => notation,
        Translation::Unclear(why) => return Input::Unclear(why),
    };
    Input::Move {
        typed: text.to_string(),
        notation,
        offers_draw,
    }
}

/// The commands and the ways to write a move in `spec`'s game: one line a paragraph or a
/// command, broken to the terminal's width as it is said.
pub fn help(spec: &GameSpec) -> String {
    let moves = match spec.geometry() {
        Geometry::Cells {
            width,
            height,
            small_boards,
        } => format!(
            "Moves: a square's column letter and row number, as drawn along the edges: b2 is \
             column b, row 2. The protocol's notation works too: 'x y', the column x then the \
             row y, counted from 0 at the top left (a = 0, b = 1, ...): b2 is '1 2'.\n\
             This board has columns a-{} (0-{}) and rows 0-{}.{}",
            column_letter(width - 1),
            width - 1,
            height - 1,
            if small_boards {
                "\nYou must play in the small board the last move sent you to (highlighted, and \
                 named under the board); when that board is decided, in any undecided board."
            } else {
                ""
            }
        ),
        Geometry::Dots { cols, rows } => format!(
            "Moves: the line between two neighbouring dots, each named by its column letter \
             and row number as drawn along the edges: a0-b0 (or a0 b0) joins dots a0 and b0. \
             The protocol's notation works too: 'h x y' is the line from dot (x, y) to \
             (x+1, y), 'v x y' the line from (x, y) to (x, y+1), counted from 0 at the top \
             left (a = 0, b = 1, ...): a0-b0 is 'h 0 0', a0-a1 is 'v 0 0'.\n\
             Dots: columns a-{} (0-{}), rows 0-{}. Completing a box scores it: you move again.",
            column_letter(cols),
            cols,
            rows
        ),
        Geometry::NumberedSquares => "\
            Moves in PDN, with the square numbers of the key beside the board: 11-15 a move, \
            22x15 a capture, 9x18x27 a multi-jump with every landing square (or only its \
            start and end, 9x27, when one capture fits). '11 15' (with a space) is the move \
            from 11 to 15, capture or not. A square alone, such as 11, shows where its piece \
            can go (marked *). A capture is mandatory when there is one."
            .to_string(),
    };
    let draw = if spec.allows_draw_offers() {
        "\n  draw     accept the draw offered, or offer one with your next move (or type the \
         move followed by draw: 11-15 draw)"
    } else {
        ""
    };
    format!(
        "{moves}\n\
         Commands:\n  \
           help     this text\n  \
           moves    list the legal moves\n  \
           resign   give up the game{draw}\n  \
           undo     take back your last move and the bot's reply; only in a casual game \
         against a bot without a clock (--human-time off), not recorded\n  \
           quit     leave the game (it counts as resigning)\n\
         Bad input never costs your turn, but your clock runs while you type. Up and down \
         recall the lines typed before."
    )
}

/// Why a move is refused, in the console's words: the rules' message, but with areas named the
/// way moves are typed here (the rules name ultimate tic-tac-toe's forced board by column
/// numbers, as the protocol does).
pub fn refusal(error: &MoveError) -> String {
    match error {
        MoveError::Illegal(IllegalMove::OutsideForcedBoard { board, .. }) => {
            let (x, y) = (board % 3 * 3, board / 3 * 3);
            format!(
                "illegal move: outside the forced board: you must play in small board {board} \
                 (columns {}-{}, rows {}-{})",
                column_letter(x),
                column_letter(x + 2),
                y,
                y + 2
            )
        }
        other => other.to_string(),
    }
}

/// More help for a refused move, where the rules' message alone may leave a person stuck.
pub fn hint(spec: &GameSpec, error: &MoveError) -> Option<String> {
    let geometry = spec.geometry();
    match error {
        MoveError::NotAMove(_) => Some(
            match geometry {
                Geometry::Cells { .. } => {
                    "Write a square as b2 (column letter, row number) or as '1 2' (x y)."
                }
                Geometry::Dots { .. } => {
                    "Write a line as two neighbouring dots, a0-b0, or as 'h 0 0' / 'v 0 0'."
                }
                Geometry::NumberedSquares => {
                    "Write a move as 11-15, a capture as 22x15, or either as '11 15'."
                }
            }
            .to_string()
                + " Type moves to list the legal moves, help for more.",
        ),
        MoveError::Illegal(IllegalMove::OffBoard { .. }) => {
            extent(geometry).map(|extent| format!("The board has {extent}."))
        }
        MoveError::Illegal(IllegalMove::CaptureMandatory { .. }) => {
            Some("When a piece can jump, you must jump: type moves to list the captures.".into())
        }
        MoveError::Illegal(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::diagram::wrapped;

    fn spec(name: &str) -> GameSpec {
        GameSpec::from_words::<&str>(name, &[]).unwrap()
    }

    fn read_in(name: &str, line: &str) -> Input {
        let spec = spec(name);
        read(&spec, spec.new_game().as_ref(), line)
    }

    fn a_move(typed: &str, notation: &str, offers_draw: bool) -> Input {
        Input::Move {
            typed: typed.into(),
            notation: notation.into(),
            offers_draw,
        }
    }

    #[test]
    fn commands_in_any_case() {
        assert_eq!(read_in("tictactoe", "  "), Input::Nothing);
        assert_eq!(read_in("tictactoe", "HELP"), Input::Help);
        assert_eq!(read_in("tictactoe", "?"), Input::Help);
        assert_eq!(read_in("tictactoe", " moves "), Input::Moves);
        assert_eq!(read_in("tictactoe", "Resign"), Input::Resign);
        assert_eq!(read_in("tictactoe", "quit"), Input::Quit);
        assert_eq!(read_in("dots", "Undo"), Input::Undo);
        assert_eq!(read_in("checkers", "draw"), Input::Draw);
    }

    #[test]
    fn moves_in_either_notation() {
        assert_eq!(read_in("tictactoe", "b2"), a_move("b2", "1 2", false));
        assert_eq!(read_in("tictactoe", " 1 2 "), a_move("1 2", "1 2", false));
        assert_eq!(
            read_in("tictactoe", "banana"),
            a_move("banana", "banana", false)
        );
        assert_eq!(read_in("dots", "a0-a1"), a_move("a0-a1", "v 0 0", false));
        assert!(matches!(read_in("dots", "a0-a2"), Input::Unclear(_)));
        assert_eq!(
            read_in("checkers", "11-15"),
            a_move("11-15", "11-15", false)
        );
        assert_eq!(
            read_in("checkers", "11 15 draw"),
            a_move("11 15", "11-15", true)
        );
        assert_eq!(read_in("checkers", "11"), Input::Select(11));
        assert_eq!(read_in("checkers", "99"), Input::Select(99));
        assert_eq!(read_in("checkers", "999"), a_move("999", "999", false));
    }

    #[test]
    fn help_maps_letters_to_the_protocol() {
        let text = help(&spec("gomoku"));
        assert!(text.contains("b2 is '1 2'"), "{text}");
        assert!(text.contains("columns a-o (0-14) and rows 0-14"), "{text}");
        assert!(!text.contains("accept the draw"), "{text}");
        assert!(help(&spec("uttt")).contains("small board"));
        assert!(help(&spec("dots")).contains("a0-b0 is 'h 0 0'"));
        // Said at any width, each paragraph is broken at spaces only, and within the width.
        for game in ["gomoku", "uttt", "dots", "checkers"] {
            let text = help(&spec(game));
            for width in [40, 80] {
                let said: Vec<String> = text.lines().flat_map(|l| wrapped(l, width)).collect();
                assert!(said.iter().all(|line| line.len() <= width), "{said:#?}");
                assert_eq!(
                    said.join(" ").split_whitespace().collect::<Vec<_>>(),
                    text.split_whitespace().collect::<Vec<_>>()
                );
            }
        }
        assert!(help(&spec("checkers")).contains("11-15 draw"));
    }

    #[test]
    fn refusals_and_their_hints() {
        let off = MoveError::Illegal(IllegalMove::OffBoard {
            square: "25 2".into(),
            board: "3x3".into(),
            coordinates: "x from 0 to 2, y from 0 to 2".into(),
        });
        assert_eq!(
            hint(&spec("tictactoe"), &off).unwrap(),
            "The board has columns a-c (0-2), rows 0-2."
        );
        let forced = MoveError::Illegal(IllegalMove::OutsideForcedBoard {
            square: "0 0".into(),
            board: 5,
            area: "columns 6-8, rows 3-5".into(),
        });
        assert_eq!(
            refusal(&forced),
            "illegal move: outside the forced board: you must play in small board 5 \
             (columns g-i, rows 3-5)"
        );
        assert_eq!(hint(&spec("uttt"), &forced), None);
        assert_eq!(refusal(&off), off.to_string());
        let taken = MoveError::Illegal(IllegalMove::Occupied {
            square: "1 1".into(),
        });
        assert_eq!(hint(&spec("tictactoe"), &taken), None);
    }
}
