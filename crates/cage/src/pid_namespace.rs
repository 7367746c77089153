//! A PID namespace of its own for each bot outside the sandbox, where the kernel lets the
//! referee make one: as root, or inside a user namespace of the bot's own where unprivileged
//! user namespaces are allowed. Setting `REFEREE_PID_NAMESPACE=off` turns it off.
//!
//! In it the bot sees only its own processes (a fresh `/proc`, in a mount namespace of its
//! own) and cannot signal, trace or read any process outside: not its opponent, not the
//! referee. And when the namespace's first process dies, the kernel kills everything in it, so
//! nothing the bot started outlives it, escaped from its session or not.
//!
//! The bot must not be the namespace's first process (a pid 1 ignores the signals it has no
//! handler for, SIGXCPU and SIGXFSZ included, and inherits every orphan), so between fork and
//! exec the child splits in three:
//! - the *keeper* stays outside, as the referee's child: it waits for the init, then ends as
//!   the bot ended (the same exit code, or killed by the same signal), so the referee sees the
//!   bot's status and, through the chain of reaping parents, its peak memory and CPU time;
//! - the *init*, pid 1 inside, mounts the fresh `/proc`, reaps orphans and tells the keeper how
//!   the bot ended;
//! - the bot, pid 2, goes on to `exec`.
//!
//! All three share the bot's session and process group, so the referee's kill reaches them
//! all, and the keeper and the init die with their parent (a parent-death signal).

use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The environment variable that turns the namespace off when set to `off`.
pub(crate) const SWITCH: &str = "REFEREE_PID_NAMESPACE";

/// The processes between the referee and a bot in a namespace: the keeper and the init.
pub(crate) const HELPERS: u64 = 2;

/// The namespaces a bot is put in, prepared before the fork.
#[derive(Clone, Debug)]
pub(crate) struct Namespace {
    /// `unshare` flags.
    flags: libc::c_int,
    /// For a user other than root: the contents of `uid_map` and `gid_map`, mapping the user
    /// to itself in the new user namespace.
    maps: Option<(CString, CString)>,
}

/// The namespaces for this process's bots, if the kernel allows them (tried once, with `true`).
pub(crate) fn available() -> Option<&'static Namespace> {
    static NAMESPACE: OnceLock<Option<Namespace>> = OnceLock::new();
    NAMESPACE
        .get_or_init(|| {
            if std::env::var_os(SWITCH).is_some_and(|value| value == "off") {
                return None;
            }
            let namespace = Namespace::for_this_user();
            namespace.works().then_some(namespace)
        })
        .as_ref()
}

impl Namespace {
    fn for_this_user() -> Namespace {
        let flags = libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC;
        let (uid, gid) = (nix::unistd::geteuid(), nix::unistd::getegid());
        if uid.is_root() {
            return Namespace { flags, maps: None };
        }
        let map = |id: u32| CString::new(format!("{id} {id} 1\n")).expect("digits have no NUL");
        Namespace {
            flags: flags | libc::CLONE_NEWUSER,
            maps: Some((map(uid.as_raw()), map(gid.as_raw()))),
        }
    }

    /// Whether a program starts and exits cleanly in the namespace.
    fn works(&self) -> bool {
        let mut command = Command::new("true");
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let namespace = self.clone();
        // SAFETY: the closure runs in the forked child, where only async-signal-safe calls are
        // sound: setsid is a system call, and `enter` makes only system calls (see its
        // safety section), on data prepared before the fork.
        unsafe {
            command.pre_exec(move || {
                nix::unistd::setsid()?;
                namespace.enter()
            });
        }
        command.status().is_ok_and(|status| status.success())
    }

    /// Puts the calling process's future program in the namespace: returns in the bot's
    /// process, pid 2 inside, while the keeper and the init never return (see the module's
    /// documentation). An error is returned in the process that met it, before the bot exists.
    ///
    /// # Safety
    ///
    /// Only between fork and exec, in the single thread of the forked child, after `setsid`:
    /// it forks twice and makes only system calls, allocating nothing.
    pub(crate) unsafe fn enter(&self) -> io::Result<()> {
        // SAFETY: unshare takes no pointer.
        check(unsafe { libc::unshare(self.flags) })?;
        if let Some((uids, gids)) = &self.maps {
            write_file(c"/proc/self/uid_map", uids.as_bytes())?;
            write_file(c"/proc/self/setgroups", b"deny")?;
            write_file(c"/proc/self/gid_map", gids.as_bytes())?;
        }
        let mut pipe = [0 as libc::c_int; 2];
        // SAFETY: `pipe` is a writable array of two descriptors, what pipe2 fills.
        check(unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) })?;
        let [report_from, report_to] = pipe;
        let init = fork()?;
        if init > 0 {
            keep(init, report_from);
        }
        // The init, pid 1 in the new namespace.
        // SAFETY: prctl(PR_SET_PDEATHSIG) takes an integer signal number.
        check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) })?;
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
        mount(
            Some(c"proc"),
            c"/proc",
            Some(c"proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            None,
        )?;
        let bot = fork()?;
        if bot > 0 {
            reap(bot, report_to);
        }
        // The bot: the report pipe is the init's and the keeper's business.
        for fd in pipe {
            // SAFETY: closing a descriptor this process owns and no Rust object holds.
            unsafe { libc::close(fd) };
        }
        Ok(())
    }
}

/// Turns -1 into the error in errno (for the raw system calls of forked children, which must not
/// allocate).
pub(super) fn check(result: libc::c_int) -> io::Result<()> {
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// A plain fork (clone with SIGCHLD): a system call, without the C library's fork handlers.
fn fork() -> io::Result<libc::pid_t> {
    // SAFETY: clone with no new stack and no pointers behaves as fork; the child continues on a
    // copy of this stack, which is the caller's to use.
    let pid = unsafe { libc::syscall(libc::SYS_clone, libc::SIGCHLD as libc::c_long, 0, 0, 0, 0) };
    if pid < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(pid as libc::pid_t)
    }
}

fn write_file(path: &CStr, contents: &[u8]) -> io::Result<()> {
    // SAFETY: `path` is a valid NUL-terminated string.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `contents` is valid for its length; `fd` was opened above.
    let written = unsafe { libc::write(fd, contents.as_ptr().cast(), contents.len()) };
    let result = if written == contents.len() as isize {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    };
    // SAFETY: `fd` was opened above and is closed only here.
    unsafe { libc::close(fd) };
    result
}

/// mount(2) for the forked children of the containment, which must not allocate.
pub(super) fn mount(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    data: Option<&CStr>,
) -> io::Result<()> {
    let pointer = |text: Option<&CStr>| text.map_or(std::ptr::null(), CStr::as_ptr);
    // SAFETY: every pointer is null or a valid NUL-terminated string.
    check(unsafe {
        libc::mount(
            pointer(source),
            target.as_ptr(),
            pointer(fstype),
            flags,
            pointer(data).cast(),
        )
    })
}

/// Closes every descriptor but `keep`.
fn close_all_but(keep: libc::c_int) {
    let close_range = |first: libc::c_uint, last: libc::c_uint| {
        // SAFETY: close_range takes no pointers and only closes this process's descriptors.
        unsafe { libc::syscall(libc::SYS_close_range, first, last, 0) }
    };
    let keep = keep as libc::c_uint;
    if (keep == 0 || close_range(0, keep - 1) == 0) && close_range(keep + 1, libc::c_uint::MAX) == 0
    {
        return;
    }
    // Kernels before 5.9.
    for fd in 0..65_536 {
        if fd != keep as libc::c_int {
            // SAFETY: closing a descriptor that may not exist fails harmlessly with EBADF.
            unsafe { libc::close(fd) };
        }
    }
}

/// Signals back to their default action: a handler the referee installed has nothing to do
/// in its helpers (and a pid 1 then ignores what its namespace sends it).
fn default_signals() {
    for signal in 1..libc::SIGRTMAX() {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            // SAFETY: signal() with SIG_DFL installs no handler; invalid numbers fail harmlessly.
            unsafe { libc::signal(signal, libc::SIG_DFL) };
        }
    }
}

/// Waits for `pid`, retrying when interrupted; its raw status, if it could be had.
fn wait_for(pid: libc::pid_t) -> Option<libc::c_int> {
    loop {
        let mut status = 0;
        // SAFETY: `status` is a writable int, what waitpid fills.
        let found = unsafe { libc::waitpid(pid, &mut status, 0) };
        if found == pid {
            return Some(status);
        }
        if found < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return None;
        }
    }
}

/// The keeper: waits for the init, reads how the bot ended, and ends the same way.
fn keep(init: libc::pid_t, report_from: libc::c_int) -> ! {
    close_all_but(report_from);
    default_signals();
    let init_status = wait_for(init);
    let mut status: libc::c_int = 0;
    let size = std::mem::size_of::<libc::c_int>();
    // SAFETY: `status` is a writable int of `size` bytes; the init wrote it whole or not at all
    // (a pipe write this small is atomic).
    let read = unsafe { libc::read(report_from, (&mut status as *mut libc::c_int).cast(), size) };
    let status = if read == size as isize {
        status
    } else {
        // The init failed before the bot existed: end as it did.
        init_status.unwrap_or(127 << 8)
    };
    end_like(status)
}

/// Ends the calling process as a process with `status` ended.
fn end_like(status: libc::c_int) -> ! {
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: setrlimit reads a valid rlimit; signal() with SIG_DFL installs no handler;
        // the mask is a valid, emptied set; kill and getpid are plain system calls. The bot
        // already dumped its core if it was to: the keeper dumps none.
        unsafe {
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            libc::signal(signal, libc::SIG_DFL);
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
        }
        // SAFETY: _exit ends the process at once.
        unsafe { libc::_exit(128 + signal) }
    }
    // SAFETY: _exit ends the process at once.
    unsafe { libc::_exit(libc::WEXITSTATUS(status)) }
}

/// The init: reaps every process of the namespace until the bot ends, then reports the bot's
/// status to the keeper and exits, which kills whatever is left in the namespace.
fn reap(bot: libc::pid_t, report_to: libc::c_int) -> ! {
    close_all_but(report_to);
    default_signals();
    loop {
        let mut status = 0;
        // SAFETY: `status` is a writable int, what waitpid fills.
        let found = unsafe { libc::waitpid(-1, &mut status, 0) };
        let failed = found < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR);
        if found == bot {
            let size = std::mem::size_of::<libc::c_int>();
            // SAFETY: `status` is a readable int of `size` bytes; `report_to` is open.
            unsafe { libc::write(report_to, (&status as *const libc::c_int).cast(), size) };
        }
        if found == bot || failed {
            // SAFETY: _exit ends the process at once.
            unsafe { libc::_exit(0) }
        }
    }
}
