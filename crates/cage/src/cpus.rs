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

#[cfg(test)]
mod tests {
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
