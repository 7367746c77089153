//! Watches the referee's own scheduling, so that a timeout caused by the referee's machine (an
//! overloaded host, a paused VM, swapping) is not charged to a bot.
//!
//! A monitor thread sleeps in short ticks and notes every wake-up that came late. A timeout
//! verdict is then checked against the stalls noted during that move: a stall longer than the
//! time margin means the referee itself could not have timed the move fairly.

use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};
use std::thread;
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

struct Monitor {
    stalls: Mutex<VecDeque<Stall>>,
}

fn monitor() -> &'static Monitor {
    static MONITOR: OnceLock<&'static Monitor> = OnceLock::new();
    MONITOR.get_or_init(|| {
        let monitor: &'static Monitor = Box::leak(Box::new(Monitor {
            stalls: Mutex::new(VecDeque::new()),
        }));
        thread::Builder::new()
            .name("stall-monitor".into())
            .spawn(move || loop {
                let due = Instant::now() + TICK;
                thread::sleep(TICK);
                let late = Instant::now().saturating_duration_since(due);
                if late >= NOTABLE {
                    let mut stalls = monitor.stalls.lock().unwrap_or_else(|e| e.into_inner());
                    if stalls.len() == REMEMBERED {
                        stalls.pop_front();
                    }
                    stalls.push_back(Stall { due, late });
                }
            })
            .expect("the stall monitor thread starts");
        monitor
    })
}

/// Starts watching (idempotent). Call it before the first move to be judged.
pub fn start_watching() {
    monitor();
}

/// The longest stall that overlapped the interval `from..to`, if any was noted.
pub fn worst_stall_between(from: Instant, to: Instant) -> Option<Duration> {
    let stalls = monitor().stalls.lock().unwrap_or_else(|e| e.into_inner());
    stalls
        .iter()
        .filter(|stall| stall.due <= to && stall.due + stall.late >= from)
        .map(|stall| stall.late)
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_stretch_has_no_long_stall() {
        start_watching();
        let from = Instant::now();
        thread::sleep(Duration::from_millis(30));
        // Scheduling noise is allowed, a 500 ms freeze of an idle test is not.
        let worst = worst_stall_between(from, Instant::now()).unwrap_or_default();
        assert!(worst < Duration::from_millis(500), "{worst:?}");
    }

    #[test]
    fn stalls_outside_the_interval_do_not_count() {
        start_watching();
        let later = Instant::now() + Duration::from_secs(3600);
        assert_eq!(
            worst_stall_between(later, later + Duration::from_secs(1)),
            None
        );
    }
}
