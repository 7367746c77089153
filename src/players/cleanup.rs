//! Nothing a bot starts may outlive its game, and nothing may outlive the referee.
//!
//! Every bot runs in its own session and process group, which the referee kills as a whole.
//! A bot can still escape its group by calling `setsid` in a child. To catch those too, the
//! referee binary makes itself a *child subreaper*: when a bot dies, its orphaned descendants
//! become the referee's children instead of init's, and [`sweep_orphans`] kills and reaps every
//! child of the referee that is not a live bot. What this cannot catch without a sandbox: a
//! descendant that escapes while its parent chain is still alive and then outlives the sweep
//! by being re-parented later (it is caught by the next sweep, at the latest when the referee
//! exits), or a process started through another service (at, systemd-run, a daemon's socket).
//! The bubblewrap sandbox closes those holes with a PID namespace.
//!
//! The registry of live bots also lets Ctrl-C (SIGINT) or SIGTERM stop every bot before the
//! referee exits; finished games are already on disk.

use nix::errno::Errno;
use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;
use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Process ids (also group ids) of the bots alive now.
static LIVE_BOTS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());
static REAPING_ORPHANS: AtomicBool = AtomicBool::new(false);

fn live_bots() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts a bot and registers it, atomically with respect to [`sweep_orphans`] (which would
/// otherwise take a bot forked a moment ago for an orphan).
pub fn spawn_registered(command: &mut Command) -> io::Result<Child> {
    let mut live = live_bots();
    let child = command.spawn()?;
    live.insert(child.id() as i32);
    Ok(child)
}

/// Forgets a bot that has been reaped.
pub fn unregister(pid: u32) {
    live_bots().remove(&(pid as i32));
}

/// Makes this process the reaper of its descendants' orphans. For the referee binary only: a
/// library user may have children of its own that a sweep must not touch.
pub fn enable_orphan_reaping() -> io::Result<()> {
    nix::sys::prctl::set_child_subreaper(true)?;
    REAPING_ORPHANS.store(true, Ordering::SeqCst);
    Ok(())
}

/// Kills and reaps every child of this process that is not a live bot (descendants of dead
/// bots re-parented here). Does nothing unless [`enable_orphan_reaping`] was called.
pub fn sweep_orphans() {
    if !REAPING_ORPHANS.load(Ordering::SeqCst) {
        return;
    }
    let live = live_bots();
    // Killing an orphan may orphan its own children: sweep until none is left.
    for _ in 0..16 {
        let orphans: Vec<i32> = children_of(std::process::id() as i32)
            .into_iter()
            .filter(|pid| !live.contains(pid))
            .collect();
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            while let Err(Errno::EINTR) = waitpid(Pid::from_raw(pid), None) {}
        }
    }
}

/// Reaps any orphan that already exited, without killing anything.
pub fn reap_exited_orphans() {
    if !REAPING_ORPHANS.load(Ordering::SeqCst) {
        return;
    }
    let live = live_bots();
    for pid in children_of(std::process::id() as i32) {
        if !live.contains(&pid) {
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
        }
    }
}

/// Kills every live bot's process group (used when the referee is interrupted).
pub fn kill_all_bots() {
    for &pid in live_bots().iter() {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// On SIGINT or SIGTERM: kill every bot and its orphans, say so, and exit with 130.
pub fn stop_bots_on_interrupt() -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])?;
    std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                kill_all_bots();
                sweep_orphans();
                eprintln!(
                    "referee: stopped by signal {signal}; every bot was killed, finished games are recorded"
                );
                std::process::exit(130);
            }
        })?;
    Ok(())
}

/// Direct children of `parent`, read from /proc.
fn children_of(parent: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| parent_of(pid) == Some(parent))
        .collect()
}

/// The parent of `pid` from /proc/PID/stat (the field after the parenthesised name, which may
/// itself contain spaces and parentheses).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_its_own_children() {
        let mut child = Command::new("sleep").arg("5").spawn().unwrap();
        assert!(children_of(std::process::id() as i32).contains(&(child.id() as i32)));
        assert_eq!(
            parent_of(child.id() as i32),
            Some(std::process::id() as i32)
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
