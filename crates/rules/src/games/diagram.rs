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
    /// For a narrow terminal, [`COMPACT_COLUMNS`] wide: cells two characters wide instead of
    /// three (the last move's closing bracket in the next cell's space), columns named by
    /// their letters alone, lines of words wrapped. Each game's usual drawing is wider (15x15
    /// gomoku 48 characters, checkers with its key 50), and a terminal wraps a line too long for
    /// it, breaking the board apart.
    pub compact: bool,
}

/// The width a compact drawing fits, the narrowest terminal the console is made for; a
/// board of 20 columns is still wider.
pub const COMPACT_COLUMNS: usize = 40;

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

    /// Appends `text` (words, not a board) as a line of its own, or when `compact` as lines
    /// of at most [`COMPACT_COLUMNS`] characters, broken at spaces.
    pub fn words(&mut self, text: &str, compact: bool) {
        let width = if compact { COMPACT_COLUMNS } else { usize::MAX };
        for line in wrapped(text, width) {
            self.text(line);
            self.end_line();
        }
    }

    /// How wide the drawing is: its longest line, in characters.
    pub fn width(&self) -> usize {
        let text = self.to_string();
        text.lines()
            .map(|line| line.chars().count())
            .max()
            .unwrap_or(0)
    }
}

/// A row of cells, each holding a mark of one character, the last move's in brackets: ` X `
/// and `[X]`, or when compact ` X` and `[X` with the bracket closed in the next cell's space.
pub struct Cells {
    compact: bool,
    /// Compact: the last cell was the last move's, its bracket still to be closed.
    open: bool,
}

impl Cells {
    /// A row drawn as `view` asks, compact or not.
    pub fn new(view: &View) -> Cells {
        Cells {
            compact: view.compact,
            open: false,
        }
    }

    /// The next cell: `mark` in `tone`, or in brackets as the last move's.
    pub fn mark(&mut self, out: &mut Diagram, mark: char, tone: Tone, last: bool) {
        match (self.compact, last) {
            (false, true) => out.push(Tone::LastMove, format!("[{mark}]")),
            (false, false) => {
                out.text(" ");
                out.push(tone, mark.to_string());
                out.text(" ");
            }
            (true, true) => out.push(Tone::LastMove, format!("[{mark}")),
            (true, false) => {
                self.close(out);
                out.push(tone, mark.to_string());
            }
        }
        self.open = self.compact && last;
    }

    /// The next cell, empty (a light square of checkers).
    pub fn blank(&mut self, out: &mut Diagram) {
        if self.compact {
            self.close(out);
            out.text(" ");
        } else {
            out.text("   ");
        }
        self.open = false;
    }

    /// Ends the row: when compact, the space after its last cell, or its closing bracket, so
    /// that the row is as wide as any other.
    pub fn end(&mut self, out: &mut Diagram) {
        if self.compact {
            self.close(out);
        }
        self.open = false;
    }

    /// The space before a cell: the closing bracket of the last move's cell before it.
    fn close(&self, out: &mut Diagram) {
        if self.open {
            out.push(Tone::LastMove, "]");
        } else {
            out.text(" ");
        }
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spans
            .iter()
            .try_for_each(|(_, text)| f.write_str(text))
    }
}

/// `line` broken at spaces into lines of at most `width` characters (a terminal breaks a long
/// line anywhere, a number in two), the first indented as it is and the rest as its text: a
/// line of a table of terms (`  undo     take back ...`) continues under its description,
/// where that leaves half the width, else under the line's start. A word longer than the
/// width stands on a line of its own.
pub fn wrapped(line: &str, width: usize) -> Vec<String> {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    let hanging = body
        .find("  ")
        .map(|gap| {
            let text = &body[gap..];
            indent.len() + gap + text.len() - text.trim_start_matches(' ').len()
        })
        .filter(|column| *column <= width / 2)
        .map_or_else(|| indent.to_string(), |column| " ".repeat(column));
    let mut lines = Vec::new();
    let mut current = indent.to_string();
    // Where the current line's words start: spaces within a line are kept as they are.
    let mut start = indent.len();
    for word in body.split(' ') {
        let begun = current.len() > start;
        if begun && !word.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            let done = std::mem::replace(&mut current, hanging.clone());
            lines.push(done.trim_end().to_string());
            start = hanging.len();
        } else if begun {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
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
    fn compact_cells_close_the_last_moves_bracket_in_the_next_space() {
        let row = |compact: bool, last: Option<usize>| {
            let view = View {
                compact,
                ..View::default()
            };
            let mut out = Diagram::new();
            let mut cells = Cells::new(&view);
            for (index, mark) in ['X', '.', 'O'].into_iter().enumerate() {
                cells.mark(&mut out, mark, Tone::Plain, last == Some(index));
            }
            cells.blank(&mut out);
            cells.end(&mut out);
            out.text("|");
            out.to_string()
        };
        assert_eq!(row(false, Some(1)), " X [.] O    |");
        assert_eq!(row(true, None), " X . O   |");
        assert_eq!(row(true, Some(1)), " X[.]O   |");
        assert_eq!(row(true, Some(2)), " X .[O]  |");
    }

    #[test]
    fn words_are_wrapped_to_the_compact_width_only() {
        let text = "swap2 opening: the second player chooses: 'swap' (Black) or White's stone";
        let mut wide = Diagram::new();
        wide.words(text, false);
        assert_eq!(wide.to_string(), format!("{text}\n"));
        let mut narrow = Diagram::new();
        narrow.words(text, true);
        assert_eq!(
            narrow.to_string(),
            "swap2 opening: the second player\nchooses: 'swap' (Black) or White's stone\n"
        );
        assert!(narrow.width() <= COMPACT_COLUMNS);
        assert_eq!(wide.width(), text.len());
    }

    #[test]
    fn lines_are_broken_at_spaces_and_keep_their_indent() {
        let line = "Pieces that can move: 7, 8, 9, 10, 12, 15 (type one to see where it can go).";
        assert_eq!(
            wrapped(line, 40),
            [
                "Pieces that can move: 7, 8, 9, 10, 12,",
                "15 (type one to see where it can go).",
            ]
        );
        assert_eq!(wrapped(line, 200), [line]);
        assert_eq!(
            wrapped("  X (first player) resigned at move 3", 20),
            ["  X (first player)", "  resigned at move 3"]
        );
        assert_eq!(wrapped("a_very_long_word b", 5), ["a_very_long_word", "b"]);
        // A table of terms continues under the description, where it leaves room for one.
        assert_eq!(
            wrapped(
                "  undo     take back your last move and the bot's reply",
                30
            ),
            [
                "  undo     take back your last",
                "           move and the bot's",
                "           reply"
            ]
        );
        assert_eq!(
            wrapped("  a_long_command_name  does it", 20),
            ["  a_long_command_name", "  does it"]
        );
        assert_eq!(wrapped("", 5), [""]);
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
