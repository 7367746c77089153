//! Running a bot under bubblewrap (`bwrap`, 0.8 or later; Debian package `bubblewrap`).
//!
//! The sandboxed bot runs as the unprivileged user `nobody` (uid and gid 65534) in user, PID,
//! mount, network, IPC and UTS namespaces of its own, with no capability, `no_new_privs`, no
//! way to make further user namespaces, and a new session. Where the referee runs as root,
//! bubblewrap itself runs as a user and group of the box's own (see [`crate::boxes`]), so for
//! the host the bot is that unprivileged user, which no other box shares: it reads only what
//! anyone may read, its processes limit is its own, and a mistake in the sandbox gives it
//! nothing more.
//!
//! It sees only what a program needs to run: the system directories (`/usr`, `/bin`, `/lib`,
//! `/etc`, `/opt`, ...) read-only, its own directory read-only (see [`bot_directory`]), a fresh
//! `/proc` and `/dev`, and fresh tmpfs mounts for `/tmp` (its `HOME` and `TMPDIR`, also
//! `/var/tmp`), `/dev/shm` and `/run`, sized after its limits; everything else is read-only.
//! No other bot's files, no host socket, no records, no home directory. Its environment holds
//! only `PATH`, `HOME`, `TMPDIR` and the locale.

use super::boxes::{self, BoxLease};
use super::limits::Limits;
use super::pid_namespace::{check, mount};
use std::ffi::{CStr, CString};
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// The sandbox program looked up on the PATH.
pub const BWRAP: &str = "bwrap";

/// The user and group a sandboxed bot runs as inside its user namespace: `nobody` and
/// `nogroup` (outside it, as root, its box's own).
pub(crate) const NOBODY: u32 = 65534;

/// The processes between the referee and a sandboxed bot: bubblewrap and its init.
pub(crate) const HELPERS: u64 = 2;

/// The options of bubblewrap the sandbox needs, and the version that brought the last of them.
const NEEDED: [&str; 5] = [
    "--disable-userns",
    "--size",
    "--clearenv",
    "--remount-ro",
    "--cap-drop",
];

/// The directories of the system a program may need, shown read-only.
const SYSTEM_DIRECTORIES: [&str; 9] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];

/// Where, as root, the bot's directory is mounted for bubblewrap to find it as the box's user (see
/// [`Staging`]): in a fresh tmpfs over `/tmp`, seen by that one bubblewrap only.
const STAGE_PARENT: &CStr = c"/tmp";
const STAGE: &CStr = c"/tmp/bot";

/// `/run` holds nothing a bot needs; a little room for lock files.
const RUN_SIZE: u64 = 1 << 20;

/// A sandbox that cannot be set up: the referee's error, reported before any game (or, for
/// a bot's own directory, when the bot is started).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// No `bwrap` on the PATH.
    #[error("--sandbox needs bubblewrap ('bwrap') on the PATH (Debian/Ubuntu: apt-get install bubblewrap)")]
    Missing,
    /// A bubblewrap without an option the sandbox uses.
    #[error("--sandbox needs bubblewrap 0.8 or later, for its option {missing}; this one is '{version}': install a newer bubblewrap")]
    TooOld {
        /// What `bwrap --version` printed.
        version: String,
        /// The first option needed that its `--help` does not list.
        missing: &'static str,
    },
    /// `bwrap` is there but could not be started.
    #[error("cannot run bubblewrap")]
    Run(#[source] io::Error),
    /// bubblewrap failed to make a trial sandbox, most often for want of unprivileged user
    /// namespaces.
    #[error("bubblewrap cannot make a sandbox here ('{said}'). The sandbox runs each bot as an unprivileged user in namespaces of its own, which needs unprivileged user namespaces: allow them (sysctl user.max_user_namespaces=10000 and, on Debian before 11, kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0; in a container, a seccomp profile that allows them), or run without --sandbox")]
    Unusable {
        /// What bubblewrap wrote on stderr, trimmed.
        said: String,
    },
    /// The bot's directory, the one its command names, would be `/`.
    #[error("its directory would be {0}, which holds the whole system: put the bot in a directory of its own")]
    WholeSystem(PathBuf),
    /// The bot's directory would be the user's home directory.
    #[error("its directory would be the home directory {0}, which the sandbox would show whole: put the bot in a directory of its own")]
    Home(PathBuf),
    /// Run as root, the bot's directory is one its box's user could not list and read.
    #[error("a sandboxed bot runs as an unprivileged user of its own (uid {uid}), who cannot read its directory {dir}: make it readable by others (chmod o+rx on it, o+r on its files) or put the bot elsewhere")]
    Unreadable {
        /// The bot's directory.
        dir: PathBuf,
        /// The box's user.
        uid: u32,
    },
    /// Run as root, every box id of the range is taken by a live box.
    #[error(
        "all {0} box ids are in use by live bots and builds: give a larger range, or fewer at once"
    )]
    NoFreeBox(crate::boxes::BoxIds),
    /// The bot's directory could not be examined or opened to be mounted.
    #[error("cannot open its directory {dir}")]
    Open {
        /// The bot's directory.
        dir: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
}

/// Checks once, before a match, that bubblewrap exists, is recent enough, and can make the
/// sandbox on this machine for the user the bots run as.
pub fn check_available() -> Result<(), SandboxError> {
    let run = |arg: &str| {
        Command::new(BWRAP)
            .arg(arg)
            .output()
            .map_err(|error| match error.kind() {
                io::ErrorKind::NotFound => SandboxError::Missing,
                _ => SandboxError::Run(error),
            })
    };
    let version = String::from_utf8_lossy(&run("--version")?.stdout)
        .trim()
        .to_string();
    let help = String::from_utf8_lossy(&run("--help")?.stdout).into_owned();
    if let Some(missing) = NEEDED.into_iter().find(|option| !help.contains(option)) {
        return Err(SandboxError::TooOld { version, missing });
    }
    let sandbox = Sandbox::new(&["true".to_string()], Path::new("/"), &Limits::default())?;
    let mut command = Command::new(&sandbox.argv[0]);
    command.args(&sandbox.argv[1..]).stdin(Stdio::null());
    let staging = sandbox.staging();
    // SAFETY: the closure runs in the forked child, where only async-signal-safe calls are
    // sound; `enter` makes only system calls on data prepared before the fork.
    unsafe { command.pre_exec(move || staging.enter()) };
    let output = command.output().map_err(SandboxError::Run)?;
    if output.status.success() {
        Ok(())
    } else {
        Err(SandboxError::Unusable {
            said: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        })
    }
}

/// A bot's sandbox, prepared before its fork.
#[derive(Debug)]
pub(crate) struct Sandbox {
    /// bubblewrap's command line, the bot's at its end.
    pub argv: Vec<String>,
    /// The bot's directory, opened by the referee to be mounted for bubblewrap (as root).
    directory: Option<OwnedFd>,
    /// The box's user and group, as root: given back when the sandbox is dropped, once its
    /// process has ended.
    lease: Option<BoxLease>,
}

impl Sandbox {
    /// The sandbox for `command` run from `cwd` with `limits`.
    pub(crate) fn new(
        command: &[String],
        cwd: &Path,
        limits: &Limits,
    ) -> Result<Sandbox, SandboxError> {
        let as_root = nix::unistd::geteuid().is_root();
        let own = bot_directory(command, cwd)?;
        let lease = if as_root {
            let pool = boxes::shared();
            Some(pool.take().ok_or(SandboxError::NoFreeBox(pool.ids()))?)
        } else {
            boxes::warn_once_shared_user();
            None
        };
        let directory = match (&own, &lease) {
            (Some(own), Some(lease)) => {
                readable_by(&own.source, lease.id())?;
                Some(open_directory(&own.source)?)
            }
            _ => None,
        };
        let argv = arguments(command, cwd, limits, own.as_ref(), as_root);
        Ok(Sandbox {
            argv,
            directory,
            lease,
        })
    }

    /// What the child does between fork and exec, prepared now.
    pub(crate) fn staging(&self) -> Staging {
        Staging {
            id: self.lease.as_ref().map(BoxLease::id),
            directory: self.directory.as_ref().map(AsRawFd::as_raw_fd),
        }
    }
}

/// What a sandboxed bot's child does between fork and exec. As root: it mounts the bot's
/// directory where the box's user can reach it (a copy of its mount, from the descriptor the
/// referee opened, put in a mount namespace of the child's own), then becomes the box's user
/// and group before bubblewrap starts.
#[derive(Clone, Debug)]
pub(crate) struct Staging {
    /// The box's user and group id, as root; `None` leaves the user as it is.
    id: Option<u32>,
    /// The descriptor of the bot's directory, to mount at [`STAGE`]; the referee keeps it
    /// open until the bot started.
    directory: Option<RawFd>,
}

impl Staging {
    /// Mounts the bot's directory for bubblewrap and drops root (see [`Staging`]).
    ///
    /// # Safety
    ///
    /// Only between fork and exec, in the single thread of the forked child: it makes only
    /// system calls on data prepared before the fork.
    pub(crate) unsafe fn enter(&self) -> io::Result<()> {
        let Some(id) = self.id else {
            return Ok(());
        };
        if let Some(directory) = self.directory {
            // A detached copy of the directory's mounts, made while the descriptor's mount is
            // still in this process's namespace (the kernel binds nothing across namespaces).
            // SAFETY: open_tree reads the empty NUL-terminated path given; `directory` is open.
            let tree = unsafe {
                libc::syscall(
                    libc::SYS_open_tree,
                    directory,
                    c"".as_ptr(),
                    libc::OPEN_TREE_CLONE
                        | libc::O_CLOEXEC as libc::c_uint
                        | libc::AT_RECURSIVE as libc::c_uint
                        | libc::AT_EMPTY_PATH as libc::c_uint,
                )
            } as libc::c_int;
            check(tree)?;
            // SAFETY: unshare takes no pointer.
            check(unsafe { libc::unshare(libc::CLONE_NEWNS) })?;
            mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
            mount(
                Some(c"tmpfs"),
                STAGE_PARENT,
                Some(c"tmpfs"),
                libc::MS_NOSUID | libc::MS_NODEV,
                Some(c"mode=0755,size=64k"),
            )?;
            // SAFETY: `STAGE` is a valid NUL-terminated path.
            check(unsafe { libc::mkdir(STAGE.as_ptr(), 0o755) })?;
            // SAFETY: move_mount reads the two NUL-terminated paths given; `tree` is open.
            check(unsafe {
                libc::syscall(
                    libc::SYS_move_mount,
                    tree,
                    c"".as_ptr(),
                    libc::AT_FDCWD,
                    STAGE.as_ptr(),
                    libc::MOVE_MOUNT_F_EMPTY_PATH,
                )
            } as libc::c_int)?;
        }
        let id = libc::c_long::from(id);
        // SAFETY: raw system calls (not the C library's wrappers, which coordinate threads)
        // taking integers and a null list: this child has one thread.
        unsafe {
            check(libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) as i32)?;
            check(libc::syscall(libc::SYS_setresgid, id, id, id) as i32)?;
            check(libc::syscall(libc::SYS_setresuid, id, id, id) as i32)?;
        }
        Ok(())
    }
}

/// A bot's own directory: where it is on the host, and where it shows in the sandbox (the
/// same path, as the command line names it, so relative paths keep working).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OwnDirectory {
    pub source: PathBuf,
    pub shown_at: PathBuf,
}

/// The bot's own directory, shown to it read-only: the directory of the first word of its
/// command line that names an existing file outside the system directories (the program
/// itself, or the script or archive an interpreter runs: `python3 bots/alice/bot.py` shows
/// `bots/alice`), or the first such word that names a directory. `None` when the command line
/// names only programs of the system (found on the `PATH`).
pub(crate) fn bot_directory(
    command: &[String],
    cwd: &Path,
) -> Result<Option<OwnDirectory>, SandboxError> {
    let system: Vec<PathBuf> = SYSTEM_DIRECTORIES
        .iter()
        .filter_map(|dir| fs::canonicalize(dir).ok())
        .collect();
    for word in command {
        let named = lexical(&cwd.join(word));
        let Ok(real) = fs::canonicalize(&named) else {
            continue;
        };
        if system.iter().any(|dir| real.starts_with(dir)) {
            continue;
        }
        let (source, shown_at) = if real.is_dir() {
            (real, named)
        } else {
            let parent = |path: &Path| path.parent().map(Path::to_path_buf);
            match (parent(&real), parent(&named)) {
                (Some(source), Some(shown_at)) => (source, shown_at),
                _ => continue,
            }
        };
        if source == Path::new("/") || shown_at == Path::new("/") {
            return Err(SandboxError::WholeSystem(source));
        }
        let home = std::env::var_os("HOME").and_then(|home| fs::canonicalize(home).ok());
        if home.is_some_and(|home| home == source) {
            return Err(SandboxError::Home(source));
        }
        return Ok(Some(OwnDirectory { source, shown_at }));
    }
    Ok(None)
}

/// `path` with its `.` and `..` components resolved as text.
fn lexical(path: &Path) -> PathBuf {
    let mut resolved = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            other => resolved.push(other),
        }
    }
    resolved
}

/// Refuses a directory that the box's user and group `id` (who has no supplementary group)
/// could not list and read, ignoring access control lists.
fn readable_by(dir: &Path, id: u32) -> Result<(), SandboxError> {
    let meta = fs::metadata(dir).map_err(|source| SandboxError::Open {
        dir: dir.to_path_buf(),
        source,
    })?;
    if readable_by_mode(meta.mode(), meta.uid(), meta.gid(), id) {
        Ok(())
    } else {
        Err(SandboxError::Unreadable {
            dir: dir.to_path_buf(),
            uid: id,
        })
    }
}

/// Whether a directory of `mode`, owned by `owner` and `group`, may be listed and read by the
/// user and group `id`: the owner's bits for its owner, the group's for its group, the
/// others' for anyone else (the kernel's order: the first class that matches decides).
fn readable_by_mode(mode: u32, owner: u32, group: u32, id: u32) -> bool {
    if owner == id {
        mode & 0o500 == 0o500
    } else if group == id {
        mode & 0o050 == 0o050
    } else {
        mode & 0o005 == 0o005
    }
}

fn open_directory(dir: &Path) -> Result<OwnedFd, SandboxError> {
    let open_error = |source| SandboxError::Open {
        dir: dir.to_path_buf(),
        source,
    };
    let path = CString::new(dir.as_os_str().as_bytes())
        .map_err(|e| open_error(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
    // SAFETY: `path` is a valid NUL-terminated string; the descriptor returned is owned below.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(open_error(io::Error::last_os_error()));
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) })
}

/// Bytes of each of the bot's tmpfs mounts (`/tmp`, `/dev/shm`): its file-size limit, else its
/// memory limit; unsized (the kernel's default, half the memory) when it has neither.
pub(crate) fn tmpfs_size(limits: &Limits) -> Option<u64> {
    limits.file_size_mb.or(limits.memory_mb).map(|mb| mb << 20)
}

/// bubblewrap's command line for `command` (see the module's documentation).
fn arguments(
    command: &[String],
    cwd: &Path,
    limits: &Limits,
    own: Option<&OwnDirectory>,
    as_root: bool,
) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    let mut add = |words: &[&str]| args.extend(words.iter().map(|w| (*w).to_string()));
    let nobody = NOBODY.to_string();
    add(&[BWRAP, "--unshare-user", "--uid", &nobody, "--gid", &nobody]);
    add(&[
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--setenv",
        "HOME",
        "/tmp",
        "--setenv",
        "TMPDIR",
        "/tmp",
    ]);
    for (name, value) in std::env::vars_os() {
        let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
            continue;
        };
        let locale = name == "LANG" || name == "LANGUAGE" || name.starts_with("LC_");
        if name == "PATH" || name == "TZ" || locale {
            add(&["--setenv", name, value]);
        }
    }
    for dir in SYSTEM_DIRECTORIES {
        match fs::read_link(dir) {
            Ok(target) => add(&["--symlink", &target.to_string_lossy(), dir]),
            Err(_) if Path::new(dir).is_dir() => add(&["--ro-bind", dir, dir]),
            Err(_) => {}
        }
    }
    add(&["--proc", "/proc", "--dev", "/dev"]);
    let size = tmpfs_size(limits).map(|bytes| bytes.to_string());
    let mut tmpfs = |dir: &str, size: Option<&str>| {
        if let Some(size) = size {
            add(&["--size", size]);
        }
        add(&["--tmpfs", dir]);
    };
    tmpfs("/dev/shm", size.as_deref());
    tmpfs("/tmp", size.as_deref());
    tmpfs("/run", Some(&RUN_SIZE.to_string()));
    let mut add = |words: &[&str]| args.extend(words.iter().map(|w| (*w).to_string()));
    add(&["--remount-ro", "/dev", "--symlink", "/tmp", "/var/tmp"]);
    let cwd_text = cwd.display().to_string();
    if let Some(own) = own {
        let source = if as_root {
            STAGE.to_string_lossy().into_owned()
        } else {
            own.source.display().to_string()
        };
        add(&["--ro-bind", &source, &own.shown_at.display().to_string()]);
    }
    let shown = |path: &Path| {
        path == Path::new("/")
            || own.is_some_and(|own| path.starts_with(&own.shown_at))
            || SYSTEM_DIRECTORIES.iter().any(|dir| path.starts_with(dir))
    };
    if !shown(cwd) {
        add(&["--dir", &cwd_text]);
    }
    add(&["--remount-ro", "/", "--chdir", &cwd_text, "--"]);
    args.extend(command.iter().cloned());
    args
}

/// How the bot ended, from how bubblewrap did: bubblewrap exits with 128 + N when the bot was
/// killed by signal N, which is told apart from a bot's own exit code that high only by
/// being the likelier.
pub(crate) fn bot_status(bubblewrap: ExitStatus) -> ExitStatus {
    match bubblewrap.code() {
        Some(code @ 129..=192) => ExitStatus::from_raw(code - 128),
        _ => bubblewrap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn the_bot_directory_is_that_of_its_first_file_outside_the_system() {
        let repo = &fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap();
        let found = bot_directory(&words("python3 -u tests/bots/scripted.py good"), repo)
            .unwrap()
            .unwrap();
        assert_eq!(found.shown_at, repo.join("tests/bots"));
        assert_eq!(
            found.source,
            fs::canonicalize(repo.join("tests/bots")).unwrap()
        );
        let found = bot_directory(&words("java -cp ./tests/../bots Main"), repo)
            .unwrap()
            .unwrap();
        assert_eq!(found.shown_at, repo.join("bots"));
        // Programs of the system show nothing more.
        assert_eq!(
            bot_directory(&words("/bin/sh -c true"), repo).unwrap(),
            None
        );
        assert!(matches!(
            bot_directory(&words("/bin/sh /"), repo),
            Err(SandboxError::WholeSystem(_))
        ));
    }

    #[test]
    fn the_command_line_shows_only_what_it_must() {
        let own = OwnDirectory {
            source: PathBuf::from("/srv/real/alice"),
            shown_at: PathBuf::from("/contest/bots/alice"),
        };
        let limits = Limits::parse_over(Limits::default(), "filesize=10").unwrap();
        let command = words("python3 bots/alice/bot.py");
        let wrapped = arguments(&command, Path::new("/contest"), &limits, Some(&own), false);
        let joined = wrapped.join(" ");
        assert_eq!(wrapped[0], "bwrap");
        for expected in [
            "--unshare-user --uid 65534 --gid 65534",
            "--unshare-net",
            "--disable-userns --cap-drop ALL",
            "--clearenv",
            "--ro-bind /usr /usr",
            "--size 10485760 --tmpfs /dev/shm --size 10485760 --tmpfs /tmp --size 1048576 --tmpfs /run",
            "--remount-ro /dev --symlink /tmp /var/tmp",
            "--ro-bind /srv/real/alice /contest/bots/alice --dir /contest --remount-ro / --chdir /contest",
        ] {
            assert!(joined.contains(expected), "{expected}: {joined}");
        }
        assert!(joined.ends_with("-- python3 bots/alice/bot.py"), "{joined}");
        assert!(!joined.contains("--ro-bind / /"), "{joined}");
        // As root, the directory is mounted where bubblewrap finds it as nobody.
        let wrapped = arguments(&command, Path::new("/contest"), &limits, Some(&own), true);
        assert!(wrapped
            .join(" ")
            .contains("--ro-bind /tmp/bot /contest/bots/alice"));
        // In the bot's directory, the working directory is not made again.
        let inside = arguments(&command, &own.shown_at, &limits, Some(&own), false);
        assert!(!inside.contains(&"--dir".to_string()));
    }

    #[test]
    fn a_directory_is_readable_by_its_box_after_the_class_it_falls_in() {
        let (root, bx) = (0, 60_000);
        assert!(readable_by_mode(0o755, root, root, bx));
        assert!(
            !readable_by_mode(0o750, root, root, bx),
            "others may not read"
        );
        assert!(readable_by_mode(0o700, bx, root, bx), "the box owns it");
        assert!(
            readable_by_mode(0o750, root, bx, bx),
            "the box's group may read"
        );
        assert!(
            !readable_by_mode(0o075, bx, root, bx),
            "the owner's bits decide"
        );
        // nobody's files are nothing special to a box now.
        assert!(!readable_by_mode(0o750, NOBODY, NOBODY, bx));
    }

    #[test]
    fn tmpfs_follow_the_limits() {
        let limits = |spec| Limits::parse_over(Limits::default(), spec).unwrap();
        assert_eq!(tmpfs_size(&limits("filesize=64")), Some(64 << 20));
        assert_eq!(
            tmpfs_size(&limits("filesize=none,memory=256")),
            Some(256 << 20)
        );
        assert_eq!(tmpfs_size(&limits("filesize=none,memory=none")), None);
    }

    #[test]
    fn a_signal_is_read_back_from_bubblewraps_exit_code() {
        let exited = |code: i32| ExitStatus::from_raw(code << 8);
        assert_eq!(bot_status(exited(152)).signal(), Some(24));
        assert_eq!(bot_status(exited(3)).code(), Some(3));
        assert_eq!(bot_status(ExitStatus::from_raw(9)).signal(), Some(9));
    }
}
