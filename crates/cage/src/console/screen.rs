//! The console's output. Text is written with ANSI colours through `anstream`, which passes them
//! on only when standard output is a terminal that takes colours and NO_COLOR is not set (it
//! also honours CLICOLOR and CLICOLOR_FORCE), and strips them otherwise. `anstream` is already
//! in the build through clap, and doing that detection by hand would repeat it.

use anstyle::{AnsiColor, Color, Style};
use referee_rules::games::diagram::wrapped;
use referee_rules::games::{Diagram, Tone};
use std::io::{self, IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// How the console says something besides drawing boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Voice {
    /// The game's course: the moves played, whose turn it is.
    Plain,
    /// A refused move or command.
    Warning,
    /// Asides: the raw mode's notes, "thinking...".
    Aside,
    /// The result of the game.
    Result,
}

/// Standard output, in colours when it takes them.
pub struct Screen {
    out: anstream::AutoStream<io::Stdout>,
}

impl Screen {
    /// Writes to the referee's standard output.
    pub fn stdout() -> Screen {
        Screen {
            out: anstream::AutoStream::auto(io::stdout()),
        }
    }

    /// Draws a diagram.
    pub fn show(&mut self, diagram: &Diagram) {
        self.write(&ansi(diagram));
    }

    /// Writes a line, broken at spaces to the terminal's width, at most [`TEXT_COLUMNS`] (see
    /// [`wrapped`]); to a file or a pipe, as it is.
    pub fn say(&mut self, voice: Voice, text: &str) {
        let style = voice_style(voice);
        let text = match terminal_columns() {
            Some(columns) => text
                .split('\n')
                .flat_map(|line| wrapped(line, columns.min(TEXT_COLUMNS)))
                .collect::<Vec<_>>()
                .join("\n"),
            None => text.to_string(),
        };
        self.write(&format!("{style}{text}{style:#}\n"));
    }

    /// Writes a prompt, without a line end.
    pub fn prompt(&mut self, text: &str) {
        let style = Style::new().bold();
        self.write(&format!("{style}{text}{style:#}"));
    }

    /// Writes and flushes; a closed output must not stop the game, so errors are ignored.
    fn write(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }
}

/// The widest line of words said on a terminal: longer ones are hard to read.
const TEXT_COLUMNS: usize = 80;

/// How wide the terminal the console writes to is, in columns; `None` when its output is not a
/// terminal (a file or a pipe takes lines of any length), or the terminal does not say.
pub fn terminal_columns() -> Option<usize> {
    let (columns, _) = io::stdout()
        .is_terminal()
        .then(crossterm::terminal::size)?
        .ok()?;
    (columns > 0).then_some(usize::from(columns))
}

/// A line said only if whatever it announces takes longer than a moment: "B is thinking..."
/// while a bot's answer is awaited, so a slow bot is not taken for a hung console, and a quick
/// one adds nothing to read. Dropping the notice cancels it, or waits for it to be written.
pub struct Notice {
    cancel: Option<mpsc::Sender<()>>,
    writer: Option<thread::JoinHandle<()>>,
}

impl Notice {
    /// Says `text` (an aside) after `delay`, unless dropped before.
    pub fn after(delay: Duration, text: String) -> Notice {
        let (cancel, cancelled) = mpsc::channel::<()>();
        let writer = thread::Builder::new()
            .name("notice".into())
            .spawn(move || {
                if cancelled.recv_timeout(delay) == Err(RecvTimeoutError::Timeout) {
                    Screen::stdout().say(Voice::Aside, &text);
                }
            })
            // Without a thread the notice is not said; the game goes on.
            .ok();
        Notice {
            cancel: Some(cancel),
            writer,
        }
    }
}

impl Drop for Notice {
    fn drop(&mut self) {
        drop(self.cancel.take());
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// The diagram with ANSI colours for its tones.
pub fn ansi(diagram: &Diagram) -> String {
    let mut out = String::new();
    for (tone, text) in diagram.spans() {
        let style = tone_style(tone);
        // Lines end outside the colour, so a colour never runs into the next line.
        let mut lines = text.split('\n').peekable();
        while let Some(line) = lines.next() {
            if !line.is_empty() {
                out.push_str(&format!("{style}{line}{style:#}"));
            }
            if lines.peek().is_some() {
                out.push('\n');
            }
        }
    }
    out
}

fn colour(colour: AnsiColor) -> Option<Color> {
    Some(colour.into())
}

fn tone_style(tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Label => Style::new().dimmed(),
        Tone::First => Style::new()
            .fg_color(colour(AnsiColor::BrightYellow))
            .bold(),
        Tone::Second => Style::new().fg_color(colour(AnsiColor::BrightCyan)).bold(),
        Tone::LastMove => Style::new()
            .fg_color(colour(AnsiColor::BrightMagenta))
            .bold(),
        Tone::Allowed => Style::new().fg_color(colour(AnsiColor::Green)).bold(),
        Tone::Forbidden => Style::new().fg_color(colour(AnsiColor::Red)).bold(),
        Tone::Selected => Style::new()
            .fg_color(colour(AnsiColor::Black))
            .bg_color(colour(AnsiColor::Green)),
    }
}

fn voice_style(voice: Voice) -> Style {
    match voice {
        Voice::Plain => Style::new(),
        Voice::Warning => Style::new().fg_color(colour(AnsiColor::BrightRed)),
        Voice::Aside => Style::new().dimmed(),
        Voice::Result => Style::new().bold(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_notice_dropped_in_time_is_cancelled_at_once() {
        let started = Instant::now();
        drop(Notice::after(Duration::from_secs(60), "never".into()));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn tones_become_colours_that_stop_at_line_ends() {
        let mut diagram = Diagram::new();
        diagram.text(" ");
        diagram.push(Tone::Allowed, ".\n.");
        diagram.end_line();
        assert_eq!(
            ansi(&diagram),
            " \x1b[1m\x1b[32m.\x1b[0m\n\x1b[1m\x1b[32m.\x1b[0m\n"
        );
        // Without colours the text is the plain drawing.
        let mut stripped = Vec::new();
        let mut never = anstream::AutoStream::never(&mut stripped);
        never.write_all(ansi(&diagram).as_bytes()).unwrap();
        assert_eq!(String::from_utf8(stripped).unwrap(), diagram.to_string());
    }
}
