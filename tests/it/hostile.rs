//! Hostile bots (tests/bots/hostile.py) attacking the machine, their opponent and the referee,
//! as root and as an unprivileged user: each attack must be blocked, or end in the right verdict
//! on the right move, with the referee's memory bounded and no process or cgroup left behind.
//! Where the machine lacks what a test needs (a memory cgroup, PID namespaces), the test says
//! so on stderr ("skipped: ...") and checks what it can.
//!
//! Some tests run the same attack outside the sandbox first or after, as a control: it must
//! succeed there, so that a blocked attack is told from a broken one.

use crate::common::{referee, repo_file, scripted, survivors, Bot, Match};
use serde_json::Value;
use std::fs;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The most memory the referee itself may use during any of these games.
const REFEREE_PEAK_KIB: u64 = 64 * 1024;

/// The hostile bot in `mode`, with the match's marker.
fn hostile(played: &Match, mode: &str) -> Bot {
    Bot::Command(format!(
        "python3 {} {mode} {}",
        repo_file("tests/bots/hostile.py").display(),
        played.marker()
    ))
}

/// A game of tic-tac-toe: the hostile bot in `mode` as the first player against `b`.
fn game(mode: &str, b: Bot, args: &[&str]) -> Match {
    let played = Match::new("tictactoe").games(1).args(args);
    let a = hostile(&played, mode);
    played.a(a).b(b)
}

/// What a match run by [`play`] left.
struct Played {
    records: Vec<Value>,
    dir: tempfile::TempDir,
}

impl Played {
    fn record(&self) -> &Value {
        assert_eq!(self.records.len(), 1);
        &self.records[0]
    }

    fn reason(&self) -> &str {
        self.record()["result"]["reason"].as_str().unwrap()
    }

    fn detail(&self) -> &str {
        self.record()["result"]["detail"].as_str().unwrap()
    }

    fn stderr(&self, seat: &str) -> String {
        fs::read_to_string(self.dir.path().join(format!("0001.{seat}.stderr.txt"))).unwrap()
    }
}

/// Runs `played` with `env` added to the referee's environment, asserting a clean exit, a
/// peak memory of the referee under [`REFEREE_PEAK_KIB`], and that no bot process and no cgroup
/// of the referee is left; reads the records.
fn play(played: &Match, env: &[(&str, &str)]) -> Played {
    play_recorded(played, env, tempfile::tempdir().unwrap())
}

/// [`play`], recording into `dir`.
fn play_recorded(played: &Match, env: &[(&str, &str)], dir: tempfile::TempDir) -> Played {
    let mut command = played.clone().record(dir.path()).command();
    command.envs(env.iter().copied());
    let (output, peak_kib, pid) = run_measured(command);
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(
        peak_kib < REFEREE_PEAK_KIB,
        "the referee peaked at {peak_kib} KiB"
    );
    let left = survivors(played.marker());
    assert!(left.is_empty(), "bot processes left running: {left:?}");
    assert_eq!(cgroups_of(pid), Vec::<PathBuf>::new(), "cgroups left");
    let records = (1..)
        .map_while(|n| fs::read_to_string(dir.path().join(format!("{n:04}.json"))).ok())
        .map(|text| serde_json::from_str(&text).unwrap())
        .collect();
    Played { records, dir }
}

/// Runs `command` to its end, sampling the peak resident size of its process (VmHWM, which
/// only grows) until it exits; returns the output, the peak in KiB and the pid.
fn run_measured(mut command: Command) -> (std::process::Output, u64, i32) {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let sampler = std::thread::spawn(move || {
        let mut peak = 0;
        while let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) {
            if status.contains("State:\tZ") {
                break;
            }
            if let Some(kib) = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches(" kB").parse().ok())
            {
                peak = kib;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        peak
    });
    let output = child.wait_with_output().unwrap();
    (output, sampler.join().unwrap(), pid)
}

/// The cgroups named after the referee of pid `pid`, in the pids and memory hierarchies.
pub(crate) fn cgroups_of(pid: i32) -> Vec<PathBuf> {
    let prefix = format!("referee-{pid}.");
    let mut found = Vec::new();
    let mut look = |dir: &Path, depth: usize| {
        let mut stack = vec![(dir.to_path_buf(), depth)];
        while let Some((dir, depth)) = stack.pop() {
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(&prefix) {
                    found.push(path);
                } else if depth > 0 && path.is_dir() && !name.starts_with("referee-") {
                    stack.push((path, depth - 1));
                }
            }
        }
    };
    look(Path::new("/sys/fs/cgroup/pids"), 0);
    // The referee makes its groups under its own cgroup, which may be nested.
    look(Path::new("/sys/fs/cgroup/memory"), 3);
    look(Path::new("/sys/fs/cgroup"), 0);
    found
}

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// Whether the referee can make a memory cgroup here: as root, with the controller in a v1
/// hierarchy or in the v2 one. (The referee finds out for itself; a test that trusts this
/// wrongly fails rather than passes.)
fn memory_cgroup_here() -> bool {
    let v2 = fs::read_to_string("/sys/fs/cgroup/cgroup.controllers")
        .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "memory"));
    is_root() && (Path::new("/sys/fs/cgroup/memory/cgroup.procs").exists() || v2)
}

/// Whether the referee can make a pids cgroup here (see [`memory_cgroup_here`]).
pub(crate) fn pids_cgroup_here() -> bool {
    let v2 = fs::read_to_string("/sys/fs/cgroup/cgroup.controllers")
        .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "pids"));
    is_root() && (Path::new("/sys/fs/cgroup/pids/cgroup.procs").exists() || v2)
}

/// Says on stderr that a test, or part of it, could not run here, and why.
pub(crate) fn skipped(test: &str, why: &str) {
    eprintln!("skipped: {test}: {why}");
}

/// A private copy of the hostile bot in a directory of its own, readable by anyone (as a
/// sandboxed bot's directory must be when the referee runs as root).
fn bot_in_own_directory() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let bot = dir.path().join("hostile.py");
    fs::copy(repo_file("tests/bots/hostile.py"), &bot).unwrap();
    (dir, bot)
}

/// Item 1: root inside the sandbox is nobody, without capabilities or a way to get any.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn the_sandboxed_bot_is_nobody_without_privileges_whoever_runs_the_referee() {
    let (dir, bot) = bot_in_own_directory();
    let target = dir.path().join("escaped.txt");
    let played = Match::new("tictactoe").games(1).args(&["--sandbox"]);
    let marker = played.marker().to_string();
    let played = played
        .a(format!(
            "python3 {} remount:{} {marker}",
            bot.display(),
            target.display()
        ))
        .b(scripted("good"));
    let outcome = play(&played, &[]);
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    let stderr = outcome.stderr("A");
    for expected in [
        "status Uid: 65534 65534 65534 65534",
        "status Gid: 65534 65534 65534 65534",
        "status CapEff: 0000000000000000",
        "status CapBnd: 0000000000000000",
        "status NoNewPrivs: 1",
        "remount /: refused",
        "remount own directory: refused",
        "user namespace: refused",
        "setuid 0: refused",
        "write own directory: refused",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    assert!(!stderr.contains("allowed"), "{stderr}");
    assert!(!target.exists(), "the bot wrote on the host");
}

/// "Contest day you can trust", item 1: run as root, each sandboxed bot is a host user and
/// group of its own from the box range (so its processes limit is its own); run as another
/// user, the referee says once that every box shares that user's.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn each_sandboxed_bot_is_a_user_of_its_own_or_the_shared_user_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let played = Match::new("tictactoe").games(2).args(&["--sandbox"]);
    let (a, b) = (hostile(&played, "ids:A"), hostile(&played, "ids:B"));
    let mut referee = played
        .a(a)
        .b(b)
        .record(dir.path())
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Seen from the host while they run: the user and group of each bot's processes
    // (bubblewrap's and the bot's own), A's and B's, in each look at /proc.
    let mut looks: Vec<[Vec<(u32, u32)>; 2]> = Vec::new();
    while referee.try_wait().unwrap().is_none() {
        let mut look: [Vec<(u32, u32)>; 2] = Default::default();
        for entry in fs::read_dir("/proc").unwrap().flatten() {
            let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            // bubblewrap and the bot, not the referee (whose command line names the bots too)
            // nor its child before it becomes bubblewrap.
            if !(cmdline.starts_with("bwrap ") || cmdline.starts_with("python3 ")) {
                continue;
            }
            let Some(seat) = ["ids:A", "ids:B"]
                .iter()
                .position(|mode| cmdline.contains(&format!("hostile.py {mode} ")))
            else {
                continue;
            };
            let status = fs::read_to_string(entry.path().join("status")).unwrap_or_default();
            let real = |key: &str| -> Option<u32> {
                let line = status.lines().find_map(|l| l.strip_prefix(key))?;
                line.split_whitespace().next()?.parse().ok()
            };
            if let (Some(uid), Some(gid)) = (real("Uid:"), real("Gid:")) {
                look[seat].push((uid, gid));
            }
        }
        looks.push(look);
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = referee.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let warnings = stderr
        .lines()
        .filter(|line| line.contains("share its processes limit"))
        .count();
    let seen: std::collections::BTreeSet<(u32, u32)> =
        looks.iter().flatten().flatten().copied().collect();
    assert!(!seen.is_empty(), "no bot process was seen running");
    let together = looks
        .iter()
        .filter(|[a, b]| !a.is_empty() && !b.is_empty())
        .count();
    assert!(together > 0, "the two bots were never seen running at once");
    if nix::unistd::geteuid().is_root() {
        assert_eq!(warnings, 0, "{stderr}");
        for (uid, gid) in &seen {
            assert!((60_000..61_000).contains(uid), "{seen:?}");
            assert_eq!(uid, gid, "{seen:?}");
        }
        for [a, b] in &looks {
            assert!(
                a.iter().all(|id| !b.contains(id)),
                "the two bots of a game share a user: {a:?} {b:?}"
            );
        }
    } else {
        assert_eq!(warnings, 1, "{stderr}");
        let own = nix::unistd::getuid().as_raw();
        assert!(seen.iter().all(|(uid, _)| *uid == own), "{seen:?}");
    }
}

/// Item 2: the opponent's scratch (its opening book), the records, the home directory and the
/// rest of the host are out of sight.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn the_sandbox_shows_no_other_bots_files_no_records_and_no_home() {
    let secret = format!("book{}", std::process::id());
    let records = tempfile::tempdir().unwrap();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let target = repo_file("target");
    let hunt = format!(
        "hunt:{secret}:{}:{home}:{}",
        records.path().display(),
        target.display()
    );
    let with = |args: &[&str]| {
        let played = Match::new("tictactoe").games(1).args(args);
        let (a, b) = (
            hostile(&played, &hunt),
            hostile(&played, &format!("book:{secret}")),
        );
        played.a(a).b(b)
    };
    let played = with(&["--sandbox"]);
    let records_path = records.path().to_path_buf();
    let outcome = play_recorded(&played, &[], records);
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    let stderr = outcome.stderr("A");
    assert!(stderr.contains("found: 0 []"), "{stderr}");
    for hidden in [&records_path, Path::new(&home), &target] {
        assert!(
            stderr.contains(&format!("{}: hidden", hidden.display())),
            "{}: {stderr}",
            hidden.display()
        );
    }
    let top: Vec<&str> = stderr
        .lines()
        .find_map(|line| line.strip_prefix("top level: "))
        .unwrap()
        .split(' ')
        .collect();
    for absent in ["home", "root", "sys", "boot", "mnt", "srv", "media"] {
        assert!(!top.contains(&absent), "/{absent} shown: {top:?}");
    }
    assert!(
        outcome.stderr("B").contains("book written in /tmp"),
        "{}",
        outcome.stderr("B")
    );

    // Outside the sandbox the same hunt finds the book, in the scratch the test gives B.
    let scratch = tempfile::tempdir().unwrap();
    let scratch_text = scratch.path().display().to_string();
    let outcome = play(
        &with(&[]),
        &[("TMPDIR", &scratch_text), ("HOME", &scratch_text)],
    );
    let _ = fs::remove_file(format!("/dev/shm/book-{secret}"));
    let stderr = outcome.stderr("A");
    assert!(!stderr.contains("found: 0 "), "{stderr}");
}

/// Item 2: no host socket is reachable, by path or abstract name.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn no_host_socket_is_reachable_from_the_sandbox() {
    let unique = format!("referee-test-{}", std::process::id());
    let tmp = tempfile::tempdir().unwrap();
    let mut places = vec![
        tmp.path().join("agent.sock"),
        Path::new("/dev/shm").join(format!("{unique}.sock")),
        Path::new("/var/tmp").join(format!("{unique}.sock")),
    ];
    if let Ok(home) = std::env::var("HOME") {
        places.push(Path::new(&home).join(format!(".{unique}.sock")));
    }
    if is_root() {
        places.push(Path::new("/run").join(format!("{unique}.sock")));
    }
    let mut listeners = Vec::new();
    let mut addresses = Vec::new();
    for place in &places {
        // Some places may not be writable here (an unprivileged user's /var/tmp is).
        if let Ok(listener) = UnixListener::bind(place) {
            listener.set_nonblocking(true).unwrap();
            listeners.push(listener);
            addresses.push(place.display().to_string());
        }
    }
    let abstract_name = format!("{unique}-abstract");
    let address = SocketAddr::from_abstract_name(&abstract_name).unwrap();
    let listener = UnixListener::bind_addr(&address).unwrap();
    listener.set_nonblocking(true).unwrap();
    listeners.push(listener);
    addresses.push(format!("@{abstract_name}"));
    let mode = format!("sockets:{}", addresses.join(","));
    let accepted = |listeners: &[UnixListener]| {
        listeners
            .iter()
            .filter(|listener| listener.accept().is_ok())
            .count()
    };

    let outcome = play(&game(&mode, scripted("good"), &["--sandbox"]), &[]);
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    let stderr = outcome.stderr("A");
    for address in &addresses {
        assert!(
            stderr.contains(&format!("socket {address}: refused")),
            "{address}: {stderr}"
        );
    }
    assert_eq!(accepted(&listeners), 0, "a listener was reached");

    // Outside the sandbox every one is reached.
    let outcome = play(&game(&mode, scripted("good"), &[]), &[]);
    let stderr = outcome.stderr("A");
    assert!(!stderr.contains("refused"), "{stderr}");
    assert_eq!(accepted(&listeners), addresses.len());
    for place in &places {
        let _ = fs::remove_file(place);
    }
}

/// Item 3: what a sandboxed bot stores in its scratch and in /dev/shm is bounded by its limits,
/// with or without a memory cgroup.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn the_sandbox_bounds_what_a_bot_stores() {
    let outcome = play(
        &game(
            "fill:tmp,shm",
            scripted("good"),
            &["--sandbox", "--limits", "memory=256,filesize=64"],
        ),
        &[],
    );
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    let stderr = outcome.stderr("A");
    for place in ["tmp", "shm"] {
        let filled: u64 = stderr
            .lines()
            .find_map(|line| line.strip_prefix(&format!("filled {place}: ")))
            .and_then(|rest| rest.split(' ').next())
            .and_then(|mib| mib.parse().ok())
            .unwrap_or_else(|| panic!("{place}: {stderr}"));
        assert!(filled <= 64, "{filled} MiB stored in {place}");
        assert!(
            stderr.contains(&format!(
                "filled {place}: {filled} MiB (No space left on device)"
            )),
            "{stderr}"
        );
    }
}

/// Item 3: with a memory cgroup, the memory limit holds for the bot as a whole: six children
/// of 200 MiB under 256 MiB end in the memory-limit verdict at move 1, sandboxed or not.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_bots_processes_together_are_held_to_its_memory_limit() {
    if !memory_cgroup_here() {
        skipped(
            "a_bots_processes_together_are_held_to_its_memory_limit",
            "the referee cannot make a memory cgroup here (it needs root, or cgroup v2 with the memory controller delegated): the memory limit is per process",
        );
        return;
    }
    for sandbox in [false, true] {
        let mut args = vec!["--limits", "memory=256", "--time", "move=3000"];
        if sandbox {
            args.push("--sandbox");
        }
        let outcome = play(&game("hog:6:200", scripted("good"), &args), &[]);
        assert_eq!(outcome.reason(), "memory-limit", "{}", outcome.detail());
        let detail = outcome.detail();
        assert!(
            detail.contains("its processes together reached its limit of 256 MiB"),
            "{detail}"
        );
        assert!(detail.ends_with("at move 1"), "{detail}");
    }
}

/// Item 3: tmpfs pages count in the memory cgroup: 100 MiB in /tmp and 100 more in /dev/shm
/// under 128 MiB is a memory-limit verdict.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn what_a_sandboxed_bot_stores_counts_in_its_memory() {
    if !memory_cgroup_here() {
        skipped(
            "what_a_sandboxed_bot_stores_counts_in_its_memory",
            "no memory cgroup here: each tmpfs is bounded by its size only",
        );
        return;
    }
    let outcome = play(
        &game(
            "fill:tmp,shm",
            scripted("good"),
            &["--sandbox", "--limits", "memory=128,filesize=100"],
        ),
        &[],
    );
    assert_eq!(outcome.reason(), "memory-limit", "{}", outcome.detail());
    assert!(
        outcome.detail().ends_with("at move 1"),
        "{}",
        outcome.detail()
    );
}

/// Item 4: inside the sandbox a bot, even when the referee runs as root, cannot leave its pids
/// cgroup or make one, and forks no more than its limit.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn inside_the_sandbox_the_processes_limit_holds_even_for_root() {
    // Without a pids cgroup the limit is RLIMIT_NPROC, which counts every process of the user
    // (this test's threads included) and could refuse the sandbox itself: the escape is tried
    // without a limit then.
    let cgroup = pids_cgroup_here();
    let mut args = vec!["--sandbox", "--time", "move=3000"];
    if cgroup {
        args.extend(["--limits", "processes=20"]);
    }
    let outcome = play(&game("cgroup-escape", scripted("good"), &args), &[]);
    let stderr = outcome.stderr("A");
    for attempt in [
        "join /sys/fs/cgroup/pids/cgroup.procs: refused",
        "join /sys/fs/cgroup/pids/tasks: refused",
        "join /sys/fs/cgroup/unified/cgroup.procs: refused",
        "join /sys/fs/cgroup/cgroup.procs: refused",
        "mount cgroup: refused",
    ] {
        assert!(stderr.contains(attempt), "{attempt}: {stderr}");
    }
    if !cgroup {
        skipped(
            "inside_the_sandbox_the_processes_limit_holds_even_for_root (the limit)",
            "no pids cgroup here (it needs root, or cgroup v2 with the pids controller delegated)",
        );
        return;
    }
    let started: u32 = stderr
        .lines()
        .find_map(|line| line.strip_prefix("fork refused after "))
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no refusal: {stderr}"));
    // The interpreter itself is one of the twenty.
    assert!(started < 20, "{started} forks allowed");
    assert_eq!(outcome.reason(), "process-limit", "{}", outcome.detail());
    assert!(
        outcome.detail().contains("limit of 20 processes"),
        "{}",
        outcome.detail()
    );
}

/// Sandboxed, the limits that end in a signal are still named: bubblewrap reports the signal
/// as an exit code.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn sandboxed_bots_dying_of_a_limit_get_its_verdict() {
    let outcome = play(
        &Match::new("tictactoe")
            .a(scripted("spin"))
            .b(scripted("good"))
            .games(1)
            .args(&["--sandbox", "--limits", "cpu=1", "--time", "move=20000"]),
        &[],
    );
    assert_eq!(outcome.reason(), "cpu-limit", "{}", outcome.detail());
    let outcome = play(
        &game(
            "bigfile",
            scripted("good"),
            &["--sandbox", "--limits", "filesize=10"],
        ),
        &[],
    );
    assert_eq!(outcome.reason(), "file-size-limit", "{}", outcome.detail());
    assert!(
        outcome.detail().ends_with("at move 1"),
        "{}",
        outcome.detail()
    );
}

/// A sandboxed bot gets none of the referee's environment (a CI token, say) but the path and
/// the locale, and no descriptor but its three pipes.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_sandboxed_bot_gets_a_clean_environment_and_its_pipes_only() {
    let played = Match::new("tictactoe").games(1).args(&["--sandbox"]);
    let env = hostile(&played, "env");
    let played = played.a(env).b(scripted("fds"));
    let outcome = play(&played, &[("REFEREE_TEST_SECRET", "hunter2")]);
    let names = outcome
        .stderr("A")
        .lines()
        .find_map(|line| line.strip_prefix("env: ").map(str::to_string))
        .unwrap();
    for name in names.split(' ') {
        let allowed = ["PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "TZ", "PWD"].contains(&name)
            || name.starts_with("LC_");
        assert!(allowed, "{name} in the bot's environment: {names}");
    }
    let fds = outcome.stderr("B");
    assert!(fds.contains("fds [0, 1, 2, 3]"), "{fds}");
}

/// Item 12: outside the sandbox, in a PID namespace of its own, a bot can neither stop its
/// opponent nor kill the referee. Without the namespace (turned off), it can stop its opponent,
/// who then loses on time: what docs/sandbox.md says only the namespace or the sandbox stops.
#[test]
fn outside_the_sandbox_a_bot_cannot_signal_its_opponent_or_the_referee() {
    let outcome = play(&game("stop", scripted("good"), &[]), &[]);
    if !outcome.stderr("A").starts_with("pid 2\n") {
        skipped(
            "outside_the_sandbox_a_bot_cannot_signal_its_opponent_or_the_referee",
            "the referee cannot make PID namespaces here (unprivileged user namespaces are not allowed)",
        );
        return;
    }
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    assert!(
        outcome
            .stderr("A")
            .contains("opponents seen: 0, stopped: 0"),
        "{}",
        outcome.stderr("A")
    );
    let outcome = play(&game("kill-referee", scripted("good"), &[]), &[]);
    assert_eq!(outcome.reason(), "line", "{}", outcome.detail());
    // What it finds is the namespace's init, which the kernel shields from its signals and,
    // holding capabilities the bot lacks, from its tracing (root may trace anything).
    if !is_root() {
        assert!(
            outcome.stderr("A").contains("traced: 0"),
            "{}",
            outcome.stderr("A")
        );
    }

    let outcome = play(
        &game("stop", scripted("good"), &[]),
        &[("REFEREE_PID_NAMESPACE", "off")],
    );
    assert!(
        outcome
            .stderr("A")
            .contains("opponents seen: 1, stopped: 1"),
        "{}",
        outcome.stderr("A")
    );
    assert_eq!(outcome.reason(), "timeout", "{}", outcome.detail());
    assert!(
        outcome
            .detail()
            .starts_with("B (second player) did not answer move 2"),
        "{}",
        outcome.detail()
    );
}

/// Item 11: a referee killed outright leaves nothing running: in a PID namespace everything
/// dies with it; without one, the bot itself dies with it (a parent-death signal) and the next
/// run kills what it started. The killed run's cgroups go too.
#[test]
fn a_killed_referee_leaves_nothing_behind() {
    for namespace in ["on", "off"] {
        let runtime = tempfile::tempdir().unwrap();
        fs::set_permissions(runtime.path(), fs::Permissions::from_mode(0o700)).unwrap();
        let runtime_text = runtime.path().display().to_string();
        let env = [
            ("XDG_RUNTIME_DIR", runtime_text.as_str()),
            ("REFEREE_PID_NAMESPACE", namespace),
        ];
        let flag = runtime.path().join("daemons-started");
        let played = game(
            &format!("daemon:{}", flag.display()),
            scripted("good"),
            &["--time", "move=30000", "--limits", "processes=50"],
        );
        let mut command = played.command();
        command
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut killed = command.spawn().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !flag.exists() {
            assert!(Instant::now() < deadline, "the daemons never started");
            std::thread::sleep(Duration::from_millis(10));
        }
        let bot: i32 = fs::read_to_string(&flag).unwrap().parse().unwrap();
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(killed.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        killed.wait().unwrap();
        // A moment for the kernel to deliver the parent-death signals.
        std::thread::sleep(Duration::from_millis(200));
        let left_by_the_kill = running(played.marker());
        if namespace == "on" {
            if !left_by_the_kill.is_empty() {
                skipped(
                    "a_killed_referee_leaves_nothing_behind (in a PID namespace)",
                    &format!("no PID namespace here; left: {left_by_the_kill:?}"),
                );
            }
        } else {
            // The bot, the daemons' ancestor, died with the referee; its child and daemon live.
            let deadline = Instant::now() + Duration::from_secs(5);
            while Path::new(&format!("/proc/{bot}")).exists() {
                assert!(Instant::now() < deadline, "the bot outlived the referee");
                std::thread::sleep(Duration::from_millis(10));
            }
            assert_eq!(left_by_the_kill.len(), 2, "{left_by_the_kill:?}");
        }
        // The next run, whatever it plays, sweeps up.
        let next = Match::new("tictactoe").games(1);
        let swept = play(&next, &env);
        assert_eq!(swept.records.len(), 1);
        let left = survivors(played.marker());
        assert!(left.is_empty(), "still running: {left:?}");
        assert_eq!(cgroups_of(killed.id() as i32), Vec::<PathBuf>::new());
        let run_files = fs::read_dir(runtime.path().join("referee"))
            .unwrap()
            .count();
        assert_eq!(run_files, 0, "run files left");
    }
}

/// The processes running now (zombies aside) whose command line mentions `marker`.
fn running(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// The referee's help says where each limit holds.
#[test]
fn the_help_says_which_limit_is_per_process_and_which_per_bot() {
    let output = referee().args(["match", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in ["each process", "the bot as a whole", "PID namespace"] {
        assert!(help.contains(words), "{words}: {help}");
    }
}

/// A contestant's bot that, in every game and in its check, reads the other contestants'
/// builds and rewrites them, then plays (the attack of the organiser's report, which crashed
/// its victim in 8 games of 8 and stayed in the build cache): a contest boxes every bot by
/// default, so it finds nothing to read or rewrite, the victim plays every game, and its build
/// is reused as it was built. As root and as a plain user.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_hostile_contestant_cannot_reach_the_others_builds() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    let bot = fs::read_to_string(repo_file("tests/bots/first_free.py")).unwrap();
    let saboteur = format!(
        "import glob, os, sys\n\
         cache = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n\
         for other in glob.glob(os.path.join(cache, '*', 'bot', 'main.py')):\n\
         \x20   if os.path.dirname(other) == os.path.dirname(os.path.abspath(__file__)):\n\
         \x20       continue\n\
         \x20   try:\n\
         \x20       open(other, 'w').write('raise SystemExit(9)\\n')\n\
         \x20       print('rewrote', other, file=sys.stderr)\n\
         \x20   except OSError as error:\n\
         \x20       print('refused', other, error, file=sys.stderr)\n\
         {bot}"
    );
    for (name, text) in [("sab", saboteur.as_str()), ("vic", bot.as_str())] {
        fs::create_dir_all(subs.join(name)).unwrap();
        fs::write(subs.join(name).join("main.py"), text).unwrap();
    }
    let config = dir.path().join("cup.toml");
    fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\ngames = 4\nsources = \"{}\"\n",
            subs.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let contest = |extra: &[&str]| {
        let output = referee()
            .arg("contest")
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    contest(&[]);
    let journal = fs::read_to_string(out.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1 + 4, "{journal}");
    assert!(
        !journal.contains("\"exited\""),
        "the victim crashed: {journal}"
    );
    let victims: Vec<PathBuf> = fs::read_dir(out.join("builds"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("bot/main.py"))
        .filter(|path| path.is_file())
        .collect();
    assert_eq!(victims.len(), 2, "{victims:?}");
    for path in &victims {
        let text = fs::read_to_string(path).unwrap();
        assert_ne!(
            text,
            "raise SystemExit(9)\n",
            "{} was rewritten",
            path.display()
        );
    }
    // The next run reuses both builds as they were built.
    let again = contest(&["--resume"]);
    assert!(
        again.contains("vic                      plays; python, cached"),
        "{again}"
    );
    assert!(!again.contains("built again"), "{again}");
}
