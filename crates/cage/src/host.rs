//! The referee process as the host of bots: what every command that runs bots sets up before
//! the first one starts, so that none outlives the referee (nor what a killed run left behind
//! lives on), a sandbox that cannot work is refused before any game, and the bots' PID
//! namespaces are tried once, before any clock runs.

use crate::limits::Limits;
use crate::process_options::ProcessOptions;
use crate::sandbox::{self, SandboxError};
use crate::supervisor::{Supervisor, SupervisorError};
use crate::{bot_cgroups, pid_namespace};
use std::io;
use std::path::PathBuf;

/// A host that cannot be set up: the referee's error, before any bot starts.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// `--sandbox` was asked for and bubblewrap cannot make one here.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The referee's own path, which built-in bots are run from, is unknown.
    #[error("cannot locate the referee executable")]
    Executable(#[source] io::Error),
    /// The command's supervisor could not be set up.
    #[error(transparent)]
    Supervisor(#[from] SupervisorError),
}

/// What a command that runs bots has set up.
pub struct Host {
    /// The referee executable, which built-in bots run as.
    pub referee_exe: PathBuf,
    /// Watches every bot this process starts (see [`Supervisor::for_command`]).
    pub supervisor: Supervisor,
}

/// Checks that bots can be started as `process` asks (the sandbox works) and creates the
/// command's supervisor: this process becomes the reaper of the bots' orphans, stops every bot
/// on Ctrl-C or SIGTERM, and kills what runs killed earlier left behind.
pub fn prepare(process: &ProcessOptions) -> Result<Host, HostError> {
    if process.sandbox {
        sandbox::check_available()?;
    } else {
        pid_namespace::available();
    }
    let referee_exe = std::env::current_exe().map_err(HostError::Executable)?;
    Ok(Host {
        referee_exe,
        supervisor: Supervisor::for_command()?,
    })
}

/// Why a processes limit among `limits` will not hold as well as asked, when the referee cannot
/// make pids cgroups here (it then falls back to RLIMIT_NPROC).
pub fn processes_limit_warning(limits: &[Limits]) -> Option<String> {
    if limits.iter().all(|l| l.processes.is_none()) {
        return None;
    }
    let error = bot_cgroups::pids_available().err()?;
    // The error and its causes, as the command line prints an error.
    let why: Vec<String> =
        std::iter::successors(Some(&error as &dyn std::error::Error), |e| e.source())
            .map(ToString::to_string)
            .collect();
    let why = why.join(": ");
    Some(format!(
        "{why}, so the processes limit falls back to RLIMIT_NPROC, which counts every process of \
         the user{}",
        if nix::unistd::geteuid().is_root() {
            " and is not enforced for root: it will not hold"
        } else {
            ""
        }
    ))
}
