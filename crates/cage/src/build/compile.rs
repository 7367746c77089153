//! Building one entrant's sources with its language's profile, in the sandbox, with limits,
//! cached by the hash of the sources and the profile.
//!
//! The sources are copied (regular files and folders only, never a symlink) into a staging
//! folder that the sandbox's user may read; the build runs under bubblewrap, as root as the user
//! of a box of its own (see [`crate::boxes`]), with no network, the staging folder read-only, a
//! private `/tmp` where the compile step works on a copy, the build's limits (its processes
//! limit its own box's) and a wall-clock timeout; it hands the folder it built back as a tar
//! stream on its standard output, which the referee writes to a file (up to a cap, never held
//! in memory) and unpacks from there (refusing any path outside it) into `CACHE/HASH/bot/`,
//! beside the manifest of what it holds (`CACHE/HASH/manifest.json`, see [`super::manifest`]).
//! A build already there is the same build: it is reused once the tree is checked against its
//! manifest (a tree changed since is built again, and the result says so). A failed build is the
//! entrant's result, with the compiler's own message, escaped and bounded; the referee keeps it
//! too, in `CACHE/HASH.failed`, so that the same sources are not built again on every run (a
//! build that timed out would cost its whole timeout each time) unless a rebuild is asked for.
//! The build's processes are started through the command's supervisor, so Ctrl-C kills them;
//! what a referee stopped mid-build staged in the cache is removed by the next build there.

use super::manifest::Manifest;
use super::profile::Profile;
use super::staging;
use super::toolchain::{toolchain, Toolchain};
use crate::limits::Limits;
use crate::sandbox::{Sandbox, SandboxError};
use crate::supervisor::Supervisor;
use referee_rules::quote;
use sha2::{Digest, Sha256};
use std::io::{self, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// The most a source folder may hold: a bot's sources, not a data set.
const MAX_SOURCE_BYTES: u64 = 64 << 20;
const MAX_SOURCE_FILES: usize = 10_000;
/// The most a build may hand back unless [`BuildOptions::max_output_bytes`] says otherwise: a
/// bot, its libraries and its data, not a toolchain.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 64 << 20;
/// The compiler's output kept (its beginning: the first errors are the ones to fix).
const MAX_MESSAGE_BYTES: u64 = 64 << 10;
/// Lines of the compiler's message shown in a failure.
const MESSAGE_LINES: usize = 40;
/// Characters of each line shown.
const MESSAGE_LINE_CHARS: usize = 300;

/// How builds are run.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Where builds are kept, by hash.
    pub cache: PathBuf,
    /// The resource limits the compile step runs under, in the sandbox.
    pub limits: Limits,
    /// The wall-clock time a build gets before its whole process group is killed.
    pub timeout: Duration,
    /// The most the built folder may hold, as the tar stream the build hands back (which the
    /// referee writes to a file, never holding it in memory).
    pub max_output_bytes: u64,
    /// Build again even where the cache holds a build or a failure of the same sources: after
    /// a change of toolchain the hash does not see, or to retry a build that timed out.
    pub rebuild: bool,
}

impl BuildOptions {
    /// Builds cached in `cache`, run with `limits` for at most `timeout`; the rest as by
    /// default ([`DEFAULT_MAX_OUTPUT_BYTES`]), so that callers name only what they choose.
    pub fn new(cache: PathBuf, limits: Limits, timeout: Duration) -> BuildOptions {
        BuildOptions {
            cache,
            limits,
            timeout,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            rebuild: false,
        }
    }
}

/// A usable build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The built folder.
    pub dir: PathBuf,
    /// The hash naming the build: of its language, profile, toolchain and every source file.
    /// The same sources give the same hash wherever the cache is.
    pub hash: String,
    /// The bot's command, starting the interpreter the build's sandbox found (see
    /// [`super::toolchain`]).
    pub command: String,
    /// The first line of the toolchain's version, as the build's sandbox shows it.
    pub toolchain: String,
    /// Found in the cache rather than built now.
    pub cached: bool,
    /// How long it took, hashing the sources included (all a cached build costs).
    pub elapsed: Duration,
    /// Why the cached build was not used, when it no longer matched its manifest and was built
    /// again: for the organiser to know the cache was tampered with.
    pub note: Option<String>,
}

/// An entrant's build that failed, now or in an earlier run (then the same sources are not
/// built again unless [`BuildOptions::rebuild`] asks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    /// Why.
    pub failure: BuildFailure,
    /// Found in the cache rather than built now.
    pub cached: bool,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.failure.fmt(f)?;
        if self.cached {
            f.write_str("\n  (as when built before: the cached failure; rebuild to try again)")?;
        }
        Ok(())
    }
}

/// Why an entrant's sources gave no bot: the entrant's result, shown to the organiser.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BuildFailure {
    /// The compile step failed: its exit, and its message (escaped, bounded).
    Compiler {
        /// How it ended, in words (`exit code 1`, `killed by signal 9`).
        exit: String,
        /// The first lines the compile step wrote, escaped and cut to a readable length.
        message: Vec<String>,
    },
    /// The build ran past its timeout and was killed.
    TimedOut {
        /// The timeout, in whole seconds.
        seconds: u64,
        /// The first lines the compile step wrote before it was stopped, escaped and cut.
        message: Vec<String>,
    },
    /// The sources or the build are larger than a bot's may be.
    TooLarge(String),
    /// The build succeeded but holds no file the run command starts.
    NoEntry {
        /// The file expected, relative to the built folder (`main.py`, `Main.class`).
        file: String,
        /// The language, whose entry file it is.
        language: String,
        /// The names at the top of the built folder, escaped, the first [`LISTED_NAMES`].
        found: Vec<String>,
        /// How many more there were.
        more: usize,
    },
}

/// The top-level names a [`BuildFailure::NoEntry`] lists.
const LISTED_NAMES: usize = 20;

impl BuildFailure {
    /// Whether bubblewrap itself failed to make the build's sandbox (short of processes or
    /// memory for a moment): the machine's failure, not the sources', so it is not kept.
    fn of_the_sandbox(&self) -> bool {
        matches!(self, BuildFailure::Compiler { message, .. }
            if message.first().is_some_and(|line| line.starts_with("bwrap: ")))
    }
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (head, message) = match self {
            BuildFailure::Compiler { exit, message } => {
                (format!("the build failed ({exit})"), message)
            }
            BuildFailure::TimedOut { seconds, message } => (
                format!("the build took longer than {seconds} s and was stopped"),
                message,
            ),
            BuildFailure::TooLarge(what) => return f.write_str(what),
            BuildFailure::NoEntry {
                file,
                language,
                found,
                more,
            } => {
                // Names the organiser wrote in a contest file, escaped as a contestant's are.
                let file = quote::shorten(file, 80);
                let language = quote::shorten(language, 40);
                write!(
                    f,
                    "no {file} in the sources or the build (the {language} entry file, which its run command starts); found: "
                )?;
                if found.is_empty() {
                    f.write_str("nothing")?;
                }
                f.write_str(&found.join(", "))?;
                if *more > 0 {
                    write!(f, " and {more} more")?;
                }
                return Ok(());
            }
        };
        f.write_str(&head)?;
        for line in message {
            write!(f, "\n  | {line}")?;
        }
        Ok(())
    }
}

/// The referee's own failures while building.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A file or folder of the build (the sources, the staging folder, the cache, `bwrap`)
    /// could not be read, written or run.
    #[error("cannot use {path}")]
    Io {
        /// What was being used.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The sandbox's command line or its staging could not be prepared.
    #[error("cannot set up the build's sandbox")]
    Sandbox(#[from] SandboxError),
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> BuildError + '_ {
    move |source| BuildError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Builds the sources in `source` as `language` with `profile`, its processes started and
/// stopped by `supervisor` (an interrupt kills them and ends the process); a build, or a
/// failure, of the same sources and profile in the cache is reused unless `options` ask for a
/// rebuild.
pub fn build(
    source: &Path,
    language: &str,
    profile: &Profile,
    options: &BuildOptions,
    supervisor: &Supervisor,
) -> Result<Result<Built, Failed>, BuildError> {
    let started = Instant::now();
    let files = match collect(source)? {
        Ok(files) => files,
        Err(failure) => {
            return Ok(Err(Failed {
                failure,
                cached: false,
            }))
        }
    };
    let toolchain = toolchain(language, profile, options, supervisor)?;
    let digest = digest(language, profile, &toolchain, source, &files)?;
    std::fs::create_dir_all(&options.cache).map_err(io_error(&options.cache))?;
    let cache = std::fs::canonicalize(&options.cache).map_err(io_error(&options.cache))?;
    staging::sweep(&cache);
    let dir = cache.join(&digest);
    let failed = cache.join(format!("{digest}.failed"));
    let tree = dir.join("bot");
    let mut note = None;
    let built = |cached, note| Built {
        command: match &toolchain.program {
            Some(program) => profile.command_resolved(&tree, program),
            None => profile.command(&tree),
        },
        toolchain: toolchain.version.clone(),
        hash: digest.clone(),
        dir: tree.clone(),
        cached,
        elapsed: started.elapsed(),
        note,
    };
    if options.rebuild {
        remove_cached(&dir, &failed)?;
    } else if let Some(failure) = read_failure(&failed) {
        return Ok(Err(Failed {
            failure,
            cached: true,
        }));
    } else if dir.is_dir() {
        match Manifest::check(&tree, &dir.join("manifest.json")) {
            None => return Ok(Ok(built(true, None))),
            Some(difference) => {
                note = Some(format!(
                    "the cached build no longer matched its manifest ({difference}): built again"
                ));
                remove_cached(&dir, &failed)?;
            }
        }
    }
    // Two builds of the same sources may run at once, in this process or another: each stages
    // in folders of its own.
    let unique = staging::unique(&digest);
    let stage = cache.join(format!("src-{unique}"));
    let fresh = cache.join(format!("new-{unique}"));
    let tar = cache.join(format!("out-{unique}.tar"));
    let staged = Staged {
        stage: &stage,
        fresh: &fresh,
        tar: &tar,
    };
    let outcome =
        stage_and_run(source, &files, &staged, profile, options, supervisor).and_then(|outcome| {
            match outcome {
                Ok(()) => finish(&fresh, language, profile),
                failed => Ok(failed),
            }
        });
    let _ = std::fs::remove_dir_all(&stage);
    let _ = std::fs::remove_file(&tar);
    if !matches!(outcome, Ok(Ok(()))) {
        let _ = std::fs::remove_dir_all(&fresh);
    }
    if let Err(failure) = outcome? {
        if !failure.of_the_sandbox() {
            write_failure(&failed, &cache.join(format!("failed-{unique}")), &failure)?;
        }
        return Ok(Err(Failed {
            failure,
            cached: false,
        }));
    }
    // Another run may have built the same meanwhile: either folder is the build.
    if std::fs::rename(&fresh, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&fresh);
        if !dir.is_dir() {
            return Err(BuildError::Io {
                path: dir,
                source: io::Error::other("the build could not be moved into the cache"),
            });
        }
    }
    Ok(Ok(built(false, note)))
}

/// Checks that the build in `fresh` holds its entry file and writes its manifest.
fn finish(
    fresh: &Path,
    language: &str,
    profile: &Profile,
) -> Result<Result<(), BuildFailure>, BuildError> {
    let tree = fresh.join("bot");
    if let Some(file) = profile.entry() {
        if !tree.join(&file).is_file() {
            let mut names: Vec<String> = std::fs::read_dir(&tree)
                .map_err(io_error(&tree))?
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            let more = names.len().saturating_sub(LISTED_NAMES);
            return Ok(Err(BuildFailure::NoEntry {
                file,
                language: language.to_string(),
                found: names
                    .iter()
                    .take(LISTED_NAMES)
                    .map(|name| quote::shorten(name, 60))
                    .collect(),
                more,
            }));
        }
    }
    let manifest = Manifest::of_tree(&tree).map_err(io_error(&tree))?;
    let to = fresh.join("manifest.json");
    manifest.write(&to).map_err(io_error(&to))?;
    Ok(Ok(()))
}

/// Forgets the cached build and failure of a hash, to build it again.
fn remove_cached(dir: &Path, failed: &Path) -> Result<(), BuildError> {
    for (path, removed) in [
        (failed, std::fs::remove_file(failed)),
        (dir, std::fs::remove_dir_all(dir)),
    ] {
        match removed {
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                return Err(BuildError::Io {
                    path: path.to_path_buf(),
                    source: error,
                })
            }
            _ => {}
        }
    }
    Ok(())
}

/// The most a failure kept in the cache may hold: its message is bounded far below.
const MAX_FAILURE_FILE: u64 = 1 << 20;

/// The failure kept for a hash, if the cache holds one the referee can read; any other file
/// there (cut short, or not the referee's) is as none: the sources are built again.
fn read_failure(failed: &Path) -> Option<BuildFailure> {
    let file = std::fs::File::open(failed).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FAILURE_FILE).read_to_end(&mut bytes).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Keeps `failure` as the hash's, written whole (through `temporary`) or not at all.
fn write_failure(
    failed: &Path,
    temporary: &Path,
    failure: &BuildFailure,
) -> Result<(), BuildError> {
    let json = serde_json::to_vec(failure).expect("a failure serialises");
    std::fs::write(temporary, json).map_err(io_error(temporary))?;
    std::fs::rename(temporary, failed).map_err(io_error(failed))
}

/// The folder's regular files, relative paths sorted, with their executable bit; symlinks
/// and special files are left out.
fn collect(source: &Path) -> Result<Result<Vec<(PathBuf, bool)>, BuildFailure>, BuildError> {
    let mut files = Vec::new();
    let mut total = 0u64;
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let dir = source.join(&relative);
        for entry in std::fs::read_dir(&dir).map_err(io_error(&dir))? {
            let entry = entry.map_err(io_error(&dir))?;
            let kind = entry.file_type().map_err(io_error(&dir))?;
            let path = relative.join(entry.file_name());
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                let meta = entry.metadata().map_err(io_error(&dir))?;
                total += meta.len();
                files.push((path, meta.permissions().mode() & 0o111 != 0));
            }
            if total > MAX_SOURCE_BYTES || files.len() > MAX_SOURCE_FILES {
                return Ok(Err(BuildFailure::TooLarge(format!(
                    "the sources hold more than {} MiB or {MAX_SOURCE_FILES} files, more than a bot's may",
                    MAX_SOURCE_BYTES >> 20
                ))));
            }
        }
    }
    files.sort();
    Ok(Ok(files))
}

/// The hash naming a build: the language, the profile, the toolchain and every file's path,
/// mode and bytes.
fn digest(
    language: &str,
    profile: &Profile,
    toolchain: &Toolchain,
    source: &Path,
    files: &[(PathBuf, bool)],
) -> Result<String, BuildError> {
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    field(language.as_bytes());
    field(profile.compile.as_bytes());
    field(profile.run.as_bytes());
    field(profile.version.as_bytes());
    field(toolchain.version.as_bytes());
    field(toolchain.program.as_deref().unwrap_or_default().as_bytes());
    for (path, executable) in files {
        let file = source.join(path);
        let bytes = std::fs::read(&file).map_err(io_error(&file))?;
        field(path.as_os_str().as_encoded_bytes());
        field(&[u8::from(*executable)]);
        field(&bytes);
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Where a build stages its work in the cache (see [`staging`]).
struct Staged<'a> {
    /// The copy of the sources.
    stage: &'a Path,
    /// The build, unpacked, before it is moved to its place.
    fresh: &'a Path,
    /// The tar stream the build hands back.
    tar: &'a Path,
}

/// Copies the sources into the stage (readable by the sandbox's user), runs the compile step
/// in the sandbox, its output written to the tar file, and unpacks what it built into the
/// fresh folder.
fn stage_and_run(
    source: &Path,
    files: &[(PathBuf, bool)],
    staged: &Staged<'_>,
    profile: &Profile,
    options: &BuildOptions,
    supervisor: &Supervisor,
) -> Result<Result<(), BuildFailure>, BuildError> {
    let Staged { stage, fresh, tar } = *staged;
    for (relative, executable) in files {
        let to = stage.join(relative);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
            set_mode(parent, 0o755)?;
        }
        std::fs::copy(source.join(relative), &to).map_err(io_error(&to))?;
        set_mode(&to, if *executable { 0o755 } else { 0o644 })?;
    }
    std::fs::create_dir_all(stage).map_err(io_error(stage))?;
    set_mode(stage, 0o755)?;

    // LC_ALL=C: compilers quote in ASCII, which the message shows as it is.
    let script = format!(
        "set -e; export LC_ALL=C; mkdir /tmp/build; cp -R \"$0\"/. /tmp/build; cd /tmp/build; ( {} ) 1>&2; tar -cf - .",
        if profile.compile.trim().is_empty() {
            "true"
        } else {
            &profile.compile
        }
    );
    let stage_text = stage.to_string_lossy().into_owned();
    let command = ["sh".to_string(), "-c".into(), script, stage_text];
    let sandbox = Sandbox::new(&command, stage, &options.limits)?;
    let mut child = spawn_boxed(&sandbox, options.limits, supervisor)?;
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let file = std::fs::File::create(tar).map_err(io_error(tar))?;
    let max_output = options.max_output_bytes;
    let output = std::thread::spawn(move || write_bounded(stdout, file, max_output));
    let message = std::thread::spawn(move || read_bounded(stderr, MAX_MESSAGE_BYTES));
    let (status, timed_out) = wait_boxed(&mut child, options.timeout, supervisor)?;
    let output_whole = output
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the build's output reader panicked")))
        .map_err(io_error(tar))?;
    let (message, _) = message.join().unwrap_or_default();
    let message = message_lines(&message);
    if !output_whole {
        // Before its exit status: a build cut off fails for that.
        return Ok(Err(BuildFailure::TooLarge(format!(
            "the build is larger than {} MiB, more than a bot's may be",
            options.max_output_bytes >> 20
        ))));
    }
    if timed_out {
        return Ok(Err(BuildFailure::TimedOut {
            seconds: options.timeout.as_secs(),
            message,
        }));
    }
    if !status.success() {
        let exit = crate::sandbox::bot_status(status);
        let exit = match (
            exit.code(),
            std::os::unix::process::ExitStatusExt::signal(&exit),
        ) {
            (Some(code), _) => format!("exit code {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            _ => "no exit code".into(),
        };
        return Ok(Err(BuildFailure::Compiler { exit, message }));
    }
    unpack(tar, &fresh.join("bot"))?;
    set_mode(fresh, 0o755)?;
    Ok(Ok(()))
}

/// Starts the command of `sandbox` with `limits` through `supervisor`, in a process group of its
/// own, its output and errors piped.
pub(super) fn spawn_boxed(
    sandbox: &Sandbox,
    limits: Limits,
    supervisor: &Supervisor,
) -> Result<Child, BuildError> {
    let mut child = Command::new(&sandbox.argv[0]);
    child
        .args(&sandbox.argv[1..])
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let staging = sandbox.staging();
    // SAFETY: the closure runs in the forked child, where only async-signal-safe calls are
    // sound: `apply` only calls setrlimit, `enter` only makes system calls on data prepared
    // before the fork.
    unsafe {
        child.pre_exec(move || {
            limits.apply()?;
            staging.enter()
        })
    };
    supervisor
        .spawn(child)
        .map_err(io_error(Path::new("bwrap")))
}

/// Waits for a child of [`spawn_boxed`] for at most `timeout`, then kills its whole group
/// (bubblewrap, and with it its PID namespace); says how it ended and whether it timed out.
/// A child killed by an interrupt ended no build: this waits for the process to exit rather
/// than return (a failure kept in the cache would fail those sources on every later run).
pub(super) fn wait_boxed(
    child: &mut Child,
    timeout: Duration,
    supervisor: &Supervisor,
) -> Result<(ExitStatus, bool), BuildError> {
    let status = child
        .wait_timeout(timeout)
        .map_err(io_error(Path::new("bwrap")))?;
    let timed_out = status.is_none();
    if timed_out {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(child.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let status = child.wait().map_err(io_error(Path::new("bwrap")));
    supervisor.reaped(child.id());
    supervisor.reap_dead_orphans();
    if supervisor.is_stopping() {
        supervisor.wait_for_exit();
    }
    Ok((status?, timed_out))
}

/// Unpacks the build's tar file into `fresh`, a new folder: its folders and regular files
/// only.
fn unpack(tar: &Path, fresh: &Path) -> Result<(), BuildError> {
    std::fs::create_dir_all(fresh).map_err(io_error(fresh))?;
    let file = std::fs::File::open(tar).map_err(io_error(tar))?;
    let mut archive = tar::Archive::new(io::BufReader::new(file));
    archive.set_preserve_permissions(true);
    archive.set_overwrite(true);
    for entry in archive.entries().map_err(io_error(fresh))? {
        let mut entry = entry.map_err(io_error(fresh))?;
        // Only files and folders: a link made by the build could point anywhere.
        if !matches!(
            entry.header().entry_type(),
            tar::EntryType::Regular | tar::EntryType::Directory
        ) {
            continue;
        }
        entry.unpack_in(fresh).map_err(io_error(fresh))?;
    }
    set_mode(fresh, 0o755)
}

fn set_mode(path: &Path, mode: u32) -> Result<(), BuildError> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(io_error(path))
}

/// Copies at most `max` bytes of `from` into `to`; says whether that was everything. Past
/// `max` it stops reading (the build, writing on, fails on its closed pipe).
fn write_bounded(from: impl Read, to: std::fs::File, max: u64) -> io::Result<bool> {
    let mut from = io::BufReader::with_capacity(64 << 10, from);
    let mut to = io::BufWriter::with_capacity(64 << 10, to);
    io::copy(&mut (&mut from).take(max), &mut to)?;
    io::Write::flush(&mut to)?;
    let mut more = [0u8; 1];
    Ok(from.read(&mut more)? == 0)
}

/// Reads at most `max` bytes, then drains the rest; says whether it read everything.
pub(super) fn read_bounded(mut from: impl Read, max: u64) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let _ = (&mut from).take(max).read_to_end(&mut kept);
    let rest = io::copy(&mut from, &mut io::sink()).unwrap_or(0);
    (kept, rest == 0)
}

/// The compiler's message as lines to show: the first [`MESSAGE_LINES`], each escaped and cut.
fn message_lines(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut shown: Vec<String> = lines
        .iter()
        .take(MESSAGE_LINES)
        .map(|line| quote::shorten(&expand_tabs(line), MESSAGE_LINE_CHARS))
        .collect();
    if lines.len() > MESSAGE_LINES {
        shown.push(format!("... ({} more lines)", lines.len() - MESSAGE_LINES));
    }
    shown
}

/// `line` with each tab replaced by the spaces up to the next multiple of 8 columns, as a
/// terminal shows it: compilers indent their excerpts with tabs, which escaped would read `\t`.
fn expand_tabs(line: &str) -> String {
    let mut expanded = String::with_capacity(line.len());
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let spaces = 8 - column % 8;
            expanded.push_str(&" ".repeat(spaces));
            column += spaces;
        } else {
            expanded.push(c);
            column += 1;
        }
    }
    expanded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_sources_and_the_profile() {
        let profile = Profile {
            detect: vec!["*.py".into()],
            compile: String::new(),
            run: "python3 {dir}/main.py".into(),
            version: String::new(),
        };
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.py"), "print(1)").unwrap();
        let files = vec![(PathBuf::from("main.py"), false)];
        let python = Toolchain {
            version: "Python 3.11.2".into(),
            program: Some("/usr/bin/python3".into()),
        };
        let hash = |profile: &Profile, files: &[(PathBuf, bool)]| {
            digest("python", profile, &python, dir.path(), files).unwrap()
        };
        let base = hash(&profile, &files);
        assert_eq!(base.len(), 64);
        assert_eq!(base, hash(&profile, &files));
        let other_run = Profile {
            run: "pypy3 {dir}/main.py".into(),
            version: String::new(),
            ..profile.clone()
        };
        assert_ne!(base, hash(&other_run, &files));
        let newer = Toolchain {
            version: "Python 3.12.0".into(),
            ..python.clone()
        };
        assert_ne!(
            base,
            digest("python", &profile, &newer, dir.path(), &files).unwrap()
        );
        assert_ne!(base, hash(&profile, &[(PathBuf::from("main.py"), true)]));
        std::fs::write(dir.path().join("main.py"), "print(2)").unwrap();
        assert_ne!(base, hash(&profile, &files));
    }

    /// Entrants may hand in the same sources, and a contest builds several at a time.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn the_same_sources_built_at_once_give_one_build() {
        let profile = Profile {
            detect: vec!["*.sh".into()],
            compile: "sleep 0.1; cp main.sh bot".into(),
            run: "sh {dir}/bot".into(),
            version: String::new(),
        };
        let source = tempfile::tempdir().unwrap();
        std::fs::write(source.path().join("main.sh"), "echo ready\n").unwrap();
        for _ in 0..4 {
            let cache = tempfile::tempdir().unwrap();
            let options = BuildOptions::new(
                cache.path().join("builds"),
                Limits::default(),
                Duration::from_secs(60),
            );
            let builds: Vec<_> = std::thread::scope(|scope| {
                let builders: Vec<_> = (0..4)
                    .map(|_| {
                        scope.spawn(|| {
                            build(source.path(), "sh", &profile, &options, &Supervisor::new())
                        })
                    })
                    .collect();
                builders.into_iter().map(|b| b.join().unwrap()).collect()
            });
            let dirs: Vec<PathBuf> = builds
                .into_iter()
                .map(|built| built.unwrap().unwrap().dir)
                .collect();
            assert!(dirs.iter().all(|dir| *dir == dirs[0]), "{dirs:?}");
            assert!(dirs[0].join("bot").is_file());
            let left: Vec<_> = std::fs::read_dir(cache.path().join("builds"))
                .unwrap()
                .map(|entry| entry.unwrap().file_name())
                .collect();
            assert_eq!(left.len(), 1, "only the build stays: {left:?}");
        }
    }

    /// "Contest day you can trust", items 1 and 2: a build that forks without end is stopped
    /// at its processes limit, and, each build being a box of its own as root, a build run
    /// meanwhile is not short of processes.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn a_forking_build_is_stopped_and_a_build_beside_it_succeeds() {
        let limits = Limits::parse_over(Limits::default(), "processes=256").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let options =
            BuildOptions::new(cache.path().join("builds"), limits, Duration::from_secs(60));
        // Forks until refused (dash then gives up), holds its processes 3 s, then fails.
        let bomb = Profile {
            detect: vec!["*.sh".into()],
            compile: "(while :; do sleep 30 & done) || sleep 3; exit 1".into(),
            run: "sh {dir}/main.sh".into(),
            version: String::new(),
        };
        let honest = Profile {
            compile: "cp main.sh bot; sh -c true; sh -c true".into(),
            ..bomb.clone()
        };
        let (bombs, honests) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::write(bombs.path().join("main.sh"), "echo bomb\n").unwrap();
        std::fs::write(honests.path().join("main.sh"), "echo ready\n").unwrap();
        let started = Instant::now();
        let (bombed, built) = std::thread::scope(|scope| {
            let bombed =
                scope.spawn(|| build(bombs.path(), "sh", &bomb, &options, &Supervisor::new()));
            std::thread::sleep(Duration::from_millis(1500));
            let built = build(honests.path(), "sh", &honest, &options, &Supervisor::new());
            (bombed.join().unwrap(), built)
        });
        match bombed.unwrap().map_err(|failed| failed.failure) {
            Err(BuildFailure::Compiler { message, .. }) => {
                let text = message.join("\n");
                assert!(text.contains("fork"), "{text}");
            }
            other => panic!("the fork bomb was not stopped at its limit: {other:?}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
        if nix::unistd::geteuid().is_root() {
            let built = built.unwrap().unwrap();
            assert!(built.dir.join("bot").is_file());
        } else {
            eprintln!("not root: the two builds shared this user's processes limit");
        }
    }

    /// The peak resident size of this process, in KiB, since the last [`reset_peak`].
    fn peak_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .unwrap();
        line.trim().trim_end_matches(" kB").parse().unwrap()
    }

    fn reset_peak() {
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
    }

    /// "Contest day you can trust", item 6: the build's output goes to a file, not into the
    /// referee's memory, and past its cap it is a build too large.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn a_large_build_is_not_held_in_memory_and_one_past_the_cap_is_too_large() {
        let limits = Limits::parse_over(Limits::default(), "filesize=512,memory=1024").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let mut options = BuildOptions::new(
            cache.path().join("builds"),
            limits,
            Duration::from_secs(120),
        );
        options.max_output_bytes = 64 << 20;
        let profile = |mib: u32| Profile {
            detect: vec!["*.sh".into()],
            compile: format!("head -c {mib}M /dev/urandom > data"),
            run: "sh {dir}/main.sh".into(),
            version: String::new(),
        };
        let source = tempfile::tempdir().unwrap();
        std::fs::write(source.path().join("main.sh"), "echo ready\n").unwrap();
        reset_peak();
        let before = peak_kib();
        let built = build(
            source.path(),
            "sh",
            &profile(48),
            &options,
            &Supervisor::new(),
        )
        .unwrap()
        .unwrap();
        let grown = peak_kib().saturating_sub(before);
        assert_eq!(
            std::fs::metadata(built.dir.join("data")).unwrap().len(),
            48 << 20
        );
        // Held in memory, the 48 MiB would show; a wide bound for the test threads beside it.
        assert!(grown < 24 << 10, "the peak grew by {grown} KiB");
        match build(
            source.path(),
            "sh",
            &profile(80),
            &options,
            &Supervisor::new(),
        )
        .unwrap()
        .map_err(|failed| failed.failure)
        {
            Err(BuildFailure::TooLarge(what)) => {
                assert!(what.contains("larger than 64 MiB"), "{what}");
            }
            other => panic!("{other:?}"),
        }
        let left: Vec<_> = std::fs::read_dir(&options.cache)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(
            left.len(),
            2,
            "the first build and the second's failure: {left:?}"
        );
    }

    /// "Contest day you can trust", item 4: a failed build is kept, and reused, as a build
    /// is, unless a rebuild is asked for.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn a_failed_build_is_cached_until_a_rebuild() {
        let cache = tempfile::tempdir().unwrap();
        let source = tempfile::tempdir().unwrap();
        std::fs::write(source.path().join("main.sh"), "echo ready\n").unwrap();
        let profile = |compile: &str| Profile {
            detect: vec!["*.sh".into()],
            compile: compile.into(),
            run: "sh {dir}/main.sh".into(),
            version: String::new(),
        };
        let slow = profile("sleep 30");
        let mut options = BuildOptions::new(
            cache.path().join("builds"),
            Limits::default(),
            Duration::from_secs(1),
        );
        let timed_out = build(source.path(), "sh", &slow, &options, &Supervisor::new())
            .unwrap()
            .unwrap_err();
        assert!(!timed_out.cached);
        assert!(matches!(
            timed_out.failure,
            BuildFailure::TimedOut { seconds: 1, .. }
        ));
        let started = Instant::now();
        let again = build(source.path(), "sh", &slow, &options, &Supervisor::new())
            .unwrap()
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_millis(900),
            "built again"
        );
        assert_eq!(again.failure, timed_out.failure);
        assert!(again.cached);
        assert!(again.to_string().contains("cached failure"), "{again}");
        let broken = profile("echo 'main.c:1: error: oops' >&2; exit 1");
        let failed = build(source.path(), "sh", &broken, &options, &Supervisor::new())
            .unwrap()
            .unwrap_err();
        assert!(!failed.cached);
        let again = build(source.path(), "sh", &broken, &options, &Supervisor::new())
            .unwrap()
            .unwrap_err();
        assert_eq!((again.cached, &again.failure), (true, &failed.failure));
        options.rebuild = true;
        let started = Instant::now();
        let rebuilt = build(source.path(), "sh", &slow, &options, &Supervisor::new())
            .unwrap()
            .unwrap_err();
        assert!(!rebuilt.cached);
        assert!(started.elapsed() >= Duration::from_secs(1));
        // A rebuild that succeeds replaces a success too.
        let good = profile("cp main.sh bot");
        let first = build(source.path(), "sh", &good, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        let second = build(source.path(), "sh", &good, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert!(!first.cached && !second.cached);
        options.rebuild = false;
        assert!(
            build(source.path(), "sh", &good, &options, &Supervisor::new())
                .unwrap()
                .unwrap()
                .cached
        );
    }

    #[test]
    fn a_sandbox_that_could_not_be_made_is_no_failure_of_the_sources() {
        let failure = |first: &str| BuildFailure::Compiler {
            exit: "exit code 1".into(),
            message: vec![first.into(), "bwrap: later".into()],
        };
        assert!(
            failure("bwrap: Creating new namespace failed: Resource temporarily unavailable")
                .of_the_sandbox()
        );
        assert!(!failure("main.c:1: error: bwrap: oops").of_the_sandbox());
        assert!(!BuildFailure::TooLarge("bwrap: ".into()).of_the_sandbox());
    }

    /// "Contest day you can trust", item 5: a cached build rewritten since it was built is
    /// not run but built again, and the result says why.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn a_cached_build_rewritten_since_is_built_again() {
        let cache = tempfile::tempdir().unwrap();
        let source = tempfile::tempdir().unwrap();
        std::fs::write(source.path().join("main.sh"), "echo ready\n").unwrap();
        let profile = Profile {
            detect: vec!["*.sh".into()],
            compile: "cp main.sh bot".into(),
            run: "sh {dir}/bot".into(),
            version: String::new(),
        };
        let options = BuildOptions::new(
            cache.path().join("builds"),
            Limits::default(),
            Duration::from_secs(60),
        );
        let first = build(source.path(), "sh", &profile, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert_eq!((first.cached, &first.note), (false, &None));
        let again = build(source.path(), "sh", &profile, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert_eq!((again.cached, &again.note), (true, &None));
        // The saboteur's bot in the victim's place.
        std::fs::write(first.dir.join("bot"), "echo move 0 0\n").unwrap();
        let rebuilt = build(source.path(), "sh", &profile, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert!(!rebuilt.cached);
        let note = rebuilt.note.unwrap();
        assert!(note.contains("bot was changed"), "{note}");
        assert_eq!(
            std::fs::read_to_string(rebuilt.dir.join("bot")).unwrap(),
            "echo ready\n"
        );
        // A build without its manifest (an older referee's, or one put there by hand).
        std::fs::remove_file(first.dir.parent().unwrap().join("manifest.json")).unwrap();
        let rebuilt = build(source.path(), "sh", &profile, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert!(rebuilt.note.unwrap().contains("no manifest"));
        assert!(
            build(source.path(), "sh", &profile, &options, &Supervisor::new())
                .unwrap()
                .unwrap()
                .cached
        );
    }

    /// "Contest day you can trust", item 8: a build without the file its run command starts
    /// fails, naming the file and listing what there was.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
    fn a_build_without_its_entry_file_fails_naming_it() {
        let cache = tempfile::tempdir().unwrap();
        let source = tempfile::tempdir().unwrap();
        for file in ["bot.py", "util.py", "odd\x1bname.py"] {
            std::fs::write(source.path().join(file), "print(1)\n").unwrap();
        }
        let profile = Profile {
            detect: vec!["*.py".into()],
            compile: String::new(),
            run: "python3 {dir}/main.py".into(),
            version: "python3 --version".into(),
        };
        let options = BuildOptions::new(
            cache.path().join("builds"),
            Limits::default(),
            Duration::from_secs(60),
        );
        let failed = build(
            source.path(),
            "python",
            &profile,
            &options,
            &Supervisor::new(),
        )
        .unwrap()
        .unwrap_err();
        assert_eq!(
            failed.to_string(),
            "no main.py in the sources or the build (the python entry file, which its run command starts); found: bot.py, odd\\x1bname.py, util.py"
        );
        std::fs::write(source.path().join("main.py"), "print(1)\n").unwrap();
        let built = build(
            source.path(),
            "python",
            &profile,
            &options,
            &Supervisor::new(),
        )
        .unwrap()
        .unwrap();
        // Item 9: the interpreter the build's sandbox found, and its version.
        assert!(built.toolchain.starts_with("Python 3."), "{built:?}");
        let interpreter = built.command.split(' ').next().unwrap();
        assert!(
            interpreter.starts_with('/') && interpreter.ends_with("/python3"),
            "{built:?}"
        );
    }

    #[test]
    fn a_listing_is_bounded() {
        let failure = |found: &[&str], more| BuildFailure::NoEntry {
            file: "Main.class".into(),
            language: "java".into(),
            found: found.iter().map(|name| (*name).to_string()).collect(),
            more,
        };
        let none = failure(&[], 0);
        assert!(none.to_string().ends_with("found: nothing"), "{none}");
        let some = failure(&["a", "b"], 7);
        assert!(
            some.to_string().ends_with("found: a, b and 7 more"),
            "{some}"
        );
    }

    /// "Contest day you can trust", item 3: an annotation processor shipped in a Java
    /// submission (a class and its META-INF/services entry) is not run by the build's javac;
    /// without -proc:none it would be.
    #[test]
    #[ignore = "needs bubblewrap (apt-get install bubblewrap) and a JDK; .ci/run runs it"]
    fn javac_does_not_run_a_processor_the_sources_ship() {
        let tools = tempfile::tempdir().unwrap();
        std::fs::write(
            tools.path().join("Proc.java"),
            r#"import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import java.util.Set;
@SupportedAnnotationTypes("*")
public class Proc extends AbstractProcessor {
    public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }
    public boolean process(Set<? extends TypeElement> types, RoundEnvironment round) {
        try { new java.io.File("PWNED").createNewFile(); } catch (Exception e) { }
        return false;
    }
}
"#,
        )
        .unwrap();
        let source = tempfile::tempdir().unwrap();
        let compiled = Command::new("javac")
            .arg("-d")
            .arg(source.path())
            .arg(tools.path().join("Proc.java"))
            .status()
            .unwrap();
        assert!(compiled.success());
        let services = source.path().join("META-INF/services");
        std::fs::create_dir_all(&services).unwrap();
        std::fs::write(
            services.join("javax.annotation.processing.Processor"),
            "Proc\n",
        )
        .unwrap();
        std::fs::write(
            source.path().join("Main.java"),
            "public class Main { public static void main(String[] args) { } }\n",
        )
        .unwrap();
        let java = super::super::profile::builtin()
            .into_iter()
            .find(|(name, _)| name == "java")
            .unwrap()
            .1;
        let limits = Limits::parse_over(Limits::default(), "filesize=1024,files=4096").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let options = BuildOptions::new(
            cache.path().join("builds"),
            limits,
            Duration::from_secs(120),
        );
        let built = build(source.path(), "java", &java, &options, &Supervisor::new())
            .unwrap()
            .unwrap();
        assert!(built.dir.join("Main.class").is_file());
        assert!(!built.dir.join("PWNED").exists(), "the processor ran");
        // The same build without the option runs it: the test can tell.
        let unguarded = Profile {
            compile: java.compile.replace(" -proc:none", ""),
            ..java.clone()
        };
        assert_ne!(unguarded.compile, java.compile);
        let built = build(
            source.path(),
            "java",
            &unguarded,
            &options,
            &Supervisor::new(),
        )
        .unwrap()
        .unwrap();
        assert!(built.dir.join("PWNED").exists(), "no processor ran at all");
    }

    #[test]
    fn a_message_is_escaped_and_bounded() {
        let mut text = String::from("main.c:1:1: error: \x1b[31mexpected\x1b[0m ';'\n");
        for i in 0..100 {
            text.push_str(&format!("line {i}\n"));
        }
        let lines = message_lines(text.as_bytes());
        assert_eq!(lines.len(), MESSAGE_LINES + 1);
        assert_eq!(lines[0], "main.c:1:1: error: \\x1b[31mexpected\\x1b[0m ';'");
        assert_eq!(lines[MESSAGE_LINES], "... (61 more lines)");
    }

    #[test]
    fn a_tab_in_a_message_shows_as_spaces() {
        let lines = message_lines(b"\tint x\x07;\nab\tc\r\n12345678\td\n");
        assert_eq!(
            lines,
            ["        int x\\x07;", "ab      c", "12345678        d"]
        );
    }
}
