//! A bot's standard output, cut into lines and read by the referee's own thread whenever it
//! waits on the bot.
//!
//! The pipe is non-blocking, so a bot that writes nothing never holds the referee past a
//! deadline; each line is stamped the moment its end is read, which is while the referee waits
//! for it (a line the bot wrote unasked is read, and stamped, before the next request is sent);
//! a line reaching the maximum length is reported without waiting for its end; and nothing is
//! read ahead of need, so a bot flooding its output blocks in its own `write`, not the referee.
//! Waiting first polls the pipe for a moment, as an instant bot's answer then costs no wake-up
//! of the referee. While waiting, the reader also watches the bot process itself: a descendant
//! may hold the output open long after the bot exited, and the bot must be judged at once, not
//! when its time runs out.

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::fd::{AsFd, FromRawFd, OwnedFd};
use std::process::ChildStdout;
use std::time::{Duration, Instant};

/// How long a wait polls the pipe before it sleeps until the bot writes, when spinning pays
/// (see [`Spin`]).
const ANSWER_SPIN: Duration = Duration::from_micros(200);

/// The most waits in a row that skip spinning after spins kept missing.
const MAX_SPIN_PAUSE: u32 = 64;

/// While spins catch answers, one wait in this many goes the other way (sleeps where waits
/// spin, spins where they sleep), so that both ways' typical waits stay measured.
const SPIN_PROBE_EVERY: u32 = 16;

/// Whether a wait polls the pipe before it sleeps. Polling saves the wake-up of a sleeping
/// referee when an instant bot answers on another processor; it only costs when the bot is
/// slower than the spin, or when every processor is busy (the bot may then wait for the very
/// processor the referee spins on). So a wait spins only where the referee's thread may run on
/// more than one processor, and while spinning pays:
/// - each spin that ends without an answer doubles the number of waits that skip it (up to
///   [`MAX_SPIN_PAUSE`]), and an answer caught spinning resets it;
/// - while spins catch answers, the typical wait of an answer caught spinning is compared with
///   that of a quick answer (within [`ANSWER_SPIN`]) slept for, and the quicker way is taken
///   (on a machine whose processors are all busy, sleeping answered in 7 us where spinning
///   took 13 in some runs of the overhead benchmark).
#[derive(Debug)]
struct Spin {
    /// Spinning is worth trying here at all.
    allowed: bool,
    /// Waits to skip spinning before the next try.
    paused: u32,
    /// Length of the pause after the next miss.
    next_pause: u32,
    /// Waits that could spin so far (for the probes).
    waits: u32,
    /// Moving averages of the waits, in microseconds, of answers caught spinning and of quick
    /// answers slept for; `None` until one was seen.
    caught: Option<f64>,
    slept: Option<f64>,
}

/// Adds `wait` to the moving average `average` (the last eight or so count).
fn add_to_average(average: &mut Option<f64>, wait: Duration) {
    let micros = wait.as_secs_f64() * 1e6;
    *average = Some(match *average {
        Some(before) => before + (micros - before) / 8.0,
        None => micros,
    });
}

impl Spin {
    fn new() -> Spin {
        Spin {
            // Where the bot's thread was pinned to one processor (a table of its own), its bots
            // run on that processor too: spinning would only keep them from it.
            allowed: super::cpus::allowed().len() > 1,
            paused: 0,
            next_pause: 1,
            waits: 0,
            caught: None,
            slept: None,
        }
    }

    /// How long the wait beginning now may spin.
    fn budget(&mut self) -> Duration {
        if !self.allowed {
            return Duration::ZERO;
        }
        if self.paused > 0 {
            self.paused -= 1;
            return Duration::ZERO;
        }
        self.waits = self.waits.wrapping_add(1);
        let spinning_is_quicker = match (self.caught, self.slept) {
            (Some(caught), Some(slept)) => caught <= slept,
            _ => true,
        };
        let probe = self.next_pause == 1 && self.waits % SPIN_PROBE_EVERY == 0;
        if spinning_is_quicker == probe {
            Duration::ZERO
        } else {
            ANSWER_SPIN
        }
    }

    /// A wait that spun caught its answer after `waited`.
    fn caught(&mut self, waited: Duration) {
        self.next_pause = 1;
        add_to_average(&mut self.caught, waited);
    }

    /// A wait spun for its whole budget without an answer.
    fn missed(&mut self) {
        self.paused = self.next_pause;
        self.next_pause = (self.next_pause * 2).min(MAX_SPIN_PAUSE);
    }

    /// A wait that did not spin got its answer after `waited`.
    fn slept(&mut self, waited: Duration) {
        if waited < ANSWER_SPIN {
            add_to_average(&mut self.slept, waited);
        }
    }
}

/// How often a wait looks at the bot process where the system has no pidfd (Linux before 5.3).
const EXIT_TICK: Duration = Duration::from_millis(10);

/// Tells when the bot process itself has exited, whatever became of its output.
struct ExitWatch {
    pid: Pid,
    /// Readable once the process has exited; where the system has none, waits are cut into
    /// [`EXIT_TICK`]s and the process is looked at after each.
    pidfd: Option<OwnedFd>,
}

impl ExitWatch {
    fn new(pid: u32) -> ExitWatch {
        let pid = Pid::from_raw(pid as i32);
        // SAFETY: pidfd_open takes a pid and flags, no pointer. The pid is the bot's, not yet
        // reaped (its `BotProcess` is being made), so it names no other process.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid.as_raw(), 0) };
        // SAFETY: a descriptor pidfd_open returned is new, open, and owned by nothing else.
        let pidfd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) });
        ExitWatch { pid, pidfd }
    }

    /// Whether the process has exited, asked without a pidfd, leaving its exit status for
    /// whoever reaps it.
    fn exited(&self) -> bool {
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        // An error means it was reaped already.
        !matches!(waitid(Id::Pid(self.pid), flags), Ok(WaitStatus::StillAlive))
    }
}

/// What the bot's output brings.
#[derive(Debug)]
pub(crate) enum ReadEvent {
    /// A complete line, stamped when its end was read; `crlf` when it ended with CR LF (or
    /// with a CR alone, where that ends a line).
    Line {
        text: String,
        at: Instant,
        crlf: bool,
    },
    /// A line longer than the maximum; the rest of it is discarded.
    TooLong,
    /// The bot closed its output, or exited (whoever else holds its output open).
    Closed,
}

/// Cuts bytes into lines as they arrive, in chunks of any size.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    max_line: usize,
    /// A CR alone also ends a line (Gomocup brains may write so).
    cr_ends_line: bool,
    line: Vec<u8>,
    /// The current line passed the maximum: it is skipped up to its end.
    overlong: bool,
    /// The last line ended with a CR (only with `cr_ends_line`): an LF right after it is the
    /// second half of a CR LF, not an empty line.
    after_cr: bool,
}

impl LineSplitter {
    pub(crate) fn new(max_line: usize, cr_ends_line: bool) -> LineSplitter {
        LineSplitter {
            max_line,
            cr_ends_line,
            line: Vec::new(),
            overlong: false,
            after_cr: false,
        }
    }

    /// The start of a line the bot wrote and never ended, if any (invalid UTF-8 replaced).
    pub(crate) fn unfinished(&self) -> Option<String> {
        (!self.line.is_empty() && !self.overlong)
            .then(|| String::from_utf8_lossy(&self.line).into_owned())
    }

    /// Splits `bytes`, read at `at`, into the events they complete. A CR before LF is removed;
    /// invalid UTF-8 is replaced, never trusted.
    pub(crate) fn push(&mut self, bytes: &[u8], at: Instant, events: &mut VecDeque<ReadEvent>) {
        let cr_ends_line = self.cr_ends_line;
        let is_end = |b: &u8| *b == b'\n' || (cr_ends_line && *b == b'\r');
        for chunk in bytes.split_inclusive(is_end) {
            let end = chunk.last().copied().filter(is_end);
            let body = match end {
                Some(_) => &chunk[..chunk.len() - 1],
                None => chunk,
            };
            if std::mem::take(&mut self.after_cr) && body.is_empty() && end == Some(b'\n') {
                continue;
            }
            if !self.overlong {
                self.line.extend_from_slice(body);
                // A CR may be the first half of a CRLF still to come: it never counts.
                let length = self.line.len() - usize::from(self.line.last() == Some(&b'\r'));
                if length > self.max_line {
                    self.overlong = true;
                    self.line.clear();
                    events.push_back(ReadEvent::TooLong);
                }
            }
            if let Some(end) = end {
                if !self.overlong {
                    let crlf = end == b'\r' || self.line.last() == Some(&b'\r');
                    if self.line.last() == Some(&b'\r') {
                        self.line.pop();
                    }
                    let text = String::from_utf8_lossy(&self.line).into_owned();
                    events.push_back(ReadEvent::Line { text, at, crlf });
                }
                self.line.clear();
                self.overlong = false;
                self.after_cr = end == b'\r';
            }
        }
    }
}

/// The bot's standard output pipe, read without blocking.
pub(crate) struct StdoutReader {
    pipe: ChildStdout,
    exit: ExitWatch,
    splitter: LineSplitter,
    /// Events read but not yet taken, at most one read's worth.
    ready: VecDeque<ReadEvent>,
    closed: bool,
    buf: Vec<u8>,
    spin: Spin,
}

impl StdoutReader {
    /// Takes over `pipe`, the output of process `pid` (a child of this process, not yet
    /// reaped), making it non-blocking.
    pub(crate) fn new(
        pipe: ChildStdout,
        pid: u32,
        max_line: usize,
        cr_ends_line: bool,
    ) -> io::Result<Self> {
        super::pipes::set_nonblocking(&pipe)?;
        Ok(StdoutReader {
            pipe,
            exit: ExitWatch::new(pid),
            splitter: LineSplitter::new(max_line, cr_ends_line),
            ready: VecDeque::new(),
            closed: false,
            buf: vec![0; 64 * 1024],
            spin: Spin::new(),
        })
    }

    /// The next event if the bot has written one, without waiting.
    pub(crate) fn try_next(&mut self) -> Option<ReadEvent> {
        while self.ready.is_empty() && !self.closed {
            if !self.read_once() {
                break;
            }
        }
        match self.ready.pop_front() {
            Some(event) => Some(event),
            None if self.closed => Some(ReadEvent::Closed),
            None => None,
        }
    }

    /// What the bot wrote after its last complete line, as far as it was read: a line it never
    /// ended.
    pub(crate) fn unfinished(&self) -> Option<String> {
        self.splitter.unfinished()
    }

    /// Whether lines already read (and stamped) wait to be taken.
    pub(crate) fn has_read_ahead(&self) -> bool {
        !self.ready.is_empty()
    }

    /// Whether something can be read (output, or the end of it) within `wait`, without reading
    /// it.
    pub(crate) fn readable_within(&self, wait: Duration) -> bool {
        if !self.ready.is_empty() {
            return true;
        }
        let millis = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
        let timeout = PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(self.pipe.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, timeout) {
            Ok(n) => n > 0,
            Err(_) => false,
        }
    }

    /// The next event, waiting for it until `deadline`; `None` when the deadline passed first.
    /// Once the bot process has exited, what it wrote before is read, then `Closed` comes.
    pub(crate) fn next_until(&mut self, deadline: Instant) -> Option<ReadEvent> {
        if let Some(event) = self.try_next() {
            return Some(event);
        }
        let spin = self.spin.budget();
        let started = Instant::now();
        let spin_until = started + spin;
        let mut spinning = !spin.is_zero();
        let mut exited = false;
        loop {
            if let Some(event) = self.try_next() {
                if spinning {
                    self.spin.caught(started.elapsed());
                } else if spin.is_zero() {
                    self.spin.slept(started.elapsed());
                }
                return Some(event);
            }
            if exited {
                // Everything the bot wrote was in the pipe before it exited, and is read.
                self.closed = true;
                return Some(ReadEvent::Closed);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            if now < spin_until {
                std::hint::spin_loop();
                continue;
            }
            if std::mem::take(&mut spinning) {
                self.spin.missed();
            }
            let pidfd = self.exit.pidfd.as_ref().map(AsFd::as_fd);
            let wait = match pidfd {
                Some(_) => deadline - now,
                None => (deadline - now).min(EXIT_TICK),
            };
            // Whole milliseconds, rounded up, so the wait never ends early.
            let millis = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            let timeout = PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX);
            let mut fds = [
                PollFd::new(self.pipe.as_fd(), PollFlags::POLLIN),
                PollFd::new(pidfd.unwrap_or(self.pipe.as_fd()), PollFlags::POLLIN),
            ];
            let watched = if pidfd.is_some() { 2 } else { 1 };
            match poll(&mut fds[..watched], timeout) {
                Ok(_) | Err(Errno::EINTR) => {}
                Err(_) => {
                    self.closed = true;
                }
            }
            exited = match pidfd {
                Some(_) => fds[1].any().unwrap_or(false),
                None => self.exit.exited(),
            };
        }
    }

    /// Reads what the pipe holds now, once. False when there was nothing to read.
    fn read_once(&mut self) -> bool {
        match self.pipe.read(&mut self.buf) {
            Ok(0) => {
                self.closed = true;
                true
            }
            Ok(n) => {
                let at = Instant::now();
                self.splitter.push(&self.buf[..n], at, &mut self.ready);
                true
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => true,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
            Err(_) => {
                self.closed = true;
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A stream that arrives in the given chunks, one `read` each (split if the buffer is small).
    struct Chunks(Vec<Vec<u8>>);

    impl Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            if n < chunk.len() {
                self.0.insert(0, chunk[n..].to_vec());
            }
            Ok(n)
        }
    }

    /// What the splitter makes of `source`, read to its end, then `Closed`, the way the reader
    /// reports the end of a bot's output.
    fn read_lines(mut source: impl Read, max_line: usize, cr_ends_line: bool) -> Vec<ReadEvent> {
        let mut splitter = LineSplitter::new(max_line, cr_ends_line);
        let mut events = VecDeque::new();
        let mut buf = [0u8; 64];
        loop {
            let n = source.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            splitter.push(&buf[..n], Instant::now(), &mut events);
        }
        events.push_back(ReadEvent::Closed);
        events.into()
    }

    fn lines_of(input: &[u8], max: usize) -> Vec<String> {
        lines_split(input, max, false)
    }

    fn lines_split(input: &[u8], max: usize, cr_ends_line: bool) -> Vec<String> {
        read_lines(input, max, cr_ends_line)
            .into_iter()
            .map(|event| match event {
                ReadEvent::Line {
                    text, crlf: true, ..
                } => format!("line:{text}+cr"),
                ReadEvent::Line { text, .. } => format!("line:{text}"),
                ReadEvent::TooLong => "too-long".into(),
                ReadEvent::Closed => "closed".into(),
            })
            .collect()
    }

    #[test]
    fn splits_lines_and_strips_cr() {
        assert_eq!(
            lines_of(b"4 4\r\nresign\n", 10),
            ["line:4 4+cr", "line:resign", "closed"]
        );
    }

    #[test]
    fn a_cr_alone_ends_a_line_where_asked() {
        assert_eq!(
            lines_split(b"MESSAGE hi\r7,7\r\n8,8\n\r\r", 20, true),
            [
                "line:MESSAGE hi+cr",
                "line:7,7+cr",
                "line:8,8",
                "line:+cr",
                "line:+cr",
                "closed"
            ]
        );
        // The LF of a CR LF arriving in the next read is still part of the same line end.
        let events: Vec<String> = read_lines(
            Chunks(vec![b"OK\r".to_vec(), b"\n7,7\r".to_vec(), b"\n".to_vec()]),
            10,
            true,
        )
        .into_iter()
        .filter_map(|event| match event {
            ReadEvent::Line { text, .. } => Some(text),
            _ => None,
        })
        .collect();
        assert_eq!(events, ["OK", "7,7"]);
        assert_eq!(
            lines_of(b"a\rb\n", 10),
            ["line:a\rb", "closed"],
            "without the option a CR inside a line stays"
        );
    }

    #[test]
    fn an_unterminated_last_line_is_not_an_answer() {
        assert_eq!(lines_of(b"4 4", 10), ["closed"]);
    }

    #[test]
    fn long_lines_are_reported_before_their_end() {
        assert_eq!(
            lines_of(b"0123456789AB", 10),
            ["too-long", "closed"],
            "no newline needed"
        );
        assert_eq!(
            lines_of(b"0123456789\n01234567890\nok\n", 10),
            ["line:0123456789", "too-long", "line:ok", "closed"]
        );
        assert_eq!(
            lines_of(b"0123456789\r\n", 10),
            ["line:0123456789+cr", "closed"]
        );
        // The CR of a maximal line arrives in one read and its LF in the next.
        let events: Vec<String> = read_lines(
            Chunks(vec![b"0123456789\r".to_vec(), b"\n".to_vec()]),
            10,
            false,
        )
        .into_iter()
        .map(|event| match event {
            ReadEvent::Line { text, .. } => text,
            ReadEvent::TooLong => "too-long".into(),
            ReadEvent::Closed => "closed".into(),
        })
        .collect();
        assert_eq!(events, ["0123456789", "closed"]);
    }

    proptest! {
        /// Whatever bytes a bot writes, in whatever chunks, the reader neither panics nor hands
        /// on a line longer than the limit or containing a line feed, and it always ends with
        /// `Closed`.
        #[test]
        fn any_byte_stream_splits_into_bounded_lines(
            chunks in prop::collection::vec(prop::collection::vec(
                prop_oneof![any::<u8>(), Just(b'\n'), Just(b'\r')],
                0..40,
            ), 0..8),
            max in 1usize..24,
            cr_ends_line in any::<bool>(),
        ) {
            let total_newlines = chunks
                .iter()
                .flatten()
                .filter(|&&b| b == b'\n' || (cr_ends_line && b == b'\r'))
                .count();
            let events = read_lines(Chunks(chunks), max, cr_ends_line);
            let mut lines = 0;
            for event in &events[..events.len() - 1] {
                match event {
                    ReadEvent::Line { text, .. } => {
                        lines += 1;
                        prop_assert!(!text.contains('\n'));
                        prop_assert!(!cr_ends_line || !text.contains('\r'));
                        // Replacement characters may take more bytes than the bytes they replace.
                        prop_assert!(text.chars().count() <= max, "{text:?}");
                    }
                    ReadEvent::TooLong => {}
                    ReadEvent::Closed => prop_assert!(false, "closed before the end"),
                }
            }
            prop_assert!(matches!(events.last(), Some(ReadEvent::Closed)));
            prop_assert!(lines <= total_newlines);
        }
    }

    /// A process that writes a line and exits at once, leaving a child that holds its output
    /// open for a minute; the reader's wait is told of the exit by a pidfd or, without one, by
    /// its ticks.
    fn exits_leaving_a_child_holding_the_output(with_pidfd: bool) {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 60 & echo done"])
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let group = Pid::from_raw(child.id() as i32);
        let pipe = child.stdout.take().unwrap();
        let mut reader = StdoutReader::new(pipe, child.id(), 100, false).unwrap();
        if !with_pidfd {
            reader.exit.pidfd = None;
        }
        let started = Instant::now();
        let deadline = started + Duration::from_secs(20);
        let first = reader.next_until(deadline);
        assert!(
            matches!(&first, Some(ReadEvent::Line { text, .. }) if text == "done"),
            "{first:?}"
        );
        let then = reader.next_until(deadline);
        assert!(matches!(then, Some(ReadEvent::Closed)), "{then:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert!(
            matches!(reader.try_next(), Some(ReadEvent::Closed)),
            "and stays closed"
        );
        nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL).unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn an_exit_is_seen_at_once_whoever_holds_the_output() {
        exits_leaving_a_child_holding_the_output(true);
    }

    #[test]
    fn an_exit_is_seen_at_once_without_a_pidfd() {
        exits_leaving_a_child_holding_the_output(false);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            lines_of(b"\xff\xfe\n", 10),
            ["line:\u{fffd}\u{fffd}", "closed"]
        );
    }

    #[test]
    fn spinning_backs_off_while_it_misses_and_resumes_once_it_catches() {
        let mut spin = Spin {
            allowed: true,
            ..Spin::new()
        };
        // Which of the next `waits` waits spin, each missing when `caught` says so (the bot is
        // slow then: a wait without a spin does not count as a quick answer).
        let mut spun = |waits: usize, caught: bool| -> Vec<bool> {
            (0..waits)
                .map(|_| {
                    let budget = spin.budget();
                    match (budget.is_zero(), caught) {
                        (false, true) => spin.caught(Duration::from_micros(5)),
                        (false, false) => spin.missed(),
                        (true, _) => spin.slept(Duration::from_millis(5)),
                    }
                    !budget.is_zero()
                })
                .collect()
        };
        let t = true;
        let f = false;
        // Misses: a spin, then 1, 2, 4 waits without.
        assert_eq!(spun(11, false), [t, f, t, f, f, t, f, f, f, f, t]);
        // The pause is now 8 waits; the first spin after it catches and spinning goes on.
        assert_eq!(spun(8, true), [f; 8]);
        assert_eq!(spun(3, true), [t, t, t]);
        // The pause grows no longer than its cap.
        let misses: usize = spun(2000, false).iter().filter(|&&s| s).count();
        assert!(misses >= 2000 / (MAX_SPIN_PAUSE as usize + 1), "{misses}");
        assert!(misses < 2000 / MAX_SPIN_PAUSE as usize + 8, "{misses}");
        let mut never = Spin {
            allowed: false,
            ..Spin::new()
        };
        assert_eq!(never.budget(), Duration::ZERO);
    }

    /// Waits of a quick bot, each `caught_us` when spun and `slept_us` when slept: which spun.
    fn spins_of_a_quick_bot(caught_us: u64, slept_us: u64, waits: usize) -> Vec<bool> {
        let mut spin = Spin {
            allowed: true,
            ..Spin::new()
        };
        (0..waits)
            .map(|_| {
                let budget = spin.budget();
                if budget.is_zero() {
                    spin.slept(Duration::from_micros(slept_us));
                } else {
                    spin.caught(Duration::from_micros(caught_us));
                }
                !budget.is_zero()
            })
            .collect()
    }

    #[test]
    fn waits_spin_or_sleep_whichever_answers_sooner_trying_the_other_now_and_then() {
        // Spinning quicker (an idle machine): every wait spins but one in sixteen.
        let spins = spins_of_a_quick_bot(8, 35, 160);
        assert_eq!(spins.iter().filter(|&&spun| !spun).count(), 10);
        // Sleeping quicker (every processor busy): once both were measured, one in sixteen.
        let spins = spins_of_a_quick_bot(13, 7, 160);
        assert!(spins[..15].iter().all(|&spun| spun));
        assert!(!spins[15], "the probe sleeps");
        assert_eq!(spins[16..].iter().filter(|&&spun| spun).count(), 9);
    }
}
