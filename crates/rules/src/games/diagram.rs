//! Drawings of positions as text in which each part carries a [`Tone`]: one printer per game
//! serves both the plain text of records (tones ignored) and the console (tones coloured).

use std::fmt;

/// What a part of a drawing shows, so a terminal can colour it. Plain text ignores tones, so
/// anything a reader must see is also in the characters themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Nothing to colour: empty squares, the grid, messages.
    Plain,
    /// Coordinates along the edges, and the key of square numbers.
    Label,
    /// A mark, piece or box of the first player.
    First,
    /// A mark, piece or box of the second player.
    Second,
    /// The last move (in brackets) or the lines of the last turn.
    LastMove,
    /// Where the side to move may play: the empty cells of ultimate tic-tac-toe's forced board,
    /// the checkers pieces that can move, or the squares a selected piece can reach.
    Allowed,
    /// The checkers piece whose moves are shown.
    Selected,
    /// Where the side to move may not play: renju's forbidden points for Black.
    Forbidden,
}

/// How to draw a position. The default is the plain drawing of records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// A row of column letters (a, b, c, ...) above the column numbers, for the console's
    /// letter-and-number notation (`b3` is column b = 1, row 3), and areas named by those
    /// letters (ultimate tic-tac-toe's forced board: columns d-f).
    pub letters: bool,
    /// Who played what and whose turn it is are told beside the drawing (the console says so
    /// in its own notation), so the drawing leaves out its lines about them rather than say it
    /// twice: checkers' `White played 22-17` and `Black to move`, dots' `last turn`.
    pub narrated: bool,
    /// Checkers: the square (1..32) whose piece's moves are shown, each destination as `*`.
    pub selected: Option<u8>,
}

/// A drawing: text in toned spans. `Display` gives the plain text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagram {
    spans: Vec<(Tone, String)>,
}

impl Diagram {
    /// An empty drawing.
    pub fn new() -> Diagram {
        Diagram::default()
    }

    /// Appends `text` in `tone`, joining it to the previous span when the tone is the same.
    pub fn push(&mut self, tone: Tone, text: impl AsRef<str>) {
        let text = text.as_ref();
        if text.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some((last, span)) if *last == tone => span.push_str(text),
            _ => self.spans.push((tone, text.to_string())),
        }
    }

    /// Appends plain text.
    pub fn text(&mut self, text: impl AsRef<str>) {
        self.push(Tone::Plain, text);
    }

    /// Appends another drawing.
    pub fn append(&mut self, other: Diagram) {
        for (tone, text) in other.spans {
            self.push(tone, text);
        }
    }

    /// Ends the current line, without trailing spaces.
    pub fn end_line(&mut self) {
        while let Some((_, span)) = self.spans.last_mut() {
            if span.ends_with('\n') {
                break;
            }
            let kept = span.trim_end_matches(' ').len();
            span.truncate(kept);
            if !span.is_empty() {
                break;
            }
            self.spans.pop();
        }
        self.push(Tone::Plain, "\n");
    }

    /// The spans in order.
    pub fn spans(&self) -> impl Iterator<Item = (Tone, &str)> {
        self.spans.iter().map(|(tone, text)| (*tone, text.as_str()))
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spans
            .iter()
            .try_for_each(|(_, text)| f.write_str(text))
    }
}

/// The letter of column `index` from 0 (`a`, `b`, ...), as the console labels columns.
pub fn column_letter(index: u8) -> char {
    char::from(b'a' + index.min(25))
}

/// The column index of a letter (either case), the inverse of [`column_letter`].
pub fn column_of_letter(letter: char) -> Option<u8> {
    letter
        .is_ascii_alphabetic()
        .then(|| letter.to_ascii_lowercase() as u8 - b'a')
}

/// A row of column letters over `count` columns, each laid out by `cell` as the column numbers
/// are, with an extra space before every `group`-th column (ultimate tic-tac-toe's small boards).
pub fn letter_row(
    out: &mut Diagram,
    indent: &str,
    count: u8,
    group: Option<u8>,
    cell: impl Fn(char) -> String,
) {
    out.text(indent);
    for x in 0..count {
        if group.is_some_and(|g| x > 0 && x % g == 0) {
            out.text(" ");
        }
        out.push(Tone::Label, cell(column_letter(x)));
    }
    out.end_line();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_join_by_tone_and_lines_lose_trailing_spaces() {
        let mut d = Diagram::new();
        d.text("a ");
        d.text("b ");
        d.push(Tone::First, " X ");
        d.push(Tone::Label, "   ");
        d.end_line();
        d.text("c");
        d.end_line();
        assert_eq!(d.to_string(), "a b  X\nc\n");
        let tones: Vec<Tone> = d.spans().map(|(tone, _)| tone).collect();
        assert_eq!(tones, [Tone::Plain, Tone::First, Tone::Plain]);
    }

    #[test]
    fn letters_and_columns_are_inverse() {
        for x in 0..26 {
            assert_eq!(column_of_letter(column_letter(x)), Some(x));
            assert_eq!(
                column_of_letter(column_letter(x).to_ascii_uppercase()),
                Some(x)
            );
        }
        assert_eq!(column_of_letter('3'), None);
        assert_eq!(column_of_letter('é'), None);
    }
}
