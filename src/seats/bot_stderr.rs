//! A bot's standard error, kept for the game's record.
//!
//! A thread drains the pipe as the bot writes, so a bot flooding stderr never blocks in its
//! `write` (not even on its opponent's time), and only the first bytes of each game are kept, so
//! it cannot fill the referee's memory. Taking the game's share first reads whatever the pipe
//! still holds, under the same lock the thread reads with: everything the bot wrote before the
//! referee asked is in the record, however late the thread would have woken.

use nix::errno::Errno;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// One game's stderr: the bytes kept, how many more were dropped past the cap, and when each
/// line of those kept began (read from the pipe), so that a viewer can place it by the moves.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct StderrShare {
    pub kept: Vec<u8>,
    pub dropped: u64,
    /// When each line of `kept` began, in order, at most [`MAX_STAMPED_LINES`].
    pub line_starts: Vec<Instant>,
}

/// The most lines of a game's stderr whose start time is kept.
pub const MAX_STAMPED_LINES: usize = 4096;

/// Collects a bot's stderr from the moment it starts until its last writer is gone.
pub struct StderrCollector {
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
    /// Reads what the pipe holds now, without waiting.
    fn drain(&mut self, mut pipe: &File) {
        let mut buf = [0u8; 8192];
        while !self.ended {
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
    pub fn start(pipe: ChildStderr, cap: usize) -> io::Result<StderrCollector> {
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
        let drained = Arc::clone(&shared);
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || drain_until_end(&drained))?;
        Ok(StderrCollector { shared })
    }

    /// Everything the bot wrote since the last call (capped), the pipe's current content
    /// included.
    pub fn take(&self) -> StderrShare {
        let mut state = self.shared.lock();
        state.drain(&self.shared.pipe);
        // The next share goes to a file of its own, where its first byte begins a line.
        state.at_line_start = true;
        std::mem::take(&mut state.share)
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The thread's work: wait for bytes (or the end), then read them under the lock.
fn drain_until_end(shared: &Shared) {
    loop {
        let mut fds = [PollFd::new(shared.pipe.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::NONE) {
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => return,
        }
        let mut state = shared.lock();
        state.drain(&shared.pipe);
        if state.ended {
            return;
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

    #[test]
    fn a_flood_is_capped_and_counted() {
        let (mut child, collector) = bot_writing("head -c 100000 /dev/zero >&2");
        child.wait().unwrap();
        let share = collector.take();
        assert_eq!(share.kept.len(), 100);
        assert_eq!(share.dropped, 100000 - 100);
    }
}
