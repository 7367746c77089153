//! A bot running as a child process, spoken to over its stdin and stdout.
//!
//! The referee must never hang or be fooled whatever the bot does, so:
//! - the bot runs in its own process group, killed as a whole when it is done with;
//! - a reader thread reads the bot's stdout and stamps each line the moment it is read (so a
//!   busy match loop never charges its own delay to the bot), enforcing the maximum line length
//!   before the newline arrives;
//! - writes to the bot are non-blocking and bounded by the deadline, so a bot that never reads
//!   cannot block the referee;
//! - stderr is drained by its own thread into a capped buffer, so a flood neither blocks the bot
//!   nor fills the referee's memory.

use super::cleanup;
use super::limits::Limits;
use super::pids_cgroup::PidsCgroup;
use super::sandbox::{self, Scratch};
use super::{Answer, Direction, Fault, Reading, Seat, SeatLog, TranscriptLine};
use crate::protocol::{Ready, RefereeMessage};
use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How a bot process is started.
#[derive(Clone, Debug)]
pub struct ProcessOptions {
    /// Longest accepted line from the bot, newline excluded.
    pub max_line: usize,
    /// Most stderr bytes kept per game; the rest is counted and dropped.
    pub stderr_cap: usize,
    /// How long a bot told to `quit` may take to exit before its group is killed.
    pub exit_grace: Duration,
    /// Working directory of the bot (the referee's when `None`).
    pub working_dir: Option<PathBuf>,
    /// Resource limits set in the bot before it starts.
    pub limits: Limits,
    /// Run the bot under bubblewrap (see [`super::sandbox`]).
    pub sandbox: bool,
    /// How lines end on the bot's pipes.
    pub line_ends: LineEnds,
}

/// How lines end on a bot's pipes, in both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnds {
    /// Lines to the bot end in LF; the bot's lines end in LF or CR LF (the referee's own
    /// protocol, CodinGame, riddles.io).
    #[default]
    Lf,
    /// Lines to the bot end in CR LF, and a CR alone also ends a line of the bot's: what
    /// Gomocup managers do and what Gomocup brains may rely on.
    CrLf,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            max_line: crate::protocol::DEFAULT_MAX_LINE,
            stderr_cap: 64 * 1024,
            exit_grace: Duration::from_millis(1000),
            working_dir: None,
            limits: Limits::default(),
            sandbox: false,
            line_ends: LineEnds::default(),
        }
    }
}

/// A bot command that could not be started: the referee's error, not a game result.
#[derive(Debug, thiserror::Error)]
#[error("cannot start bot '{command}'")]
pub struct SpawnError {
    command: String,
    source: io::Error,
}

/// What the reader thread reports.
enum ReadEvent {
    /// A complete line, stamped when its end was read; `crlf` when it ended with CR LF (or
    /// with a CR alone, where that ends a line).
    Line {
        text: String,
        at: Instant,
        crlf: bool,
    },
    TooLong,
    Closed,
}

/// Stderr kept for the current game, capped.
#[derive(Default)]
struct StderrBuffer {
    kept: Vec<u8>,
    dropped: u64,
}

pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<ReadEvent>,
    stderr: Arc<Mutex<StderrBuffer>>,
    transcript: Vec<TranscriptLine>,
    options: ProcessOptions,
    /// Set once the stdout reader reported the end: nothing more can come.
    closed: bool,
    /// The sandboxed bot's writable directory, removed after the bot is gone.
    _scratch: Option<Scratch>,
    /// The group holding every process of the bot, when its processes are limited that way.
    pids_group: Option<PidsCgroup>,
    /// Lines the bot ended with CR LF rather than LF alone (accepted, but worth telling).
    crlf_lines: usize,
    reaped: bool,
}

impl BotProcess {
    /// Starts `command` (program and arguments, no shell) in a new process group.
    pub fn spawn(command: &[String], options: ProcessOptions) -> Result<BotProcess, SpawnError> {
        let display = command.join(" ");
        let scratch = if options.sandbox {
            Some(Scratch::new().map_err(|e| SpawnError {
                command: display.clone(),
                source: io::Error::other(e.to_string()),
            })?)
        } else {
            None
        };
        let wrapped;
        let command = match &scratch {
            Some(scratch) => {
                wrapped = sandbox::wrap(command, scratch.path());
                &wrapped[..]
            }
            None => command,
        };
        let (program, args) = command.split_first().ok_or_else(|| SpawnError {
            command: display.clone(),
            source: io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
        })?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A pids cgroup limits the bot's processes better than RLIMIT_NPROC, where one can be
        // made (see `pids_cgroup`).
        let pids_group = options
            .limits
            .processes
            .and_then(|max| PidsCgroup::create(max).ok());
        let joiner = pids_group.as_ref().map(PidsCgroup::joiner);
        let mut limits = options.limits;
        if pids_group.is_some() {
            limits.processes = None;
        }
        // SAFETY: between fork and exec the closure only makes async-signal-safe system calls
        // (setsid, open, write, setrlimit) and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                // Its own session, hence its own process group: killed as a whole, and out of
                // reach of the terminal's Ctrl-C (the referee decides when bots stop).
                nix::unistd::setsid()?;
                close_inherited_descriptors();
                if let Some(joiner) = &joiner {
                    joiner.join()?;
                }
                limits.apply()
            });
        }
        if let Some(dir) = &options.working_dir {
            cmd.current_dir(dir);
        }
        let mut child = cleanup::spawn_registered(&mut cmd).map_err(|source| SpawnError {
            command: display.clone(),
            source,
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        // Writes must never block past a deadline: the bot may not read its input.
        let flags = fcntl(stdin.as_raw_fd(), FcntlArg::F_GETFL).map_err(|e| SpawnError {
            command: display.clone(),
            source: e.into(),
        })?;
        fcntl(
            stdin.as_raw_fd(),
            FcntlArg::F_SETFL(OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK),
        )
        .map_err(|e| SpawnError {
            command: display.clone(),
            source: e.into(),
        })?;

        // Bounded: a bot flooding its output is blocked in its own write, not buffered here.
        let (sender, events) = mpsc::sync_channel(256);
        let stdout = child.stdout.take().expect("stdout is piped");
        let max_line = options.max_line;
        let cr_ends_line = options.line_ends == LineEnds::CrLf;
        thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || {
                read_lines(stdout, max_line, cr_ends_line, |event| {
                    sender.send(event).is_ok()
                })
            })
            .map_err(|source| SpawnError {
                command: display.clone(),
                source,
            })?;

        let stderr = Arc::new(Mutex::new(StderrBuffer::default()));
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        let cap = options.stderr_cap;
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || {
                let mut buf = [0u8; 8192];
                loop {
                    match stderr_pipe.read(&mut buf) {
                        Ok(0) => return,
                        Ok(n) => {
                            let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
                            let room = cap.saturating_sub(kept.kept.len()).min(n);
                            kept.kept.extend_from_slice(&buf[..room]);
                            kept.dropped += (n - room) as u64;
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => return,
                    }
                }
            })
            .map_err(|source| SpawnError {
                command: display,
                source,
            })?;

        Ok(BotProcess {
            child,
            stdin: Some(stdin),
            events,
            stderr,
            transcript: Vec::new(),
            options,
            closed: false,
            reaped: false,
            _scratch: scratch,
            pids_group,
            crlf_lines: 0,
        })
    }

    /// The bot's process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes `lines`, each followed by the line end, before `deadline`. Returns the instant
    /// the last byte was handed to the pipe.
    pub fn send_lines(&mut self, lines: &[String], deadline: Instant) -> Result<Instant, Fault> {
        let line_end: &[u8] = match self.options.line_ends {
            LineEnds::Lf => b"\n",
            LineEnds::CrLf => b"\r\n",
        };
        let mut bytes = Vec::new();
        for line in lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.extend_from_slice(line_end);
            self.transcript.push(TranscriptLine {
                at: Instant::now(),
                direction: Direction::ToBot,
                line: line.clone(),
            });
        }
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
                        return Err(Fault::Timeout {
                            waited: Duration::ZERO,
                        });
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
    /// logged and passed over (Gomocup's `MESSAGE` lines); any other line is a fault.
    pub fn drain_unrequested(&mut self, skip: impl Fn(&str) -> bool) -> Result<(), Fault> {
        loop {
            match self.events.try_recv() {
                Ok(ReadEvent::Line { text, at, crlf }) => {
                    self.log_received(&text, at, crlf);
                    if !skip(&text) {
                        return Err(Fault::Unrequested { line: text });
                    }
                }
                Ok(ReadEvent::TooLong) => {
                    return Err(Fault::LineTooLong {
                        limit: self.options.max_line,
                    })
                }
                Ok(ReadEvent::Closed) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.closed = true;
                    return Err(self.exited());
                }
                Err(mpsc::TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Sends `request` and reads the bot's lines through `read` until it names the answer.
    /// The clock runs from the flush of the request to the read of the answer's line, lines
    /// passed over included; the watchdog gives up `watchdog` after the flush. The answer's
    /// [`Answer::original`] is the bot's own line when `read` translated it.
    pub fn exchange(
        &mut self,
        request: &[String],
        watchdog: Duration,
        mut read: impl FnMut(&str) -> Reading,
    ) -> Result<Answer, Fault> {
        let cpu_before = self.cpu_time();
        let asked_at = Instant::now();
        let mut answer = self
            .send_lines(request, asked_at + watchdog)
            .and_then(|sent_at| {
                let deadline = sent_at + watchdog;
                loop {
                    let (text, at) = self.receive(asked_at, sent_at, deadline)?;
                    match read(&text) {
                        Reading::Answer(line) => {
                            break Ok(Answer {
                                original: (line != text).then_some(text),
                                line,
                                // A fast bot may answer before `write` returns here; that is
                                // no time at all.
                                elapsed: at.saturating_duration_since(sent_at),
                                cpu: None,
                            });
                        }
                        Reading::Skip => {}
                        Reading::Reply(lines) => {
                            self.send_lines(&lines, deadline)?;
                        }
                        Reading::Refuse(fault) => break Err(fault),
                    }
                }
            })
            .map_err(|fault| self.blame_limits(fault))?;
        answer.cpu = cpu_before
            .zip(self.cpu_time())
            .map(|(before, after)| after.saturating_sub(before));
        Ok(answer)
    }

    /// Waits for the next line until `deadline`, returning it with the instant it was read.
    /// `asked_at` is when the request began to be written and `sent_at` when it was complete.
    fn receive(
        &mut self,
        asked_at: Instant,
        sent_at: Instant,
        deadline: Instant,
    ) -> Result<(String, Instant), Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(ReadEvent::Line { text, at, crlf }) => {
                self.log_received(&text, at, crlf);
                if at < asked_at {
                    // Read before the request was even begun: written before being asked.
                    return Err(Fault::Unrequested { line: text });
                }
                Ok((text, at))
            }
            Ok(ReadEvent::TooLong) => Err(Fault::LineTooLong {
                limit: self.options.max_line,
            }),
            Ok(ReadEvent::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(self.exited())
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout {
                waited: sent_at.elapsed(),
            }),
        }
    }

    fn log_received(&mut self, text: &str, at: Instant, crlf: bool) {
        self.crlf_lines += usize::from(crlf);
        self.transcript.push(TranscriptLine {
            at,
            direction: Direction::FromBot,
            line: text.to_string(),
        });
    }

    /// Describes how the bot went away: the limit it hit, or its exit status if it exits
    /// soon, else that it closed its output.
    fn exited(&mut self) -> Fault {
        match self.reap_within(Duration::from_millis(200)) {
            Some((status, peak_rss_kib)) => {
                let signal = status.signal().and_then(|s| Signal::try_from(s).ok());
                match self.options.limits.exceeded(signal, peak_rss_kib) {
                    Some((code, detail)) => Fault::Limit { code, detail },
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

    /// Names the processes limit as the cause of a failure when the bot was refused a process
    /// or thread meanwhile: a bot that cannot fork or start a thread usually hangs or dies.
    fn blame_limits(&self, fault: Fault) -> Fault {
        let caused = matches!(
            fault,
            Fault::NotReady { .. } | Fault::Timeout { .. } | Fault::Exited { .. }
        );
        match &self.pids_group {
            Some(group) if caused && group.limit_hit() => Fault::Limit {
                code: "process-limit",
                detail: format!(
                    "reached its limit of {} processes and threads ({fault})",
                    self.options.limits.processes.unwrap_or(0)
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
            // SAFETY: `rusage` is plain data, written by the kernel.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: waits for our own child with valid pointers to `status` and `usage`.
            let found = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
            if found == pid {
                self.reaped = true;
                cleanup::unregister(self.child.id());
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

    /// CPU time the bot's process (all its threads) has used so far.
    fn cpu_time(&self) -> Option<Duration> {
        if self.reaped {
            return None;
        }
        let clock = nix::time::clock_getcpuclockid(Pid::from_raw(self.child.id() as i32)).ok()?;
        Some(Duration::from(clock.now().ok()?))
    }

    /// Tells the bot to quit, gives it the grace period to exit, then kills whatever is left
    /// of its process group and reaps it. Returns how long the bot took to exit, or `None` when
    /// it had to be killed.
    pub fn quit(mut self) -> Option<Duration> {
        self.end(&[RefereeMessage::Quit.to_string()])
    }

    /// Sends `farewell` (the protocol's way to say "exit"; nothing for protocols that have
    /// none), closes the bot's input, gives it the grace period to exit, then kills whatever is
    /// left of its process group and reaps it. Returns how long the bot took to exit, or `None`
    /// when it had to be killed.
    pub fn end(&mut self, farewell: &[String]) -> Option<Duration> {
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
                self.reaped = true;
                took = Some(asked.elapsed());
                cleanup::unregister(self.child.id());
            }
        }
        self.kill();
        took
    }

    /// Closes the bot's input and collects what it writes until its output closes or `wait`
    /// passes. A bot that kept its answer in an unflushed buffer writes it now, as it exits.
    pub fn close_input_and_collect(&mut self, wait: Duration) -> Vec<String> {
        self.stdin = None;
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while !self.closed {
            match self
                .events
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(ReadEvent::Line { text, at, crlf }) => {
                    self.log_received(&text, at, crlf);
                    lines.push(text);
                }
                Ok(ReadEvent::TooLong) => {}
                Ok(ReadEvent::Closed) | Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        lines
    }

    /// How many of the bot's lines ended with CR LF.
    pub fn crlf_lines(&self) -> usize {
        self.crlf_lines
    }

    /// Kills the whole process group at once, reaps the bot, and sweeps up any descendant
    /// that escaped the group.
    pub fn kill(&mut self) {
        self.stdin = None;
        // The group may still hold children even when the bot itself has exited.
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        if let Some(group) = &self.pids_group {
            group.kill_all();
        }
        if !self.reaped {
            // Should the group be gone already, the bot itself still must not outlive us.
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
            cleanup::unregister(self.child.id());
        }
        cleanup::sweep_orphans();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Each message on its own line.
fn lines_of_messages(messages: &[RefereeMessage]) -> Vec<String> {
    messages.iter().map(ToString::to_string).collect()
}

/// The referee's own protocol: the seat's messages are the bot's lines.
impl Seat for BotProcess {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        self.drain_unrequested(|_| false)?;
        let answer = self
            .exchange(&lines_of_messages(messages), allowance, |line| {
                Reading::Answer(line.to_string())
            })
            .map_err(|fault| match fault {
                Fault::Timeout { .. } => Fault::NotReady {
                    detail: format!("no 'ready' line within {} ms", allowance.as_millis()),
                },
                other => other,
            })?;
        Ready::parse(&answer.line).map_err(|e| Fault::NotReady {
            detail: e.to_string(),
        })
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.drain_unrequested(|_| false)?;
        self.exchange(&lines_of_messages(messages), watchdog, |line| {
            Reading::Answer(line.to_string())
        })
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        if !self.closed {
            let _ = self.send_lines(
                &lines_of_messages(messages),
                Instant::now() + Duration::from_millis(100),
            );
        }
    }

    fn take_log(&mut self) -> SeatLog {
        let mut stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        SeatLog {
            transcript: std::mem::take(&mut self.transcript),
            stderr: std::mem::take(&mut stderr.kept),
            stderr_dropped: std::mem::take(&mut stderr.dropped),
        }
    }

    fn finish(&mut self) {
        self.end(&[RefereeMessage::Quit.to_string()]);
    }
}

/// Splits the byte stream into lines, stamping each with the instant its last chunk was read.
/// A line reaching `max_line` bytes without a line end is reported at once; the rest of it is
/// discarded. Lines end with LF, a CR before it removed; with `cr_ends_line` a CR alone ends a
/// line too (and an LF right after it is part of that line end). Invalid UTF-8 is replaced,
/// never trusted.
fn read_lines(
    mut source: impl Read,
    max_line: usize,
    cr_ends_line: bool,
    mut emit: impl FnMut(ReadEvent) -> bool,
) {
    let is_end = |b: &u8| *b == b'\n' || (cr_ends_line && *b == b'\r');
    let mut buf = vec![0u8; 64 * 1024];
    let mut line = Vec::new();
    let mut overlong = false;
    // The last line ended with a CR (only with `cr_ends_line`): an LF right after it is the
    // second half of a CR LF, not an empty line.
    let mut after_cr = false;
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let at = Instant::now();
        for chunk in buf[..n].split_inclusive(is_end) {
            let end = chunk.last().copied().filter(is_end);
            let body = match end {
                Some(_) => &chunk[..chunk.len() - 1],
                None => chunk,
            };
            if std::mem::take(&mut after_cr) && body.is_empty() && end == Some(b'\n') {
                continue;
            }
            if !overlong {
                line.extend_from_slice(body);
                // A CR may be the first half of a CRLF still to come: it never counts.
                let length = line.len() - usize::from(line.last() == Some(&b'\r'));
                if length > max_line {
                    overlong = true;
                    line.clear();
                    if !emit(ReadEvent::TooLong) {
                        return;
                    }
                }
            }
            if let Some(end) = end {
                if !overlong {
                    let crlf = end == b'\r' || line.last() == Some(&b'\r');
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    let text = String::from_utf8_lossy(&line).into_owned();
                    if !emit(ReadEvent::Line { text, at, crlf }) {
                        return;
                    }
                }
                line.clear();
                overlong = false;
                after_cr = end == b'\r';
            }
        }
    }
    emit(ReadEvent::Closed);
}

/// Marks every descriptor above stderr close-on-exec, so a bot inherits nothing the referee
/// itself inherited or opened (another bot's pipes, a jobserver, a log file). Runs between fork
/// and exec: system calls only. Marking rather than closing keeps std's own exec-error pipe
/// working.
fn close_inherited_descriptors() {
    // SAFETY: close_range only changes descriptor flags of this (child) process.
    let marked = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if marked != 0 {
        // Kernels before 5.11: mark them one by one, up to the descriptor limit.
        let highest = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
            .map_or(1024, |(soft, _)| soft.min(65_536)) as i32;
        for fd in 3..highest {
            // SAFETY: F_SETFD on a descriptor that may not exist only fails with EBADF.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
    }
}

/// "exited with code 1", "killed by signal 9 (SIGKILL)".
fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        format!("exited with code {code} before the game ended")
    } else if let Some(signal) = status.signal() {
        let name = Signal::try_from(signal)
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|_| "unknown".into());
        format!("killed by signal {signal} ({name}) before the game ended")
    } else {
        format!("ended ({status}) before the game ended")
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

    fn lines_of(input: &[u8], max: usize) -> Vec<String> {
        lines_split(input, max, false)
    }

    fn lines_split(input: &[u8], max: usize, cr_ends_line: bool) -> Vec<String> {
        let mut out = Vec::new();
        read_lines(input, max, cr_ends_line, |event| {
            out.push(match event {
                ReadEvent::Line {
                    text, crlf: true, ..
                } => format!("line:{text}+cr"),
                ReadEvent::Line { text, .. } => format!("line:{text}"),
                ReadEvent::TooLong => "too-long".into(),
                ReadEvent::Closed => "closed".into(),
            });
            true
        });
        out
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
        let mut events = Vec::new();
        read_lines(
            Chunks(vec![b"OK\r".to_vec(), b"\n7,7\r".to_vec(), b"\n".to_vec()]),
            10,
            true,
            |event| {
                if let ReadEvent::Line { text, .. } = event {
                    events.push(text);
                }
                true
            },
        );
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
        let mut events = Vec::new();
        read_lines(
            Chunks(vec![b"0123456789\r".to_vec(), b"\n".to_vec()]),
            10,
            false,
            |event| {
                events.push(match event {
                    ReadEvent::Line { text, .. } => text,
                    ReadEvent::TooLong => "too-long".into(),
                    ReadEvent::Closed => "closed".into(),
                });
                true
            },
        );
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
            let mut events = Vec::new();
            read_lines(Chunks(chunks), max, cr_ends_line, |event| {
                events.push(event);
                true
            });
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

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            lines_of(b"\xff\xfe\n", 10),
            ["line:\u{fffd}\u{fffd}", "closed"]
        );
    }
}
