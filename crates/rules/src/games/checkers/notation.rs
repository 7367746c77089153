//! Reading PDN move text into squares, before the board is consulted.

use crate::games::MoveError;

/// Splits a move text into its squares (numbers not yet checked against the board) and
/// whether it is a capture.
pub(super) fn parse_notation(text: &str) -> Result<(Vec<u64>, bool), MoveError> {
    let not_a_move = |problem: String| {
        MoveError::NotAMove(format!(
            "{problem}; expected a PDN move such as 11-15, a capture such as 22x15, or a \
             multi-jump with every landing square such as 9x18x27"
        ))
    };
    let mut squares = Vec::new();
    let mut separators = Vec::new();
    let mut rest = text.trim();
    loop {
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(end);
        let mut tail = tail.chars();
        let next = tail.next();
        if number.is_empty() {
            return Err(not_a_move(match next {
                _ if is_algebraic(rest) => format!(
                    "'{}' names a square by its column letter and row digit: PDN numbers the \
                     dark squares 1 to 32, 1-4 on Black's side (see protocol.md, 'checkers')",
                    &rest[..2]
                ),
                Some(c) if !matches!(c, '-' | 'x' | 'X') => {
                    format!("'{c}' is neither a digit nor a separator")
                }
                _ => "a square number is missing".to_string(),
            }));
        }
        // Too many digits saturate, so the square reads as off the board.
        squares.push(number.parse::<u64>().unwrap_or(u64::MAX));
        match next {
            None => break,
            Some('-') => separators.push('-'),
            Some('x' | 'X') => separators.push('x'),
            Some(c) => {
                return Err(not_a_move(format!(
                    "'{c}' is neither a digit nor a separator"
                )))
            }
        }
        rest = tail.as_str();
    }
    let Some(&first) = separators.first() else {
        return Err(not_a_move("a move names at least two squares".into()));
    };
    if separators.iter().any(|&s| s != first) {
        return Err(not_a_move("'-' and 'x' cannot be mixed".into()));
    }
    if first == '-' && squares.len() > 2 {
        return Err(not_a_move(
            "'-' joins exactly two squares (jumps are written with x)".into(),
        ));
    }
    Ok((squares, first == 'x'))
}

/// Whether `text` starts with a square named as on a chess board (`c3`), as another notation
/// of checkers writes it.
fn is_algebraic(text: &str) -> bool {
    matches!(
        text.as_bytes(),
        [b'a'..=b'h' | b'A'..=b'H', b'1'..=b'8', ..]
    )
}

#[cfg(test)]
mod tests {
    use crate::games::checkers::Checkers;
    use crate::games::{Game, MoveError};

    #[test]
    fn text_that_is_not_a_move() {
        let g = Checkers::default();
        for text in [
            "", " ", "11", "11-", "-15", "11--15", "11-15-19", "11x", "x11x15", "11x15-19",
            "11-15x19", "a-b", "11 15", "11 - 15", "11–15", "11/15", "K11-15", "11-15.",
        ] {
            match g.parse_move(text) {
                Err(MoveError::NotAMove(message)) => {
                    assert!(message.contains("such as 11-15"), "{text:?}: {message}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            g.parse_move("11-15-19"),
            Err(MoveError::NotAMove(
                "'-' joins exactly two squares (jumps are written with x); expected a PDN move \
                 such as 11-15, a capture such as 22x15, or a multi-jump with every landing \
                 square such as 9x18x27"
                    .into()
            ))
        );
    }
}
