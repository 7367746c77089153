//! A bot's standard error, kept for the game's record.
//!
//! One thread of the referee's, the stderr poller, drains every bot's pipe as the bot writes
//! (one `epoll` for all of them, rather than a thread a bot), so a bot flooding stderr never
//! blocks in its `write` (not even on its opponent's time), and only the first bytes of each
//! game are kept, so it cannot fill the referee's memory. Taking the game's share first reads
//! whatever the pipe still holds, under the same lock the poller reads with: everything the bot
//! wrote before the referee asked is in the record, however late the poller would have woken.
//! A pipe stays with the poller until its last writer is gone, whether or not the game still
//! wants it.

use nix::errno::Errno;
use nix::sys::epoll::{Epoll, EpollCreateFlags, EpollEvent, EpollFlags, EpollTimeout};
use referee_records::transcript::MAX_STAMPED_LINES;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::process::ChildStderr;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread;
use std::time::Instant;

/// One game's stderr: the bytes kept, how many more were dropped past the cap, and when each
/// line of those kept began (read from the pipe), so that a viewer can place it by the moves.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct StderrShare {
    pub kept: Vec<u8>,
    pub dropped: u64,
    /// When each line of `kept` began, in order, at most [`MAX_STAMPED_LINES`].
    pub line_starts: Vec<Instant>,
}

/// Collects a bot's stderr from the moment it starts until its last writer is gone.
pub(crate) struct StderrCollector {
    shared: Arc<Shared>,
}

struct Shared {
    /// Non-blocking; read only while `state` is locked, so no byte is read twice or lost.
    pipe: File,
    state: Mutex<State>,
}

struct State {
    share: StderrShare,
    cap: usize,
    /// The pipe reported its end (or an error): nothing more can come.
    ended: bool,
    /// The next byte kept begins a line.
    at_line_start: bool,
}

impl State {
    /// Reads what the pipe holds now, without waiting, in at most `reads` reads.
    fn drain(&mut self, mut pipe: &File, reads: usize) {
        let mut buf = [0u8; 8192];
        for _ in 0..reads {
            if self.ended {
                return;
            }
            match pipe.read(&mut buf) {
                Ok(0) => self.ended = true,
                Ok(n) => {
                    let now = Instant::now();
                    let room = self.cap.saturating_sub(self.share.kept.len()).min(n);
                    for &byte in &buf[..room] {
                        if self.at_line_start && self.share.line_starts.len() < MAX_STAMPED_LINES {
                            self.share.line_starts.push(now);
                        }
                        self.at_line_start = byte == b'\n';
                    }
                    self.share.kept.extend_from_slice(&buf[..room]);
                    self.share.dropped += (n - room) as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => self.ended = true,
            }
        }
    }
}

impl StderrCollector {
    /// Starts draining `pipe`, keeping at most `cap` bytes per game.
    pub(crate) fn start(pipe: ChildStderr, cap: usize) -> io::Result<StderrCollector> {
        let pipe = File::from(OwnedFd::from(pipe));
        super::pipes::set_nonblocking(&pipe)?;
        let shared = Arc::new(Shared {
            pipe,
            state: Mutex::new(State {
                share: StderrShare::default(),
                cap,
                ended: false,
                at_line_start: true,
            }),
        });
        Poller::get()?.watch(Arc::clone(&shared))?;
        Ok(StderrCollector { shared })
    }

    /// Reads what the pipe holds now, at a line of the bot's answer: what it wrote on stderr
    /// before that line is then stamped before its opponent can answer, however late the
    /// poller would have woken (a viewer places the lines by the moves).
    /// A bot flooding stderr cannot hold the game here: the poller reads past the first 64 KiB.
    pub(crate) fn catch_up(&self) {
        self.shared.lock().drain(&self.shared.pipe, 8);
    }

    /// The lines of this game's share begun at `since` or later (as far as they were kept
    /// and stamped), the last `most` of them, each without its line end: what the bot wrote
    /// while an answer was awaited. Lines longer than `longest` bytes are left out.
    pub(crate) fn lines_since(&self, since: Instant, most: usize, longest: usize) -> Vec<String> {
        let mut state = self.shared.lock();
        state.drain(&self.shared.pipe, 8);
        let share = &state.share;
        let mut lines: Vec<String> = share
            .kept
            .split(|&byte| byte == b'\n')
            .zip(&share.line_starts)
            .filter(|(line, &at)| at >= since && line.len() <= longest)
            .map(|(line, _)| String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)))
            .map(std::borrow::Cow::into_owned)
            .collect();
        lines.drain(..lines.len().saturating_sub(most));
        lines
    }

    /// Everything the bot wrote since the last call (capped), the pipe's current content
    /// included.
    pub(crate) fn take(&self) -> StderrShare {
        let mut state = self.shared.lock();
        state.drain(&self.shared.pipe, usize::MAX);
        // The next share goes to a file of its own, where its first byte begins a line.
        state.at_line_start = true;
        std::mem::take(&mut state.share)
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The stderr poller: one `epoll` watching every bot's pipe, and the thread waiting on it.
struct Poller {
    epoll: Epoll,
    /// The pipes watched, by the number their events carry.
    watched: Mutex<Watched>,
}

#[derive(Default)]
struct Watched {
    pipes: HashMap<u64, Arc<Shared>>,
    next: u64,
}

/// Events taken from the `epoll` at a time.
const EVENTS_AT_ONCE: usize = 64;

impl Poller {
    /// The process's poller, started at the first bot; it lives as long as the process.
    fn get() -> io::Result<&'static Poller> {
        static POLLER: OnceLock<Result<&'static Poller, io::ErrorKind>> = OnceLock::new();
        let start = || -> io::Result<&'static Poller> {
            let poller: &'static Poller = Box::leak(Box::new(Poller {
                epoll: Epoll::new(EpollCreateFlags::EPOLL_CLOEXEC)?,
                watched: Mutex::new(Watched::default()),
            }));
            thread::Builder::new()
                .name("bot-stderr".into())
                .spawn(move || poller.run())?;
            Ok(poller)
        };
        (*POLLER.get_or_init(|| start().map_err(|error| error.kind()))).map_err(io::Error::from)
    }

    fn watched(&self) -> MutexGuard<'_, Watched> {
        self.watched
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn watch(&self, shared: Arc<Shared>) -> io::Result<()> {
        let mut watched = self.watched();
        let number = watched.next;
        watched.next += 1;
        self.epoll
            .add(&shared.pipe, EpollEvent::new(EpollFlags::EPOLLIN, number))?;
        watched.pipes.insert(number, shared);
        Ok(())
    }

    /// The thread's work: wait for bytes (or the end) on any pipe, then read them under that
    /// pipe's lock; a pipe whose end was read is no longer watched.
    fn run(&self) {
        let mut events = [EpollEvent::empty(); EVENTS_AT_ONCE];
        loop {
            let ready = match self.epoll.wait(&mut events, EpollTimeout::NONE) {
                Ok(ready) => ready,
                Err(Errno::EINTR) => continue,
                Err(_) => return,
            };
            for event in &events[..ready] {
                let number = event.data();
                let Some(shared) = self.watched().pipes.get(&number).cloned() else {
                    continue;
                };
                let mut state = shared.lock();
                state.drain(&shared.pipe, usize::MAX);
                if state.ended {
                    let _ = self.epoll.delete(&shared.pipe);
                    self.watched().pipes.remove(&number);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    fn bot_writing(script: &str) -> (std::process::Child, StderrCollector) {
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let collector = StderrCollector::start(child.stderr.take().unwrap(), 100).unwrap();
        (child, collector)
    }

    #[test]
    fn each_byte_is_taken_once_while_the_bot_runs() {
        let (mut child, collector) = bot_writing("printf 'pid 1\\n' >&2; exec sleep 5");
        // Nothing tells this test when the line is written: take until it has shown up whole.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        while seen != b"pid 1\n" && Instant::now() < deadline {
            seen.extend(collector.take().kept);
        }
        assert_eq!(seen, b"pid 1\n");
        assert_eq!(collector.take(), StderrShare::default(), "taken once");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn everything_written_before_the_exit_is_in_the_share() {
        for _ in 0..20 {
            let (mut child, collector) = bot_writing("printf 'last words\\n' >&2");
            child.wait().unwrap();
            assert_eq!(collector.take().kept, b"last words\n");
        }
    }

    #[test]
    fn each_line_kept_is_stamped_when_it_began() {
        let (mut child, collector) =
            bot_writing("printf 'one\\ntw' >&2; sleep 0.2; printf 'o\\nthree\\n' >&2");
        child.wait().unwrap();
        let share = collector.take();
        assert_eq!(share.kept, b"one\ntwo\nthree\n");
        let [one, two, three] = share.line_starts[..] else {
            panic!("{:?}", share.line_starts);
        };
        // 'two' began with the first write, 'three' with the second, 0.2 s later.
        assert!(two - one < Duration::from_millis(100));
        assert!(three - two >= Duration::from_millis(150));
    }

    /// What a bot wrote on stderr while its move was awaited: the lines begun since, a long
    /// one left out, without their line ends; the share stays for the record.
    #[test]
    fn the_lines_since_a_moment_are_found_without_taking_them() {
        let (mut child, collector) = bot_writing(
            "printf 'before\\n' >&2; sleep 0.3; printf '4 4\\r\\nthis line is long\\n5 5' >&2",
        );
        std::thread::sleep(Duration::from_millis(150));
        let since = Instant::now();
        child.wait().unwrap();
        assert_eq!(collector.lines_since(since, 16, 8), ["4 4", "5 5"]);
        assert_eq!(collector.lines_since(since, 1, 100), ["5 5"]);
        assert_eq!(collector.take().kept.len(), 33);
    }

    #[test]
    fn a_flood_is_capped_and_counted() {
        let (mut child, collector) = bot_writing("head -c 100000 /dev/zero >&2");
        child.wait().unwrap();
        let share = collector.take();
        assert_eq!(share.kept.len(), 100);
        assert_eq!(share.dropped, 100000 - 100);
    }

    #[test]
    fn one_thread_collects_the_stderr_of_every_bot() {
        let bots: Vec<_> = (0..12)
            .map(|i| bot_writing(&format!("printf 'bot {i}\\n' >&2; exec sleep 5")))
            .collect();
        let deadline = Instant::now() + Duration::from_secs(5);
        for (i, (_, collector)) in bots.iter().enumerate() {
            let mut seen = Vec::new();
            while seen.is_empty() && Instant::now() < deadline {
                seen.extend(collector.take().kept);
            }
            assert_eq!(seen, format!("bot {i}\n").as_bytes());
        }
        let pollers = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
            .filter(|name| name.trim() == "bot-stderr")
            .count();
        assert_eq!(pollers, 1);
        for (mut child, _) in bots {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }
}
