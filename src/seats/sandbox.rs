//! Running a bot under bubblewrap (`bwrap`, Debian package `bubblewrap`): no network, a
//! read-only view of the system, a private writable scratch directory, its own PID namespace
//! (so it can see and signal no process outside, and everything it starts dies with it) and a
//! new session.

use std::io;
use std::path::Path;

/// The sandbox program looked up on the PATH.
pub const BWRAP: &str = "bwrap";

/// A sandbox that could not be set up: the referee's error, reported before any game.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("--sandbox needs bubblewrap ('bwrap') on the PATH (Debian/Ubuntu: apt-get install bubblewrap)")]
    Missing,
    #[error("bubblewrap cannot create a sandbox here: {0}")]
    Unusable(String),
    #[error("cannot create a scratch directory for a sandboxed bot")]
    Scratch(#[from] io::Error),
}

/// Checks once, before a match, that bubblewrap exists and works on this machine.
pub fn check_available() -> Result<(), SandboxError> {
    let scratch = tempfile::tempdir()?;
    let mut command = wrap(&["true".to_string()], scratch.path());
    let output = std::process::Command::new(command.remove(0))
        .args(command)
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => SandboxError::Missing,
            _ => SandboxError::Unusable(e.to_string()),
        })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(SandboxError::Unusable(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ))
    }
}

/// A bot's private scratch directory, removed with everything in it when dropped.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Result<Scratch, SandboxError> {
        Ok(Scratch {
            dir: tempfile::Builder::new()
                .prefix("referee-scratch-")
                .tempdir()?,
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// The command line that runs `command` in the sandbox with `scratch` as its only writable
/// place (also its HOME and TMPDIR). The working directory stays the referee's, read-only, so
/// relative paths in bot commands keep working.
pub fn wrap(command: &[String], scratch: &Path) -> Vec<String> {
    let scratch = scratch.display().to_string();
    let mut args: Vec<String> = [
        BWRAP,
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--bind",
        &scratch,
        &scratch,
        "--setenv",
        "HOME",
        &scratch,
        "--setenv",
        "TMPDIR",
        &scratch,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(command.iter().cloned());
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_follows_the_sandbox_options() {
        let wrapped = wrap(&["python3".into(), "bot.py".into()], Path::new("/tmp/s"));
        assert_eq!(wrapped[0], "bwrap");
        let joined = wrapped.join(" ");
        assert!(joined.contains("--ro-bind / /"));
        assert!(joined.contains("--bind /tmp/s /tmp/s"));
        assert!(joined.contains("--unshare-all"));
        assert!(joined.ends_with("--new-session -- python3 bot.py"));
    }
}
