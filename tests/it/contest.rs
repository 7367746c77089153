//! `referee contest` from source folders: each built with its language's profile in the
//! sandbox (a broken one reported with the compiler's own message and left out), each checked
//! (one that fails left out, or kept with a flag), the rest played as a Swiss tournament with
//! standings and the results page written; a second run with `--resume` reuses the builds, the
//! checks and the games.

use crate::common::{referee, repo_file, succeeded};
use serde_json::Value;
use std::path::Path;
use std::process::{Output, Stdio};

/// A deterministic tic-tac-toe bot, as a contestant's main.py.
fn first_free() -> String {
    std::fs::read_to_string(repo_file("tests/bots/first_free.py")).unwrap()
}

fn write(dir: &Path, file: &str, text: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
}

fn contest(config: &Path, out: &Path, extra: &[&str]) -> Output {
    referee()
        .args(["contest", config.to_str().unwrap(), "-j", "2", "--out"])
        .arg(out)
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Four source folders (two good Python bots, C that does not compile, Python that never
/// answers `start`) and the built-in random bot.
fn field(dir: &Path, failed_check: &str) -> std::path::PathBuf {
    let subs = dir.join("subs");
    write(&subs.join("ann"), "main.py", &first_free());
    write(&subs.join("ben"), "main.py", &first_free());
    write(&subs.join("cid"), "main.c", "int main(void) { return 0 }\n");
    write(
        &subs.join("dee"),
        "main.py",
        "import time\ntime.sleep(60)\n",
    );
    let config = dir.join("cup.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\nformat = \"swiss\"\nrounds = 2\ngames = 2\ntime = \"move=1000\"\nstartup_ms = 1000\nsources = \"{}\"\nfailed_check = \"{failed_check}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            subs.display()
        ),
    )
    .unwrap();
    config
}

fn players(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("players.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn status(players: &[Value], name: &str) -> String {
    let player = players.iter().find(|p| p["name"] == name).unwrap();
    player["status"].as_str().unwrap().to_string()
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn sources_are_built_checked_played_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let config = field(dir.path(), "leave-out");
    let out = dir.path().join("out");
    let shown = succeeded(&contest(&config, &out, &[]));

    // The compiler's own words, for the player whose C does not compile.
    assert!(shown.contains("cid"), "{shown}");
    assert!(
        shown.contains("error: expected ';' before '}' token"),
        "{shown}"
    );
    let listed = players(&out);
    assert_eq!(status(&listed, "ann"), "plays");
    assert_eq!(status(&listed, "ben"), "plays");
    assert_eq!(status(&listed, "boss"), "plays");
    assert_eq!(status(&listed, "cid"), "build-failed");
    assert_eq!(status(&listed, "dee"), "left-out");
    let dee = listed.iter().find(|p| p["name"] == "dee").unwrap();
    assert!(!dee["problems"].as_array().unwrap().is_empty(), "{dee}");
    let text = std::fs::read_to_string(out.join("players.txt")).unwrap();
    assert!(text.contains("LEFT OUT: failed the check"), "{text}");
    // One toolchain per language, its version recorded with the player and shown.
    let ann = listed.iter().find(|p| p["name"] == "ann").unwrap();
    let python = ann["toolchain"].as_str().unwrap();
    assert!(python.starts_with("Python 3."), "{ann}");
    assert!(text.contains(&format!("with {python}")), "{text}");
    assert!(ann["command"].as_str().unwrap().starts_with('/'), "{ann}");

    // The tournament file holds the three who play, with the built command.
    let tournament = std::fs::read_to_string(out.join("tournament.toml")).unwrap();
    assert!(tournament.contains("name = \"ann\"") && !tournament.contains("name = \"dee\""));
    assert!(tournament.contains("main.py"), "{tournament}");
    // 3 players, a bye a round: one pairing of 2 games in each of 2 rounds.
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1 + 4, "{journal}");
    assert!(out.join("standings.json").is_file());
    assert!(shown.contains("| Buch |"), "{shown}");
    let page = results_page(&out, &["ann", "ben", "boss"], 4);
    assert!(shown.contains("results page: "), "{shown}");

    // Resumed: the builds come from the cache, the checks and the games are not run again.
    let again = succeeded(&contest(&config, &out, &["--resume"]));
    assert!(
        again.contains("ann                      plays; python, cached"),
        "{again}"
    );
    assert!(again.contains("played 0 games"), "{again}");
    assert_eq!(
        std::fs::read_to_string(out.join("journal.jsonl")).unwrap(),
        journal
    );
    // The same games and standings (the entrants' builds now say "cached").
    let again = results_page(&out, &["ann", "ben", "boss"], 4);
    for key in ["index", "games", "tournaments"] {
        assert_eq!(again[key], page[key], "{key}");
    }
    assert_eq!(again["contest"]["title"], "cup");
    let languages = again["contest"]["languages"].to_string();
    assert!(languages.contains(python), "{languages}");
    let cid = &again["contest"]["entrants"][2];
    assert_eq!(
        (&cid["name"], &cid["plays"]),
        (&"cid".into(), &false.into())
    );
}

/// The data a page of `referee report` (or a contest's) holds.
fn page_data(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let opening = "<script type=\"application/json\" id=\"referee-data\">";
    let start = html.find(opening).unwrap() + opening.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// `referee report SITE --from OUTPUT` makes the contest's own page from its output folder,
/// its entrants included (its contest section was left out). Built-in players and no sandbox:
/// no build, so no bubblewrap.
/// A contest whose field falls below two players once checked says so as a contest: it said
/// 'out/tournament.toml: players: a tournament needs at least 2 players, found 1', of a file
/// the organiser never wrote.
#[test]
fn a_contest_left_with_one_player_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("cup.toml");
    std::fs::write(
        &config,
        "game = \"tictactoe\"\ngames = 2\nsandbox = false\n[[players]]\nname = \"ann\"\n\
         builtin = \"random\"\n[[players]]\nname = \"bob\"\ncommand = \"sh -c 'exit 3'\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = contest(&config, &out, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with(&format!(
            "referee: 1 of the 2 players passed their build and check, and a contest needs at \
             least 2 to play: {} says why each was left out\n",
            out.join("players.txt").display()
        )),
        "{stderr}"
    );
    assert!(std::fs::read_to_string(out.join("players.txt"))
        .unwrap()
        .contains("exited with code 3"));
}

#[test]
fn the_report_of_a_contests_output_is_the_contests_own_page() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("cup.toml");
    std::fs::write(
        &config,
        "game = \"tictactoe\"\ngames = 2\nsandbox = false\n[[players]]\nname = \"ann\"\nbuiltin = \"random\"\n[[players]]\nname = \"boss\"\nbuiltin = \"greedy\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    succeeded(&contest(&config, &out, &[]));
    let site = dir.path().join("site");
    let shown = succeeded(
        &referee()
            .arg("report")
            .arg(&site)
            .arg("--from")
            .arg(&out)
            .output()
            .unwrap(),
    );
    assert!(shown.contains("(2 games,"), "{shown}");
    let own = results_page(&out, &["ann", "boss"], 2);
    assert_eq!(own["contest"]["title"], "cup");
    assert_eq!(
        own["contest"]["entrants"].as_array().unwrap().len(),
        2,
        "{own}"
    );
    let report = page_data(&site.join("index.html"));
    assert_eq!(report["contest"], own["contest"]);
    assert_eq!(report, own);
}

/// A game's pictures as the page holds them: JSON, gzipped, in base64.
fn unpack(packed: &str) -> Value {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .unwrap();
    serde_json::from_reader(flate2::read::GzDecoder::new(&bytes[..])).unwrap()
}

/// The data of the results page `out/index.html`, checked: the tournament's standings list
/// exactly `entrants`, and its `games` games are there, each viewable (its moves and the
/// picture of each position inside), between entrants only.
fn results_page(out: &Path, entrants: &[&str], games: usize) -> Value {
    let data = page_data(&out.join("index.html"));

    let tournaments = data["tournaments"].as_object().unwrap();
    assert_eq!(tournaments.len(), 1, "{tournaments:?}");
    let standings = tournaments.values().next().unwrap();
    let mut ranked: Vec<&str> = standings["standings"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap())
        .collect();
    ranked.sort_unstable();
    assert_eq!(ranked, entrants);
    assert_eq!(
        standings["standings"]["crosstable"]
            .as_array()
            .unwrap()
            .len(),
        entrants.len()
    );

    let listed = data["index"]["games"].as_array().unwrap();
    assert_eq!(listed.len(), games, "{listed:?}");
    for game in listed {
        for player in game["players"].as_array().unwrap() {
            // `ann (firstfree)`: the entrant, then the name its bot gave itself.
            let entrant = player.as_str().unwrap().split(" (").next().unwrap();
            assert!(entrants.contains(&entrant), "{game}");
        }
        let view =
            &data["games"][format!("{}/{}", game["source"].as_str().unwrap(), game["number"])];
        let moves = view["view"]["record"]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), game["moves"].as_u64().unwrap() as usize);
        let opening = view["view"]["record"]["opening"]
            .as_array()
            .map_or(0, Vec::len);
        let pictures = unpack(view["positions_gz"].as_str().unwrap());
        assert_eq!(
            pictures.as_array().unwrap().len(),
            opening + moves.len() + 1
        );
    }
    data
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_player_that_fails_the_check_may_be_kept_with_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let config = field(dir.path(), "keep");
    let out = dir.path().join("out");
    let shown = succeeded(&contest(&config, &out, &["--prepare-only"]));
    assert!(
        shown.contains("dee                      plays, FLAGGED"),
        "{shown}"
    );
    assert!(shown.contains("referee tournament"), "{shown}");
    assert_eq!(status(&players(&out), "dee"), "flagged");
    let tournament = std::fs::read_to_string(out.join("tournament.toml")).unwrap();
    assert!(tournament.contains("name = \"dee\""), "{tournament}");
    assert!(
        !out.join("journal.jsonl").exists(),
        "--prepare-only plays nothing"
    );
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_folder_of_several_languages_must_name_one() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both");
    write(&both, "main.py", &first_free());
    write(&both, "main.js", "");
    let config = dir.path().join("c.toml");
    let players = format!(
        "game = \"tictactoe\"\n[[players]]\nname = \"both\"\nsource = \"{0}\"\n[[players]]\nname = \"named\"\nsource = \"{0}\"\nlanguage = \"python\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
        both.display()
    );
    std::fs::write(&config, players).unwrap();
    let out = dir.path().join("out");
    let shown = succeeded(&contest(&config, &out, &["--prepare-only"]));
    assert!(
        shown.contains("its files show several languages (python: main.py, javascript: main.js)"),
        "{shown}"
    );
    assert_eq!(status(&self::players(&out), "named"), "plays");
}

#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_contest_that_keeps_no_records_has_no_results_page() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("ann"), "main.py", &first_free());
    let config = dir.path().join("quiet.toml");
    let text = format!(
        "game = \"tictactoe\"\nrecords = false\n[[players]]\nname = \"ann\"\nsource = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
        dir.path().join("ann").display()
    );
    std::fs::write(&config, text).unwrap();
    let out = dir.path().join("out");
    let shown = succeeded(&contest(&config, &out, &[]));
    assert!(
        shown.contains("no results page: the contest keeps no game records (records = false)"),
        "{shown}"
    );
    assert!(out.join("standings.json").is_file());
    assert!(!out.join("index.html").exists());
}

/// A rerun the journal will refuse is refused before any build or check, and before anything
/// is said: it used to redo every failed build first, and rewrite the list of players beside
/// standings it no longer matched, then it said "building and checking" before refusing.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_rerun_the_journal_refuses_is_refused_before_any_build() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("ann"), "main.py", &first_free());
    write(&dir.path().join("slow"), "main.sf", "");
    let config = dir.path().join("cup.toml");
    let text = |games: u32| {
        format!(
            "game = \"tictactoe\"\ngames = {games}\n[languages.sf]\ndetect = [\"*.sf\"]\ncompile = \"sleep 2; exit 1\"\nrun = \"{{dir}}/main\"\n[[players]]\nname = \"ann\"\nsource = \"{}\"\n[[players]]\nname = \"slow\"\nsource = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            dir.path().join("ann").display(),
            dir.path().join("slow").display()
        )
    };
    std::fs::write(&config, text(2)).unwrap();
    let out = dir.path().join("out");
    succeeded(&contest(&config, &out, &[]));
    let listed = std::fs::read_to_string(out.join("players.txt")).unwrap();
    assert!(listed.contains("slow "), "{listed}");

    for (games, time, extra, expected) in [
        (4, "", &[][..], "holds 2 finished games already; add --resume"),
        (
            4,
            "",
            &["--resume"][..],
            "belongs to another tournament: games_per_pairing: 2",
        ),
        // Another time control (it used to be resumed, the games played at the first kept).
        (
            2,
            "time = \"move=300\"\n",
            &["--resume"][..],
            "belongs to another tournament: time: \"move=1000,bank=0,increment=0,first=0\" in the journal, \"move=300,bank=0,increment=0,first=0\" now (",
        ),
    ] {
        std::fs::write(&config, format!("{time}{}", text(games))).unwrap();
        let refused = contest(&config, &out, extra);
        assert_eq!(refused.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains(expected), "{stderr}");
        // Nothing is said first, not even what the run was about to build.
        let stdout = String::from_utf8_lossy(&refused.stdout);
        assert_eq!(stdout, "", "said before the refusal");
        assert_eq!(
            std::fs::read_to_string(out.join("players.txt")).unwrap(),
            listed
        );
    }
}

/// Why a player is left out, in the list itself: the cause line of a bot that crashes at start
/// (it was only in OUTPUT/checks/), and what to do with a folder that builds itself or keeps
/// its sources in a subfolder.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn the_list_says_why_a_player_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    write(&subs.join("ann"), "main.py", &first_free());
    write(&subs.join("imp"), "main.py", "import numpy_is_not_here\n");
    write(
        &subs.join("mak"),
        "Makefile",
        "all:\n\tcc -o bot src/bot.c\n",
    );
    write(
        &subs.join("mak").join("src"),
        "bot.c",
        "int main(void) { return 0; }\n",
    );
    write(&subs.join("sub").join("src"), "main.py", &first_free());
    let config = dir.path().join("cup.toml");
    let text = format!(
        "game = \"tictactoe\"\nsources = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
        subs.display()
    );
    std::fs::write(&config, text).unwrap();
    let out = dir.path().join("out");
    let shown = succeeded(&contest(&config, &out, &["--prepare-only"]));
    let listed = players(&out);
    assert_eq!(status(&listed, "imp"), "left-out");
    let imp = listed.iter().find(|p| p["name"] == "imp").unwrap();
    assert!(
        imp["problems"][0].as_str().unwrap().contains(
            "[its stderr ended: ModuleNotFoundError: No module named 'numpy_is_not_here']"
        ),
        "{imp}"
    );
    assert!(
        shown.contains("it has a Makefile, which no built-in profile runs")
            && shown.contains("its c sources are in the subfolder src/ (bot.c)"),
        "{shown}"
    );
    assert!(
        shown.contains("its python sources are in the subfolder src/ (main.py)"),
        "{shown}"
    );
    let text = std::fs::read_to_string(out.join("players.txt")).unwrap();
    assert!(
        text.contains("No module named 'numpy_is_not_here'"),
        "{text}"
    );
}

/// The journal's games, as (first, second, winner, reason, opening) by index.
fn journal_games(out: &Path) -> std::collections::BTreeMap<u64, Value> {
    std::fs::read_to_string(out.join("journal.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let entry: Value = serde_json::from_str(line).unwrap();
            let index = entry["index"].as_u64().unwrap();
            let game = serde_json::json!([
                entry["players"],
                entry["winner"],
                entry["reason"],
                entry["opening"]
            ]);
            (index, game)
        })
        .collect()
}

/// The loop every contest lives in: a resubmission is a new version whose games replace the
/// old version's, a newcomer plays its games, `--rejudge` replays one player's, and the games
/// between unchanged players are kept (it used to replay nothing and republish the old
/// version's table).
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn a_resubmission_replays_exactly_the_games_of_the_changed_player() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    write(&subs.join("ann"), "main.py", &first_free());
    write(&subs.join("ben"), "main.py", "import sys\nsys.exit(3)\n");
    let config = dir.path().join("cup.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\ngames = 2\nopenings = {{ plies = 2 }}\nfailed_check = \"keep\"\nsources = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            subs.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    succeeded(&contest(&config, &out, &[]));
    let before = journal_games(&out);
    assert_eq!(before.len(), 6);
    let crashes = |games: &std::collections::BTreeMap<u64, Value>| {
        games.values().filter(|g| g[3] == "exited").count()
    };
    assert_eq!(crashes(&before), 0, "{before:?}");
    let ben_lost: usize = before
        .values()
        .filter(|g| g[0].as_array().unwrap().contains(&"ben".into()))
        .count();
    assert_eq!(ben_lost, 4);

    // ben resubmits a bot that plays: its four games are played again, ann's with boss kept.
    write(&subs.join("ben"), "main.py", &first_free());
    let shown = succeeded(&contest(&config, &out, &["--resume"]));
    assert!(
        shown.contains("new or changed players: ben; 2 finished games kept, 4 dropped"),
        "{shown}"
    );
    assert!(shown.contains("played 4 games"), "{shown}");
    let after = journal_games(&out);
    assert_eq!(after.len(), 6);
    for (index, game) in &before {
        if !game[0].as_array().unwrap().contains(&"ben".into()) {
            assert!(
                after.values().any(|g| g == game),
                "game {index} was not kept: {game}"
            );
        }
    }
    let listed = players(&out);
    let ben = listed.iter().find(|p| p["name"] == "ben").unwrap();
    let ben_version = ben["version"].as_str().unwrap().to_string();
    assert_eq!(ben_version.len(), 12);
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(out.join("journal.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        header["tournament"]["versions"]["ben"],
        ben_version.as_str()
    );
    // The standings say which build each row is.
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    assert_eq!(standings["versions"]["ben"], ben_version.as_str());
    assert!(shown.contains("| version "), "{shown}");
    results_page(&out, &["ann", "ben", "boss"], 6);

    // A newcomer: its games are played, every other game kept, the records moved with them.
    write(&subs.join("cid"), "main.py", &first_free());
    let shown = succeeded(&contest(&config, &out, &["--resume"]));
    assert!(
        shown.contains("new or changed players: cid; 6 finished games kept, 0 dropped"),
        "{shown}"
    );
    assert!(shown.contains("played 6 games"), "{shown}");
    let grown = journal_games(&out);
    assert_eq!(grown.len(), 12);
    for game in after.values() {
        assert!(grown.values().any(|g| g == game), "not kept: {game}");
    }
    results_page(&out, &["ann", "ben", "boss", "cid"], 12);

    // Nothing changed: nothing played; --rejudge replays one player's games.
    let shown = succeeded(&contest(&config, &out, &["--resume"]));
    assert!(shown.contains("played 0 games"), "{shown}");
    // ann's sources did not change: it is said to be re-judged, not a new or changed player.
    let shown = succeeded(&contest(&config, &out, &["--rejudge", "ann"]));
    assert!(
        shown.contains("re-judged: ann; 6 finished games kept, 6 dropped"),
        "{shown}"
    );
    assert!(!shown.contains("new or changed"), "{shown}");
    assert!(
        shown.contains("ann") && shown.contains("check: compliant"),
        "{shown}"
    );
    assert!(shown.contains("played 6 games"), "{shown}");
    let rejudged = journal_games(&out);
    assert_eq!(rejudged.len(), 12);
    for (index, game) in &grown {
        if !game[0].as_array().unwrap().contains(&"ann".into()) {
            assert_eq!(rejudged.get(index), Some(game), "game {index} was not kept");
        }
    }
}

/// The names in `out`'s build cache (none before it is made).
fn cached(out: &Path) -> Vec<String> {
    std::fs::read_dir(out.join("builds")).map_or_else(
        |_| Vec::new(),
        |entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        },
    )
}

/// Starts `referee contest` on `config` into `out`, its stderr piped, to be interrupted.
fn start_contest(config: &Path, out: &Path) -> std::process::Child {
    referee()
        .args(["contest", config.to_str().unwrap(), "-j", "2", "--out"])
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Starts `referee contest` on `config` into `out`, and sends it `signal` once a build is
/// under way (staged, then given half a second to start its sandbox and compile step): the run
/// must stop at once, with the status and the words of an interrupted tournament.
fn interrupt_a_build(config: &Path, out: &Path, signal: nix::sys::signal::Signal) {
    use std::time::{Duration, Instant};
    let child = start_contest(config, out);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !cached(out).iter().any(|name| name.starts_with("src-")) {
        assert!(Instant::now() < deadline, "{signal}: no build was staged");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{signal}: {stderr}");
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "{signal}: stopped after {:?}",
        sent.elapsed()
    );
    assert!(stderr.contains("referee: stopped by signal"), "{stderr}");
}

/// Ctrl-C or SIGTERM while the contest builds stops it at once, its builds killed (the signal
/// was ignored, or killed the referee alone, until the games began); what the interrupted
/// builds staged in the cache is removed by the next run.
#[test]
#[ignore = "needs bubblewrap (apt-get install bubblewrap); .ci/run runs it"]
fn an_interrupt_stops_the_builds_and_the_next_run_sweeps_what_they_left() {
    let dir = tempfile::tempdir().unwrap();
    let marker = crate::common::marker();
    write(&dir.path().join("ann"), "main.py", &first_free());
    write(&dir.path().join("slow"), "main.sf", "");
    let config = dir.path().join("cup.toml");
    let text = |compile: &str| {
        format!(
            "game = \"tictactoe\"\n[languages.sf]\ndetect = [\"*.sf\"]\ncompile = \"{compile}\"\nrun = \"{{dir}}/main\"\n[[players]]\nname = \"ann\"\nsource = \"{}\"\n[[players]]\nname = \"slow\"\nsource = \"{}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            dir.path().join("ann").display(),
            dir.path().join("slow").display()
        )
    };
    std::fs::write(&config, text(&format!(": {marker}; sleep 30; exit 1"))).unwrap();
    let staged = |out: &Path| {
        cached(out)
            .into_iter()
            .filter(|name| name.starts_with("src-") || name.starts_with("out-"))
            .collect::<Vec<_>>()
    };
    for signal in [
        nix::sys::signal::Signal::SIGINT,
        nix::sys::signal::Signal::SIGTERM,
    ] {
        let out = dir.path().join(signal.as_str());
        interrupt_a_build(&config, &out, signal);
        let left = crate::common::survivors(&marker);
        assert!(left.is_empty(), "{signal}: builds left running: {left:?}");
        assert!(!staged(&out).is_empty(), "{signal}: {:?}", cached(&out));
    }
    let out = dir.path().join("SIGINT");
    std::fs::write(&config, text("exit 1")).unwrap();
    succeeded(&contest(&config, &out, &[]));
    assert_eq!(staged(&out), Vec::<String>::new(), "{:?}", cached(&out));
}

/// `referee contest --help` and docs/contests.md say the same of `-j`'s defaults, and what
/// the code does: the builds and checks take the file's concurrency or half the cores, the
/// games as many as the machine holds (the docs said "its processors" for all, the help "half
/// the CPU cores").
#[test]
fn the_help_and_the_docs_give_the_same_defaults_of_j() {
    let default = "for the builds and checks, the file's concurrency, else half the CPU cores, \
                   at least 1; for the games, the file's concurrency, else as many as the \
                   machine holds, each on a processor of its own: the processors the referee \
                   may use, fewer if its available memory cannot hold twice the largest memory \
                   limit of a player for each (half the CPU cores with pin_games = false)";
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = succeeded(&referee().args(["contest", "--help"]).output().unwrap());
    assert!(
        words(&help).contains(&format!("[default: {default}]")),
        "{help}"
    );
    let docs = std::fs::read_to_string(repo_file("docs/contests.md")).unwrap();
    assert!(
        words(&docs).contains(&format!("defaults: {default}.")),
        "docs/contests.md"
    );
}

/// Ctrl-C while a player is being checked stops the run, and nothing of that check is kept:
/// the bot killed by the interrupt is checked again by `--resume` (the check's finding of a
/// killed bot could reach the saved list, and the resumed run took it as the bot's failure).
#[test]
fn an_interrupted_check_is_not_kept_as_the_players_result() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let hung = dir.path().join("hung-once");
    // Hangs at its first start (the check waits for its `ready`), plays at every later one.
    let bot = format!(
        "import os, sys, time\nif not os.path.exists({hung:?}):\n    open({hung:?}, 'w').close()\n    time.sleep(60)\nsys.argv = ['first_free']\nexec(open({free:?}).read())\n",
        free = repo_file("tests/bots/first_free.py").display().to_string(),
        hung = hung.display().to_string(),
    );
    write(dir.path(), "slow.py", &bot);
    let config = dir.path().join("cup.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\nsandbox = false\nstartup_ms = 30000\n[[players]]\nname = \"slow\"\ncommand = \"python3 {}\"\n[[players]]\nname = \"boss\"\nbuiltin = \"random\"\n",
            dir.path().join("slow.py").display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let child = start_contest(&config, &out);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !hung.exists() {
        assert!(Instant::now() < deadline, "the check never started the bot");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let slow = players(&out).into_iter().find(|p| p["name"] == "slow");
    assert!(
        slow.is_some_and(|p| p["problems"].is_null()),
        "{:?}",
        players(&out)
    );
    let shown = succeeded(&contest(&config, &out, &["--resume"]));
    assert!(
        shown.contains("slow") && shown.contains("check: compliant"),
        "{shown}"
    );
}
