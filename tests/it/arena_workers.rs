//! The arena on many machines, here on one: PostgreSQL holds the arena, a server that plays
//! nothing itself (`--slots 0`) schedules and serves, and two `referee arena worker`s play.
//! Each fault of the issue is a test: a worker killed or stopped past its lease in the middle
//! of a game, the server killed while workers play, PostgreSQL restarted under load; and the
//! same games played by one worker or two give the same results. They need PostgreSQL (the
//! `psql`, `createdb` and `pg_ctlcluster` of Debian's package, a role for this user) and
//! bubblewrap: `.ci/run` starts the cluster and runs them. They take the cluster in turn (one
//! restarts it), each in a database of its own, dropped at the end.

use crate::arena::{get, init, submit};
use crate::browser_support::{start_with_url, Running};
use crate::common::referee;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One test at a time on the cluster: one of them restarts it.
static CLUSTER: Mutex<()> = Mutex::new(());

const NEEDS: &str = "needs PostgreSQL (apt-get install postgresql; pg_ctlcluster 15 main start; \
                     su postgres -c 'createuser -s root') and bubblewrap; .ci/run runs it";

/// A throwaway database on the local cluster, dropped with it.
struct Database {
    name: String,
}

impl Database {
    fn new() -> Database {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let name = format!(
            "referee_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        let made = Command::new("createdb").arg(&name).status();
        assert!(
            made.is_ok_and(|status| status.success()),
            "cannot make a database: {NEEDS}"
        );
        Database { name }
    }

    fn url(&self) -> String {
        format!("postgres:///{}?host=/var/run/postgresql", self.name)
    }

    /// The rows `sql` gives, each as its columns joined by `|`.
    fn rows(&self, sql: &str) -> Vec<String> {
        let out = Command::new("psql")
            .args(["-At", "-v", "ON_ERROR_STOP=1", "-d", &self.name, "-c", sql])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn count(&self, sql: &str) -> i64 {
        self.rows(sql)[0].parse().unwrap()
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let _ = Command::new("dropdb")
            .args(["--force", &self.name])
            .status();
    }
}

/// A deterministic tic-tac-toe bot: the free squares in `order`, after `delay` seconds.
fn bot_sources(dir: &Path, name: &str, order: &str, delay: f64) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let code = format!(
        r#"import sys, time
ORDER = [{order}]
taken = set()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "referee":
        taken = set()
    elif words[0] in ("played", "opponent"):
        taken.add((int(words[1]), int(words[2])))
    elif words[0] == "start":
        print("ready {name} 1 multi", flush=True)
    elif words[0] == "turn":
        time.sleep({delay})
        square = next(s for s in ORDER if s not in taken)
        taken.add(square)
        print(square[0], square[1], flush=True)
    elif words[0] == "quit":
        break
"#
    );
    std::fs::write(folder.join("main.py"), code).unwrap();
    folder
}

/// The squares in three orders: row by row, backwards, the centre first.
const ORDERS: [(&str, &str); 3] = [
    (
        "rows",
        "(0,0),(1,0),(2,0),(0,1),(1,1),(2,1),(0,2),(1,2),(2,2)",
    ),
    (
        "backwards",
        "(2,2),(1,2),(0,2),(2,1),(1,1),(0,1),(2,0),(1,0),(0,0)",
    ),
    (
        "centre",
        "(1,1),(0,0),(2,2),(2,0),(0,2),(1,0),(0,1),(2,1),(1,2)",
    ),
];

/// An arena on a database of its own: its folder, its server and the workers started on it.
struct Arena {
    db: Database,
    dir: tempfile::TempDir,
    server: Option<(Running, String)>,
    workers: BTreeMap<String, Child>,
}

impl Arena {
    /// An arena of one ladder (tic-tac-toe, no bosses), leases of `lease_s`, its server
    /// playing nothing, and three bots whose moves take `delay` seconds, passed.
    fn new(lease_s: u64, delay: f64) -> Arena {
        let db = Database::new();
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("arena");
        init(&folder);
        std::fs::write(
            folder.join("arena.toml"),
            format!(
                "[workers]\nlease_s = {lease_s}\n\n[[ladders]]\nname = \"tictactoe\"\n\
                 game = \"tictactoe\"\ntime = \"move=3000\"\nbosses = []\n"
            ),
        )
        .unwrap();
        let mut arena = Arena {
            db,
            dir,
            server: None,
            workers: BTreeMap::new(),
        };
        arena.serve();
        let mut command = referee();
        command.args(["arena", "token"]).arg(&folder).args([
            "--database",
            &arena.db.url(),
            "alice",
        ]);
        let alice = crate::common::succeeded(&command.output().unwrap())
            .trim()
            .to_string();
        for (name, order) in ORDERS {
            let sources = bot_sources(arena.dir.path(), name, order, delay);
            let out = crate::common::succeeded(&submit(&arena.url(), &alice, name, &sources));
            assert!(out.contains(": passed"), "{out}");
        }
        arena
    }

    fn folder(&self) -> PathBuf {
        self.dir.path().join("arena")
    }

    fn url(&self) -> String {
        self.server.as_ref().unwrap().1.clone()
    }

    fn serve(&mut self) {
        let mut command = referee();
        command.args(["arena", "serve"]).arg(self.folder()).args([
            "--port",
            "0",
            "--slots",
            "0",
            "--database",
            &self.db.url(),
        ]);
        self.server = Some(start_with_url(command));
    }

    /// Starts the worker `name`, its stderr in a file of its own.
    fn worker(&mut self, name: &str) {
        let log = std::fs::File::create(self.log_of(name)).unwrap();
        let child = referee()
            .args([
                "arena",
                "worker",
                "--database",
                &self.db.url(),
                "--name",
                name,
            ])
            .arg("--cache")
            .arg(self.dir.path().join(format!("cache-{name}")))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.workers.insert(name.to_string(), child);
    }

    fn log_of(&self, name: &str) -> PathBuf {
        self.dir.path().join(format!("{name}.log"))
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.log_of(name)).unwrap_or_default()
    }

    fn signal(&self, name: &str, signal: nix::sys::signal::Signal) {
        let pid = nix::unistd::Pid::from_raw(self.workers[name].id() as i32);
        nix::sys::signal::kill(pid, signal).unwrap();
    }

    fn kill(&mut self, name: &str) {
        let mut child = self.workers.remove(name).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }

    fn games(&self) -> i64 {
        self.db.count("SELECT COUNT(*) FROM games")
    }

    /// Waits (at most `most`) until `done` holds.
    fn wait(&self, what: &str, most: Duration, mut done: impl FnMut(&Arena) -> bool) {
        let started = Instant::now();
        while !done(self) {
            assert!(
                started.elapsed() < most,
                "{what}: not after {most:?}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn logs(&self) -> String {
        self.workers
            .keys()
            .map(|name| format!("--- {name}:\n{}", self.log(name)))
            .collect()
    }

    /// A game `name` is playing now, once it plays one.
    fn playing(&self, name: &str) -> i64 {
        let mut id = None;
        self.wait(
            &format!("{name} plays a game"),
            Duration::from_secs(60),
            |a| {
                id =
                    a.db.rows(&format!(
                        "SELECT id FROM scheduled WHERE state = 'playing' AND worker = '{name}' \
                     ORDER BY id LIMIT 1"
                    ))
                    .first()
                    .map(|id| id.parse().unwrap());
                id.is_some()
            },
        );
        id.unwrap()
    }

    /// Who stored game `id` of the queue, each time it was stored.
    fn stored_by(&self, id: i64) -> Vec<String> {
        self.db.rows(&format!(
            "SELECT worker FROM games WHERE scheduled_id = {id}"
        ))
    }

    /// The stored games are numbered 1..=N with no hole, each with its record, none twice
    /// (read in one statement, while workers may go on storing games).
    fn check_stored(&self) {
        let row = &self.db.rows(
            "SELECT COUNT(*), COALESCE(MIN(number), 1), COALESCE(MAX(number), 0), \
             COUNT(DISTINCT scheduled_id), COUNT(NULLIF(game_records.record, '')) \
             FROM games LEFT JOIN game_records USING (number)",
        )[0];
        let [count, min, max, queued, records]: [i64; 5] = row
            .split('|')
            .map(|n| n.parse().unwrap())
            .collect::<Vec<i64>>()
            .try_into()
            .unwrap();
        assert_eq!((min, max), (1, count), "numbered 1..={count}: {row}");
        assert_eq!(records, count, "every game has its record");
        assert_eq!(queued, count, "no game of the queue counted twice");
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for child in self.workers.values_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.server = None;
    }
}

fn cluster() -> std::sync::MutexGuard<'static, ()> {
    CLUSTER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn a_worker_killed_mid_game_loses_it_to_the_other_and_it_counts_once() {
    let _cluster = cluster();
    let mut arena = Arena::new(2, 0.4);
    arena.worker("a");
    let id = arena.playing("a");
    arena.worker("b");
    arena.kill("a");
    arena.wait("the game played again", Duration::from_secs(60), |a| {
        !a.stored_by(id).is_empty()
    });
    assert_eq!(
        arena.stored_by(id),
        ["b"],
        "played again by b, counted once"
    );
    let before = arena.games();
    arena.wait("b plays on", Duration::from_secs(60), |a| {
        a.games() >= before + 3
    });
    arena.check_stored();
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn a_worker_stopped_past_its_lease_has_its_late_result_refused() {
    use nix::sys::signal::Signal;
    let _cluster = cluster();
    let mut arena = Arena::new(2, 0.4);
    arena.worker("a");
    let id = arena.playing("a");
    arena.signal("a", Signal::SIGSTOP);
    arena.worker("b");
    arena.wait("b plays the game again", Duration::from_secs(60), |a| {
        a.stored_by(id) == ["b"]
    });
    arena.signal("a", Signal::SIGCONT);
    let refused = format!("game {id}: a late result of a refused");
    arena.wait("a's late result refused", Duration::from_secs(60), |a| {
        a.log("a").contains(&refused)
    });
    assert_eq!(arena.stored_by(id), ["b"], "counted once");
    // a goes on taking games once it runs again.
    arena.wait("a plays on", Duration::from_secs(60), |a| {
        a.db.count("SELECT COUNT(*) FROM games WHERE worker = 'a'") > 0
    });
    arena.check_stored();
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn the_server_killed_while_workers_play_loses_nothing() {
    let _cluster = cluster();
    let mut arena = Arena::new(5, 0.2);
    arena.worker("a");
    arena.worker("b");
    arena.wait("games", Duration::from_secs(60), |a| a.games() >= 4);
    let (mut server, _) = arena.server.take().unwrap();
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    drop(server);
    // The queue's games go on being played and stored with no server.
    let before = arena.games();
    arena.wait(
        "games stored with no server",
        Duration::from_secs(60),
        |a| a.games() >= before + 2,
    );
    arena.serve();
    let stored = arena.games();
    let status = get(&arena.url(), "/api/status");
    assert!(status["games"].as_i64().unwrap() >= stored, "{status}");
    let listed = get(&arena.url(), "/api/ladders/tictactoe/games?limit=1000");
    let numbers: BTreeSet<i64> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_i64().unwrap())
        .collect();
    assert!(numbers.len() as i64 >= stored);
    // A game a worker played opens in the server's viewer, its record from the database.
    let record: Value = ureq::get(&format!("{}/api/games/1/record", arena.url()))
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    assert!(
        record["moves"].as_array().is_some_and(|m| !m.is_empty()),
        "{record}"
    );
    arena.check_stored();
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn postgresql_restarted_under_load_loses_nothing_acknowledged() {
    let _cluster = cluster();
    let mut arena = Arena::new(3, 0.1);
    arena.worker("a");
    arena.worker("b");
    arena.wait("games", Duration::from_secs(60), |a| a.games() >= 4);
    let before = arena.games();
    let cluster = pg_cluster();
    let restarted = Command::new("pg_ctlcluster")
        .args([&cluster[0], &cluster[1], "restart"])
        .status()
        .unwrap();
    assert!(restarted.success());
    // Every game stored before is still there; the workers and the server go on.
    assert!(arena.games() >= before);
    arena.wait("games after the restart", Duration::from_secs(90), |a| {
        a.games() >= before + 6
    });
    let status = get(&arena.url(), "/api/status");
    assert!(status["games"].as_i64().unwrap() >= before + 6, "{status}");
    arena.check_stored();
}

/// The version and name of the (first) local cluster.
fn pg_cluster() -> [String; 2] {
    let out = Command::new("pg_lsclusters").arg("-h").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    [
        words.next().unwrap().to_string(),
        words.next().unwrap().to_string(),
    ]
}

/// Each pair's results (first, second) -> (winner, reason, moves), the same for every game.
fn results(arena: &Arena) -> BTreeMap<(i64, i64), BTreeSet<String>> {
    let mut all: BTreeMap<(i64, i64), BTreeSet<String>> = BTreeMap::new();
    for row in arena.db.rows(
        "SELECT first_version, second_version, COALESCE(winner, -1), reason, moves FROM games",
    ) {
        let fields: Vec<&str> = row.split('|').collect();
        let pair = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
        all.entry(pair).or_default().insert(fields[2..].join("|"));
    }
    all
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn the_same_games_give_the_same_results_on_one_worker_or_two() {
    let _cluster = cluster();
    let mut runs = Vec::new();
    for workers in [&["a"][..], &["a", "b"][..]] {
        let mut arena = Arena::new(10, 0.0);
        for name in workers {
            arena.worker(name);
        }
        arena.wait("games", Duration::from_secs(120), |a| a.games() >= 18);
        arena.check_stored();
        runs.push(results(&arena));
    }
    for run in &runs {
        assert!(run.values().all(|results| results.len() == 1), "{run:?}");
    }
    let pairs: BTreeSet<_> = runs[0].keys().filter(|p| runs[1].contains_key(p)).collect();
    assert!(
        pairs.len() >= 4,
        "both runs played the same pairs: {runs:?}"
    );
    for pair in pairs {
        assert_eq!(runs[0][pair], runs[1][pair], "pair {pair:?}");
    }
}

#[test]
#[ignore = "needs PostgreSQL and bubblewrap; .ci/run runs it"]
fn a_worker_whose_toolchain_differs_does_not_take_that_languages_games() {
    let _cluster = cluster();
    let mut arena = Arena::new(10, 0.0);
    let published = arena
        .db
        .rows("SELECT version FROM toolchains WHERE language = 'python'");
    assert_eq!(
        published.len(),
        1,
        "the server published python's toolchain"
    );
    arena
        .db
        .rows("UPDATE toolchains SET version = 'Python 0.1' WHERE language = 'python'");
    arena.worker("a");
    let said = format!(
        "not taking the games of python bots: the arena builds them with 'Python 0.1', \
         this machine has '{}'",
        published[0]
    );
    arena.wait("a says why", Duration::from_secs(60), |a| {
        a.log("a").contains(&said)
    });
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(arena.games(), 0, "no game of python bots played by a");
    // The same toolchain published again: a takes the games.
    arena.db.rows(&format!(
        "UPDATE toolchains SET version = '{}' WHERE language = 'python'",
        published[0].replace('\'', "''")
    ));
    arena.wait("a plays", Duration::from_secs(60), |a| a.games() >= 2);
    arena.check_stored();
}
