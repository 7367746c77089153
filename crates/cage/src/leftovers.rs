//! What a referee that was killed (SIGKILL, a crash, the machine's OOM killer) leaves running,
//! found and killed by the next run.
//!
//! A killed referee takes its bots with it: each bot has a parent-death signal, and a bot in a
//! PID namespace of its own (the sandbox's, or the one the referee makes where it can) takes
//! everything it started along. What can outlive it is what a bot outside a namespace started:
//! its children, and any process that left its session. So every run that starts bots keeps a
//! *run file* in a runtime directory of its user, naming its bots' sessions and its cgroups
//! (noted before they exist), and removes the file when it ends. The next run of any command that
//! starts bots reads the files of runs that are gone, and kills every process in their cgroups
//! (removing the groups), in their bots' sessions, or whose environment carries their mark
//! ([`MARK`], which a process that left its session usually still has).

use super::cgroup;
use super::procfs;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The environment variable marking every process a run's bots start outside the sandbox:
/// its value is the run's name.
pub(crate) const MARK: &str = "REFEREE_RUN";

/// This run's file, removed when dropped.
#[derive(Debug)]
pub(crate) struct RunFile {
    path: PathBuf,
    name: String,
    file: Mutex<File>,
}

/// Why the run file cannot be kept.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunFileError {
    #[error("cannot use {dir} for the run file")]
    Dir {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{dir} belongs to another user or is open to others")]
    NotPrivate { dir: PathBuf },
    #[error("cannot write the run file {path}")]
    File {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Where run files are kept: `$XDG_RUNTIME_DIR/referee`, else `/run/referee` for root and
/// `/tmp/referee-UID` for others.
pub(crate) fn runtime_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return Path::new(&dir).join("referee");
    }
    let uid = nix::unistd::geteuid();
    if uid.is_root() {
        PathBuf::from("/run/referee")
    } else {
        PathBuf::from(format!("/tmp/referee-{uid}"))
    }
}

impl RunFile {
    /// Sweeps what the runs that are gone left in `dir`, then starts this run's file there.
    pub(crate) fn start(dir: &Path) -> Result<RunFile, RunFileError> {
        let dir_error = |source| RunFileError::Dir {
            dir: dir.to_path_buf(),
            source,
        };
        match fs::DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(dir_error(error)),
        }
        // In a shared /tmp, another user could have made the directory first.
        let meta = fs::symlink_metadata(dir).map_err(dir_error)?;
        if !meta.is_dir()
            || meta.uid() != nix::unistd::geteuid().as_raw()
            || meta.permissions().mode() & 0o077 != 0
        {
            return Err(RunFileError::NotPrivate {
                dir: dir.to_path_buf(),
            });
        }
        sweep(dir);
        let name = this_run();
        let path = dir.join(format!("run-{name}"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&path)
            .map_err(|source| RunFileError::File {
                path: path.clone(),
                source,
            })?;
        Ok(RunFile {
            path,
            name,
            file: Mutex::new(file),
        })
    }

    /// The value of [`MARK`] for this run.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Notes a bot started: its session is its pid.
    pub(crate) fn note_session(&self, pid: i32) {
        if let Some(stat) = procfs::stat(pid) {
            self.note(&format!("session {pid} {}", stat.start));
        }
    }

    /// Makes a cgroup's directory, noted first, under the file's lock (see
    /// [`RunFile::clean_up_before_exit`]).
    pub(crate) fn make_cgroup(&self, dir: &Path) -> io::Result<()> {
        let mut file = self.file();
        // The run goes on without the note: only a later sweep would miss the group.
        let _ = writeln!(file, "cgroup {}", dir.display());
        fs::create_dir(dir)
    }

    fn note(&self, line: &str) {
        let _ = writeln!(self.file(), "{line}");
    }

    fn file(&self) -> std::sync::MutexGuard<'_, File> {
        self.file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Kills what this run's bots left and removes its cgroups and its file, for a referee
    /// about to exit without dropping its bots (on SIGINT or SIGTERM). It keeps the file's lock
    /// until the process exits, so that no bot's cgroup is made after it, nor noted too late.
    pub(crate) fn clean_up_before_exit(&self) {
        let file = self.file();
        let text = fs::read_to_string(&self.path).unwrap_or_default();
        kill_left(&parse(self.name.clone(), &text));
        self.remove();
        std::mem::forget(file);
    }

    /// Removes the file: nothing of this run is left to sweep.
    fn remove(&self) {
        let _ = fs::remove_file(&self.path);
    }
}

impl Drop for RunFile {
    fn drop(&mut self) {
        self.remove();
    }
}

/// What a run that is gone left to sweep.
#[derive(Debug, Default, PartialEq, Eq)]
struct Left {
    /// The run's name, its processes' [`MARK`].
    name: String,
    /// Each bot's session (its pid) and start time.
    sessions: Vec<(i32, u64)>,
    cgroups: Vec<PathBuf>,
}

/// This run's name, `PID-START`: no other process, now or later, has both its pid and its
/// start time.
pub(crate) fn this_run() -> String {
    let me = std::process::id() as i32;
    let start = procfs::stat(me).map_or(0, |stat| stat.start);
    format!("{me}-{start}")
}

/// Whether the run named `name` (see [`this_run`]) is gone; not for a name of another form.
pub(crate) fn is_gone(name: &str) -> bool {
    let Some((pid, start)) = name.split_once('-') else {
        return false;
    };
    let (Ok(pid), Ok(start)) = (pid.parse::<i32>(), start.parse::<u64>()) else {
        return false;
    };
    !procfs::stat(pid).is_some_and(|stat| stat.start == start)
}

/// Reads a run file named `run-PID-START`, if that run is gone.
fn read_if_gone(path: &Path) -> Option<Left> {
    let name = path
        .file_name()?
        .to_str()?
        .strip_prefix("run-")?
        .to_string();
    if !is_gone(&name) {
        return None;
    }
    let text = fs::read_to_string(path).ok()?;
    Some(parse(name, &text))
}

fn parse(name: String, text: &str) -> Left {
    let mut left = Left {
        name,
        ..Left::default()
    };
    for line in text.lines() {
        match line.split_once(' ') {
            Some(("session", rest)) => {
                if let Some((pid, start)) = rest.split_once(' ') {
                    if let (Ok(pid), Ok(start)) = (pid.parse(), start.parse()) {
                        left.sessions.push((pid, start));
                    }
                }
            }
            Some(("cgroup", dir)) => left.cgroups.push(PathBuf::from(dir)),
            _ => {}
        }
    }
    left
}

/// Kills what every run that is gone left, and removes its file.
fn sweep(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if let Some(left) = read_if_gone(&path) {
            kill_left(&left);
            let _ = fs::remove_file(&path);
        }
    }
}

/// Kills the processes a run left, in rounds (a process may fork while it is looked for).
fn kill_left(left: &Left) {
    for dir in &left.cgroups {
        cgroup::remove(dir);
    }
    let mark = format!("{MARK}={}", left.name).into_bytes();
    let me = std::process::id() as i32;
    let mut killed = HashSet::new();
    for _ in 0..4 {
        let found: Vec<i32> = procfs::pids()
            .into_iter()
            .filter(|&pid| pid != me && !killed.contains(&pid))
            .filter(|&pid| in_left_session(pid, &left.sessions) || carries(pid, &mark))
            .collect();
        if found.is_empty() {
            return;
        }
        for pid in found {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            killed.insert(pid);
        }
    }
}

/// Whether `pid` is in one of `sessions` (a bot's pid and start time) and started no earlier
/// than its bot. A session's id stays taken while any process is in it; should the bot's whole
/// session have ended and its pid been given to a later process, that process (with another
/// start time) shows it, and the session is not the bot's any more.
fn in_left_session(pid: i32, sessions: &[(i32, u64)]) -> bool {
    let Some(stat) = procfs::stat(pid) else {
        return false;
    };
    sessions.iter().any(|&(session, start)| {
        stat.session == session
            && stat.start >= start
            && procfs::stat(session).map_or(true, |leader| leader.start == start)
    })
}

/// Whether `pid`'s environment holds `mark` (`NAME=VALUE`) as one of its entries.
fn carries(pid: i32, mark: &[u8]) -> bool {
    fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|environ| environ.split(|&b| b == 0).any(|entry| entry == mark))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn a_run_file_names_sessions_and_cgroups() {
        let left = parse(
            "12-34".into(),
            "session 100 5000\ncgroup /sys/fs/cgroup/pids/referee-12.34-0\nsession x y\n",
        );
        assert_eq!(
            left,
            Left {
                name: "12-34".into(),
                sessions: vec![(100, 5000)],
                cgroups: vec![PathBuf::from("/sys/fs/cgroup/pids/referee-12.34-0")],
            }
        );
    }

    /// A run that is gone left two processes: one still in its bot's session, one that left
    /// it but kept the mark. The next run's start kills both and removes the file; the live
    /// run's own file is left alone.
    #[test]
    fn the_next_run_kills_what_a_killed_run_left() {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        let gone = "999999999-1";
        let start = |command: &mut Command| {
            // SAFETY: setsid is async-signal-safe and allocates nothing.
            unsafe {
                command.pre_exec(|| nix::unistd::setsid().map(drop).map_err(io::Error::from));
            }
            command.spawn().unwrap()
        };
        let mut in_session = start(Command::new("sleep").arg("30"));
        let mut marked = start(Command::new("sleep").arg("30").env(MARK, gone));
        let mut unrelated = start(Command::new("sleep").arg("30"));
        let session = in_session.id() as i32;
        let session_start = procfs::stat(session).unwrap().start;
        fs::write(
            dir.path().join(format!("run-{gone}")),
            format!("session {session} {session_start}\n"),
        )
        .unwrap();
        let run = RunFile::start(dir.path()).unwrap();
        assert!(!dir.path().join(format!("run-{gone}")).exists());
        for child in [&mut in_session, &mut marked] {
            let deadline = Instant::now() + Duration::from_secs(5);
            while child.try_wait().unwrap().is_none() {
                assert!(Instant::now() < deadline, "a leftover survived the sweep");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        assert!(
            unrelated.try_wait().unwrap().is_none(),
            "an unrelated process was killed"
        );
        unrelated.kill().unwrap();
        unrelated.wait().unwrap();
        // A second run leaves the first one's file, which is alive, alone.
        let path = run.path.clone();
        sweep(dir.path());
        assert!(path.exists());
        drop(run);
        assert!(!path.exists());
    }

    #[test]
    fn a_directory_open_to_others_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let error = RunFile::start(dir.path()).unwrap_err();
        assert!(matches!(error, RunFileError::NotPrivate { .. }), "{error}");
    }
}
