//! The keyboard: the lines a person types at the console, each stamped when its Enter was read,
//! waited for until a deadline (the clock runs while they think).
//!
//! At a terminal the lines come from a line editor, reedline: left and right to edit, up and
//! down for the lines typed before, Ctrl-R to search them. Its prompt is redrawn whenever its
//! text changes (the time left, counting down) and it is given up at the deadline, with what was
//! typed kept for the next prompt unless the turn is over. Those last two are why reedline and
//! not rustyline: rustyline's `readline` can be neither interrupted nor given a new prompt from
//! outside, so a person typing when their time ran out would hold the game until they pressed
//! Enter. (Reedline 0.49 is the last release whose declared rust-version is not above the
//! crate's.) The editor asks the terminal where its cursor is before it draws; a terminal that
//! does not answer is typed on line by line instead. From a pipe or a file (a script), plain
//! lines are read by a thread of their own.
//!
//! A line longer than 256 characters is refused whole, and said so (see [`long_lines`]).

use super::long_lines::{self, BoundedEmacs, LineBound, TooLong, MAX_LINE};
use super::screen::{Screen, Voice};
use reedline::{
    EditCommand, Prompt as EditorPrompt, PromptEditMode, PromptHistorySearch, Reedline,
    ReedlineEvent, Signal,
};
use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How often the line editor looks at the clock while nobody types: how late past its deadline
/// (or past a change of its prompt) it may be given up.
const EDITOR_TICK: Duration = Duration::from_millis(50);

/// How long Ctrl-C at the line editor waits for the referee to stop before editing goes on.
const INTERRUPT_GRACE: Duration = Duration::from_secs(5);

/// What came from the keyboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A line, without its line end, and when its end was read.
    Line {
        /// The text of the line, at most 256 characters (a longer one is refused).
        text: String,
        /// When its line end was read: the move's clock stops there.
        at: Instant,
    },
    /// The input ended (Ctrl-D, or the end of a redirected file).
    Closed,
    /// Nothing before the deadline.
    Nothing,
}

/// What the keyboard shows while it waits for a line.
pub trait Prompt {
    /// The prompt as it reads at `now`.
    fn text(&self, now: Instant) -> String;

    /// The first moment after `now` at which [`text`](Prompt::text) reads differently, if any:
    /// the line editor redraws the prompt then.
    fn changes_at(&self, now: Instant) -> Option<Instant>;
}

/// A prompt that never changes (raw mode's is empty).
impl Prompt for &str {
    fn text(&self, _now: Instant) -> String {
        (*self).to_string()
    }

    fn changes_at(&self, _now: Instant) -> Option<Instant> {
        None
    }
}

/// The referee's standard input, read by a line editor at a terminal or line by line otherwise.
pub struct Keyboard {
    input: RefCell<Input>,
}

enum Input {
    /// A person at a terminal.
    Editor(Box<Editor>),
    /// Lines read by a thread of their own.
    Lines(Lines),
}

impl Keyboard {
    /// Reads the referee's standard input: with a line editor when a person types at a
    /// terminal that also shows the output, else line by line.
    pub fn stdin() -> Keyboard {
        let terminal = io::stdin().is_terminal()
            && io::stdout().is_terminal()
            && std::env::var("TERM").map_or(true, |term| term != "dumb");
        let input = if terminal {
            Input::Editor(Box::new(Editor::new()))
        } else {
            Input::Lines(Lines::stdin())
        };
        Keyboard {
            input: RefCell::new(input),
        }
    }

    /// Reads lines from `source` until it ends; `interactive` when a person types them.
    #[cfg(test)]
    fn reading(source: impl Read + Send + 'static, interactive: bool) -> Keyboard {
        Keyboard {
            input: RefCell::new(Input::Lines(Lines::reading(source, interactive))),
        }
    }

    /// Shows `prompt` and waits for the next line until `deadline` at most. A line begun by
    /// then is kept for the next call, unless [`discard`](Keyboard::discard)ed.
    pub fn read(&self, prompt: &dyn Prompt, deadline: Instant) -> Typed {
        let mut input = self.input.borrow_mut();
        if let Input::Editor(editor) = &mut *input {
            match editor.read(prompt, deadline) {
                Ok(typed) => return typed,
                Err(error) => {
                    // A terminal that cannot be edited on (one that does not answer where its
                    // cursor is, say) can still be typed on.
                    let _ = writeln!(
                        io::stdout(),
                        "\n(line editing is off: the terminal failed: {error})"
                    );
                    *input = Input::Lines(Lines::stdin());
                }
            }
        }
        match &*input {
            Input::Lines(lines) => loop {
                Screen::stdout().prompt(&prompt.text(Instant::now()));
                match lines.next_line(deadline) {
                    Ok(typed) => return typed,
                    Err(too_long) => too_long.say(),
                }
            },
            Input::Editor(_) => unreachable!("the editor was replaced above"),
        }
    }

    /// Forgets a line begun but not finished (the turn it was typed for is over).
    pub fn discard(&self) {
        if let Input::Editor(editor) = &mut *self.input.borrow_mut() {
            editor.line_editor.run_edit_commands(&[EditCommand::Clear]);
            editor.bound().cleared();
        }
    }

    /// Takes the lines a person typed while nobody was asking (before their turn began): they
    /// were typed without seeing the position they would be played in. None from a script,
    /// whose lines are meant to be read one after the other. At the line editor, a line begun
    /// but not ended stays to be finished at the prompt.
    pub fn typed_ahead(&self) -> Vec<String> {
        match &mut *self.input.borrow_mut() {
            Input::Editor(editor) => editor.typed_ahead(),
            Input::Lines(lines) => lines.typed_ahead(),
        }
    }
}

/// The line editor and what tells it to stop waiting.
struct Editor {
    line_editor: Reedline,
    /// When the editor is to stop waiting (to redraw its prompt, or at the deadline); read by
    /// its idle callback, which sets its break signal then.
    wake: Arc<Mutex<Option<Instant>>>,
    interrupt: Arc<AtomicBool>,
    /// The length of the line being edited, shared with the editor's keys.
    bound: Arc<Mutex<LineBound>>,
}

impl Editor {
    fn new() -> Editor {
        let wake: Arc<Mutex<Option<Instant>>> = Arc::default();
        let interrupt = Arc::new(AtomicBool::new(false));
        let bound: Arc<Mutex<LineBound>> = Arc::default();
        let (alarm, stop) = (Arc::clone(&wake), Arc::clone(&interrupt));
        let colours = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never;
        let line_editor = Reedline::create()
            .with_edit_mode(Box::new(BoundedEmacs::new(Arc::clone(&bound))))
            .with_ansi_colors(colours)
            .with_break_signal(Arc::clone(&interrupt))
            .with_poll_interval(EDITOR_TICK)
            .with_idle_callback(Box::new(move || {
                let due = alarm.lock().unwrap_or_else(PoisonError::into_inner);
                if due.is_some_and(|at| Instant::now() >= at) {
                    stop.store(true, Ordering::Relaxed);
                }
            }));
        Editor {
            line_editor,
            wake,
            interrupt,
            bound,
        }
    }

    fn bound(&self) -> std::sync::MutexGuard<'_, LineBound> {
        self.bound.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn read(&mut self, prompt: &dyn Prompt, deadline: Instant) -> io::Result<Typed> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Ok(Typed::Nothing);
            }
            let wake = prompt
                .changes_at(now)
                .map_or(deadline, |change| change.min(deadline));
            self.set_wake(Some(wake));
            let shown = Shown(prompt.text(now));
            let signal = self.line_editor.read_line(&shown);
            let at = Instant::now();
            self.set_wake(None);
            self.interrupt.store(false, Ordering::Relaxed);
            let signal = match signal {
                // Its question of where the cursor is, unanswered behind a paste.
                Err(_) if self.flooded() => {
                    self.refuse_paste(1);
                    continue;
                }
                signal => signal?,
            };
            match signal {
                Signal::Success(text) => return Ok(Typed::Line { text, at }),
                // The line went over (the editor's only host command): its questions answered.
                Signal::HostCommand(_) => self.refuse_paste(0),
                Signal::CtrlD => return Ok(Typed::Closed),
                // Ctrl-C is a key while the terminal is the editor's: it interrupts the referee
                // as it does the rest of the time (every bot is stopped, and it exits), with the
                // terminal given back first. Editing goes on only if nothing stops the referee.
                Signal::CtrlC => {
                    let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGINT);
                    thread::sleep(INTERRUPT_GRACE);
                }
                // Time to redraw the prompt, or the deadline (seen at the top of the loop); no
                // key is bound to a host command.
                _ => {}
            }
        }
    }

    /// Whether keys past the bound were dropped, or keys are pending: after the terminal
    /// failed to answer the editor in time, what tells a paste that held the answer up from a
    /// terminal that does not answer at all.
    fn flooded(&mut self) -> bool {
        if self.bound().is_over() {
            return true;
        }
        let raw = crossterm::terminal::enable_raw_mode().is_ok();
        let pending = raw && crossterm::event::poll(Duration::ZERO).unwrap_or(false);
        let _ = crossterm::terminal::disable_raw_mode();
        pending
    }

    /// Refuses the line being edited, too long: drops it and the rest of the paste, up to the
    /// terminal's answers to the editor's `outstanding` questions and to one of its own (see
    /// [`long_lines::drop_until_answered`]), and says so.
    fn refuse_paste(&mut self, outstanding: usize) {
        use crossterm::event;
        if crossterm::terminal::enable_raw_mode().is_ok() {
            long_lines::drop_until_answered(outstanding);
            // The keys the editor's reader took in and did not hand over.
            while event::poll(Duration::ZERO).unwrap_or(false) {
                let _ = event::read();
            }
            let _ = crossterm::terminal::disable_raw_mode();
        }
        self.bound().cleared();
        self.line_editor.run_edit_commands(&[EditCommand::Clear]);
        // The cursor is still where the editor drew the line.
        Screen::stdout().say(Voice::Plain, "");
        TooLong.say();
    }

    fn set_wake(&self, wake: Option<Instant>) {
        *self.wake.lock().unwrap_or_else(PoisonError::into_inner) = wake;
    }

    /// The keys typed since the last line: whole lines are returned, a line not ended is put
    /// back in the editor.
    fn typed_ahead(&mut self) -> Vec<String> {
        use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
        let mut lines = Vec::new();
        let mut line = String::new();
        if crossterm::terminal::enable_raw_mode().is_err() {
            return lines;
        }
        while event::poll(Duration::ZERO).unwrap_or(false) {
            let Ok(Event::Key(key)) = event::read() else {
                continue;
            };
            if key.kind == KeyEventKind::Release {
                continue;
            }
            match key.code {
                KeyCode::Enter => lines.push(std::mem::take(&mut line)),
                KeyCode::Char('j') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    lines.push(std::mem::take(&mut line));
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                    line.push(c);
                }
                KeyCode::Backspace => {
                    line.pop();
                }
                _ => {}
            }
        }
        let _ = crossterm::terminal::disable_raw_mode();
        // A line begun is put back to be finished at the prompt, unless it is too long: then
        // it is ignored, as a whole line typed ahead is.
        let begun = ReedlineEvent::Edit(vec![EditCommand::InsertString(line.clone())]);
        let admitted = self.bound().admit(begun);
        match admitted {
            ReedlineEvent::Edit(commands) if !line.is_empty() => {
                self.line_editor.run_edit_commands(&commands);
            }
            ReedlineEvent::Edit(_) => {}
            _ => {
                self.bound().cleared();
                lines.push(line);
            }
        }
        lines.retain(|line| !line.trim().is_empty());
        lines
    }
}

/// The prompt as the line editor draws it: all of it on the left, in the terminal's own colour.
struct Shown(String);

impl EditorPrompt for Shown {
    fn render_prompt_left(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.0)
    }

    fn render_prompt_right(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_indicator(&self, _mode: PromptEditMode) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_multiline_indicator(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_history_search_indicator(&self, search: PromptHistorySearch) -> Cow<'_, str> {
        Cow::Owned(format!("(search: {}) ", search.term))
    }

    fn get_prompt_color(&self) -> reedline::Color {
        reedline::Color::Reset
    }
}

/// Lines read by a thread of their own, so that they can be waited for until a deadline.
struct Lines {
    lines: Receiver<(Result<String, TooLong>, Instant)>,
    /// A person types the lines (a terminal), rather than a script (a pipe or a file).
    interactive: bool,
}

impl Lines {
    fn stdin() -> Lines {
        Lines::reading(io::stdin(), io::stdin().is_terminal())
    }

    fn reading(source: impl Read + Send + 'static, interactive: bool) -> Lines {
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("keyboard".into())
            .spawn(move || {
                let mut reader = BufReader::new(source);
                while let Some(line) = read_line(&mut reader) {
                    if sender.send((line, Instant::now())).is_err() {
                        break;
                    }
                }
            })
            .expect("cannot start the keyboard thread");
        Lines { lines, interactive }
    }

    fn next_line(&self, deadline: Instant) -> Result<Typed, TooLong> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((line, at)) => line.map(|text| Typed::Line { text, at }),
            Err(RecvTimeoutError::Timeout) => Ok(Typed::Nothing),
            Err(RecvTimeoutError::Disconnected) => Ok(Typed::Closed),
        }
    }

    /// The lines typed ahead; one too long is said to be refused.
    fn typed_ahead(&self) -> Vec<String> {
        if !self.interactive {
            return Vec::new();
        }
        let typed = self.lines.try_iter().map(|(line, _)| line);
        typed
            .filter_map(|line| line.map_err(TooLong::say).ok())
            .collect()
    }
}

/// One line without its line end (LF or CR LF), invalid UTF-8 replaced, or [`TooLong`] for a
/// line longer than [`MAX_LINE`] bytes (the rest of it is read and dropped); `None` at the end
/// of the input (or when it cannot be read).
fn read_line(reader: &mut impl BufRead) -> Option<Result<String, TooLong>> {
    // Room for the line, its CR and one byte more: a longer line is known without its end.
    let room = MAX_LINE as u64 + 2;
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(room)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() as u64 == room {
        let mut rest = Vec::new();
        while reader
            .by_ref()
            .take(room)
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
    if bytes.len() > MAX_LINE {
        return Some(Err(TooLong));
    }
    Some(Ok(String::from_utf8_lossy(&bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(text(keyboard.read(&"", soon())), "b2");
        assert_eq!(text(keyboard.read(&"", soon())), "  resign ");
        assert_eq!(text(keyboard.read(&"", soon())), "\u{fffd}\u{fffd}");
        assert_eq!(text(keyboard.read(&"", soon())), "last");
        assert_eq!(keyboard.read(&"", soon()), Typed::Closed);
    }

    #[test]
    fn an_overlong_line_is_refused_and_the_next_one_kept() {
        let mut input = vec![b'7'; MAX_LINE];
        input.extend_from_slice(b"\r\n");
        input.extend(vec![b'8'; MAX_LINE * 3]);
        input.extend_from_slice(b"\nmoves\n");
        let keyboard = Keyboard::reading(std::io::Cursor::new(input), false);
        assert_eq!(text(keyboard.read(&"", soon())), "7".repeat(MAX_LINE));
        assert_eq!(text(keyboard.read(&"", soon())), "moves");
    }

    #[test]
    fn nothing_typed_by_the_deadline_is_nothing() {
        let (_writer, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        let keyboard = Keyboard::reading(reader, true);
        let started = Instant::now();
        let waited = Duration::from_millis(50);
        assert_eq!(keyboard.read(&"", started + waited), Typed::Nothing);
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
