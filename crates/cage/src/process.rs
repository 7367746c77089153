//! A bot running as a child process, spoken to over its stdin and stdout.
//!
//! The referee must never hang or be fooled whatever the bot does, so:
//! - the bot runs in its own process group, killed as a whole when it is done with;
//! - the bot's stdout is read without blocking whenever the referee waits on the bot, and each
//!   line is stamped the moment it is read, the maximum line length enforced before the newline
//!   arrives (see [`super::bot_output`]);
//! - while the referee waits, it watches the bot process itself, so a bot that exits is judged
//!   at once even when a descendant keeps its output open;
//! - of the bot's lines, the transcript keeps the first of each game up to a cap (see
//!   [`Transcript`]), so a bot writing without end cannot fill the referee's memory;
//! - writes to the bot are non-blocking and bounded by the deadline, so a bot that never reads
//!   cannot block the referee;
//! - stderr is drained by its own thread into a capped buffer, so a flood neither blocks the bot
//!   nor fills the referee's memory (see [`super::bot_stderr`]).

use super::bot_output::{ReadEvent, StdoutReader};
use super::bot_stderr::StderrCollector;
use super::cage::Cage;
use super::pipes::{self, set_nonblocking};
use super::process_options::{ClockStart, LineEnds, ProcessOptions};
use super::supervisor::Supervisor;
use super::{memory_cgroup, pids_cgroup, procfs, sandbox};
use super::{Answer, Reading, Seat, MAX_MESSAGES, MAX_MESSAGE_CHARS};
use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use referee_records::transcript::{SeatLog, Transcript};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::quote;
use referee_rules::verdict::{Fault, PassedOver, ResourceLimit, StderrMove};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, ExitStatus};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How long [`BotProcess::drain_unrequested`] reads at most.
const DRAIN_BUDGET: Duration = Duration::from_millis(20);

/// How often a bot's input pipe is looked at, for a clock that starts when the bot has read
/// its request ([`ClockStart::Read`]): CodinGame's own runner polls its bots every millisecond.
const READ_CHECK: Duration = Duration::from_millis(1);

/// The last lines of stderr a timed-out bot is looked at for its move, and the longest of
/// them looked at: a move is a few characters, a longer line is debug output.
const MOVES_ON_STDERR: usize = 16;
const LONGEST_MOVE: usize = 64;

/// How many lines [`BotProcess::close_input_and_collect`] collects at most.
const COLLECTED_LINES: usize = 16;

/// How long [`BotProcess::settle`] watches a bot's CPU time at a time, and the CPU time under
/// which, over that window, the bot counts as waiting for its input (a JVM's background
/// threads still use a little).
const SETTLED_WINDOW: Duration = Duration::from_millis(40);
const SETTLED_CPU: Duration = Duration::from_millis(4);

/// A bot command that could not be started: the referee's error, not a game result.
#[derive(Debug, thiserror::Error)]
#[error("cannot start bot '{command}'")]
pub struct SpawnError {
    command: String,
    source: io::Error,
}

/// A running bot program, seated in the referee's own protocol: its pipes, its stderr, its
/// transcript and the cage that contains it.
pub struct BotProcess {
    child: Child,
    /// Knows the bot is alive until it is reaped, and sweeps up after it.
    supervisor: Supervisor,
    stdin: Option<ChildStdin>,
    output: StdoutReader,
    stderr: StderrCollector,
    transcript: Transcript,
    options: ProcessOptions,
    /// Set once the stdout reader reported the end: nothing more can come.
    closed: bool,
    /// What contains the bot: its cgroups, its namespace or sandbox.
    cage: Cage,
    /// The pid of the bot's program once found (see [`Cage::program_depth`]).
    program: OnceLock<i32>,
    /// The CPU clock of the program, once found: asking for it costs a system call.
    cpu_clock: OnceLock<nix::time::ClockId>,
    /// The program's CPU time already counted in the logs of earlier games.
    cpu_logged: Duration,
    /// The bytes of the last request, a buffer kept for the next.
    request: Vec<u8>,
    /// When the last lines sent were handed to the pipe (see `LateAnswer::WhenTold`).
    pub(crate) last_sent: Option<Instant>,
    /// Lines the bot ended with CR LF rather than LF alone (accepted, but worth telling).
    crlf_lines: usize,
    reaped: bool,
    /// Set once the group was killed and the orphans swept: there is nothing left to do.
    killed: bool,
}

impl BotProcess {
    /// Starts `command` (program and arguments, no shell) in a new process group, as a bot of
    /// `supervisor`.
    pub fn spawn(
        supervisor: &Supervisor,
        command: &[String],
        options: ProcessOptions,
    ) -> Result<BotProcess, SpawnError> {
        let display = command.join(" ");
        let (cmd, cage) =
            Cage::prepare(supervisor, command, &options).map_err(|cause| SpawnError {
                command: display.clone(),
                source: io::Error::other(cause),
            })?;
        let mut child = supervisor.spawn(cmd).map_err(|source| SpawnError {
            command: display.clone(),
            source,
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        // Writes must never block past a deadline: the bot may not read its input.
        set_nonblocking(&stdin).map_err(|source| SpawnError {
            command: display.clone(),
            source,
        })?;

        let output = StdoutReader::new(
            child.stdout.take().expect("stdout is piped"),
            child.id(),
            options.max_line,
            options.line_ends == LineEnds::CrLf,
        )
        .map_err(|source| SpawnError {
            command: display.clone(),
            source,
        })?;

        let stderr = StderrCollector::start(
            child.stderr.take().expect("stderr is piped"),
            options.stderr_cap,
        )
        .map_err(|source| SpawnError {
            command: display,
            source,
        })?;

        Ok(BotProcess {
            child,
            supervisor: supervisor.clone(),
            stdin: Some(stdin),
            output,
            stderr,
            transcript: Transcript::default(),
            options,
            last_sent: None,
            closed: false,
            reaped: false,
            killed: false,
            cage,
            program: OnceLock::new(),
            cpu_clock: OnceLock::new(),
            cpu_logged: Duration::ZERO,
            request: Vec::new(),
            crlf_lines: 0,
        })
    }

    /// Writes `lines`, each followed by the line end, in one `write` when the pipe has room,
    /// before `deadline`, and moves them into the transcript. Returns the instant the last byte
    /// was handed to the pipe.
    pub fn send_lines(&mut self, lines: Vec<String>, deadline: Instant) -> Result<Instant, Fault> {
        let line_end: &[u8] = match self.options.line_ends {
            LineEnds::Lf => b"\n",
            LineEnds::CrLf => b"\r\n",
        };
        // The buffer is kept from request to request: a move allocates no new one.
        let mut bytes = std::mem::take(&mut self.request);
        bytes.clear();
        let now = Instant::now();
        for line in lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.extend_from_slice(line_end);
            self.transcript.sent(line, now);
        }
        let sent = self.write_request(&bytes, deadline);
        self.request = bytes;
        self.last_sent = sent.as_ref().ok().copied();
        sent
    }

    /// Writes `bytes` before `deadline`. Returns the instant the last byte was handed to the
    /// pipe.
    fn write_request(&mut self, bytes: &[u8], deadline: Instant) -> Result<Instant, Fault> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.exited());
        };
        let mut written = 0;
        while written < bytes.len() {
            match stdin.write(&bytes[written..]) {
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(Fault::timeout(Duration::ZERO));
                    }
                    let wait = deadline - now;
                    let timeout = PollTimeout::try_from(wait.as_millis().max(1) as i32)
                        .unwrap_or(PollTimeout::MAX);
                    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLOUT)];
                    match poll(&mut fds, timeout) {
                        Ok(_) | Err(Errno::EINTR) => {}
                        Err(_) => return Err(self.exited()),
                    }
                }
                Err(_) => return Err(self.exited()),
            }
        }
        Ok(Instant::now())
    }

    /// Reads what the bot wrote while nobody asked it anything: lines that `skip` accepts are
    /// logged and passed over (Gomocup's `MESSAGE` lines); any other line is a fault. Reads for
    /// [`DRAIN_BUDGET`] at most, so a bot writing such lines without end cannot hold the referee
    /// here: what is left in the pipe is read while its next answer is awaited, on its clock
    /// (but every line already read, and so stamped before the request, is judged here).
    pub fn drain_unrequested(&mut self, skip: impl Fn(&str) -> bool) -> Result<(), Fault> {
        // The clock is read only once there was something to pass over: most drains find none.
        let mut until = None;
        loop {
            match self.output.try_next() {
                Some(ReadEvent::Line { text, at, crlf }) => {
                    self.log_received(&text, at, crlf);
                    if !skip(&text) {
                        return Err(self.unrequested(text));
                    }
                }
                Some(ReadEvent::TooLong) => {
                    return Err(Fault::LineTooLong {
                        limit: self.options.max_line,
                    })
                }
                Some(ReadEvent::Closed) => {
                    self.closed = true;
                    return Err(self.exited());
                }
                None => return Ok(()),
            }
            let until = *until.get_or_insert_with(|| Instant::now() + DRAIN_BUDGET);
            if Instant::now() >= until && !self.output.has_read_ahead() {
                return Ok(());
            }
        }
    }

    /// Sends `request` and reads the bot's lines through `read` until it names the answer.
    /// The clock runs from the flush of the request to the read of the answer's line, lines
    /// passed over included; the watchdog gives up `watchdog` after the flush. The answer's
    /// [`Answer::original`] is the bot's own line when `read` translated it.
    pub fn exchange(
        &mut self,
        request: Vec<String>,
        watchdog: Duration,
        mut read: impl FnMut(&str) -> Reading,
    ) -> Result<Answer, Fault> {
        let asked_at = Instant::now();
        self.send_lines(request, asked_at + watchdog)
            .map(|sent_at| match self.options.clock_start {
                ClockStart::Written => sent_at,
                ClockStart::Read => self.until_read(sent_at, watchdog),
            })
            .and_then(|sent_at| {
                let deadline = sent_at + watchdog;
                let mut messages = Vec::new();
                let mut passed_over = None;
                loop {
                    let (text, at) = match self.receive(asked_at, sent_at, deadline) {
                        Err(Fault::Timeout { waited, .. }) => {
                            let on_stderr = self.moves_on_stderr(asked_at, &mut read);
                            break Err(Fault::Timeout {
                                waited,
                                on_stderr,
                                passed_over,
                            });
                        }
                        received => received?,
                    };
                    match read(&text) {
                        Reading::Answer(line) => {
                            break Ok(Answer {
                                original: (line != text).then_some(text),
                                line,
                                // A fast bot may answer before `write` returns here; that is
                                // no time at all.
                                elapsed: at.saturating_duration_since(sent_at),
                                messages,
                            });
                        }
                        Reading::Skip => {}
                        Reading::NoMove(expected) => {
                            passed_over = Some(PassedOver {
                                written: text,
                                expected,
                            });
                        }
                        Reading::Message(text) => {
                            if messages.len() < MAX_MESSAGES {
                                messages.push(quote::shorten(&text, MAX_MESSAGE_CHARS));
                            }
                        }
                        Reading::Reply(lines) => {
                            self.send_lines(lines, deadline)?;
                        }
                        Reading::Refuse(fault) => break Err(fault),
                    }
                }
            })
            .map_err(|fault| self.blame_limits(fault))
    }

    /// The lines the bot wrote on stderr since `asked_at` that `read` takes for its answer: a
    /// bot that timed out may have written its move to the wrong stream.
    fn moves_on_stderr(
        &self,
        asked_at: Instant,
        read: &mut impl FnMut(&str) -> Reading,
    ) -> Vec<StderrMove> {
        let lines = self
            .stderr
            .lines_since(asked_at, MOVES_ON_STDERR, LONGEST_MOVE);
        lines
            .into_iter()
            .filter_map(|written| match read(&written) {
                Reading::Answer(notation) => Some(StderrMove { written, notation }),
                _ => None,
            })
            .collect()
    }

    /// When the bot had read all of the request written at `sent_at`: the first time its input
    /// pipe is seen empty, checked every millisecond (`sent_at` itself when it was empty at
    /// once: the bot was waiting in `read`), or the last look before the bot wrote or exited,
    /// whichever comes first; at most `cap` after `sent_at`, so that a bot that never reads is
    /// still timed.
    fn until_read(&mut self, sent_at: Instant, cap: Duration) -> Instant {
        let Some(stdin) = self.stdin.as_ref() else {
            return sent_at;
        };
        let until = sent_at + cap;
        let mut first_look = true;
        loop {
            let now = Instant::now();
            if pipes::unread_bytes(stdin.as_fd()) == 0 {
                return if first_look { sent_at } else { now };
            }
            first_look = false;
            if now >= until {
                return until;
            }
            if self.output.readable_within(READ_CHECK.min(until - now)) {
                // The bot read and answered (or wrote, or exited) since `now`, when its
                // request was still unread: its clock started no earlier.
                return now;
            }
        }
    }

    /// Waits for the next line until `deadline`, returning it with the instant it was read.
    /// `asked_at` is when the request began to be written and `sent_at` when it was complete.
    fn receive(
        &mut self,
        asked_at: Instant,
        sent_at: Instant,
        deadline: Instant,
    ) -> Result<(String, Instant), Fault> {
        match self.output.next_until(deadline) {
            Some(ReadEvent::Line { text, at, crlf }) => {
                self.stderr.catch_up();
                self.log_received(&text, at, crlf);
                if at < asked_at {
                    // Read before the request was even begun: written before being asked.
                    return Err(self.unrequested(text));
                }
                if self.options.limits.memory_mb.is_some()
                    && referee_rules::verdict::looks_like_allocation_failure(&text)
                {
                    // A program that could not get its memory at start-up (a JVM) says so
                    // whenever it gets that far: not an answer, even after the request.
                    return Err(self.unrequested(text));
                }
                Ok((text, at))
            }
            Some(ReadEvent::TooLong) => Err(Fault::LineTooLong {
                limit: self.options.max_line,
            }),
            Some(ReadEvent::Closed) => {
                self.closed = true;
                Err(self.exited())
            }
            None => Err(Fault::timeout(sent_at.elapsed())),
        }
    }

    fn log_received(&mut self, text: &str, at: Instant, crlf: bool) {
        self.crlf_lines += usize::from(crlf);
        self.transcript.received(text, at);
    }

    /// The fault of a line written when not asked, naming the memory limit when the line reads
    /// like a failure to get memory under it.
    fn unrequested(&self, line: String) -> Fault {
        let memory_limit_mb = self
            .options
            .limits
            .memory_mb
            .filter(|_| referee_rules::verdict::looks_like_allocation_failure(&line));
        Fault::Unrequested {
            line,
            memory_limit_mb,
        }
    }

    /// Describes how the bot went away: the limit it hit, or its exit status if it exits
    /// soon, else that it closed its output.
    fn exited(&mut self) -> Fault {
        match self.reap_within(Duration::from_millis(200)) {
            Some((status, peak_rss_kib)) => {
                let status = if self.cage.sandboxed {
                    sandbox::bot_status(status)
                } else {
                    status
                };
                let signal = status.signal().and_then(|s| Signal::try_from(s).ok());
                match self.options.limits.exceeded(signal, peak_rss_kib) {
                    Some((limit, detail)) => Fault::Limit { limit, detail },
                    None => Fault::Exited {
                        detail: describe_exit(status),
                    },
                }
            }
            None => Fault::Exited {
                detail: "closed its output or input before the game ended".to_string(),
            },
        }
    }

    /// Names a limit of the bot's cgroups as the cause of a failure when the bot hit it
    /// meanwhile: the memory limit when the kernel killed one of its processes for it, else the
    /// processes limit when it was refused a process or thread (a bot that cannot fork or
    /// start a thread usually hangs or dies).
    fn blame_limits(&self, fault: Fault) -> Fault {
        let caused = matches!(
            fault,
            Fault::NotReady { .. }
                | Fault::NoReadyLine { .. }
                | Fault::Timeout { .. }
                | Fault::Exited { .. }
        );
        if !caused {
            return fault;
        }
        let limits = &self.options.limits;
        if let Some(group) = self.cage.cgroups.memory() {
            if memory_cgroup::oom_killed(group) {
                let peak = memory_cgroup::peak(group)
                    .map(|bytes| format!(", peak {} MiB", bytes >> 20))
                    .unwrap_or_default();
                return Fault::Limit {
                    limit: ResourceLimit::Memory,
                    detail: format!(
                        "ran out of memory: its processes together reached its limit of {} MiB{peak} ({fault})",
                        limits.memory_mb.unwrap_or(0)
                    ),
                };
            }
        }
        match self.cage.cgroups.pids() {
            Some(group) if pids_cgroup::limit_hit(group) => Fault::Limit {
                limit: ResourceLimit::Processes,
                detail: format!(
                    "reached its limit of {} processes and threads ({fault})",
                    limits.processes.unwrap_or(0)
                ),
            },
            _ => fault,
        }
    }

    /// Waits up to `timeout` for the bot to exit and reaps it, returning its exit status and
    /// peak resident size in KiB (which tells a memory limit from another crash).
    fn reap_within(&mut self, timeout: Duration) -> Option<(ExitStatus, u64)> {
        if self.reaped {
            return None;
        }
        let pid = self.child.id() as libc::pid_t;
        let deadline = Instant::now() + timeout;
        loop {
            let mut status = 0;
            // SAFETY: `rusage` is a C struct of integers, for which all zero bits are valid.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: `status` and `usage` are live, writable locals of the types wait4 writes.
            // (`pid` is still this bot's: nobody reaped it, as `self.reaped` is false.)
            let found = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if found == pid {
                self.note_reaped();
                return Some((ExitStatus::from_raw(status), usage.ru_maxrss as u64));
            }
            if found < 0 && Errno::last() != Errno::EINTR {
                return None;
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits until the bot has settled, by `deadline` at the latest: until its CPU time has
    /// grown by less than [`SETTLED_CPU`] over [`SETTLED_WINDOW`] and none of its threads is
    /// waiting for a CPU or a disk, which is how a bot waiting for its input looks. For the bots that say nothing before their first move (riddles.io
    /// ones), so that their start-up (an interpreter, a JVM) is not charged to that move, as on
    /// the systems that start them before their engine. Returns at once when the CPU time
    /// cannot be read (the bot exited, or the system does not tell it).
    pub fn settle(&self, deadline: Instant) {
        let mut before: Option<(Duration, procfs::SessionUsage)> = None;
        while Instant::now() < deadline {
            thread::sleep(SETTLED_WINDOW.min(deadline.saturating_duration_since(Instant::now())));
            // Not found yet: a sandbox starts the program a moment after the child.
            let now = self.cpu_time().zip(self.session_usage());
            if let (Some((cpu_before, session_before)), Some((cpu, session))) = (before, now) {
                let busy = self.program().is_some_and(procfs::busy) || session.busy;
                if cpu.saturating_sub(cpu_before) < SETTLED_CPU
                    && session.cpu_ticks <= session_before.cpu_ticks
                    && !busy
                {
                    return;
                }
            }
            before = now;
        }
    }

    /// What the processes of the bot's session are doing: a wrapper's children (a launcher's
    /// JVM, an interpreter behind a version shim) may do the starting up.
    fn session_usage(&self) -> Option<procfs::SessionUsage> {
        let session = procfs::stat(self.program()?)?.session;
        Some(procfs::session_usage(session))
    }

    /// CPU time the bot's process (all its threads) has used so far.
    fn cpu_time(&self) -> Option<Duration> {
        if self.reaped {
            return None;
        }
        let clock = match self.cpu_clock.get() {
            Some(&clock) => clock,
            None => {
                let clock = nix::time::clock_getcpuclockid(Pid::from_raw(self.program()?)).ok()?;
                *self.cpu_clock.get_or_init(|| clock)
            }
        };
        Some(Duration::from(clock.now().ok()?))
    }

    /// The pid of the bot's program: the child, or its descendant under the cage's helpers,
    /// looked for until found (a sandbox starts it a moment after the child).
    fn program(&self) -> Option<i32> {
        if let Some(&pid) = self.program.get() {
            return Some(pid);
        }
        let pid = procfs::descendant(self.child.id() as i32, self.cage.program_depth())?;
        Some(*self.program.get_or_init(|| pid))
    }

    /// Tells the bot to quit, gives it the grace period to exit, then kills whatever is left
    /// of its process group and reaps it. Returns how long the bot took to exit, or `None` when
    /// it had to be killed.
    pub fn quit(mut self) -> Option<Duration> {
        self.end(vec![RefereeMessage::Quit.to_string()])
    }

    /// Sends `farewell` (the protocol's way to say "exit"; nothing for protocols that have
    /// none), closes the bot's input, gives it the grace period to exit, then kills whatever is
    /// left of its process group and reaps it. Returns how long the bot took to exit, or `None`
    /// when it had to be killed.
    pub fn end(&mut self, farewell: Vec<String>) -> Option<Duration> {
        let asked = Instant::now();
        let deadline = asked + self.options.exit_grace;
        if !self.closed && !farewell.is_empty() {
            let _ = self.send_lines(farewell, deadline);
        }
        self.stdin = None;
        let mut took = None;
        if !self.reaped {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Ok(Some(_)) = self.child.wait_timeout(left) {
                self.note_reaped();
                took = Some(asked.elapsed());
            }
        }
        self.kill();
        took
    }

    /// Collects, its input still open, the first [`COLLECTED_LINES`] lines the bot writes
    /// before its output closes, it exits, or `wait` passes, each with when it was read: a bot
    /// past its time that flushes writes its answer when it has one.
    pub(crate) fn collect_for(&mut self, wait: Duration) -> Vec<(String, Instant)> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while !self.closed && lines.len() < COLLECTED_LINES {
            match self.output.next_until(deadline) {
                Some(ReadEvent::Line { text, at, crlf }) => {
                    self.log_received(&text, at, crlf);
                    lines.push((text, at));
                }
                Some(ReadEvent::TooLong) => {}
                Some(ReadEvent::Closed) => self.closed = true,
                None => break,
            }
        }
        lines
    }

    /// Closes the bot's input, then collects its lines as [`BotProcess::collect_for`] does. A
    /// bot that kept its answer in an unflushed buffer writes it now, as it exits.
    pub(crate) fn close_input_and_collect(&mut self, wait: Duration) -> Vec<(String, Instant)> {
        self.stdin = None;
        self.collect_for(wait)
    }

    /// What the bot wrote after its last complete line, as far as it was read: an answer
    /// without its line feed, which the referee never takes as an answer.
    pub(crate) fn unfinished_line(&self) -> Option<String> {
        self.output.unfinished()
    }

    /// How many of the bot's lines ended with CR LF.
    pub fn crlf_lines(&self) -> usize {
        self.crlf_lines
    }

    /// Notes that the bot was reaped: its pid is no longer its own.
    fn note_reaped(&mut self) {
        self.reaped = true;
        self.supervisor.reaped(self.child.id());
    }

    /// Kills the whole process group at once, reaps the bot, and has the supervisor sweep up
    /// any descendant that escaped the group (in a PID namespace, where none can be alive,
    /// reap only what died). Only the first call does anything.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        self.stdin = None;
        // The group may still hold children even when the bot itself has exited.
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        self.cage.cgroups.kill_all();
        if !self.reaped {
            // Should the group be gone already, the bot itself still must not outlive us.
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.note_reaped();
        }
        if self.cage.program_depth() > 0 {
            self.supervisor.reap_dead_orphans();
        } else {
            self.supervisor.sweep_orphans();
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Each message on its own line.
fn lines_of_messages(messages: &[RefereeMessage]) -> Vec<String> {
    messages
        .iter()
        .map(|message| {
            // Room for a usual line at once: `to_string` grows an empty string piece by piece,
            // an allocation each, on every move.
            let mut line = String::with_capacity(48);
            write!(line, "{message}").expect("writing into a String cannot fail");
            line
        })
        .collect()
}

/// The referee's own protocol: the seat's messages are the bot's lines.
impl Seat for BotProcess {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        self.drain_unrequested(|_| false)?;
        let answer = self
            .exchange(lines_of_messages(messages), allowance, |line| {
                Reading::Answer(line.to_string())
            })
            .map_err(|fault| match fault {
                Fault::Timeout { .. } => Fault::NoReadyLine { allowance },
                other => other,
            })?;
        Ready::parse(&answer.line).map_err(|e| Fault::NotReady {
            detail: e.to_string(),
        })
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.drain_unrequested(|_| false)?;
        self.exchange(lines_of_messages(messages), watchdog, |line| {
            Reading::Answer(line.to_string())
        })
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        if !self.closed {
            let _ = self.send_lines(
                lines_of_messages(messages),
                Instant::now() + Duration::from_millis(100),
            );
        }
    }

    fn take_log(&mut self) -> SeatLog {
        let stderr = self.stderr.take();
        let (transcript, transcript_dropped) = self.transcript.take();
        SeatLog {
            transcript,
            transcript_dropped,
            stderr: stderr.kept,
            stderr_dropped: stderr.dropped,
            stderr_line_starts: stderr.line_starts,
            cpu: self.cpu_time().map(|now| {
                let game = now.saturating_sub(self.cpu_logged);
                self.cpu_logged = now;
                game
            }),
        }
    }

    fn finish(&mut self) {
        self.end(vec![RefereeMessage::Quit.to_string()]);
    }

    fn late_answer(&mut self) -> Option<crate::LateAnswer> {
        self.watch_late(|_| true)
    }
}

/// "exited with code 1", "killed by signal 9 (SIGKILL)".
fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        format!("exited with code {code} before the game ended")
    } else if let Some(signal) = status.signal() {
        let name =
            Signal::try_from(signal).map_or_else(|_| "unknown".into(), |s| s.as_str().to_string());
        format!("killed by signal {signal} ({name}) before the game ended")
    } else {
        format!("ended ({status}) before the game ended")
    }
}
