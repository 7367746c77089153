//! A bot's cgroups: a group per bot in each hierarchy with a controller its limits need (pids,
//! memory), made under the referee's own cgroup, joined by the bot between fork and exec, and
//! removed with whatever it still holds when the bot is done with.
//!
//! A cgroup holds every process the bot starts, escaped from its session or not, and its
//! limits hold for the bot as a whole and for root as for anyone. Making one needs a hierarchy
//! the referee may write: cgroup v1 with the controller (as root), or cgroup v2 with the
//! controller available to the referee's cgroup (as root, or delegated to the referee's user).
//! Under v2 one group holds both limits, and a cgroup that holds processes cannot enable
//! controllers for its children ("no internal processes"), so the referee first moves itself
//! into a leaf of its own cgroup. The limits themselves are written by the controllers' modules
//! (`pids_cgroup`, `memory_cgroup`); a bot's set of groups is `bot_cgroups`.

use super::procfs;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Which cgroup interface a hierarchy has: the files of a group differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V2,
}

/// Why no group with a controller can be made here.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CgroupError {
    #[error("no cgroup hierarchy with the {0} controller is mounted")]
    NoController(&'static str),
    #[error("the {controller} controller is not enabled for the referee's cgroup {parent}")]
    NotDelegated {
        controller: &'static str,
        parent: PathBuf,
    },
    #[error("cannot set up the cgroup {path}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl CgroupError {
    fn io(path: &Path) -> impl FnOnce(io::Error) -> CgroupError + '_ {
        move |source| CgroupError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The referee's own cgroup in the hierarchy that has a controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Home {
    pub(super) dir: PathBuf,
    version: Version,
}

/// Where the referee's own cgroup with `controller` is, looked up once: before the referee
/// may have moved itself into a leaf of it (see [`delegate`]).
pub(super) fn home(controller: &'static str) -> Option<Home> {
    static PIDS: OnceLock<Option<Home>> = OnceLock::new();
    static MEMORY: OnceLock<Option<Home>> = OnceLock::new();
    let cell = match controller {
        "pids" => &PIDS,
        _ => &MEMORY,
    };
    cell.get_or_init(|| {
        let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let memberships = fs::read_to_string("/proc/self/cgroup").ok()?;
        locate(controller, &mountinfo, &memberships)
    })
    .clone()
}

/// The directory of the process's cgroup in the hierarchy with `controller`, from its
/// `/proc/self/mountinfo` and `/proc/self/cgroup`: a v1 hierarchy of the controller, else the
/// v2 hierarchy if the controller is available there.
fn locate(controller: &str, mountinfo: &str, memberships: &str) -> Option<Home> {
    // "8:pids:/some/path" (v1) or "0::/some/path" (v2).
    let path_in = |v2: bool| {
        memberships.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let wanted = if v2 {
                controllers.is_empty()
            } else {
                controllers.split(',').any(|c| c == controller)
            };
            wanted.then(|| path.to_string())
        })
    };
    // Mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS".
    let mut v2 = None;
    for line in mountinfo.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = left.split(' ').collect();
        let mut right = right.split(' ');
        let (Some(fstype), _, Some(options)) = (right.next(), right.next(), right.next()) else {
            continue;
        };
        let (Some(root), Some(mount_point)) = (fields.get(3), fields.get(4)) else {
            continue;
        };
        let version = match fstype {
            "cgroup" if options.split(',').any(|o| o == controller) => Version::V1,
            "cgroup2" => Version::V2,
            _ => continue,
        };
        let Some(path) = path_in(version == Version::V2) else {
            continue;
        };
        let relative = path.strip_prefix(root).unwrap_or(&path);
        let dir = Path::new(mount_point).join(relative.trim_start_matches('/'));
        match version {
            Version::V1 => return Some(Home { dir, version }),
            Version::V2 => v2 = Some(Home { dir, version }),
        }
    }
    v2
}

/// The run's part of every group name: the referee's pid and start time, which no later
/// process shares.
fn run_name() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        let pid = std::process::id();
        let start = procfs::stat(pid as i32).map_or(0, |stat| stat.start);
        format!("referee-{pid}.{start}")
    })
}

/// Makes the directory of a group: see [`BotCgroups::create`].
pub(crate) type MakeDir<'a> = &'a dyn Fn(&Path) -> io::Result<()>;

/// Makes `controller` available to the groups made under `home`. Under v2 it must be enabled in
/// the referee's cgroup's `cgroup.subtree_control`, which a cgroup holding processes refuses
/// (EBUSY): the referee then moves itself into a leaf of its cgroup (made by `make`) and tries
/// again.
pub(super) fn delegate(
    home: &Home,
    controller: &'static str,
    make: MakeDir,
) -> Result<(), CgroupError> {
    if home.version == Version::V1 {
        return Ok(());
    }
    let not_delegated = || CgroupError::NotDelegated {
        controller,
        parent: home.dir.clone(),
    };
    let available = fs::read_to_string(home.dir.join("cgroup.controllers"))
        .is_ok_and(|text| text.split_whitespace().any(|c| c == controller));
    if !available {
        return Err(not_delegated());
    }
    let control = home.dir.join("cgroup.subtree_control");
    let enabled = || {
        fs::read_to_string(&control)
            .is_ok_and(|text| text.split_whitespace().any(|c| c == controller))
    };
    let enable = || fs::write(&control, format!("+{controller}"));
    if enabled() {
        return Ok(());
    }
    match enable() {
        Ok(()) => Ok(()),
        Err(error) if error.raw_os_error() == Some(libc::EBUSY) => {
            let leaf = home.dir.join(format!("{}-self", run_name()));
            match make(&leaf) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(CgroupError::io(&leaf)(error)),
            }
            let procs = leaf.join("cgroup.procs");
            fs::write(&procs, std::process::id().to_string()).map_err(CgroupError::io(&procs))?;
            enable().map_err(|_| not_delegated())
        }
        Err(_) => Err(not_delegated()),
    }
}

static GROUPS_MADE: AtomicU64 = AtomicU64::new(0);

/// One group of one bot, removed when dropped (after killing whatever is still in it).
#[derive(Debug)]
pub(crate) struct Group {
    pub(super) dir: PathBuf,
    version: Version,
    /// `cgroup.procs` of the group, ready for the child to join it between fork and exec.
    procs: CString,
}

impl Group {
    /// A new, empty group under the referee's cgroup with `controller`, its directory made by
    /// `make`.
    pub(super) fn create(
        home: &Home,
        controller: &'static str,
        make: MakeDir,
    ) -> Result<Group, CgroupError> {
        delegate(home, controller, make)?;
        let dir = home.dir.join(format!(
            "{}-{}",
            run_name(),
            GROUPS_MADE.fetch_add(1, Ordering::Relaxed)
        ));
        make(&dir).map_err(CgroupError::io(&dir))?;
        let procs = dir.join("cgroup.procs");
        Ok(Group {
            procs: CString::new(procs.as_os_str().as_bytes()).expect("a path has no NUL"),
            version: home.version,
            dir,
        })
    }

    pub(crate) fn version(&self) -> Version {
        self.version
    }

    /// Whether the group has a file (a controller's files appear once it is enabled).
    pub(crate) fn has(&self, file: &str) -> bool {
        self.dir.join(file).exists()
    }

    /// Writes one of the group's files.
    pub(crate) fn write(&self, file: &str, value: &str) -> Result<(), CgroupError> {
        let path = self.dir.join(file);
        fs::write(&path, value).map_err(CgroupError::io(&path))
    }

    /// Reads one of the group's files.
    pub(crate) fn read(&self, file: &str) -> Option<String> {
        fs::read_to_string(self.dir.join(file)).ok()
    }

    pub(super) fn joiner(&self) -> Joiner {
        Joiner(self.procs.clone())
    }

    /// Kills every process in the group, wherever it went in the process tree. A process forked
    /// meanwhile is caught by the next round.
    pub(super) fn kill_all(&self) {
        kill_members(&self.dir);
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        remove(&self.dir);
    }
}

/// Kills every process in the group at `dir`, in rounds until it is empty (or gone).
pub(crate) fn kill_members(dir: &Path) {
    for _ in 0..16 {
        let members: Vec<i32> = fs::read_to_string(dir.join("cgroup.procs"))
            .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default();
        if members.is_empty() {
            return;
        }
        for pid in members {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

/// Kills what the group at `dir` holds and removes it. A killed process leaves the group a
/// moment after the signal, so the removal is tried for a second.
pub(crate) fn remove(dir: &Path) {
    kill_members(dir);
    for _ in 0..200 {
        if fs::remove_dir(dir).is_ok() || !dir.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The path of a group's `cgroup.procs`, to join it from a forked child.
#[derive(Clone, Debug)]
pub(crate) struct Joiner(CString);

impl Joiner {
    /// Moves the calling process into the group. Runs in the forked child before `exec`, so it
    /// only makes system calls (open, write, close) on the path prepared beforehand.
    pub(crate) fn join(&self) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
30 23 0:26 / /sys/fs/cgroup rw,nosuid - tmpfs tmpfs ro,mode=755
33 30 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
36 30 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
40 30 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
";

    #[test]
    fn a_hybrid_machine_has_its_controllers_in_v1() {
        let cgroup = "8:pids:/\n4:memory:/jobs/7\n0::/\n";
        assert_eq!(
            locate("memory", MOUNTINFO, cgroup),
            Some(Home {
                dir: PathBuf::from("/sys/fs/cgroup/memory/jobs/7"),
                version: Version::V1
            })
        );
        assert_eq!(
            locate("pids", MOUNTINFO, cgroup).unwrap().dir,
            Path::new("/sys/fs/cgroup/pids")
        );
    }

    #[test]
    fn a_unified_machine_has_them_in_v2_under_a_bind_mounts_root() {
        let mountinfo = "29 23 0:26 /user.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
        let cgroup = "0::/user.slice/user-1000.slice/session-2.scope\n";
        assert_eq!(
            locate("memory", mountinfo, cgroup),
            Some(Home {
                dir: PathBuf::from("/sys/fs/cgroup/user-1000.slice/session-2.scope"),
                version: Version::V2
            })
        );
        assert_eq!(locate("memory", "", cgroup), None);
    }
}
