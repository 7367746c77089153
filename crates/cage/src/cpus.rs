//! Which processors a thread, and the bots it asks for, may run on. Bots are forked by one
//! thread of their own (see `supervisor`), so a bot is given the processors of the thread that
//! asked for it, before its program starts: pinning a table's thread pins its bots too.

use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::unistd::Pid;

/// The processors the calling thread may run on; none if the kernel would not say.
pub fn mask() -> Option<CpuSet> {
    sched_getaffinity(Pid::from_raw(0)).ok()
}

/// The processors the calling thread may run on, in order; empty if the kernel would not say.
pub fn allowed() -> Vec<usize> {
    mask()
        .map(|set| {
            (0..CpuSet::count())
                .filter(|&cpu| set.is_set(cpu).unwrap_or(false))
                .collect()
        })
        .unwrap_or_default()
}

/// Restricts the calling thread, and the bots it asks for from now on, to processor `cpu`.
pub fn pin_current_thread(cpu: usize) -> nix::Result<()> {
    let mut set = CpuSet::new();
    set.set(cpu)?;
    restrict_to(&set)
}

/// Restricts the calling thread to `set`: one system call, safe between fork and exec.
pub fn restrict_to(set: &CpuSet) -> nix::Result<()> {
    sched_setaffinity(Pid::from_raw(0), set)
}

/// Tasks ready to run on this machine now and its processors online, when there were more
/// of the first than of the second: a bot late then may have been kept from a processor.
pub fn overload() -> Option<(u32, u32)> {
    let loadavg = std::fs::read_to_string("/proc/loadavg").ok()?;
    let runnable = runnable_in(&loadavg)?;
    let online = nix::unistd::sysconf(nix::unistd::SysconfVar::_NPROCESSORS_ONLN)
        .ok()
        .flatten()
        .and_then(|n| u32::try_from(n).ok())?;
    (runnable > online).then_some((runnable, online))
}

/// The tasks runnable now, from `/proc/loadavg` (`0.52 0.58 0.59 3/412 12345`: its fourth
/// field, runnable over all), the reading task itself among them.
fn runnable_in(loadavg: &str) -> Option<u32> {
    loadavg
        .split_whitespace()
        .nth(3)?
        .split_once('/')?
        .0
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_runnable_tasks_are_read_from_loadavg() {
        assert_eq!(super::runnable_in("0.52 0.58 0.59 3/412 12345\n"), Some(3));
        assert_eq!(super::runnable_in("0.52 0.58"), None);
        assert_eq!(super::runnable_in("0.5 0.5 0.5 x/4 1"), None);
    }

    use super::*;

    #[test]
    fn a_pinned_thread_and_its_children_run_on_that_processor_only() {
        let cpu = *allowed().last().expect("at least one processor");
        std::thread::spawn(move || {
            pin_current_thread(cpu).unwrap();
            assert_eq!(allowed(), vec![cpu]);
            let status = std::fs::read_to_string("/proc/thread-self/status").unwrap();
            let line = status
                .lines()
                .find(|l| l.starts_with("Cpus_allowed_list:"))
                .unwrap()
                .to_string();
            assert_eq!(
                line.split_whitespace().nth(1),
                Some(cpu.to_string().as_str())
            );
            let child = std::process::Command::new("cat")
                .arg("/proc/self/status")
                .output()
                .unwrap();
            let text = String::from_utf8(child.stdout).unwrap();
            let list = text
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(str::trim);
            assert_eq!(list, Some(cpu.to_string().as_str()), "{text}");
        })
        .join()
        .unwrap();
        // The test's own thread is not pinned.
        assert!(!allowed().is_empty());
    }
}
