//! An opening written as text, as `--opening` and openings files take it: the moves in the
//! game's notation separated by commas (`7 7,8 8,6 8`); for checkers, whose moves are single
//! words, separated by spaces too, after the opening's number in a deck (`001 9-13 21-17 5-9`,
//! how the 3-move ballots are written); and for m,n,k games the offset format of Gomocup's
//! openings files and c-gomoku-cli (`0,0, 1,0, 1,1`), so their published decks are used as
//! they are.

use super::GameSpec;

/// The moves of the opening `text`, in the game's notation (each still to be checked by the
/// rules). Blank text is no opening.
pub fn opening_moves(spec: &GameSpec, text: &str) -> Vec<String> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    if let Some(moves) = gomocup_offsets(spec, text) {
        return moves;
    }
    if text.contains(',') || !spec.moves_are_single_words() {
        // Moves with spaces inside (`4 4`): only commas separate them.
        return text.split(',').map(|m| m.trim().to_string()).collect();
    }
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let number = |word: &str| word.bytes().all(|b| b.is_ascii_digit());
    // The opening's number in the deck, followed by moves; where a number follows, no move of
    // these games is one (`11 15` is a checkers move written with a space, not the ballot 11
    // then a move '15'): left as it is, for the rules to say what a move looks like.
    if words.len() > 1 && number(words[0]) && !words[1..].iter().any(|w| number(w)) {
        words.remove(0);
    }
    words.into_iter().map(String::from).collect()
}

/// An opening in Gomocup's offset format, as the referee's `x y` moves: the numbers separated
/// by commas (no spaces inside a number pair, `, ` between moves), each move `x,y` counted from
/// the centre square (floor(width/2), floor(height/2)), the first move Black's, the first
/// player's. `None` when the game is not m,n,k or the text is not in that form.
fn gomocup_offsets(spec: &GameSpec, text: &str) -> Option<Vec<String>> {
    let params = spec.mnk_params()?;
    let numbers = text
        .split(',')
        .map(|word| word.trim().parse::<i64>().ok())
        .collect::<Option<Vec<i64>>>()?;
    if numbers.len() % 2 != 0 {
        return None;
    }
    let centre = (i64::from(params.width) / 2, i64::from(params.height) / 2);
    Some(
        numbers
            .chunks(2)
            .map(|pair| format!("{} {}", pair[0] + centre.0, pair[1] + centre.1))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, params: &[&str]) -> GameSpec {
        GameSpec::from_words(name, params).unwrap()
    }

    #[test]
    fn gomocups_offsets_count_from_the_centre() {
        let gomoku = spec("gomoku", &[]);
        assert_eq!(
            opening_moves(&gomoku, "0,0, 1,0, 1,1"),
            ["7 7", "8 7", "8 8"]
        );
        // c-gomoku-cli's own example, on a 20x20 board (centre 10,10).
        assert_eq!(
            opening_moves(
                &spec("mnk", &["size=20"]),
                "8,-3, 6,-4, 5,-4, 4,-3, 2,-8, -1,-5"
            ),
            ["18 7", "16 6", "15 6", "14 7", "12 2", "9 5"]
        );
        assert_eq!(
            opening_moves(&spec("mnk", &["width=12", "height=9"]), "-1,0"),
            ["5 4"]
        );
    }

    #[test]
    fn the_referees_own_notation_is_not_taken_for_offsets() {
        let gomoku = spec("gomoku", &[]);
        assert_eq!(
            opening_moves(&gomoku, "7 7,8 8, 6 8"),
            ["7 7", "8 8", "6 8"]
        );
        assert_eq!(opening_moves(&gomoku, "7 7"), ["7 7"]);
        assert!(opening_moves(&gomoku, "  ").is_empty());
        // An odd count is no offset opening: left to the rules to refuse.
        assert_eq!(opening_moves(&gomoku, "0,0, 1"), ["0", "0", "1"]);
        // Only m,n,k games have offsets: uttt's moves are read as written.
        assert_eq!(opening_moves(&spec("uttt", &[]), "4 4,3 3"), ["4 4", "3 3"]);
    }

    #[test]
    fn checkers_ballots_are_words_after_a_number() {
        let checkers = spec("checkers", &[]);
        assert_eq!(
            opening_moves(&checkers, "001 9-13 21-17 5-9"),
            ["9-13", "21-17", "5-9"]
        );
        assert_eq!(opening_moves(&checkers, "9-13,21-17"), ["9-13", "21-17"]);
        // A move written with a space is not a ballot number and a move.
        assert_eq!(opening_moves(&checkers, "11 15"), ["11", "15"]);
    }
}
