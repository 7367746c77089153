//! How oversubscribed the machine is: the 1-minute load average over the processors online.
//! A search that runs flat out gets a share of a processor, and every wake-up on the way to its
//! answer (its own thread, then the referee's) waits its turn; with four matches on two cores,
//! or a build beside the games, that wait reached tens of milliseconds. A budget shortened by
//! this factor leaves the room.

use std::time::{Duration, Instant};

/// How long a reading is trusted: the load average itself moves over a minute, and a bot
/// answering a thousand instant moves a second should not read /proc for each.
const FRESH_FOR: Duration = Duration::from_secs(1);

/// The machine's load per processor, read from /proc/loadavg at most once per [`FRESH_FOR`].
#[derive(Debug, Default)]
pub struct MachineLoad {
    read: Option<(Instant, f64)>,
}

impl MachineLoad {
    /// Runnable tasks per processor online, at least 1 (1 when /proc cannot be read).
    pub fn oversubscription(&mut self) -> f64 {
        let now = Instant::now();
        match self.read {
            Some((at, factor)) if now.duration_since(at) < FRESH_FOR => factor,
            _ => {
                let factor = std::fs::read_to_string("/proc/loadavg")
                    .ok()
                    .and_then(|text| per_processor(&text, processors_online()))
                    .unwrap_or(1.0);
                self.read = Some((now, factor));
                factor
            }
        }
    }
}

/// Every processor of the machine, not only those this process may use: a pinned bot shares
/// the machine's load with the other processors' tasks.
fn processors_online() -> usize {
    // SAFETY: sysconf only reads a system value.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(online).unwrap_or(1).max(1)
}

/// The first field of /proc/loadavg (`11.22 11.32 10.07 15/179 1354`) over `processors`, at
/// least 1.
fn per_processor(loadavg: &str, processors: usize) -> Option<f64> {
    let load: f64 = loadavg.split_whitespace().next()?.parse().ok()?;
    Some((load / processors as f64).max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_is_read_per_processor_and_never_below_one() {
        assert_eq!(
            per_processor("11.22 11.32 10.07 15/179 1354", 2),
            Some(5.61)
        );
        assert_eq!(per_processor("0.50 0.40 0.30 1/100 7", 2), Some(1.0));
        assert_eq!(per_processor("", 2), None);
        assert_eq!(per_processor("busy 1 2", 2), None);
        let mut load = MachineLoad::default();
        let first = load.oversubscription();
        assert!(first >= 1.0);
        // Within a second the reading is reused.
        assert_eq!(load.oversubscription(), first);
    }
}
