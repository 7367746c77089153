//! Playing scheduled games one after another with bot processes: the one piece that both
//! `referee match` and the tournament runner use. A [`Table`] starts each bot's process when
//! its first game needs it, keeps it for the next game when the bot declared `multi` and did
//! nothing wrong, tells it to quit (or kills it after a fault) otherwise, files the game's
//! record (files of its own, or a line of a records file), and replays a game whose timeout
//! coincided with a stall of the referee.

use crate::arbiter::{play_game_watched, GameRules, OpeningError, PlayedGame, SeatedPlayer};
use crate::players::PlayerSpec;
use referee_cage::adapters::UnsupportedGame;
use referee_cage::limits::Limits;
use referee_cage::process::SpawnError;
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_cage::Seat;
use referee_records::live::{LiveFile, LiveHeader};
use referee_records::record::{append_epilogue, write_game, RecordFiles};
use referee_records::record_pack::RecordPack;
use referee_rules::clock::TimeControl;
use referee_rules::games::Side;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// How often one game is replayed for referee stalls before its result stands (marked).
pub const MAX_REPLAYS: u32 = 3;

/// The most bots' processes a table keeps between games, the least recently played ended
/// first: starting a process costs far more than a game of an instant bot, so in a round robin
/// every `multi` bot is kept for its next game, and a field of hundreds does not keep hundreds
/// of idle processes per table.
pub const KEPT_BOTS: usize = 16;

/// A player as the referee knows it: the label written in records and file names, how to start
/// it, its clock and its resource limits.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its name in records, file names and standings; unique in a tournament.
    pub label: String,
    /// How to start it.
    pub spec: PlayerSpec,
    /// Its clock, the same in every game.
    pub time: TimeControl,
    /// What its process may use: memory, CPU time, processes, file sizes.
    pub limits: Limits,
}

/// How every game at a table is played, as configured: what `referee match`'s options and a
/// tournament file set (a [`crate::tournament::config::Tournament`] holds one), before the run
/// adds what only it knows (see [`Venue`]).
#[derive(Clone, Debug)]
pub struct TableSettings {
    /// The game and how each is played: margin, start-up allowance and `legal` lines.
    pub rules: GameRules,
    /// Options of every bot's process: line cap, sandbox and Gomocup memory budget (the
    /// player's limits are set per game).
    pub process: ProcessOptions,
    /// Seeds the built-in bots (and a tournament's random openings and Swiss pairings), so
    /// games can be replayed.
    pub seed: u64,
    /// Replay a game whose timeout coincided with a stall of the referee (at most
    /// [`MAX_REPLAYS`] times), instead of scoring it.
    pub replay_stalled: bool,
    /// Keep a `multi` bot's process for its next game at the same table.
    pub reuse_processes: bool,
}

/// What every game at a table shares: the settings as configured, and what the run adds, the
/// referee executable and the live [`Recorder`] (a tournament's records file is opened only
/// once its journal is, so a configuration holds [`TableSettings`] and a record layout, never
/// a recorder).
#[derive(Clone, Debug)]
pub struct Venue {
    /// How every game is played, as configured.
    pub settings: TableSettings,
    /// The referee executable, re-invoked as `referee bot NAME` for built-in bots.
    pub referee_exe: PathBuf,
    /// Where each game's record, transcript and stderr go (nowhere when `None`).
    pub records: Option<Recorder>,
}

/// Where a table files each game's record, transcript and stderr.
#[derive(Clone, Debug)]
pub enum Recorder {
    /// Files of its own for each game in this directory (see [`referee_records::record::write_game`]).
    Files(PathBuf),
    /// A line for each game in a records file shared by the run's tables.
    Pack(Arc<RecordPack>),
}

impl Recorder {
    /// The directory the records go to, where the table's live file goes too.
    fn dir(&self) -> &Path {
        match self {
            Recorder::Files(dir) => dir,
            Recorder::Pack(pack) => pack.path().parent().unwrap_or(Path::new("")),
        }
    }

    /// Files a finished game.
    fn file(&self, played: &PlayedGame) -> io::Result<Filed> {
        match self {
            Recorder::Files(dir) => {
                write_game(dir, &played.record, &played.logs, played.started_at).map(Filed::Files)
            }
            Recorder::Pack(pack) => {
                pack.append_game(&played.record, &played.logs, played.started_at)?;
                Ok(Filed::Pack(Arc::clone(pack)))
            }
        }
    }
}

/// Where a game was filed.
#[derive(Clone)]
pub enum Filed {
    /// Files of its own: the record, transcript and stderr.
    Files(RecordFiles),
    /// A line in the records file shared by the run's tables.
    Pack(Arc<RecordPack>),
}

impl Filed {
    /// The game's own files, when it has them.
    pub fn files(&self) -> Option<&RecordFiles> {
        match self {
            Filed::Files(files) => Some(files),
            Filed::Pack(_) => None,
        }
    }

    /// The file holding the game's record: its `NNNN.json`, or the records file.
    pub fn record_path(&self) -> &Path {
        match self {
            Filed::Files(files) => &files.record,
            Filed::Pack(pack) => pack.path(),
        }
    }

    /// Adds what a kept bot logged after game `number` was filed to that game (see
    /// [`referee_records::record::append_epilogue`]).
    fn add_epilogue(
        &self,
        number: u32,
        label: &str,
        log: &referee_records::transcript::SeatLog,
        started_at: Instant,
    ) -> io::Result<()> {
        match self {
            Filed::Files(files) => append_epilogue(files, label, log, started_at),
            Filed::Pack(pack) => pack.append_epilogue(number, label, log, started_at),
        }
    }
}

/// One game to play: its number (records are named after it), who sits first and second (as
/// indices into the players, which must differ), and the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Unique in a run, from 1: it names the record and varies the built-in bots' seeds.
    pub number: u32,
    /// Indices into the players of who sits first and second.
    pub seats: [usize; 2],
    /// Moves played before the bots take over.
    pub opening: Vec<String>,
}

/// The referee's own failures (a bot's failures are game results, never errors).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A bot's process could not be started.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// The opening cannot be played.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// A player's protocol cannot express the game or its opening.
    #[error("player {label}: {reason}")]
    Unsupported {
        /// Which player, as records name it.
        label: String,
        /// What the protocol lacks.
        reason: UnsupportedGame,
    },
    /// A game's record could not be filed.
    #[error("cannot write the game record")]
    Record(#[from] io::Error),
    /// A player's program is missing or cannot be run, or a person's page could not open.
    #[error("player {label} cannot start: {reason}")]
    CannotStart {
        /// Which player, as records name it.
        label: String,
        /// What is missing or refused, in words.
        reason: String,
    },
}

/// One played game.
pub struct FinishedGame {
    /// Its record and each seat's log.
    pub played: PlayedGame,
    /// Player indices of the first and second player.
    pub seats: [usize; 2],
    /// Where it was filed, when the table keeps records.
    pub filed: Option<Filed>,
}

impl FinishedGame {
    /// The game's own files, when it was filed in files of its own.
    pub fn files(&self) -> Option<&RecordFiles> {
        self.filed.as_ref().and_then(Filed::files)
    }

    /// The player who won, or `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        self.played
            .record
            .result
            .winner
            .map(|side| self.seats[side.index()])
    }
}

/// Refuses, before any bot is started, an opening that cannot be played, a game that a
/// player's protocol cannot express (a Gomocup brain at ultimate tic-tac-toe, ...), or a player
/// that cannot start (see [`check_startable`]).
pub fn check_players(
    venue: &Venue,
    players: &[Player],
    opening: &[String],
) -> Result<(), GameError> {
    let rules = &venue.settings.rules;
    crate::arbiter::play_opening(&rules.spec, opening)?;
    check_startable(players, venue.settings.process.working_dir.as_deref())?;
    for player in players {
        player
            .spec
            .check_game(&rules.spec, opening)
            .map_err(|reason| GameError::Unsupported {
                label: player.label.clone(),
                reason,
            })?;
    }
    Ok(())
}

/// Refuses, before any game, a player whose program cannot start: a program that does not
/// exist or may not be run, or a script its command names (`python3 mybot.py`) that is not
/// there. Otherwise a tournament would find out at the player's first game, partway through.
/// Commands run from `working_dir` (the referee's own directory when `None`).
pub fn check_startable(players: &[Player], working_dir: Option<&Path>) -> Result<(), GameError> {
    for player in players {
        let PlayerSpec::Command { words, .. } = &player.spec else {
            continue;
        };
        startable(words, working_dir).map_err(|reason| GameError::CannotStart {
            label: player.label.clone(),
            reason,
        })?;
    }
    Ok(())
}

/// Files a command names for an interpreter, by their extension (they must exist), with the
/// interpreter to advise when such a file is run as a program but lacks its `#!` line (none
/// for those the system runs without one: shell scripts, and jars where binfmt knows them).
const SCRIPTS: [(&str, Option<&str>); 13] = [
    ("py", Some("python3")),
    ("js", Some("node")),
    ("mjs", Some("node")),
    ("ts", Some("ts-node")),
    ("rb", Some("ruby")),
    ("pl", Some("perl")),
    ("php", Some("php")),
    ("lua", Some("lua")),
    ("jar", None),
    ("sh", None),
    ("r", Some("Rscript")),
    ("jl", Some("julia")),
    ("exs", Some("elixir")),
];

/// The entry of [`SCRIPTS`] for `path`'s extension.
fn script(path: &Path) -> Option<Option<&'static str>> {
    let ext = path.extension()?.to_string_lossy().to_lowercase();
    SCRIPTS
        .iter()
        .find(|(known, _)| *known == ext)
        .map(|(_, interpreter)| *interpreter)
}

/// Why a script run as a program would not run in its language: without a `#!` first line
/// the system runs it with `/bin/sh`, and the bot dies of a shell syntax error a newcomer
/// cannot place.
fn interpreted(program: &str, path: &Path) -> Result<(), String> {
    let Some(Some(interpreter)) = script(path) else {
        return Ok(());
    };
    let mut start = [0u8; 2];
    let read = std::fs::File::open(path).and_then(|mut file| {
        use std::io::Read;
        file.read(&mut start)
    });
    match read {
        Ok(2) if start == *b"#!" => Ok(()),
        Ok(_) => Err(format!(
            "'{program}' has no '#!' first line, so the system would run it as a shell \
             script: make its first line '#!/usr/bin/env {interpreter}', or start it as \
             '{interpreter} {program}'"
        )),
        Err(_) => Ok(()),
    }
}

/// Why `words` (a program and its arguments) cannot start, if it cannot; with a path the
/// command line split at its spaces named whole.
fn startable(words: &[String], working_dir: Option<&Path>) -> Result<(), String> {
    startable_as_split(words, working_dir).map_err(|why| {
        match (0..words.len())
            .flat_map(|start| (start + 2..=words.len()).map(move |end| words[start..end].join(" ")))
            .find(|joined| here(working_dir, Path::new(joined)).exists())
        {
            Some(path) => format!(
                "{why}; '{path}' exists: a command line is split at its spaces, so quote \
                 that path in it (\"'{path}'\")"
            ),
            None => why,
        }
    })
}

/// `path` as seen from the directory commands run from.
fn here(working_dir: Option<&Path>, path: &Path) -> PathBuf {
    match working_dir {
        Some(dir) => dir.join(path),
        None => path.to_path_buf(),
    }
}

/// Why `words`, as split, cannot start, if they cannot.
fn startable_as_split(words: &[String], working_dir: Option<&Path>) -> Result<(), String> {
    let here = |path: &Path| here(working_dir, path);
    let Some((program, args)) = words.split_first() else {
        return Err("its command is empty".into());
    };
    if program.contains('/') {
        let path = here(Path::new(program));
        executable(&path).map_err(|why| {
            format!(
                "'{program}' {why} (commands run from {})",
                place(working_dir)
            )
        })?;
        interpreted(program, &path)?;
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        if !std::env::split_paths(&path).any(|dir| executable(&dir.join(program)).is_ok()) {
            return Err(format!(
                "no program '{program}' in the PATH (a program in the current directory is \
                 written ./{program})"
            ));
        }
    }
    for arg in args.iter().filter(|arg| !arg.starts_with('-')) {
        let path = Path::new(arg);
        if script(path).is_some() && !here(path).exists() {
            return Err(format!(
                "its command names '{arg}', which does not exist (commands run from {})",
                place(working_dir)
            ));
        }
    }
    Ok(())
}

/// Why `path` is not a program that can be run, if it is not.
fn executable(path: &Path) -> Result<(), &'static str> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path).map_err(|_| "does not exist")?;
    if metadata.is_dir() {
        Err("is a directory")
    } else if metadata.permissions().mode() & 0o111 == 0 {
        Err("is not executable (chmod +x it)")
    } else {
        Ok(())
    }
}

/// The directory commands run from, for a message.
fn place(working_dir: Option<&Path>) -> String {
    working_dir
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .map_or_else(
            || "the current directory".into(),
            |dir| dir.display().to_string(),
        )
}

/// The bots kept between games, by player index, the most recently played last (at most
/// [`KEPT_BOTS`]); told to quit when the table is dropped.
pub struct Table {
    /// Starts the table's bots and watches its games.
    supervisor: Supervisor,
    seated: Vec<Kept>,
    /// Where the game being recorded shows its moves as they are played.
    live: Option<LiveFile>,
}

/// A bot's process kept for its next game, and where its last game was filed: what it writes
/// when it is told to quit goes at the end of that game's transcript.
struct Kept {
    player: usize,
    seat: Box<dyn Seat + Send>,
    last_game: Option<LastGame>,
}

struct LastGame {
    filed: Filed,
    number: u32,
    label: String,
    started_at: Instant,
}

impl Kept {
    /// Ends the bot's process (`quit`, or `END` for a Gomocup brain) and files what it wrote
    /// on its way out with its last game. Filing is best effort: the game's own files are
    /// already written, and a table being dropped has nobody to report to.
    fn finish(mut self) {
        self.seat.finish();
        let log = self.seat.take_log();
        if let Some(last) = &self.last_game {
            let _ = last
                .filed
                .add_epilogue(last.number, &last.label, &log, last.started_at);
        }
    }
}

impl Table {
    /// A table whose bots are started by `supervisor`.
    pub fn new(supervisor: &Supervisor) -> Table {
        Table {
            supervisor: supervisor.clone(),
            seated: Vec::new(),
            live: None,
        }
    }

    /// Where this table shows the moves of each game it records into `dir` while the game is
    /// played (a server listing games being played asks before it plays one).
    pub fn live_file(&mut self, dir: &Path) -> &Path {
        live_in(&mut self.live, dir).path()
    }

    /// The players whose processes are kept for their next game here.
    pub fn seated(&self) -> Vec<usize> {
        self.seated.iter().map(|kept| kept.player).collect()
    }

    /// Plays `game` and returns it once it counts. A game whose timeout coincided with a stall
    /// of the referee is handed to `on_replay` and played again (see
    /// [`TableSettings::replay_stalled`]).
    pub fn play(
        &mut self,
        venue: &Venue,
        players: &[Player],
        game: &ScheduledGame,
        mut on_replay: impl FnMut(&FinishedGame),
    ) -> Result<FinishedGame, GameError> {
        debug_assert_ne!(game.seats[0], game.seats[1], "a bot cannot play itself");
        let mut replays = 0;
        loop {
            let replay_if_stalled = venue.settings.replay_stalled && replays < MAX_REPLAYS;
            let finished = self.play_once(venue, players, game, [None, None], replay_if_stalled)?;
            if finished.played.record.result.stalled && replay_if_stalled {
                on_replay(&finished);
                replays += 1;
            } else {
                return Ok(finished);
            }
        }
    }

    /// Plays `game` once with a seat given for a side (a person's, which no command starts:
    /// the player of that side names and times them), the other side's bot started as
    /// [`Table::play`] starts it; filed, and never played again (the person is not asked twice).
    pub fn play_given(
        &mut self,
        venue: &Venue,
        players: &[Player],
        game: &ScheduledGame,
        given: [Option<Box<dyn Seat + Send>>; 2],
    ) -> Result<FinishedGame, GameError> {
        self.play_once(venue, players, game, given, false)
    }

    /// Plays `game` once; files it unless it stalled and `replay_if_stalled` (a game played
    /// again is filed once, as it counts).
    fn play_once(
        &mut self,
        venue: &Venue,
        players: &[Player],
        game: &ScheduledGame,
        given: [Option<Box<dyn Seat + Send>>; 2],
        replay_if_stalled: bool,
    ) -> Result<FinishedGame, GameError> {
        let mut seats = Vec::with_capacity(2);
        let was_given = given.each_ref().map(Option::is_some);
        for (&player, given) in game.seats.iter().zip(given) {
            let kept = self.seated.iter().position(|kept| kept.player == player);
            let seat = match (given, kept) {
                (Some(seat), _) => seat,
                (None, Some(at)) => self.seated.remove(at).seat,
                (None, None) => players[player].spec.start(
                    &self.supervisor,
                    &venue.referee_exe,
                    seed(venue, players, player, game.number),
                    venue.settings.rules.startup,
                    ProcessOptions {
                        limits: players[player].limits,
                        ..venue.settings.process.clone()
                    },
                )?,
            };
            seats.push(seat);
        }
        let [mut first, mut second]: [Box<dyn Seat + Send>; 2] =
            seats.try_into().ok().expect("one seat per side");
        // While a recorded game is played, its moves so far are in the table's live file for
        // `referee serve`, emptied once the record is written.
        let mut live = match venue.records.as_ref().map(Recorder::dir) {
            Some(dir) => {
                let header = live_header(venue, players, game);
                let live = live_in(&mut self.live, dir);
                self.supervisor.shows_live_games(live.path());
                Some(live.start(&header))
            }
            None => None,
        };
        let mut played = play_game_watched(
            &self.supervisor,
            game.number,
            &venue.settings.rules,
            &game.opening,
            0,
            [
                seated_player(
                    &players[game.seats[0]],
                    first.as_mut(),
                    &venue.settings.rules,
                ),
                seated_player(
                    &players[game.seats[1]],
                    second.as_mut(),
                    &venue.settings.rules,
                ),
            ],
            &mut |_, played| {
                if let Some(live) = &mut live {
                    live.moved(played);
                }
            },
        )?;
        if self.supervisor.is_stopping() {
            // Its bots were killed by an interrupt: no result, so nothing is filed; `--resume`
            // plays it again.
            self.supervisor.wait_for_exit();
        }
        let mut kept = Vec::new();
        for (side, mut seat) in Side::BOTH.into_iter().zip([first, second]) {
            if played.faulted[side.index()] {
                // A bot that broke a rule is killed at once (dropping its seat).
                drop(seat);
            } else if played.keeps_process(side)
                && venue.settings.reuse_processes
                && !was_given[side.index()]
            {
                kept.push((side, seat));
            } else {
                played.finish_seat(side, seat.as_mut());
            }
        }
        let replayed = played.record.result.stalled && replay_if_stalled;
        let filed = match &venue.records {
            Some(recorder) if !replayed => Some(recorder.file(&played)?),
            _ => None,
        };
        drop(live);
        for (side, seat) in kept {
            self.seated.push(Kept {
                player: game.seats[side.index()],
                seat,
                last_game: filed.clone().map(|filed| LastGame {
                    filed,
                    number: game.number,
                    label: played.record.players[side.index()].label.clone(),
                    started_at: played.started_at,
                }),
            });
        }
        // The bots kept longest without a game go first.
        let surplus = self.seated.len().saturating_sub(KEPT_BOTS);
        for idle in self.seated.drain(..surplus) {
            idle.finish();
        }
        Ok(FinishedGame {
            played,
            seats: game.seats,
            filed,
        })
    }
}

impl Drop for Table {
    /// The kept bots are told to quit when the table is done with.
    fn drop(&mut self) {
        for kept in self.seated.drain(..) {
            kept.finish();
        }
    }
}

/// A table's live file for games recorded into `dir` (a new one when it recorded elsewhere).
fn live_in<'a>(live: &'a mut Option<LiveFile>, dir: &Path) -> &'a mut LiveFile {
    if !live.as_ref().is_some_and(|live| live.is_in(dir)) {
        *live = None;
    }
    live.get_or_insert_with(|| LiveFile::new(dir))
}

/// What a live file says of a game before its first move.
fn live_header(venue: &Venue, players: &[Player], game: &ScheduledGame) -> LiveHeader {
    LiveHeader {
        number: game.number,
        game: venue.settings.rules.spec.to_string(),
        players: game.seats.map(|seat| players[seat].label.clone()),
        time: game.seats.map(|seat| players[seat].time),
        opening: game.opening.clone(),
        started: humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
    }
}

fn seated_player<'a>(
    player: &Player,
    seat: &'a mut (dyn Seat + Send),
    rules: &GameRules,
) -> SeatedPlayer<'a> {
    SeatedPlayer {
        seat,
        label: player.label.clone(),
        command: player.spec.to_string(),
        time: player.time,
        margin: player.spec.protocol().margin(rules.margin),
    }
}

/// The seed of `player`'s built-in bot for game `number`: one of its own for every game and
/// player.
fn seed(venue: &Venue, players: &[Player], player: usize, number: u32) -> u64 {
    venue
        .settings
        .seed
        .wrapping_add(number as u64 * players.len() as u64 + player as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &str) -> Vec<String> {
        shlex::split(command).unwrap()
    }

    #[test]
    fn a_program_or_script_that_is_not_there_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let at = Some(dir.path());
        std::fs::write(dir.path().join("bot.py"), "").unwrap();
        std::fs::write(dir.path().join("plain"), "").unwrap();
        assert_eq!(startable(&words("python3 bot.py --level 2"), at), Ok(()));
        assert_eq!(startable(&words("sh -c 'exit 0'"), at), Ok(()));
        let why = |command: &str| startable(&words(command), at).unwrap_err();
        assert!(
            why("./nothere").starts_with("'./nothere' does not exist (commands run from "),
            "{}",
            why("./nothere")
        );
        assert!(why("./plain").contains("is not executable (chmod +x it)"));
        // A script run as a program runs in its language only by its `#!` line.
        let script = |name: &str, text: &str| {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        script("bare.py", "print(1)\n");
        script("good.py", "#!/usr/bin/env python3\nprint(1)\n");
        script("bare.sh", "echo 1\n");
        assert_eq!(
            why("./bare.py"),
            "'./bare.py' has no '#!' first line, so the system would run it as a shell script: \
             make its first line '#!/usr/bin/env python3', or start it as 'python3 ./bare.py'"
        );
        assert_eq!(startable(&words("./good.py"), at), Ok(()));
        assert_eq!(startable(&words("./bare.sh"), at), Ok(()));
        assert!(why("no-such-program-anywhere x").starts_with(
            "no program 'no-such-program-anywhere' in the PATH (a program in the current \
             directory is written ./no-such-program-anywhere)"
        ));
        assert!(why("python3 mybot.py")
            .starts_with("its command names 'mybot.py', which does not exist"));
        // A path with a space, split by the command line, is said to need quoting.
        script("my robot.py", "#!/usr/bin/env python3\nprint(1)\n");
        assert!(why("./my robot.py").ends_with(
            "; './my robot.py' exists: a command line is split at its spaces, so quote that \
             path in it (\"'./my robot.py'\")"
        ));
        assert!(
            why("python3 my robot.py")
                .starts_with("its command names 'robot.py', which does not exist")
                && why("python3 my robot.py").contains("'my robot.py' exists")
        );
        assert_eq!(startable(&words("'./my robot.py'"), at), Ok(()));
        // A word that only looks like a file is not asked for when it is an option.
        assert_eq!(
            startable(&words("python3 -c 'print(1)' --out=x.py"), at),
            Ok(())
        );
    }
}
