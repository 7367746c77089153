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
struct Noted {
    log: Mutex<Log>,
    stop: AtomicBool,
}

/// The stalls noted, and when the monitor last woke: a stall still under way when a timeout is
/// judged (the referee was frozen, and the judging thread ran before the monitor's) shows as a
/// monitor that has not woken for too long.
struct Log {
    stalls: VecDeque<Stall>,
    last_wake: Instant,
}

impl Log {
    /// Notes the monitor's wake at `woke`, late if it came more than a tick after the last
    /// one: counted from the last wake, not from when the sleep began, so that a freeze
    /// between a wake and the next sleep shows too.
    fn wake(&mut self, woke: Instant) {
        let due = self.last_wake + TICK;
        let late = woke.saturating_duration_since(due);
        self.last_wake = woke;
        if late >= NOTABLE {
            if self.stalls.len() == REMEMBERED {
                self.stalls.pop_front();
            }
            self.stalls.push_back(Stall { due, late });
        }
    }
}

impl Noted {
    fn new(last_wake: Instant) -> Noted {
        Noted {
            log: Mutex::new(Log {
                stalls: VecDeque::new(),
                last_wake,
            }),
            stop: AtomicBool::new(false),
        }
    }

    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A running stall monitor.
pub(crate) struct StallMonitor {
    noted: Arc<Noted>,
    thread: Option<JoinHandle<()>>,
}

impl StallMonitor {
    /// Starts the monitor's thread: stalls are noted from now on.
    pub(crate) fn start() -> io::Result<StallMonitor> {
        let noted = Arc::new(Noted::new(Instant::now()));
        let watched = Arc::clone(&noted);
        let thread = thread::Builder::new()
            .name("stall-monitor".into())
            .spawn(move || {
                while !watched.stop.load(Ordering::Relaxed) {
                    thread::sleep(TICK);
                    let woke = Instant::now();
                    watched.log().wake(woke);
                }
            })?;
        Ok(StallMonitor {
            noted,
            thread: Some(thread),
        })
    }

    /// The longest stall that overlapped the interval `from..to`, if any was noted, counting
    /// one still under way (the monitor has not woken since it was due).
    pub(crate) fn worst_stall_between(&self, from: Instant, to: Instant) -> Option<Duration> {
        let log = self.noted.log();
        let due = log.last_wake + TICK;
        let under_way = Stall {
            due,
            late: Instant::now().saturating_duration_since(due),
        };
        log.stalls
            .iter()
            .chain((under_way.late >= NOTABLE).then_some(&under_way))
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
    fn a_late_wake_is_late_from_the_last_wake() {
        let start = Instant::now();
        let noted = Noted::new(start);
        // Frozen 500 ms, wherever in its cycle: the next wake is 500 ms after the last.
        noted.log().wake(start + Duration::from_millis(500));
        let worst = StallMonitor {
            noted: Arc::new(noted),
            thread: None,
        }
        .worst_stall_between(start, start + Duration::from_millis(10));
        assert_eq!(worst, Some(Duration::from_millis(500).saturating_sub(TICK)));
    }

    #[test]
    fn a_stall_still_under_way_counts() {
        // A monitor whose thread has not woken for 100 ms, as after the whole referee was
        // frozen and the judging thread runs first.
        let start = Instant::now();
        let frozen = StallMonitor {
            noted: Arc::new(Noted::new(start)),
            thread: None,
        };
        thread::sleep(Duration::from_millis(100));
        let worst = frozen
            .worst_stall_between(start, Instant::now())
            .expect("the stall under way");
        assert!(worst >= Duration::from_millis(90), "{worst:?}");
        // Not before the monitor was due.
        assert_eq!(
            frozen.worst_stall_between(start.checked_sub(Duration::from_secs(2)).unwrap(), start),
            None
        );
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
