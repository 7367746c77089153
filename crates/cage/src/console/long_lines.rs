//! Lines too long for the console, most likely a paste gone wrong: such a line is refused whole,
//! and said so ([`TooLong`]). At the line editor its keys are dropped as they come
//! ([`LineBound`]): the editor copies its line at every key, so a paste of a hundred thousand
//! characters taken key by key would hold the console for minutes. And a paste that long can
//! hold up the terminal's answer to the editor's question of where its cursor is (some
//! terminals, tmux for one, send the rest of a paste only once the program writes again): the
//! rest of it is then dropped up to the terminal's answers ([`drop_until_answered`]), and
//! editing goes on.

use super::screen::{Screen, Voice};
use reedline::{EditCommand, EditMode, Emacs, PromptEditMode, ReedlineEvent, ReedlineRawEvent};
use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Longest line taken, in characters (bytes from a pipe or a file). A person's moves and
/// commands are a few characters (a protocol line typed in raw mode, a few words), and a line
/// this long still fits on the smallest screen: the line editor redraws a line taller than the
/// screen from its top, wiping the board above it.
pub(super) const MAX_LINE: usize = 256;

/// A paste is dropped until the terminal has been quiet this long...
const QUIET: Duration = Duration::from_millis(250);
/// ... or for this long at most, so that a terminal that never answers cannot hold the game.
const MOST: Duration = Duration::from_secs(3);

/// A line longer than [`MAX_LINE`], refused whole; what was pasted is not shown again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("That line is longer than {MAX_LINE} characters: it was refused. Type a move, or help.")]
pub(super) struct TooLong;

impl TooLong {
    /// Tells the person, in a line of its own.
    pub(super) fn say(self) {
        Screen::stdout().say(Voice::Warning, &self.to_string());
    }
}

/// How long the line being edited has grown, and whether it went over [`MAX_LINE`].
#[derive(Debug, Default)]
pub(super) struct LineBound {
    /// Characters put into the line since it began (deleted ones too: nobody types hundreds of
    /// characters, only a paste brings them).
    put: usize,
    /// The line went over: what comes until it is emptied is dropped.
    over: bool,
}

/// What the line editor is given to stop at once when its line goes over [`MAX_LINE`]: the
/// only host command it has, returned by `read_line` as `Signal::HostCommand`, before it draws
/// the line again or asks the terminal where its cursor is (behind a paste, the terminal's
/// answer may come too late).
pub(super) const WENT_OVER: &str = "line-went-over";

impl LineBound {
    /// What the line editor does with `event`: the edit that puts the line over [`MAX_LINE`]
    /// stops the editor (see [`WENT_OVER`]), and the edits after it are dropped until the line
    /// is emptied (see [`LineBound::cleared`]).
    pub(super) fn admit(&mut self, event: ReedlineEvent) -> ReedlineEvent {
        match event {
            ReedlineEvent::Edit(_) if self.over => ReedlineEvent::None,
            ReedlineEvent::Edit(commands) => {
                let added: usize = commands
                    .iter()
                    .map(|command| match command {
                        EditCommand::InsertChar(_) => 1,
                        EditCommand::InsertString(text) => text.chars().count(),
                        _ => 0,
                    })
                    .sum();
                if self.grew(added) {
                    ReedlineEvent::ExecuteHostCommand(WENT_OVER.into())
                } else {
                    ReedlineEvent::Edit(commands)
                }
            }
            ReedlineEvent::Enter | ReedlineEvent::Submit | ReedlineEvent::SubmitOrNewline => {
                self.put = 0;
                event
            }
            other => other,
        }
    }

    /// Counts `added` characters more in the line; returns whether it is over the bound.
    fn grew(&mut self, added: usize) -> bool {
        self.put = self.put.saturating_add(added);
        self.over |= self.put > MAX_LINE;
        self.over
    }

    /// Whether the line went over the bound.
    pub(super) fn is_over(&self) -> bool {
        self.over
    }

    /// The line was emptied (the turn it was typed for is over, or it was refused): it begins
    /// again.
    pub(super) fn cleared(&mut self) {
        *self = LineBound::default();
    }
}

/// Reedline's Emacs keys, the line editor's default, with the line's length bounded.
pub(super) struct BoundedEmacs {
    emacs: Emacs,
    bound: Arc<Mutex<LineBound>>,
}

impl BoundedEmacs {
    /// Emacs keys, the line kept within `bound`, which the keyboard shares.
    pub(super) fn new(bound: Arc<Mutex<LineBound>>) -> BoundedEmacs {
        BoundedEmacs {
            emacs: Emacs::default(),
            bound,
        }
    }
}

impl EditMode for BoundedEmacs {
    fn parse_event(&mut self, event: ReedlineRawEvent) -> ReedlineEvent {
        let parsed = self.emacs.parse_event(event);
        let mut bound = self.bound.lock().unwrap_or_else(PoisonError::into_inner);
        bound.admit(parsed)
    }

    fn edit_mode(&self) -> PromptEditMode {
        self.emacs.edit_mode()
    }
}

/// The terminal's answer to "where is the cursor?" (`ESC [ row ; column R`), found in the
/// bytes it sends, however they are split between reads.
#[derive(Debug, Default)]
struct Answers {
    /// How much of an answer the last bytes were: 0 none, 1 `ESC`, 2 `[`, 3 row digits, 4 `;`,
    /// 5 column digits.
    part: u8,
}

impl Answers {
    /// How many answers end in `bytes`.
    fn count(&mut self, bytes: &[u8]) -> usize {
        let mut ended = 0;
        for &byte in bytes {
            self.part = match (self.part, byte) {
                (_, 0x1b) => 1,
                (1, b'[') => 2,
                (2 | 3, b'0'..=b'9') => 3,
                (3, b';') => 4,
                (4 | 5, b'0'..=b'9') => 5,
                (5, b'R') => {
                    ended += 1;
                    0
                }
                _ => 0,
            };
        }
        ended
    }
}

/// Drops what the terminal sends on standard input (in raw mode) until its answers to every
/// question of where its cursor is have come: the `outstanding` ones (the line editor's, whose
/// answer came behind a paste too late) and those asked here, one each time the input has been
/// quiet for a moment (which also makes a terminal that holds the rest of a paste back send
/// it). Then nothing the terminal sent before is left for the editor's reader, which would take
/// a late answer for the answer to its next question and draw its prompt on a wrong line,
/// wiping the lines below. Returns the bytes dropped; gives up after [`MOST`].
pub(super) fn drop_until_answered(outstanding: usize) -> usize {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::{AsFd, AsRawFd};
    let stdin = io::stdin();
    let until = Instant::now() + MOST;
    let quiet = PollTimeout::try_from(QUIET.as_millis() as i32).unwrap_or(PollTimeout::MAX);
    let mut buffer = [0u8; 8192];
    let (mut dropped, mut asked, mut answered) = (0, 0, 0);
    let mut answers = Answers::default();
    while Instant::now() < until {
        let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
        if matches!(poll(&mut fds, quiet), Ok(ready) if ready > 0) {
            match nix::unistd::read(stdin.as_raw_fd(), &mut buffer) {
                Ok(read) if read > 0 => {
                    dropped += read;
                    answered += answers.count(&buffer[..read]);
                }
                _ => break,
            }
        } else if asked > 0 && answered >= outstanding + asked {
            break;
        } else {
            let mut out = io::stdout();
            let _ = out.write_all(b"\x1b[6n").and_then(|()| out.flush());
            asked += 1;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edit that puts a line over the bound stops the line editor at once, and the rest
    /// of a paste is dropped until the line is emptied; then lines are taken again.
    #[test]
    fn a_line_over_the_bound_stops_the_editor_and_the_rest_is_dropped() {
        let key = || ReedlineEvent::Edit(vec![EditCommand::InsertChar('7')]);
        let mut bound = LineBound::default();
        for _ in 0..MAX_LINE {
            assert_eq!(bound.admit(key()), key());
        }
        let stop = ReedlineEvent::ExecuteHostCommand(WENT_OVER.into());
        assert_eq!(bound.admit(key()), stop);
        // Even a key that would fit, and a line's end: the rest of a paste.
        assert_eq!(bound.admit(key()), ReedlineEvent::None);
        assert_eq!(bound.admit(ReedlineEvent::Enter), ReedlineEvent::Enter);
        assert_eq!(bound.admit(key()), ReedlineEvent::None);
        bound.cleared();
        assert_eq!(bound.admit(key()), key());
        assert_eq!(bound.admit(ReedlineEvent::Enter), ReedlineEvent::Enter);
        // A line put back in one piece (typed ahead) counts its characters.
        let put_back = EditCommand::InsertString("8".repeat(MAX_LINE + 1));
        assert_eq!(bound.admit(ReedlineEvent::Edit(vec![put_back])), stop);
    }

    #[test]
    fn the_terminals_answers_are_found_in_its_bytes_however_split() {
        let mut answers = Answers::default();
        assert_eq!(answers.count(b"777\x1b[10;1R77\x1b[24;80R"), 2);
        assert_eq!(answers.count(b"7\x1b[1"), 0);
        assert_eq!(answers.count(b"2;3"), 0);
        assert_eq!(answers.count(b"R"), 1);
        // Not answers: a key's sequence (an arrow), text that looks like one.
        assert_eq!(answers.count(b"\x1b[A 10;1R [5;5R \x1b[;1R"), 0);
    }
}
