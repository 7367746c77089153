//! Watches the referee's own scheduling, so that a timeout caused by the referee's machine (an
//! overloaded host, a paused VM, swapping) is not charged to a bot.
//!
//! A monitor thread sleeps in short ticks and notes every wake-up that came late. A timeout
//! verdict is then checked against the stalls noted during that move: a stall longer than the
//! time margin means the referee itself could not have timed the move fairly. The monitor
//! belongs to the supervisor of a command run (which owns it, so this module knows nothing of
//! it); its thread stops when the monitor is dropped.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How often the monitor wakes.
const TICK: Duration = Duration::from_millis(2);
/// Late wakes shorter than this are ordinary scheduling noise and not noted.
const NOTABLE: Duration = Duration::from_millis(3);
/// Stalls remembered (the oldest are forgotten first).
const REMEMBERED: usize = 4096;

/// A late wake: the monitor meant to wake at `due` and woke `late` after it.
#[derive(Clone, Copy, Debug)]
struct Stall {
    due: Instant,
    late: Duration,
}

/// What the monitor thread and its owner share.
#[derive(Default)]
struct Noted {
    stalls: Mutex<VecDeque<Stall>>,
    stop: AtomicBool,
}

/// A running stall monitor.
pub(crate) struct StallMonitor {
    noted: Arc<Noted>,
    thread: Option<JoinHandle<()>>,
}

impl StallMonitor {
    /// Starts the monitor's thread: stalls are noted from now on.
    pub(crate) fn start() -> io::Result<StallMonitor> {
        let noted = Arc::new(Noted::default());
        let watched = Arc::clone(&noted);
        let thread = thread::Builder::new()
            .name("stall-monitor".into())
            .spawn(move || {
                while !watched.stop.load(Ordering::Relaxed) {
                    let due = Instant::now() + TICK;
                    thread::sleep(TICK);
                    let late = Instant::now().saturating_duration_since(due);
                    if late >= NOTABLE {
                        let mut stalls = watched.stalls.lock().unwrap_or_else(|e| e.into_inner());
                        if stalls.len() == REMEMBERED {
                            stalls.pop_front();
                        }
                        stalls.push_back(Stall { due, late });
                    }
                }
            })?;
        Ok(StallMonitor {
            noted,
            thread: Some(thread),
        })
    }

    /// The longest stall that overlapped the interval `from..to`, if any was noted.
    pub(crate) fn worst_stall_between(&self, from: Instant, to: Instant) -> Option<Duration> {
        let stalls = self.noted.stalls.lock().unwrap_or_else(|e| e.into_inner());
        stalls
            .iter()
            .filter(|stall| stall.due <= to && stall.due + stall.late >= from)
            .map(|stall| stall.late)
            .max()
    }
}

impl Drop for StallMonitor {
    /// Stops the thread (it notices within a tick).
    fn drop(&mut self) {
        self.noted.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_stretch_has_no_long_stall() {
        let monitor = StallMonitor::start().unwrap();
        let from = Instant::now();
        thread::sleep(Duration::from_millis(30));
        // Scheduling noise is allowed, a 500 ms freeze of an idle test is not.
        let worst = monitor
            .worst_stall_between(from, Instant::now())
            .unwrap_or_default();
        assert!(worst < Duration::from_millis(500), "{worst:?}");
    }

    #[test]
    fn stalls_outside_the_interval_do_not_count() {
        let monitor = StallMonitor::start().unwrap();
        let later = Instant::now() + Duration::from_secs(3600);
        assert_eq!(
            monitor.worst_stall_between(later, later + Duration::from_secs(1)),
            None
        );
    }

    #[test]
    fn the_thread_stops_with_its_monitor() {
        let monitor = StallMonitor::start().unwrap();
        let thread = monitor.thread.as_ref().unwrap().thread().clone();
        let noted = Arc::downgrade(&monitor.noted);
        drop(monitor);
        // Joined in the drop: the thread no longer holds what it noted.
        assert!(noted.upgrade().is_none(), "{:?} still runs", thread.name());
    }
}
