//! The processes limit kept by a pids cgroup: the limit that holds even for root.
//!
//! `RLIMIT_NPROC` is a poor processes limit for contests: it counts every process of the user
//! (the referee's and the other bots' included) and the kernel does not enforce it for root.
//! A pids cgroup (see the `cgroup` module) counts exactly the bot's processes and threads,
//! whoever runs it, and records that the limit was hit (`pids.events`). Where none can be made,
//! the limit falls back to `RLIMIT_NPROC` (see [`available`]).

use super::cgroup::{CgroupError, Group};

/// The controller's name.
pub(crate) const CONTROLLER: &str = "pids";

/// Allows at most `max` processes and threads in `group` at once.
pub(crate) fn set_limit(group: &Group, max: u64) -> Result<(), CgroupError> {
    group.write("pids.max", &max.to_string())
}

/// Whether a fork or thread creation in `group` was refused for the limit.
pub(crate) fn limit_hit(group: &Group) -> bool {
    group
        .read("pids.events")
        .and_then(|events| refused(&events))
        .is_some_and(|refused| refused > 0)
}

/// The forks refused, from `pids.events` ("max N").
fn refused(events: &str) -> Option<u64> {
    events
        .lines()
        .find_map(|line| line.strip_prefix("max "))
        .and_then(|count| count.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_count_the_refusals() {
        assert_eq!(refused("max 3\n"), Some(3));
        assert_eq!(refused("max 0\n"), Some(0));
        assert_eq!(refused(""), None);
    }
}
