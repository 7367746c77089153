//! The memory limit of a whole bot, kept by a memory cgroup.
//!
//! `RLIMIT_AS` bounds each process's address space, not the bot: a bot that forks six children
//! of 200 MiB each under a limit of 256 MiB uses 1.2 GiB, and memory outside any address space
//! (files in a tmpfs, SysV shared memory, pipe buffers) is not counted at all. A memory cgroup
//! (see the `cgroup` module) counts every page charged to the bot's processes, tmpfs pages
//! included, and the kernel kills a process of the group (the OOM killer, within the group)
//! when the group would go past its limit; the kill is recorded, which gives the
//! `memory-limit` verdict. Swap is not allowed to stretch the limit.

use super::cgroup::{CgroupError, Group, Version};

/// The controller's name.
pub(crate) const CONTROLLER: &str = "memory";

/// Limits `group` to `bytes` of memory, swap included.
pub(crate) fn set_limit(group: &Group, bytes: u64) -> Result<(), CgroupError> {
    let bytes = bytes.to_string();
    match group.version() {
        Version::V1 => {
            group.write("memory.limit_in_bytes", &bytes)?;
            // Memory and swap together, where swap is accounted; it cannot be below the first.
            if group.has("memory.memsw.limit_in_bytes") {
                group.write("memory.memsw.limit_in_bytes", &bytes)?;
            }
            Ok(())
        }
        Version::V2 => {
            group.write("memory.max", &bytes)?;
            if group.has("memory.swap.max") {
                group.write("memory.swap.max", "0")?;
            }
            Ok(())
        }
    }
}

/// Whether the kernel killed a process of `group` because the group reached its limit.
pub(crate) fn oom_killed(group: &Group) -> bool {
    let file = match group.version() {
        Version::V1 => "memory.oom_control",
        Version::V2 => "memory.events",
    };
    group
        .read(file)
        .and_then(|text| count(&text, "oom_kill"))
        .is_some_and(|kills| kills > 0)
}

/// The most memory the group's processes held at once, in bytes, where the kernel tells it
/// (v1, and v2 from Linux 5.19).
pub(crate) fn peak(group: &Group) -> Option<u64> {
    let file = match group.version() {
        Version::V1 => "memory.max_usage_in_bytes",
        Version::V2 => "memory.peak",
    };
    group.read(file)?.trim().parse().ok()
}

/// The value of `key` in a flat keyed file ("oom_kill 2"), as v1's `memory.oom_control` and v2's
/// `memory.events` are.
fn count(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kills_are_read_from_both_versions_files() {
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n";
        let v2 = "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(count(v1, "oom_kill"), Some(5));
        assert_eq!(count(v2, "oom_kill"), Some(1));
        assert_eq!(count(v2, "oom"), Some(2));
        assert_eq!(count("oom_kill_disable 0\n", "oom_kill"), None);
    }
}
