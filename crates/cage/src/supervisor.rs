//! Nothing a bot starts may outlive its game, and nothing may outlive the referee.
//!
//! A [`Supervisor`] is made once per command run and handed to whatever starts bots and to the
//! match loop. It knows the bots alive now, sweeps up what they leave behind, stops them all
//! when the referee is interrupted, and owns the monitor of the referee's own stalls (see
//! the crate-internal `stall` module).
//!
//! Every bot runs in its own session and process group, which the referee kills as a whole.
//! A bot can still escape its group by calling `setsid` in a child. To catch those too, the
//! referee binary makes itself a *child subreaper* ([`Supervisor::for_command`]): when a bot
//! dies, its orphaned descendants become the referee's children instead of init's, and after
//! each bot is killed and reaped the supervisor kills and reaps every child of the referee that
//! is not a live bot. What this cannot catch without a sandbox: a descendant that escapes while
//! its parent chain is still alive and then outlives the sweep by being re-parented later (it
//! is caught by the sweep after the next bot's end), or a process started through another
//! service (at, systemd-run, a daemon's socket). The bubblewrap sandbox closes those holes with
//! a PID namespace.
//!
//! Ctrl-C (SIGINT) or SIGTERM stops every bot before the referee exits; finished games are
//! already on disk. Builds of submitted sources are started through the supervisor too, so an
//! interrupt stops them as it stops bots. A referee killed outright takes its bots along (each has a parent-death
//! signal), and what they may leave behind is swept by the next run (see the crate-internal
//! `leftovers` module).
//!
//! # One thread forks
//!
//! A parent-death signal is sent when the *thread* that forked the process ends, not when the
//! referee does. So every bot is forked by one thread of the supervisor's own, which lives as
//! long as any bot of it can: the bots die with the referee, and never with a tournament worker
//! that happens to end first.
//!
//! # Forking outside the lock
//!
//! Bots are forked without holding the registry's lock, so games played at once (a
//! tournament's `-j N` workers) never queue behind one another's fork, `/proc` scan or wait.
//! The danger is the sweep: it kills children of the referee that are not live bots, and a bot
//! forked a moment ago is such a child until it is registered. So a spawn is *in flight* from
//! just before its fork until its pid is registered, which happens under the lock in the same
//! step that ends the flight; and the sweep, after scanning `/proc` without the lock, takes the
//! lock only once no spawn is in flight (waiting on a condition variable if one is) and then
//! spares every live bot. Any bot forked before that moment has been registered by then, and a
//! bot forked after it has a new pid, which cannot be one of the unreaped children the scan
//! found. Likewise a bot reaped (and unregistered) while the scan ran was seen alive by the
//! scan and its pid may since belong to another process: the registry notes the bots reaped
//! during a scan, and the sweep spares those pids too.
//!
//! Only one thread sweeps at a time, since two sweeps could reap the same orphan and the second
//! then kill whatever took its pid. A thread whose bot ended while another sweeps leaves its
//! request with that sweeper, which sweeps once more, rather than queueing.

use super::leftovers::{self, RunFile};
use super::procfs;
use crate::stall::StallMonitor;
use nix::errno::Errno;
use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitid, waitpid, Id, WaitPidFlag};
use nix::unistd::Pid;
use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, TryLockError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Rounds of a sweep at most: killing an orphan may orphan its own children.
const SWEEP_ROUNDS: usize = 16;

/// The bots of one command run: started through it, reaped with its knowledge, and swept up
/// after. Cloning it is cheap and every clone is the same supervisor.
#[derive(Clone)]
pub struct Supervisor {
    shared: Arc<Shared>,
}

struct Shared {
    bots: Arc<Bots>,
    stalls: StallMonitor,
    spawner: Spawner,
}

/// A command to fork and where to send the child.
type Spawn = (Command, mpsc::Sender<io::Result<Child>>);

/// The thread that forks every bot (see "One thread forks" in the module's documentation).
struct Spawner {
    requests: Option<mpsc::Sender<Spawn>>,
    thread: Option<JoinHandle<()>>,
}

impl Spawner {
    fn start() -> io::Result<Spawner> {
        let (requests, received) = mpsc::channel::<Spawn>();
        let thread = std::thread::Builder::new()
            .name("bot-spawner".into())
            .spawn(move || {
                for (mut command, reply) in received {
                    let _ = reply.send(command.spawn());
                }
            })?;
        Ok(Spawner {
            requests: Some(requests),
            thread: Some(thread),
        })
    }

    fn spawn(&self, command: Command) -> io::Result<Child> {
        let (reply, child) = mpsc::channel();
        let gone = || io::Error::other("the bot-spawner thread is gone");
        self.requests
            .as_ref()
            .ok_or_else(gone)?
            .send((command, reply))
            .map_err(|_| gone())?;
        child.recv().map_err(|_| gone())?
    }
}

impl Drop for Spawner {
    /// Ends the thread: every bot it forked is gone, as each holds the supervisor.
    fn drop(&mut self) {
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Why [`Supervisor::for_command`] failed.
#[derive(Debug, thiserror::Error)]
pub enum SupervisorError {
    /// The process could not be made the subreaper of its descendants.
    #[error("cannot become the reaper of the bots' orphans")]
    Subreaper(#[source] io::Error),
    /// The SIGINT and SIGTERM handler that stops every bot could not be installed.
    #[error("cannot install the interrupt handler")]
    Interrupt(#[source] io::Error),
    /// The thread that notices the referee's own stalls could not be started.
    #[error("cannot start the stall monitor")]
    StallMonitor(#[source] io::Error),
    /// The thread that forks the bots could not be started.
    #[error("cannot start the thread that starts bots")]
    Spawner(#[source] io::Error),
    /// [`Supervisor::for_command`] was called twice in one process.
    #[error("another supervisor already sweeps this process's orphans")]
    AlreadyReaping,
}

impl Supervisor {
    /// A supervisor for a library user or a test: it starts and tracks bots but leaves orphans
    /// alone (the caller may have children of its own that a sweep must not touch) and installs
    /// no signal handler.
    ///
    /// # Panics
    ///
    /// If the stall monitor's or the bot-spawner's thread cannot be started.
    pub fn new() -> Supervisor {
        Supervisor::with_bots(Arc::new(Bots::new(false, None)))
            .expect("the stall monitor and bot-spawner threads start")
    }

    /// The referee binary's supervisor: it makes this process the reaper of its descendants'
    /// orphans, sweeps them after every bot, and on SIGINT or SIGTERM kills every bot and its
    /// orphans, says so, and exits with 130. It first kills what runs killed earlier left
    /// behind, and keeps a run file for the next run to do the same (see the crate-internal
    /// `leftovers` module; where that cannot be done it says so and goes on). One per process:
    /// a second would take the first one's bots for orphans, so it is refused.
    pub fn for_command() -> Result<Supervisor, SupervisorError> {
        /// Whether a supervisor of this process already sweeps its orphans (a subreaper is a
        /// property of the whole process).
        static REAPING: AtomicBool = AtomicBool::new(false);
        if REAPING.swap(true, Ordering::SeqCst) {
            return Err(SupervisorError::AlreadyReaping);
        }
        nix::sys::prctl::set_child_subreaper(true)
            .map_err(|errno| SupervisorError::Subreaper(errno.into()))?;
        let run_file = match RunFile::start(&leftovers::runtime_dir()) {
            Ok(run_file) => Some(run_file),
            Err(error) => {
                let why: Vec<String> =
                    std::iter::successors(Some(&error as &dyn std::error::Error), |e| e.source())
                        .map(ToString::to_string)
                        .collect();
                eprintln!(
                    "referee: warning: {}; processes left by a referee that was killed will not be found by the next run",
                    why.join(": ")
                );
                None
            }
        };
        let bots = Arc::new(Bots::new(true, run_file));
        stop_bots_on_interrupt(Arc::downgrade(&bots)).map_err(SupervisorError::Interrupt)?;
        Supervisor::with_bots(bots)
    }

    fn with_bots(bots: Arc<Bots>) -> Result<Supervisor, SupervisorError> {
        Ok(Supervisor {
            shared: Arc::new(Shared {
                bots,
                stalls: StallMonitor::start().map_err(SupervisorError::StallMonitor)?,
                spawner: Spawner::start().map_err(SupervisorError::Spawner)?,
            }),
        })
    }

    /// Starts a bot's process (on the bot-spawner thread) and registers it as live, without
    /// holding the registry's lock across the fork (see the module's documentation).
    pub(crate) fn spawn(&self, command: Command) -> io::Result<Child> {
        let mut flight = InFlight::begin(&self.shared.bots);
        let child = self.shared.spawner.spawn(command)?;
        flight.spawned = Some(child.id() as i32);
        drop(flight);
        if let Some(run_file) = &self.shared.bots.run_file {
            run_file.note_session(child.id() as i32);
        }
        Ok(child)
    }

    /// Whether an interrupt (SIGINT, SIGTERM) has killed every bot: a game that ends now ended
    /// because its bots were killed, not by their play, and must not be counted.
    pub fn is_stopping(&self) -> bool {
        self.shared.bots.registry().stopping
    }

    /// Waits for the interrupt's handler to end the process (with 130, once every bot and
    /// orphan is gone): called when [`Supervisor::is_stopping`], so that nothing more is
    /// written, and the run does not end with a success of its own first.
    pub fn wait_for_exit(&self) -> ! {
        loop {
            std::thread::park();
        }
    }

    /// Makes the directory of a bot's cgroup, noting it first for the next run should this one
    /// be killed.
    pub(crate) fn make_cgroup(&self, dir: &Path) -> io::Result<()> {
        match &self.shared.bots.run_file {
            Some(run_file) => run_file.make_cgroup(dir),
            None => std::fs::create_dir(dir),
        }
    }

    /// The name of this run, which marks its bots' processes (see the crate-internal
    /// `leftovers` module), if it keeps a run file.
    pub(crate) fn run_name(&self) -> Option<&str> {
        self.shared.bots.run_file.as_ref().map(RunFile::name)
    }

    /// Forgets a bot that has just been reaped (its pid may be taken by another process now).
    pub(crate) fn reaped(&self, pid: u32) {
        self.shared.bots.unregister(pid as i32);
    }

    /// Kills and reaps every child of this process that is not a live bot (descendants of dead
    /// bots re-parented here), after a bot's group was killed and the bot reaped. Does nothing
    /// unless the supervisor is the one [`for_command`](Supervisor::for_command) made. When
    /// another thread is sweeping, it is asked to sweep once more and this returns at once.
    pub(crate) fn sweep_orphans(&self) {
        self.shared.bots.sweep_orphans();
    }

    /// Reaps the dead children of this process that are not bots, after a bot that ran in a
    /// PID namespace of its own was killed and reaped: nothing of such a bot can be alive (the
    /// kernel kills a namespace with its first process), but its helpers and what its
    /// namespace held may be left to this process as zombies. No `/proc` scan is needed to find
    /// them, only `waitid`. Does nothing unless the supervisor is the one
    /// [`for_command`](Supervisor::for_command) made.
    pub(crate) fn reap_dead_orphans(&self) {
        self.shared.bots.reap_dead_orphans();
    }

    /// Notes a file that shows the game being played at a table, so that an interrupt, which
    /// ends this process without unwinding, removes it: a game it cut short does not stay
    /// listed as being played, nor an empty file behind.
    pub fn shows_live_games(&self, path: &Path) {
        let mut files = self
            .shared
            .bots
            .live_files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !files.iter().any(|file| file == path) {
            files.push(path.to_path_buf());
        }
    }

    /// The longest stall of the referee itself noted between `from` and `to`, if any.
    pub fn worst_stall_between(&self, from: Instant, to: Instant) -> Option<Duration> {
        self.shared.stalls.worst_stall_between(from, to)
    }
}

impl Default for Supervisor {
    fn default() -> Supervisor {
        Supervisor::new()
    }
}

impl fmt::Debug for Supervisor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bots = &self.shared.bots;
        f.debug_struct("Supervisor")
            .field("live_bots", &bots.registry().live.len())
            .field("reaping_orphans", &bots.reaping_orphans)
            .finish_non_exhaustive()
    }
}

/// The live bots, and the sweep of what they leave behind.
struct Bots {
    registry: Mutex<Registry>,
    /// Notified when the last spawn in flight has ended.
    settled: Condvar,
    /// Whether this process is a child subreaper whose orphans are swept.
    reaping_orphans: bool,
    /// Held by the one thread sweeping.
    sweeper: Mutex<()>,
    /// A sweep was asked for since the sweeping thread last began one.
    sweep_wanted: AtomicBool,
    /// What the next run needs to sweep up should this one be killed.
    run_file: Option<RunFile>,
    /// Files that show games being played (see [`Supervisor::shows_live_games`]), removed on
    /// an interrupt.
    live_files: Mutex<Vec<PathBuf>>,
}

#[derive(Default)]
struct Registry {
    /// Process ids (also group ids) of the bots alive now, each with how many bots have it: a
    /// pid freed by a reaped bot may be given to a new bot before the old one is unregistered.
    live: BTreeMap<i32, u32>,
    /// Spawns between their fork's start and their bot's registration.
    in_flight: usize,
    /// While a sweep scans `/proc`: the bots reaped since the scan began.
    reaped_during_scan: Option<Vec<i32>>,
    /// Every bot was killed on an interrupt; a bot registered now is killed at once.
    stopping: bool,
}

/// A spawn in flight: it ends when dropped, registering the bot it spawned if any.
struct InFlight<'a> {
    bots: &'a Bots,
    spawned: Option<i32>,
}

impl<'a> InFlight<'a> {
    fn begin(bots: &'a Bots) -> InFlight<'a> {
        bots.registry().in_flight += 1;
        InFlight {
            bots,
            spawned: None,
        }
    }
}

impl Drop for InFlight<'_> {
    /// Registers the bot and ends the flight in one step under the lock, so that no sweep can
    /// see the flight over and the bot unregistered.
    fn drop(&mut self) {
        let mut registry = self.bots.registry();
        if let Some(pid) = self.spawned {
            *registry.live.entry(pid).or_default() += 1;
            if registry.stopping {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        registry.in_flight -= 1;
        if registry.in_flight == 0 {
            self.bots.settled.notify_all();
        }
    }
}

impl Bots {
    fn new(reaping_orphans: bool, run_file: Option<RunFile>) -> Bots {
        Bots {
            registry: Mutex::new(Registry::default()),
            settled: Condvar::new(),
            reaping_orphans,
            sweeper: Mutex::new(()),
            sweep_wanted: AtomicBool::new(false),
            run_file,
            live_files: Mutex::new(Vec::new()),
        }
    }

    /// Removes the live files (a link put in the place of one is removed, not followed).
    fn remove_live_files(&self) {
        let files = self
            .live_files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for path in files.iter() {
            let _ = std::fs::remove_file(path);
        }
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        self.registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn unregister(&self, pid: i32) {
        let mut registry = self.registry();
        if let Some(count) = registry.live.get_mut(&pid) {
            *count -= 1;
            if *count == 0 {
                registry.live.remove(&pid);
            }
        }
        if let Some(reaped) = &mut registry.reaped_during_scan {
            reaped.push(pid);
        }
    }

    /// Kills every live bot's process group (when the referee is interrupted), and every bot
    /// registered from now on.
    fn kill_all(&self) {
        let mut registry = self.registry();
        registry.stopping = true;
        for &pid in registry.live.keys() {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }

    /// Sweeps, or leaves the request with the thread sweeping now.
    fn sweep_orphans(&self) {
        if !self.reaping_orphans {
            return;
        }
        self.sweep_wanted.store(true, Ordering::SeqCst);
        // A request made after the sweeper's last look is seen here once it has let go.
        while self.sweep_wanted.load(Ordering::SeqCst) {
            let _sweeping = match self.sweeper.try_lock() {
                Ok(guard) => guard,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => return,
            };
            while self.sweep_wanted.swap(false, Ordering::SeqCst) {
                self.sweep();
            }
        }
    }

    /// Reaps zombie children that are not bots, oldest first, up to the first that is a bot
    /// (whose own thread reaps it; a later call, or the sweep, gets those after it).
    fn reap_dead_orphans(&self) {
        if !self.reaping_orphans {
            return;
        }
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        while let Ok(status) = waitid(Id::All, flags) {
            let Some(pid) = status.pid() else {
                return;
            };
            // A zombie keeps its pid, so whether it is a bot (or one being registered) is
            // settled once no spawn is in flight.
            let registry = self
                .settled
                .wait_while(self.registry(), |registry| registry.in_flight > 0)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if registry.live.contains_key(&pid.as_raw()) {
                return;
            }
            drop(registry);
            while let Err(Errno::EINTR) = waitpid(pid, None) {}
        }
    }

    /// Sweeps now, after any sweep under way (when the referee is about to exit).
    fn sweep_before_exit(&self) {
        if self.reaping_orphans {
            let _sweeping = self
                .sweeper
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            self.sweep();
        }
    }

    /// Kills and reaps the orphans until none is left; the caller holds [`Bots::sweeper`].
    fn sweep(&self) {
        for _ in 0..SWEEP_ROUNDS {
            let orphans = self.orphans();
            if orphans.is_empty() {
                return;
            }
            // Unreaped children of ours that no other thread reaps: their pids stay theirs.
            for pid in orphans {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                while let Err(Errno::EINTR) = waitpid(Pid::from_raw(pid), None) {}
            }
        }
    }

    /// The children of this process that are neither live bots nor bots being started.
    fn orphans(&self) -> Vec<i32> {
        self.registry().reaped_during_scan = Some(Vec::new());
        let children = procfs::children_of(std::process::id() as i32);
        let mut registry = self
            .settled
            .wait_while(self.registry(), |registry| registry.in_flight > 0)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let reaped = registry.reaped_during_scan.take().unwrap_or_default();
        children
            .into_iter()
            .filter(|pid| !registry.live.contains_key(pid) && !reaped.contains(pid))
            .collect()
    }
}

/// On SIGINT or SIGTERM: kill every bot and its orphans, say so, and exit with 130. The thread
/// holds the bots weakly, so that they (and the run file) go when the supervisor does.
fn stop_bots_on_interrupt(bots: Weak<Bots>) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])?;
    std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                if let Some(bots) = bots.upgrade() {
                    bots.kill_all();
                    bots.sweep_before_exit();
                    if let Some(run_file) = &bots.run_file {
                        run_file.clean_up_before_exit();
                    }
                    bots.remove_live_files();
                }
                eprintln!(
                    "referee: stopped by signal {signal}; every bot was killed, finished games are recorded"
                );
                std::process::exit(130);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;

    #[test]
    fn a_plain_supervisor_tracks_bots_and_sweeps_nothing() {
        let supervisor = Supervisor::new();
        let mut command = Command::new("sleep");
        command.arg("5");
        let mut bot = supervisor.spawn(command).unwrap();
        let mut other = Command::new("sleep").arg("5").spawn().unwrap();
        assert_eq!(supervisor.shared.bots.registry().live.len(), 1);
        supervisor.sweep_orphans();
        assert!(
            other.try_wait().unwrap().is_none(),
            "a child of the caller was killed"
        );
        for child in [&mut bot, &mut other] {
            child.kill().unwrap();
            child.wait().unwrap();
        }
        supervisor.reaped(bot.id());
        assert!(supervisor.shared.bots.registry().live.is_empty());
    }

    /// Name of the environment variable that makes the test below run its sweeping part: in a
    /// process of its own, since a sweep would kill the children of the other tests.
    const IN_OWN_PROCESS: &str = "REFEREE_SUPERVISOR_RACE_TEST";

    #[test]
    fn sweeps_never_kill_a_bot_being_started_and_catch_every_escapee() {
        if std::env::var_os(IN_OWN_PROCESS).is_some() {
            sweeps_race_spawns();
            return;
        }
        let output = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "supervisor::tests::sweeps_never_kill_a_bot_being_started_and_catch_every_escapee",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(IN_OWN_PROCESS, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{text}");
        assert!(text.contains("1 passed"), "{text}");
    }

    /// Threads start bots while others sweep; every bot also leaves an escaped grandchild (in a
    /// session of its own) behind when it exits. No bot may be killed by a sweep, and once the
    /// last bot is gone no child may be left.
    fn sweeps_race_spawns() {
        let supervisor = Supervisor::for_command().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let sweepers: Vec<_> = (0..2)
            .map(|_| {
                let (supervisor, stop) = (supervisor.clone(), Arc::clone(&stop));
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        supervisor.sweep_orphans();
                    }
                })
            })
            .collect();
        let starters: Vec<_> = (0..3)
            .map(|_| {
                let supervisor = supervisor.clone();
                std::thread::spawn(move || {
                    for _ in 0..40 {
                        let mut command = Command::new("sh");
                        // The bot waits for its input to close, then leaves a sleeper behind.
                        command
                            .args(["-c", "read _; setsid sleep 30 </dev/null & exit 0"])
                            .stdin(Stdio::piped())
                            .stdout(Stdio::null());
                        // SAFETY: setsid is async-signal-safe and allocates nothing.
                        unsafe {
                            command.pre_exec(|| {
                                nix::unistd::setsid().map(drop).map_err(io::Error::from)
                            });
                        }
                        let mut bot = supervisor.spawn(command).unwrap();
                        std::thread::sleep(Duration::from_millis(5));
                        assert!(
                            bot.try_wait().unwrap().is_none(),
                            "a sweep killed a live bot"
                        );
                        drop(bot.stdin.take());
                        let status = bot.wait().unwrap();
                        supervisor.reaped(bot.id());
                        assert!(status.success(), "the bot was killed: {status}");
                        supervisor.sweep_orphans();
                    }
                })
            })
            .collect();
        for starter in starters {
            starter.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        for sweeper in sweepers {
            sweeper.join().unwrap();
        }
        supervisor.sweep_orphans();
        assert_eq!(
            procfs::children_of(std::process::id() as i32),
            Vec::<i32>::new()
        );
    }
}
