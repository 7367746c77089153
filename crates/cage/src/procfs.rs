//! What the referee reads of other processes in `/proc`: their parent, session and start time,
//! to find a contained bot's own process, sweep orphans, and tell a process from a later one
//! that was given the same pid.

use std::fs;

/// The fields of `/proc/PID/stat` the referee uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stat {
    pub parent: i32,
    pub session: i32,
    /// Clock ticks since boot when the process started: with the pid, it names the process
    /// for good (a pid is given again only to a later process).
    pub start: u64,
    /// CPU time used, in clock ticks: the process's own (user and system) and that of its
    /// children it reaped.
    pub cpu_ticks: u64,
}

/// `/proc/PID/stat` of `pid`, if it exists.
pub(crate) fn stat(pid: i32) -> Option<Stat> {
    parse_stat(&fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The fields after the parenthesised name (which may itself hold spaces and parentheses):
/// state, ppid, pgrp, session, ..., and starttime, the 22nd field of the whole line.
fn parse_stat(stat: &str) -> Option<Stat> {
    let after_name: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let field = |index: usize| after_name.get(index)?.parse::<u64>().ok();
    Some(Stat {
        parent: after_name.get(1)?.parse().ok()?,
        session: after_name.get(3)?.parse().ok()?,
        start: field(19)?,
        // utime, stime, cutime, cstime.
        cpu_ticks: (11..=14).map(field).sum::<Option<u64>>()?,
    })
}

/// What the processes of a session are doing: a bot started through a wrapper (a shell
/// script, an interpreter's version shim, a launcher) does its work in processes other than
/// the one the referee started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SessionUsage {
    /// CPU time used by the session's processes alive now, in clock ticks.
    pub cpu_ticks: u64,
    /// Whether any of their threads is running, waiting for a CPU or for a disk.
    pub busy: bool,
}

/// The usage of every process in `session` (none found: zero and not busy).
pub(crate) fn session_usage(session: i32) -> SessionUsage {
    let mut usage = SessionUsage {
        cpu_ticks: 0,
        busy: false,
    };
    for pid in pids() {
        if let Some(stat) = stat(pid).filter(|stat| stat.session == session) {
            usage.cpu_ticks += stat.cpu_ticks;
            usage.busy = usage.busy || busy(pid);
        }
    }
    usage
}

/// Whether any thread of `pid` is running or waiting for a CPU or a disk (state `R` or `D` in
/// `/proc/PID/task/TID/stat`): a starved program, or one loading its files, uses little CPU
/// time yet is not idle.
pub(crate) fn busy(pid: i32) -> bool {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        fs::read_to_string(task.path().join("stat"))
            .ok()
            .and_then(|stat| stat_state(&stat))
            .is_some_and(|state| matches!(state, 'R' | 'D'))
    })
}

/// The state letter of a `stat` line, the first field after the parenthesised name.
fn stat_state(stat: &str) -> Option<char> {
    stat[stat.rfind(')')? + 1..]
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

/// The pids of every process visible now.
pub(crate) fn pids() -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .collect()
}

/// The direct children of `parent`, oldest first.
pub(crate) fn children_of(parent: i32) -> Vec<i32> {
    let mut children: Vec<(u64, i32)> = pids()
        .into_iter()
        .filter_map(|pid| {
            let stat = stat(pid)?;
            (stat.parent == parent).then_some((stat.start, pid))
        })
        .collect();
    children.sort_unstable();
    children.into_iter().map(|(_, pid)| pid).collect()
}

/// How many pids after a parent's own [`oldest_child`] looks at before it scans `/proc`.
const CHILD_PROBE: i32 = 16;

/// The oldest child of `parent`. Pids are given in increasing order, so a process's first child
/// is nearly always among the few pids right after its own (other processes forking meanwhile
/// take the ones between): those are looked at first, the lowest first, and only when none is
/// a child is every process in `/proc` read.
pub(crate) fn oldest_child(parent: i32) -> Option<i32> {
    (1..=CHILD_PROBE)
        .filter_map(|offset| parent.checked_add(offset))
        .find(|&pid| stat(pid).is_some_and(|stat| stat.parent == parent))
        .or_else(|| children_of(parent).first().copied())
}

/// The first descendant of `pid` `depth` generations down, following the oldest child at each
/// step: the program a wrapper of `depth` processes started.
pub(crate) fn descendant(pid: i32, depth: usize) -> Option<i32> {
    (0..depth).try_fold(pid, |pid, _| oldest_child(pid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn a_name_with_spaces_and_parentheses_is_skipped() {
        let line = "42 (a (b) c) S 7 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 12345 1000 10";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                parent: 7,
                session: 42,
                start: 12345,
                cpu_ticks: 3,
            })
        );
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(stat_state(line), Some('S'));
        assert_eq!(stat_state("garbage"), None);
    }

    #[test]
    fn finds_children_and_grandchildren() {
        let mut child = Command::new("sh")
            .args(["-c", "sleep 5 & wait"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let me = std::process::id() as i32;
        assert!(children_of(me).contains(&pid));
        assert_eq!(stat(pid).unwrap().parent, me);
        let deadline = Instant::now() + Duration::from_secs(5);
        let grandchild = loop {
            if let Some(found) = descendant(pid, 1) {
                break found;
            }
            assert!(Instant::now() < deadline, "sleep never started");
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(stat(grandchild).unwrap().parent, pid);
        assert!(stat(grandchild).unwrap().start >= stat(pid).unwrap().start);
        assert_eq!(descendant(pid, 0), Some(pid));
        assert_eq!(descendant(grandchild, 1), None);
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(grandchild),
            nix::sys::signal::Signal::SIGKILL,
        );
        child.wait().unwrap();
    }
}
