//! One toolchain per language for the whole run: the build, the check and the games. Once per
//! language per run, the referee looks, in the build's own sandbox, at the version of the
//! language's toolchain (the profile's `version` command) and at the absolute path of the
//! program its run command starts by name (`command -v python3`). The bot's command names that
//! path, so a game outside the sandbox cannot start another `python3` of the organiser's `PATH`
//! than the one the build used; and the version goes with every build and into its hash, so
//! that a new compiler builds the bots again.

use super::compile::{io_error, read_bounded, spawn_boxed, wait_boxed, BuildError, BuildOptions};
use super::profile::Profile;
use super::staging;
use crate::sandbox::Sandbox;
use crate::supervisor::Supervisor;
use referee_rules::quote;
use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Mutex, PoisonError};

/// A language's toolchain as the build's sandbox shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The first non-empty line of the profile's `version` command (its output and errors),
    /// escaped and bounded; or why there is none, in parentheses.
    pub version: String,
    /// The absolute path of [`Profile::program`] in the sandbox, if it names one found there.
    pub program: Option<String>,
}

/// The most of the look's output kept: a version line and a path.
const MAX_PROBE_BYTES: u64 = 16 << 10;
/// Characters of the version line kept.
const VERSION_CHARS: usize = 200;
/// The longest path taken for a program.
const MAX_PROGRAM_CHARS: usize = 1024;

/// A language's toolchain, looked at in the build's sandbox (`options`' limits and timeout,
/// started by `supervisor`) the first time this run asks for it, the same answer after.
pub fn toolchain(
    language: &str,
    profile: &Profile,
    options: &BuildOptions,
    supervisor: &Supervisor,
) -> Result<Toolchain, BuildError> {
    type Slot = Arc<Mutex<Option<Toolchain>>>;
    static SEEN: Mutex<Option<HashMap<[String; 3], Slot>>> = Mutex::new(None);
    let key = [
        language.to_string(),
        profile.version.clone(),
        profile.program().unwrap_or_default().to_string(),
    ];
    let slot = SEEN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .entry(key)
        .or_default()
        .clone();
    // Held while looking: a build of the language beside this one waits for the answer.
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(toolchain) = &*slot {
        return Ok(toolchain.clone());
    }
    let toolchain = look(profile, options, supervisor)?;
    *slot = Some(toolchain.clone());
    Ok(toolchain)
}

/// Runs the look in the sandbox, from an empty folder of its own under the cache.
fn look(
    profile: &Profile,
    options: &BuildOptions,
    supervisor: &Supervisor,
) -> Result<Toolchain, BuildError> {
    let empty = options
        .cache
        .join(format!("look-{}", staging::unique("toolchain")));
    std::fs::create_dir_all(&empty).map_err(io_error(&empty))?;
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o755))
        .map_err(io_error(&empty))?;
    let outcome = look_from(&empty, profile, options, supervisor);
    let _ = std::fs::remove_dir_all(&empty);
    outcome
}

fn look_from(
    cwd: &std::path::Path,
    profile: &Profile,
    options: &BuildOptions,
    supervisor: &Supervisor,
) -> Result<Toolchain, BuildError> {
    let version = if profile.version.trim().is_empty() {
        "true"
    } else {
        &profile.version
    };
    let script = format!(
        "export LC_ALL=C; p=$(command -v \"$1\") || p=; printf '%s\\n' \"$p\"; ( {version} ) 2>&1 </dev/null"
    );
    let command = [
        "sh".to_string(),
        "-c".into(),
        script,
        "look".into(),
        profile.program().unwrap_or_default().to_string(),
    ];
    let sandbox = Sandbox::new(&command, cwd, &options.limits)?;
    let mut child = spawn_boxed(&sandbox, options.limits, supervisor)?;
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let output = std::thread::spawn(move || read_bounded(stdout, MAX_PROBE_BYTES));
    let errors = std::thread::spawn(move || read_bounded(stderr, 0));
    let (_, timed_out) = wait_boxed(&mut child, options.timeout, supervisor)?;
    let (output, _) = output.join().unwrap_or_default();
    let _ = errors.join();
    let mut toolchain = parse(&output, !profile.version.trim().is_empty());
    if timed_out {
        toolchain.version = format!(
            "(its version command took longer than {} s)",
            options.timeout.as_secs()
        );
    }
    Ok(toolchain)
}

/// The look's output: the program's path on the first line, then what the version command
/// wrote.
fn parse(output: &[u8], has_version: bool) -> Toolchain {
    let text = String::from_utf8_lossy(output);
    let mut lines = text.lines();
    let program = lines.next().filter(|path| {
        path.starts_with('/')
            && path.len() <= MAX_PROGRAM_CHARS
            && !path.chars().any(char::is_control)
    });
    let version = match lines.map(str::trim).find(|line| !line.is_empty()) {
        _ if !has_version => "(no version command)".to_string(),
        Some(line) => quote::shorten(line, VERSION_CHARS),
        None => "(its version command printed nothing)".to_string(),
    };
    Toolchain {
        version,
        program: program.map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use std::time::{Duration, Instant};

    #[test]
    fn the_look_is_read_escaped_and_bounded() {
        let looked = parse(b"/usr/bin/python3\n\n  Python 3.11.2\x1b[0m\nmore\n", true);
        assert_eq!(looked.program.as_deref(), Some("/usr/bin/python3"));
        assert_eq!(looked.version, "Python 3.11.2\\x1b[0m");
        let looked = parse(b"\nsh: 1: zig: not found\n", true);
        assert_eq!(looked.program, None);
        assert_eq!(looked.version, "sh: 1: zig: not found");
        let long = format!("builtin\n{}\n", "v".repeat(1000));
        let looked = parse(long.as_bytes(), true);
        assert_eq!(looked.program, None, "not a path");
        assert_eq!(looked.version.len(), VERSION_CHARS + 3);
        assert_eq!(parse(b"/bin/x\x07\n", true).program, None);
        assert_eq!(
            parse(b"/bin/x\n", true).version,
            "(its version command printed nothing)"
        );
        assert_eq!(parse(b"/bin/x\n", false).version, "(no version command)");
    }

    /// "Contest day you can trust", item 9: the toolchain is looked at once per language per
    /// run, in the sandbox, and the interpreter's path is the one the sandbox finds.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn the_toolchain_is_looked_at_once_in_the_sandbox() {
        let cache = tempfile::tempdir().unwrap();
        let options = BuildOptions::new(
            cache.path().join("builds"),
            Limits::default(),
            Duration::from_secs(60),
        );
        let profile = Profile {
            detect: vec!["*.py".into()],
            compile: String::new(),
            run: "python3 {dir}/main.py".into(),
            // Slow, and to stderr: the look waits, and takes both.
            version: "sleep 1; python3 --version >&2".into(),
        };
        let supervisor = Supervisor::new();
        let started = Instant::now();
        let first = toolchain("python-look-test", &profile, &options, &supervisor).unwrap();
        assert!(started.elapsed() >= Duration::from_secs(1));
        assert!(first.version.starts_with("Python 3."), "{first:?}");
        let program = first.program.clone().unwrap();
        assert!(
            program.starts_with('/') && program.ends_with("/python3"),
            "{program}"
        );
        let started = Instant::now();
        let again = toolchain("python-look-test", &profile, &options, &supervisor).unwrap();
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "looked again"
        );
        assert_eq!(again, first);
        let left: Vec<_> = std::fs::read_dir(&options.cache).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
