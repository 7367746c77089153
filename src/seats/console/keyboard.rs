//! The keyboard: lines typed at the console, read by a thread of their own so that a player can
//! be waited for until a deadline (the clock runs while they think), each stamped when read.

use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

/// Longest line kept, in bytes; the rest of a longer line is dropped (nobody types that much,
/// but a paste or a redirected file may).
const MAX_LINE: usize = 4096;

/// What came from the keyboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A line, without its line end, and when its end was read.
    Line { text: String, at: Instant },
    /// The input ended (Ctrl-D, or the end of a redirected file).
    Closed,
    /// Nothing before the deadline.
    Nothing,
}

pub struct Keyboard {
    lines: Receiver<(String, Instant)>,
    /// A person types the lines (a terminal), rather than a script (a pipe or a file).
    interactive: bool,
}

impl Keyboard {
    /// Reads the referee's standard input.
    pub fn stdin() -> Keyboard {
        Keyboard::reading(io::stdin(), io::stdin().is_terminal())
    }

    /// Reads lines from `source` until it ends; `interactive` when a person types them.
    pub fn reading(source: impl Read + Send + 'static, interactive: bool) -> Keyboard {
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("keyboard".into())
            .spawn(move || {
                let mut reader = BufReader::new(source);
                while let Some(text) = read_line(&mut reader) {
                    if sender.send((text, Instant::now())).is_err() {
                        break;
                    }
                }
            })
            .expect("cannot start the keyboard thread");
        Keyboard { lines, interactive }
    }

    /// The next line typed, waiting until `deadline` at most.
    pub fn next_line(&self, deadline: Instant) -> Typed {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((text, at)) => Typed::Line { text, at },
            Err(RecvTimeoutError::Timeout) => Typed::Nothing,
            Err(RecvTimeoutError::Disconnected) => Typed::Closed,
        }
    }

    /// Takes the lines a person typed while nobody was asking (before their turn began): they
    /// were typed without seeing the position they would be played in. None from a script,
    /// whose lines are meant to be read one after the other.
    pub fn typed_ahead(&self) -> Vec<String> {
        if !self.interactive {
            return Vec::new();
        }
        self.lines.try_iter().map(|(text, _)| text).collect()
    }
}

/// One line without its line end (LF or CR LF), at most [`MAX_LINE`] bytes of it, invalid UTF-8
/// replaced; `None` at the end of the input (or when it cannot be read).
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() == MAX_LINE {
        // Drop the rest of an overlong line.
        let mut rest = Vec::new();
        while reader
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut rest)
            .is_ok_and(|n| n > 0)
            && rest.last() != Some(&b'\n')
        {
            rest.clear();
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    fn text(typed: Typed) -> String {
        match typed {
            Typed::Line { text, .. } => text,
            other => panic!("expected a line, got {other:?}"),
        }
    }

    #[test]
    fn lines_arrive_without_their_ends_then_the_input_closes() {
        let keyboard = Keyboard::reading(&b"b2\r\n  resign \n\xff\xfe\nlast"[..], false);
        assert_eq!(text(keyboard.next_line(soon())), "b2");
        assert_eq!(text(keyboard.next_line(soon())), "  resign ");
        assert_eq!(text(keyboard.next_line(soon())), "\u{fffd}\u{fffd}");
        assert_eq!(text(keyboard.next_line(soon())), "last");
        assert_eq!(keyboard.next_line(soon()), Typed::Closed);
    }

    #[test]
    fn an_overlong_line_is_cut_and_the_next_one_kept() {
        let mut input = vec![b'7'; MAX_LINE * 3];
        input.extend_from_slice(b"\nmoves\n");
        let keyboard = Keyboard::reading(std::io::Cursor::new(input), false);
        assert_eq!(text(keyboard.next_line(soon())).len(), MAX_LINE);
        assert_eq!(text(keyboard.next_line(soon())), "moves");
    }

    #[test]
    fn nothing_typed_by_the_deadline_is_nothing() {
        let (_writer, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        let keyboard = Keyboard::reading(reader, true);
        let started = Instant::now();
        let waited = Duration::from_millis(50);
        assert_eq!(keyboard.next_line(started + waited), Typed::Nothing);
        assert!(started.elapsed() >= waited);
        assert!(keyboard.typed_ahead().is_empty());
    }

    #[test]
    fn only_a_person_types_ahead() {
        let typed = |interactive| {
            let keyboard = Keyboard::reading(&b"a0\nb1\n"[..], interactive);
            std::thread::sleep(Duration::from_millis(100));
            keyboard.typed_ahead()
        };
        assert_eq!(typed(true), ["a0", "b1"]);
        assert!(typed(false).is_empty());
    }
}
