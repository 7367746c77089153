//! How a bot's process is started and contained: what is prepared before the fork (its command
//! line, wrapped in the sandbox or not; its cgroups; its namespaces) and what its child does
//! between fork and exec.
//!
//! Outside the sandbox a bot gets a PID namespace of its own where the kernel allows one (see
//! `pid_namespace`); in it, `bubblewrap` does that and more (see `sandbox`). Either way the bot
//! runs in its own session, joins its cgroups, gets its resource limits, inherits no descriptor
//! but its three pipes, and dies with the referee (a parent-death signal; see `leftovers` for
//! what it may leave behind).

use super::bot_cgroups::BotCgroups;
use super::cgroup::Joiner;
use super::cpus;
use super::leftovers::MARK;
use super::limits::Limits;
use super::pid_namespace::{self, Namespace};
use super::process_options::ProcessOptions;
use super::sandbox::{self, Sandbox, SandboxError, Staging};
use super::supervisor::Supervisor;
use nix::sched::CpuSet;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// What contains a bot's process, kept as long as the bot runs.
#[derive(Debug)]
pub(crate) struct Cage {
    /// The bot's cgroups, to blame a limit and to kill every process of the bot.
    pub cgroups: BotCgroups,
    /// Processes between the referee's child and the bot's program (see
    /// [`Cage::program_depth`]).
    depth: usize,
    /// Whether the bot runs under bubblewrap, which reports its signal as an exit code.
    pub sandboxed: bool,
    /// The bot's directory, opened for the sandbox: it must stay open until the bot started.
    _sandbox: Option<Sandbox>,
}

/// Why a bot's process cannot be prepared.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CageError {
    #[error("empty command")]
    Empty,
    #[error("cannot tell the working directory")]
    WorkingDirectory(#[source] io::Error),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

impl Cage {
    /// Prepares `command` as a bot of `supervisor`, as `options` ask: the command to fork (the
    /// bot's own, or the sandbox's around it), and what contains it.
    pub(crate) fn prepare(
        supervisor: &Supervisor,
        command: &[String],
        options: &ProcessOptions,
    ) -> Result<(Command, Cage), CageError> {
        let cwd = match &options.working_dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().map_err(CageError::WorkingDirectory)?,
        };
        let (sandbox, namespace) = if options.sandbox {
            (Some(Sandbox::new(command, &cwd, &options.limits)?), None)
        } else {
            (None, pid_namespace::available().cloned())
        };
        let helpers = match (&sandbox, &namespace) {
            (Some(_), _) => sandbox::HELPERS,
            (None, Some(_)) => pid_namespace::HELPERS,
            (None, None) => 0,
        };
        // The helpers are the referee's: they do not count against the bot's processes.
        let cgroups = BotCgroups::create(
            options.limits.processes.map(|max| max + helpers),
            options.limits.memory_mb.map(|mb| mb << 20),
            &|dir| supervisor.make_cgroup(dir),
        );
        let mut limits = options.limits;
        if cgroups.pids().is_some() {
            limits.processes = None;
        }
        let argv = sandbox
            .as_ref()
            .map_or(command, |sandbox| &sandbox.argv[..]);
        let (program, args) = argv.split_first().ok_or(CageError::Empty)?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if sandbox.is_some() {
            // bubblewrap, as the box's user, may not be allowed in the referee's directory; it
            // sets the bot's own.
            command.current_dir("/");
        } else {
            command.current_dir(&cwd);
            if let Some(run) = supervisor.run_name() {
                command.env(MARK, run);
            }
        }
        for name in options.env_removed {
            command.env_remove(name);
        }
        let child = Child {
            joiners: cgroups.joiners(),
            limits,
            namespace,
            staging: sandbox.as_ref().map(Sandbox::staging),
            referee: std::process::id() as libc::pid_t,
            processors: cpus::mask(),
        };
        // SAFETY: the closure runs in the forked child of a possibly multi-threaded process,
        // where only async-signal-safe calls are sound. `Child::start` only makes system calls,
        // builds its errors from errno without allocating and takes no lock; everything it
        // reads was prepared before the fork.
        unsafe { command.pre_exec(move || child.start()) };
        let cage = Cage {
            cgroups,
            depth: helpers as usize,
            sandboxed: sandbox.is_some(),
            _sandbox: sandbox,
        };
        Ok((command, cage))
    }

    /// How many generations below the referee's child the bot's program runs: 0 when it is
    /// the child itself, 2 under the keeper and init of its namespace or under bubblewrap and
    /// its init.
    pub(crate) fn program_depth(&self) -> usize {
        self.depth
    }
}

/// What the child does between fork and exec, prepared before the fork.
struct Child {
    joiners: Vec<Joiner>,
    limits: Limits,
    namespace: Option<Namespace>,
    staging: Option<Staging>,
    /// The referee's pid, the child's parent unless the referee died meanwhile.
    referee: libc::pid_t,
    /// The processors of the thread that asked for the bot (the fork happens on another).
    processors: Option<CpuSet>,
}

impl Child {
    /// Runs in the forked child: system calls only (see the safety comment at its use).
    fn start(&self) -> io::Result<()> {
        // Its own session, hence its own process group: killed as a whole, and out of reach
        // of the terminal's Ctrl-C (the referee decides when bots stop).
        nix::unistd::setsid()?;
        if let Some(processors) = &self.processors {
            cpus::restrict_to(processors)?;
        }
        close_inherited_descriptors();
        for joiner in &self.joiners {
            joiner.join()?;
        }
        match &self.namespace {
            Some(namespace) => {
                // The keeper dies with the referee, the init with the keeper, and everything in
                // the namespace with the init.
                die_with_parent(self.referee)?;
                // SAFETY: this is the forked child, between fork and exec, after setsid.
                unsafe { namespace.enter()? };
                self.limits.apply()
            }
            None => {
                self.limits.apply()?;
                if let Some(staging) = &self.staging {
                    // SAFETY: this is the forked child, between fork and exec.
                    unsafe { staging.enter()? };
                }
                // After any change of user, which would clear it.
                die_with_parent(self.referee)
            }
        }
    }
}

/// Has the kernel kill the calling process when its parent thread dies, and fails if the
/// referee is already gone (the signal would never come).
fn die_with_parent(referee: libc::pid_t) -> io::Result<()> {
    // SAFETY: prctl(PR_SET_PDEATHSIG) takes an integer signal number.
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: getppid takes nothing and cannot fail.
    if unsafe { libc::getppid() } != referee {
        return Err(io::Error::from_raw_os_error(libc::ESRCH));
    }
    Ok(())
}

/// Marks every descriptor above stderr close-on-exec, so a bot inherits nothing the referee
/// itself inherited or opened (another bot's pipes, a jobserver, a log file). Runs between fork
/// and exec: system calls only. Marking rather than closing keeps std's own exec-error pipe
/// working.
fn close_inherited_descriptors() {
    // SAFETY: close_range takes no pointers; it only sets the close-on-exec flag of this
    // (forked child) process's descriptors, which no Rust object here still uses after exec.
    let marked = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if marked != 0 {
        // Kernels before 5.11: mark them one by one, up to the descriptor limit.
        let highest = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
            .map_or(1024, |(soft, _)| soft.min(65_536)) as i32;
        for fd in 3..highest {
            // SAFETY: F_SETFD takes no pointer and only sets a descriptor flag; on a descriptor
            // that does not exist it fails with EBADF.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
    }
}
