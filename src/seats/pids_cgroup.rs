//! A pids cgroup per bot: the processes limit that holds even for root.
//!
//! `RLIMIT_NPROC` is a poor processes limit for contests: it counts every process of the user
//! (the referee's and the other bots' included) and the kernel does not enforce it for root.
//! A pids cgroup counts exactly the bot's processes and threads, whoever runs it, records that
//! the limit was hit (`pids.events`), and lists every process of the bot for the kill, even
//! those that left its session with `setsid`. It needs a writable pids hierarchy: cgroup v1's
//! pids controller, or cgroup v2 with the pids controller delegated to the referee's cgroup.
//! Where there is none, the limit falls back to `RLIMIT_NPROC` (see [`available`]).

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Why no pids cgroup can be made here.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    #[error("no cgroup hierarchy with the pids controller is mounted")]
    NoController,
    #[error("the pids controller is not enabled for the referee's cgroup {0}")]
    NotDelegated(PathBuf),
    #[error("cannot set up the pids cgroup {path}")]
    Io { path: PathBuf, source: io::Error },
}

/// One bot's pids cgroup, removed when dropped (after killing whatever is still in it).
#[derive(Debug)]
pub struct PidsCgroup {
    dir: PathBuf,
    /// `cgroup.procs` of the group, ready for the child to join it between fork and exec.
    procs: CString,
}

/// The path of a group's `cgroup.procs`, to join it from a forked child.
#[derive(Clone, Debug)]
pub struct Joiner(CString);

impl Joiner {
    /// Moves the calling process into the group. Runs in the forked child before `exec`, so it
    /// only makes system calls (open, write, close) on the path prepared beforehand.
    pub fn join(&self) -> io::Result<()> {
        // SAFETY: `self.0` is a CString: a valid NUL-terminated path that outlives the call.
        let fd = unsafe { libc::open(self.0.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // "0" names the writing process, in both cgroup versions.
        // SAFETY: the buffer is a static byte string at least 1 byte long, the length written;
        // `fd` is the descriptor opened above and still open.
        let written = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
        let result = if written == 1 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        };
        // SAFETY: `fd` was opened above, is owned by nothing else, and is closed only here.
        unsafe { libc::close(fd) };
        result
    }
}

static GROUPS_MADE: AtomicU64 = AtomicU64::new(0);

/// Whether a pids cgroup can be made here; the error says why not.
pub fn available() -> Result<(), CgroupError> {
    PidsCgroup::create(1).map(drop)
}

impl PidsCgroup {
    /// A new group, under the referee's own pids cgroup, allowing at most `max` processes and
    /// threads at once.
    pub fn create(max: u64) -> Result<PidsCgroup, CgroupError> {
        let parent = own_pids_cgroup().ok_or(CgroupError::NoController)?;
        let name = format!(
            "referee-{}-{}",
            std::process::id(),
            GROUPS_MADE.fetch_add(1, Ordering::Relaxed)
        );
        let dir = parent.join(name);
        let io_error = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CgroupError::Io { path, source }
        };
        fs::create_dir(&dir).map_err(io_error(&dir))?;
        let procs = dir.join("cgroup.procs");
        let group = PidsCgroup {
            procs: CString::new(procs.as_os_str().as_bytes()).expect("a path has no NUL"),
            dir,
        };
        let limit = group.dir.join("pids.max");
        if !limit.exists() {
            // cgroup v2: the controller must be enabled for the parent's children.
            let _ = fs::write(parent.join("cgroup.subtree_control"), "+pids");
            if !limit.exists() {
                return Err(CgroupError::NotDelegated(parent));
            }
        }
        fs::write(&limit, max.to_string()).map_err(io_error(&limit))?;
        Ok(group)
    }

    /// What a child needs to join the group between fork and exec.
    pub fn joiner(&self) -> Joiner {
        Joiner(self.procs.clone())
    }

    /// Whether a fork or thread creation in the group was refused for the limit.
    pub fn limit_hit(&self) -> bool {
        fs::read_to_string(self.dir.join("pids.events"))
            .ok()
            .and_then(|events| {
                events
                    .lines()
                    .find_map(|line| line.strip_prefix("max "))
                    .and_then(|count| count.trim().parse::<u64>().ok())
            })
            .is_some_and(|refused| refused > 0)
    }

    /// The processes in the group now.
    fn members(&self) -> Vec<i32> {
        fs::read_to_string(self.dir.join("cgroup.procs"))
            .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }

    /// Kills every process in the group, wherever it went in the process tree. A process forked
    /// meanwhile is caught by the next round.
    pub fn kill_all(&self) {
        for _ in 0..16 {
            let members = self.members();
            if members.is_empty() {
                return;
            }
            for pid in members {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        self.kill_all();
        // A killed process leaves the group a moment after the signal.
        for _ in 0..200 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The directory of the referee's own cgroup in a hierarchy with the pids controller.
fn own_pids_cgroup() -> Option<PathBuf> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let memberships = fs::read_to_string("/proc/self/cgroup").ok()?;
    // "8:pids:/some/path" (v1) or "0::/some/path" (v2).
    let path_in = |v2: bool| {
        memberships.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let wanted = if v2 {
                controllers.is_empty()
            } else {
                controllers.split(',').any(|c| c == "pids")
            };
            wanted.then(|| path.to_string())
        })
    };
    // Mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS".
    let mounts = mountinfo.lines().filter_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let fields: Vec<&str> = left.split(' ').collect();
        let mut right = right.split(' ');
        let (fstype, _, options) = (right.next()?, right.next()?, right.next()?);
        Some((
            fields.get(3)?.to_string(),
            fields.get(4)?.to_string(),
            fstype,
            options.to_string(),
        ))
    });
    let mut v2 = None;
    for (root, mount_point, fstype, options) in mounts {
        let (is_v2, path) = match fstype {
            "cgroup" if options.split(',').any(|o| o == "pids") => (false, path_in(false)?),
            "cgroup2" => (true, path_in(true)?),
            _ => continue,
        };
        let relative = path.strip_prefix(root.as_str()).unwrap_or(&path);
        let dir = Path::new(&mount_point).join(relative.trim_start_matches('/'));
        if !is_v2 {
            return Some(dir);
        }
        v2 = Some(dir);
    }
    v2
}
