//! The referee's own bots. They run as separate processes (`referee bot LEVEL`), speaking the
//! same protocol over stdin/stdout as any contestant's bot, so they exercise exactly the path a
//! seated_player's bot takes, and other harnesses can run them too.
//!
//! A bot is a [`Brain`] for one game type, working on that game's own rules engine (the same
//! code the referee judges with, never a second copy of the rules). Every game has three
//! [`Level`]s: random, greedy (the game's basic knowledge) and strong (a real search under the
//! clock).

mod budget;
pub mod checkers;
pub mod dots;
mod mnk;
mod proposal;
mod random;
mod spec;
pub mod uttt;

pub use budget::{Budget, GameClock, Lateness};
pub use spec::{BotSpec, BotSpecError, Search};

use referee_rules::clock::TimeControl;
use referee_rules::games::checkers::Checkers;
use referee_rules::games::dots::Dots;
use referee_rules::games::mnk::{Mnk, SwapGame, SwapRule};
use referee_rules::games::uttt::Uttt;
use referee_rules::games::{Game, GameSpec, MoveError, Side};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::quote;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// The search thread's stack: the recursive searches keep their move lists on it.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// How often the protocol loop wakes while the search runs, to measure how late it wakes.
const WATCH_TICK: Duration = Duration::from_millis(5);

/// How strong a built-in bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// 1: a uniformly random legal move.
    Random,
    /// 2: one move of look-ahead with the game's basic knowledge.
    Greedy,
    /// 3: a real search that uses most of the time it is given.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Random, Level::Greedy, Level::Strong];

    /// The name used in `builtin:NAME` and `referee bot NAME`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Strong => "strong",
        }
    }

    /// 1, 2 or 3.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A built-in bot name that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown built-in bot '{0}' (built-in bots: random or 1, greedy or 2, strong or 3)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    /// A level's name or its number: `strong` or `3`.
    fn from_str(text: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|level| text == level.name() || text == level.number().to_string())
            .ok_or_else(|| UnknownLevel(text.to_string()))
    }
}

/// Picks moves in one game type. A brain lives as long as its bot process, so it may keep what
/// it learnt (tables, caches) from one game to the next.
pub trait Brain<G: Game>: Send {
    /// Called before each game with its starting position (before any opening move) and the
    /// bot's side, inside the start-up allowance: a brain may prepare for that board here.
    fn new_game(&mut self, _start: &G, _side: Side) {}

    /// Called once the game's setup is read, before the bot answers `ready`: a brain whose
    /// preparation takes a while (a table being built) may wait for it until `until`, near the
    /// end of the start-up allowance, so that its first move is as good as any.
    fn prepare(&mut self, _until: Instant) {}

    /// A legal move for the side to move in `game`, which is not over. Must return before
    /// [`Budget::deadline`].
    fn choose(&mut self, game: &G, budget: &Budget) -> G::Move;

    /// Whether `choose` always returns at once (in microseconds), so that it needs no search
    /// thread watched against the deadline: starting one would cost more than the choice.
    fn instant(&self) -> bool {
        false
    }
}

/// A game in progress together with the brain playing it, behind notation only, so the protocol
/// loop does not need to know which game it plays.
trait Session: Send {
    fn new_game(&mut self, game: &GameSpec, side: Side);
    /// See [`Brain::prepare`].
    fn prepare(&mut self, until: Instant);
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// A legal move in notation, found at once: the answer until the brain proposes better.
    fn first_legal(&self) -> String;
    /// Chooses a move (without playing it) and returns it in notation.
    fn choose(&mut self, budget: &Budget) -> String;
    /// Whether the brain chooses at once (see [`Brain::instant`]).
    fn instant(&self) -> bool;
    /// Whether the game is over, so that there is no move to choose.
    fn is_over(&self) -> bool;
}

struct BrainSession<G: Game> {
    start: fn(&GameSpec) -> G,
    game: G,
    brain: Box<dyn Brain<G>>,
}

impl<G: Game> Session for BrainSession<G> {
    fn new_game(&mut self, spec: &GameSpec, side: Side) {
        self.game = (self.start)(spec);
        self.brain.new_game(&self.game, side);
    }

    fn prepare(&mut self, until: Instant) {
        self.brain.prepare(until);
    }

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.game.parse_move(text)?;
        self.game.play(mv)?;
        Ok(())
    }

    fn first_legal(&self) -> String {
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        self.game.format_move(moves[0])
    }

    fn instant(&self) -> bool {
        self.brain.instant()
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    fn choose(&mut self, budget: &Budget) -> String {
        let mv = self.brain.choose(&self.game, budget);
        self.game.format_move(mv)
    }
}

/// Writes the session's answer to `output` by the budget's hard deadline: the brain's choice
/// if its search returns in time, else the best move it proposed so far (at worst a legal move
/// found at once). Returns the move answered and when it went out.
///
/// The search runs on its own thread (unless the brain is instant) and writes its answer
/// itself, the moment it returns: it is the thread that is running then, whereas a thread
/// woken to relay the answer must first get a core back, and on a loaded machine a process
/// whose other thread has just used a whole core may wait for one a long time (the bot's own
/// record of its answers, traced under timing_fairness `builtin --game uttt` with some 20
/// tasks ready on 2 cores, had them going out up to 276 ms past the hard deadline, the limit
/// passed on 1 move in 20). This thread writes only if the search has not answered by the
/// hard deadline, waking every [`WATCH_TICK`] meanwhile to see how promptly a sleeping thread
/// gets the CPU back; `lateness` notes that with how late the answer went out.
fn answer_in_time<W: Write + Send>(
    session: &mut dyn Session,
    budget: &Budget,
    lateness: &mut Lateness,
    output: &mut W,
) -> io::Result<(String, Instant)> {
    if session.instant() {
        let choice = session.choose(budget);
        writeln!(output, "{choice}")?;
        output.flush()?;
        return Ok((choice, Instant::now()));
    }
    budget.propose(session.first_legal());
    let answer = Mutex::new(Answer {
        output,
        given: None,
    });
    let (sender, receiver) = mpsc::channel();
    let oversleep = thread::scope(|scope| {
        thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, || {
                let choice = session.choose(budget);
                lock(&answer).give(choice);
                // The receiver is gone when the answer was already given: nothing to do.
                let _ = sender.send(());
            })?;
        let mut oversleep = Duration::ZERO;
        loop {
            let now = Instant::now();
            if now >= budget.hard_deadline() {
                break;
            }
            let wake = budget.hard_deadline().min(now + WATCH_TICK);
            match receiver.recv_timeout(wake - now) {
                Ok(()) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    oversleep = oversleep.max(Instant::now().saturating_duration_since(wake));
                }
                // The search panicked: answer what it proposed; the panic shows at the join.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        lock(&answer).give(
            budget
                .proposal()
                .expect("a legal move is proposed before the search starts"),
        );
        io::Result::Ok(oversleep)
    })?;
    // The search has returned (the scope joined it): the answer given is final.
    let given = answer
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .given
        .expect("an answer was given");
    if let Ok((_, at)) = &given {
        lateness.record(budget, *at, oversleep);
    }
    given
}

/// The answer to one `turn`, given once, by whichever thread comes first (see
/// [`answer_in_time`]).
struct Answer<'w, W: Write> {
    output: &'w mut W,
    /// The move answered and when it went out, or why it could not be written.
    given: Option<io::Result<(String, Instant)>>,
}

impl<W: Write> Answer<'_, W> {
    /// Writes `choice` unless an answer was given already.
    fn give(&mut self, choice: String) {
        if self.given.is_none() {
            let written = writeln!(self.output, "{choice}").and_then(|()| self.output.flush());
            self.given = Some(written.map(|()| (choice, Instant::now())));
        }
    }
}

/// The answer behind `mutex`, even if a search thread panicked while holding it (the answer
/// itself is whole: it is set in one assignment).
fn lock<'a, 'w, W: Write>(mutex: &'a Mutex<Answer<'w, W>>) -> MutexGuard<'a, Answer<'w, W>> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A thread that sleeps [`WATCH_TICK`] at a time for as long as the bot runs, noting how late
/// it wakes: what the bot's own reading of a `turn` request may be late by. The referee's
/// clock starts when it writes the request, and a bot waiting in `read` on a loaded machine
/// may get the CPU to read it tens of milliseconds later, which it cannot see (timing_fairness
/// `builtin --game uttt --busy`, 12 to 17 tasks ready on 2 cores: most moves lost on time were
/// under the limit by the bot's own clock). A sleeping thread of the same process meets the
/// same wait; the budget leaves room for the worst it met since the last move.
struct IdleWatch {
    /// The worst lateness, in microseconds, since [`IdleWatch::worst_since_last_look`].
    worst_us: Arc<AtomicU64>,
}

impl IdleWatch {
    /// Starts the watching thread, which ends within a tick of this watch being dropped. If no
    /// thread can be started, nothing is watched.
    fn start() -> IdleWatch {
        let worst_us = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&worst_us);
        // Without the thread the bot still runs, leaving room for lateness seen otherwise.
        let _ = thread::Builder::new()
            .name("idle-watch".into())
            .spawn(move || {
                // The watch holds the other reference until it is dropped.
                while Arc::strong_count(&counter) > 1 {
                    let wake = Instant::now() + WATCH_TICK;
                    thread::sleep(WATCH_TICK);
                    let late = Instant::now().saturating_duration_since(wake);
                    counter.fetch_max(late.as_micros() as u64, Ordering::Relaxed);
                }
            });
        IdleWatch { worst_us }
    }

    /// The worst lateness seen since the last call, and a fresh count from now on.
    fn worst_since_last_look(&self) -> Duration {
        Duration::from_micros(self.worst_us.swap(0, Ordering::Relaxed))
    }
}

/// Why a built-in bot stopped playing.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The level asked for does not exist.
    #[error(transparent)]
    Unknown(#[from] UnknownLevel),
    /// Reading from or writing to the referee failed, e.g. a closed pipe.
    #[error("i/o with the referee failed")]
    Io(#[from] io::Error),
    /// The referee sent a line the bot cannot read or act on.
    #[error("the referee sent '{}' but {problem}", quote::shorten(line, 100))]
    Protocol {
        /// The line as received (said escaped, and cut short).
        line: String,
        /// What is wrong with it, e.g. a move before any game was set up.
        problem: String,
    },
}

/// Which session plays `spec`: one per game, and for gomoku and m,n,k games with a swap
/// opening one of its own (its moves are not the board's alone).
fn session_kind(spec: &GameSpec) -> &'static str {
    match spec.mnk_params() {
        Some(params) if params.swap != SwapRule::None => "swap",
        _ => spec.name(),
    }
}

/// The brain of `level` for the game of `spec`, at its starting position.
fn start_session(spec: &GameSpec, level: Level, seed: u64) -> Box<dyn Session> {
    fn session<G: Game>(
        spec: &GameSpec,
        start: fn(&GameSpec) -> G,
        brain: Box<dyn Brain<G>>,
    ) -> Box<dyn Session> {
        Box::new(BrainSession {
            start,
            game: start(spec),
            brain,
        })
    }
    match spec {
        GameSpec::Gomoku(_) | GameSpec::Mnk(_)
            if spec.mnk_params().is_some_and(|p| p.swap != SwapRule::None) =>
        {
            session(spec, start_swap, swap_brain(level, seed))
        }
        GameSpec::Tictactoe | GameSpec::Gomoku(_) | GameSpec::Mnk(_) => {
            session(spec, start_mnk, mnk_brain(level, seed))
        }
        GameSpec::Uttt(_) => session(spec, start_uttt, uttt_brain(level, seed)),
        GameSpec::Dots(_) => session(spec, start_dots, dots_brain(level, seed)),
        GameSpec::Checkers(_) => session(spec, start_checkers, checkers_brain(level, seed)),
    }
}

fn random<G: Game>(seed: u64) -> Box<dyn Brain<G>> {
    Box::new(random::RandomBrain::new(seed))
}

fn mnk_brain(level: Level, seed: u64) -> Box<dyn Brain<Mnk>> {
    match level {
        Level::Random => random(seed),
        Level::Greedy => Box::new(mnk::GreedyBrain::new(seed)),
        Level::Strong => Box::new(mnk::StrongBrain::new(seed)),
    }
}

/// The level's brain behind the swap opening's choices.
fn swap_brain(level: Level, seed: u64) -> Box<dyn Brain<SwapGame>> {
    let judgement = match level {
        Level::Random => mnk::Judgement::Random,
        Level::Greedy | Level::Strong => mnk::Judgement::Evaluated,
    };
    Box::new(mnk::SwapBrain::new(judgement, mnk_brain(level, seed), seed))
}

fn uttt_brain(level: Level, seed: u64) -> Box<dyn Brain<Uttt>> {
    match level {
        Level::Random => random(seed),
        Level::Greedy => Box::new(uttt::UtttGreedy::new(seed)),
        Level::Strong => Box::new(uttt::UtttMcts::new(seed)),
    }
}

fn dots_brain(level: Level, seed: u64) -> Box<dyn Brain<Dots>> {
    match level {
        Level::Random => random(seed),
        Level::Greedy => Box::new(dots::DotsGreedy::new(seed)),
        Level::Strong => Box::new(dots::DotsStrong::new(seed)),
    }
}

fn checkers_brain(level: Level, seed: u64) -> Box<dyn Brain<Checkers>> {
    match level {
        Level::Random => random(seed),
        Level::Greedy => Box::new(checkers::GreedyBrain::new(seed)),
        Level::Strong => Box::new(checkers::SearchBrain::new(seed)),
    }
}

fn start_mnk(spec: &GameSpec) -> Mnk {
    Mnk::new(spec.mnk_params().expect("an m,n,k game"))
}

fn start_swap(spec: &GameSpec) -> SwapGame {
    SwapGame::new(spec.mnk_params().expect("an m,n,k game"))
}

fn start_uttt(spec: &GameSpec) -> Uttt {
    match spec {
        GameSpec::Uttt(params) => Uttt::new(*params),
        other => panic!("{other} is not ultimate tic-tac-toe"),
    }
}

fn start_dots(spec: &GameSpec) -> Dots {
    match spec {
        GameSpec::Dots(params) => Dots::new(*params),
        other => panic!("{other} is not dots and boxes"),
    }
}

fn start_checkers(spec: &GameSpec) -> Checkers {
    match spec {
        GameSpec::Checkers(params) => Checkers::new(*params),
        other => panic!("{other} is not checkers"),
    }
}

/// The start-up allowance the protocol gives by default (`referee match --startup-ms`).
pub const DEFAULT_STARTUP: Duration =
    Duration::from_millis(referee_rules::protocol::DEFAULT_STARTUP_MS);
/// The share of the start-up allowance kept back from a brain's preparation, for answering
/// `ready` on a loaded machine.
const STARTUP_RESERVE_SHARE: f64 = 0.2;

/// When a bot whose setup began at `setup_started` must stop preparing and answer `ready`,
/// given a start-up allowance of `startup`.
fn ready_by(setup_started: Instant, startup: Duration) -> Instant {
    setup_started + startup.mul_f64(1.0 - STARTUP_RESERVE_SHARE)
}

/// The longest line a referee sends: its longest, the legal moves of the largest board, is a
/// few KiB.
const MAX_REFEREE_LINE: usize = 1 << 20;

/// The referee's next line without its end (LF or CR LF), `None` at the end of the input. A
/// longer line than [`MAX_REFEREE_LINE`] is refused, not held in memory however long it is.
fn next_line(input: &mut impl BufRead) -> Result<Option<String>, BotError> {
    let mut bytes = Vec::new();
    let room = MAX_REFEREE_LINE as u64 + 2;
    io::Read::take(&mut *input, room).read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    let line = String::from_utf8(bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))?;
    if line.len() > MAX_REFEREE_LINE {
        return Err(BotError::Protocol {
            line,
            problem: format!("it is longer than {MAX_REFEREE_LINE} bytes, as no referee's line is"),
        });
    }
    Ok(Some(line))
}

/// Plays as the built-in bot `bot` until told to quit or the input ends; `startup` is the
/// start-up allowance of each game's setup (see [`DEFAULT_STARTUP`]).
pub fn run(
    bot: BotSpec,
    seed: u64,
    startup: Duration,
    mut input: impl BufRead,
    mut output: impl Write + Send,
) -> Result<(), BotError> {
    // One session per game kind, kept across the games of a match so brains keep what they learnt.
    let mut sessions: Vec<(&'static str, Box<dyn Session>)> = Vec::new();
    let mut current: Option<usize> = None;
    let mut spec: Option<GameSpec> = None;
    let mut control = TimeControl::default();
    let mut clock = GameClock::new(control);
    let mut games = 0u64;
    let mut lateness = Lateness::default();
    let idle = IdleWatch::start();
    let mut setup_started = Instant::now();
    while let Some(line) = next_line(&mut input)? {
        let received = Instant::now();
        let problem = |problem: String| BotError::Protocol {
            line: line.clone(),
            problem,
        };
        let message = RefereeMessage::parse(&line).map_err(|e| problem(e.to_string()))?;
        let no_game = || problem("no game was set up".into());
        match message {
            RefereeMessage::Referee { .. } => {
                current = None;
                setup_started = received;
            }
            RefereeMessage::Game(game) => spec = Some(game),
            RefereeMessage::Time(time) => {
                control = time;
                clock = GameClock::new(control);
            }
            RefereeMessage::Side(side) => {
                let game = spec
                    .as_ref()
                    .ok_or_else(|| problem("no game line came first".into()))?;
                let kind = session_kind(game);
                let index = match sessions.iter().position(|(name, _)| *name == kind) {
                    Some(index) => index,
                    None => {
                        games += 1;
                        sessions.push((
                            kind,
                            start_session(game, bot.level, seed.wrapping_add(games)),
                        ));
                        sessions.len() - 1
                    }
                };
                sessions[index].1.new_game(game, side);
                current = Some(index);
                clock = GameClock::new(control);
            }
            RefereeMessage::Played(mv) | RefereeMessage::Opponent(mv) => {
                let index = current.ok_or_else(no_game)?;
                sessions[index]
                    .1
                    .play(&mv)
                    .map_err(|e| problem(e.to_string()))?;
            }
            RefereeMessage::Start => {
                if let Some(index) = current {
                    sessions[index].1.prepare(ready_by(setup_started, startup));
                }
                let ready = Ready {
                    name: format!("referee-{}", bot.level),
                    version: env!("CARGO_PKG_VERSION").to_string(),
                    multi_game: true,
                };
                writeln!(output, "{ready}")?;
                output.flush()?;
            }
            RefereeMessage::Turn { ms, .. } => {
                lateness.woke_late(idle.worst_since_last_look());
                let budget = clock.budget(ms, received).leaving(lateness.feared());
                let budget = match bot.search {
                    Search::Clock => budget,
                    Search::Nodes(nodes) => budget.with_nodes(nodes),
                };
                let index = current.ok_or_else(no_game)?;
                let session = sessions[index].1.as_mut();
                if session.is_over() {
                    return Err(problem(
                        "the game is already over: there is no move to make".into(),
                    ));
                }
                let (choice, answered) =
                    answer_in_time(session, &budget, &mut lateness, &mut output)?;
                clock.answered(received, answered);
                session
                    .play(&choice)
                    .expect("a brain chooses and proposes legal moves only");
            }
            RefereeMessage::Quit => return Ok(()),
            RefereeMessage::Legal(_)
            | RefereeMessage::OfferDraw
            | RefereeMessage::Result { .. } => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a bot of `level` seeded with `seed` writes when the referee writes `input`.
    fn exchange(level: Level, seed: u64, input: &str) -> String {
        let mut output = Vec::new();
        run(
            level.into(),
            seed,
            DEFAULT_STARTUP,
            input.as_bytes(),
            &mut output,
        )
        .unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn levels_by_name_and_number() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>().unwrap(), level);
            assert_eq!(level.number().to_string().parse::<Level>().unwrap(), level);
        }
        assert_eq!("3".parse::<Level>().unwrap(), Level::Strong);
        let err = "4".parse::<Level>().unwrap_err();
        assert!(err.to_string().contains("strong or 3"), "{err}");
    }

    #[test]
    fn every_level_plays_a_legal_first_move_in_every_game() {
        for game in [
            "tictactoe",
            "gomoku",
            "mnk size=7 line=4",
            "uttt",
            "checkers",
            "dots",
        ] {
            let mut words = game.split(' ');
            let name = words.next().unwrap();
            let spec = GameSpec::from_words(name, &words.collect::<Vec<_>>()).unwrap();
            for level in Level::ALL {
                let input = format!(
                    "referee 1\ngame {spec}\nside first\ntime move=200 bank=0 increment=0 first=0\nstart\nturn 200\nquit\n"
                );
                let output = exchange(level, 1, &input);
                let lines: Vec<&str> = output.lines().collect();
                assert_eq!(lines.len(), 2, "{level} at {game}: {output}");
                assert!(
                    spec.new_game().play_text(lines[1]).is_ok(),
                    "{level} at {game}: {}",
                    lines[1]
                );
            }
        }
    }

    #[test]
    fn plays_a_scripted_exchange() {
        let input = "referee 1\ngame tictactoe\nside second\ntime move=1000\nstart\nopponent 1 1\nturn 1000\nresult loss resign\nquit\n";
        let output = exchange(Level::Random, 7, input);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(
            lines[0],
            format!("ready referee-random {} multi", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(lines.len(), 2);
        let mut game = GameSpec::Tictactoe.new_game();
        game.play_text("1 1").unwrap();
        assert!(game.play_text(lines[1]).is_ok(), "{} is legal", lines[1]);
    }

    #[test]
    fn a_second_game_in_the_same_process_starts_afresh() {
        let setup = "referee 1\ngame uttt\nside first\ntime move=1000\nstart\n";
        let input = format!("{setup}turn 1000\nresult loss resign\n{setup}turn 1000\nquit\n");
        let output = exchange(Level::Random, 3, &input);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 4, "{output}");
        for first_move in [lines[1], lines[3]] {
            assert!(GameSpec::Uttt(Default::default())
                .new_game()
                .play_text(first_move)
                .is_ok());
        }
    }

    #[test]
    fn refuses_nonsense_from_the_referee() {
        let refused = |input: &str| {
            let mut output = Vec::new();
            run(
                Level::Random.into(),
                1,
                DEFAULT_STARTUP,
                input.as_bytes(),
                &mut output,
            )
            .unwrap_err()
        };
        let err = refused("opponent 1 1\n");
        assert!(err.to_string().contains("no game was set up"), "{err}");
        let err = refused("referee 1\ngame tictactoe\nside first\nopponent 9 9\n");
        assert!(err.to_string().contains("off the 3x3 board"), "{err}");
    }

    /// A session whose search takes `search` to answer `slow`, proposing `quick` at once.
    struct Slow {
        search: Duration,
    }

    impl Session for Slow {
        fn new_game(&mut self, _game: &GameSpec, _side: Side) {}
        fn prepare(&mut self, _until: Instant) {}
        fn play(&mut self, _text: &str) -> Result<(), MoveError> {
            Ok(())
        }
        fn first_legal(&self) -> String {
            "quick".into()
        }
        fn choose(&mut self, _budget: &Budget) -> String {
            thread::sleep(self.search);
            "slow".into()
        }
        fn instant(&self) -> bool {
            false
        }
        fn is_over(&self) -> bool {
            false
        }
    }

    /// The move is answered once: by the search when it returns in time, else by the waiting
    /// thread at the hard deadline, and then never again when the search returns after it.
    #[test]
    fn a_move_is_answered_once_by_whichever_thread_comes_first() {
        let answer = |search_ms: u64, think_ms: u64| {
            let mut output = Vec::new();
            let mut lateness = Lateness::default();
            let budget = Budget::fixed(Instant::now(), Duration::from_millis(think_ms));
            let mut session = Slow {
                search: Duration::from_millis(search_ms),
            };
            let (choice, _) =
                answer_in_time(&mut session, &budget, &mut lateness, &mut output).unwrap();
            (choice, String::from_utf8(output).unwrap())
        };
        assert_eq!(answer(0, 5000), ("slow".into(), "slow\n".into()));
        assert_eq!(answer(2000, 1), ("quick".into(), "quick\n".into()));
    }

    /// A line longer than any the referee sends is refused once that much is read, said cut
    /// short: the bot read it whole, however long, and said it whole.
    #[test]
    fn a_line_longer_than_any_referee_s_is_refused_said_short() {
        let line = "x".repeat(3 * MAX_REFEREE_LINE);
        let err = run(
            Level::Random.into(),
            1,
            DEFAULT_STARTUP,
            line.as_bytes(),
            Vec::new(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!(
                "the referee sent '{}...' but it is longer than 1048576 bytes, as no referee's \
                 line is",
                "x".repeat(100)
            )
        );
    }

    /// Asked for a move in a game already won, every level says so instead of panicking.
    #[test]
    fn a_turn_in_a_finished_game_is_refused_with_a_reason() {
        let finished = "referee 1\ngame tictactoe\nside first\ntime move=1000\nplayed 0 0\n\
                        played 0 1\nplayed 1 0\nplayed 1 1\nplayed 2 0\nstart\nturn 1000\nquit\n";
        for level in [Level::Random, Level::Greedy, Level::Strong] {
            let mut output = Vec::new();
            let err = run(
                level.into(),
                1,
                DEFAULT_STARTUP,
                finished.as_bytes(),
                &mut output,
            )
            .unwrap_err();
            assert_eq!(
                err.to_string(),
                "the referee sent 'turn 1000' but the game is already over: there is no move \
                 to make",
                "{level}"
            );
        }
    }
}
