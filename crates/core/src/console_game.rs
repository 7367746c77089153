//! One game at the console (`referee play`) with any mix of people and bots: people sit in
//! console seats, bots in processes, and the game is played by the same match loop as a match
//! and recorded the same way. When no person plays, each move is shown as it is played.

use crate::arbiter::{play_game_watched, play_opening, GameRules, PlayedGame, SeatedPlayer};
use crate::players::{PlayerSpec, PlayerSpecError};
use crate::table::GameError;
use referee_cage::console::board_view::{draw, played_line, side_name, Seating};
use referee_cage::console::keyboard::{Keyboard, Typed};
use referee_cage::console::screen::{terminal_columns, Notice, Screen, Voice};
use referee_cage::console::{notation, ConsoleOptions, ConsoleSeat};
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_cage::{Answer, Seat};
use referee_records::record::RecordFiles;
use referee_records::transcript::SeatLog;
use referee_rules::clock::{Clock, TimeControl, MAX_MS};
use referee_rules::games::{AnyGame, GameSpec, Side};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::verdict::{Fault, Termination};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Who sits on a side: a person at this keyboard, or a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideSpec {
    /// A person, at this keyboard or on a page in a browser.
    Human,
    /// A bot: a program, in any protocol, or a built-in level.
    Bot(PlayerSpec),
}

impl SideSpec {
    /// `human`, or a player as `referee match` takes it (`builtin:LEVEL` or a command line).
    pub fn parse(text: &str) -> Result<SideSpec, PlayerSpecError> {
        if text.trim() == "human" {
            Ok(SideSpec::Human)
        } else {
            PlayerSpec::parse(text).map(SideSpec::Bot)
        }
    }

    /// Whether a person plays this side (and so the game needs a keyboard or a page).
    pub fn is_human(&self) -> bool {
        matches!(self, SideSpec::Human)
    }
}

impl fmt::Display for SideSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideSpec::Human => f.write_str("human"),
            SideSpec::Bot(player) => player.fmt(f),
        }
    }
}

/// Everything `referee play` needs.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The game, and how bots are timed and told the legal moves.
    pub rules: GameRules,
    /// Moves played before anyone takes over.
    pub opening: Vec<String>,
    /// Who sits on each side, first then second.
    pub sides: [SideSpec; 2],
    /// The side given the strongest built-in bot because the command line named nobody for
    /// it: the console says once how to choose an easier opponent.
    pub defaulted: Option<Side>,
    /// Each bot's time control; people have theirs in `human_time`.
    pub bot_time: TimeControl,
    /// The people's time control; `None` when they play without a clock.
    pub human_time: Option<TimeControl>,
    /// People see the protocol's lines and type protocol replies.
    pub raw: bool,
    /// Where the record, transcript and stderr go; numbered after those already there.
    pub record_dir: Option<PathBuf>,
    /// Limits and sandbox of each bot's process.
    pub process: ProcessOptions,
    /// The referee executable, re-invoked as `referee bot LEVEL` for built-in bots.
    pub referee_exe: PathBuf,
    /// Seed of the first side's bot (a built-in one, or what an adapter leaves to chance); the
    /// second side's is one more, so they differ.
    pub seed: u64,
    /// How long to wait after each move when only bots play, so that people can follow.
    pub pause: Duration,
}

/// The game played, and where its record went.
pub struct ConsoleGame {
    /// Its record, each side's log and how it ended.
    pub played: PlayedGame,
    /// The files written; `None` without a record directory, or when moves were taken back.
    pub files: Option<RecordFiles>,
}

/// Opens the seat of a person who plays elsewhere than at this terminal (a page in a web
/// browser). The web layer implements it, so that the core needs no web server.
pub trait PersonPages {
    /// Opens the seat of the person called `label`, whose opponent is `opponent`, and says
    /// where to find it; on failure, says why.
    fn open(&mut self, label: &str, opponent: String) -> Result<Box<dyn Seat + Send>, String>;
}

/// What sits on a side for the game: a person at the console, or a bot.
enum SideSeat {
    Person(ConsoleSeat),
    Browser(Box<dyn Seat + Send>),
    Bot(ShownBot),
}

impl SideSeat {
    fn seat(&mut self) -> &mut dyn Seat {
        match self {
            SideSeat::Person(seat) => seat,
            SideSeat::Browser(seat) => seat.as_mut(),
            SideSeat::Bot(bot) => bot,
        }
    }
}

/// The prompt at the end of a casual game, where the person may take back their last move.
const END_PROMPT: &str = "undo or Enter> ";
/// How long the console waits at that prompt before it asks again: the person has no clock.
const A_DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a bot may take before the console says it is busy: a quick bot's answer needs no
/// notice, a slow one must not look like a hung console.
const A_MOMENT: Duration = Duration::from_millis(250);

/// A bot's seat at the console: while the bot takes more than a moment to get ready or to
/// answer, the console says so ("B (builtin:strong) is thinking...").
struct ShownBot {
    seat: Box<dyn Seat + Send>,
    /// The side and its player, as the console names them.
    who: String,
}

impl Seat for ShownBot {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        let _notice = Notice::after(A_MOMENT, format!("{} is getting ready...", self.who));
        self.seat.setup(messages, allowance)
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        let _notice = Notice::after(A_MOMENT, format!("{} is thinking...", self.who));
        self.seat.ask(messages, watchdog)
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        self.seat.tell(messages);
    }

    fn take_log(&mut self) -> SeatLog {
        self.seat.take_log()
    }

    fn finish(&mut self) {
        self.seat.finish();
    }
}

/// Plays the game, showing it at the console, and writes its record.
pub fn play_at_console(
    config: &PlayConfig,
    supervisor: &Supervisor,
    pages: Option<&mut dyn PersonPages>,
) -> Result<ConsoleGame, GameError> {
    let (start, opening) = play_opening(&config.rules.spec, &config.opening)?;
    check_bots(config)?;
    let mut console = Console::open(config, supervisor, pages, start.as_ref(), &opening);
    let mut seats = [console.seat(Side::First)?, console.seat(Side::Second)?];
    let number = match &config.record_dir {
        Some(dir) => next_record_number(dir),
        None => 1,
    };
    if console.watching() {
        console
            .screen
            .show(&draw(start.as_ref(), None, terminal_columns()));
    }
    let (mut played, taken_back) = console.play_with_takebacks(&mut seats, number, opening)?;
    if supervisor.is_stopping() {
        // An interrupt killed the bots (Ctrl-C while one thought): no result to show or file.
        supervisor.wait_for_exit();
    }
    finish_seats(&mut played, seats);
    console.finish(played, taken_back)
}

/// Refuses, before anything is shown, a bot that cannot play this game from this opening.
fn check_bots(config: &PlayConfig) -> Result<(), GameError> {
    let spec = &config.rules.spec;
    for (side, side_spec) in Side::BOTH.into_iter().zip(&config.sides) {
        if let SideSpec::Bot(player) = side_spec {
            player
                .check_game(spec, &config.opening)
                .map_err(|reason| GameError::Unsupported {
                    label: side_name(spec, side).to_string(),
                    reason,
                })?;
        }
    }
    Ok(())
}

/// A game at the console under way: who sits on each side and how they are timed, and the
/// screen, keyboard or pages they play on.
struct Console<'a, 'p> {
    config: &'a PlayConfig,
    supervisor: &'a Supervisor,
    /// Where people play when they play in a browser rather than at this keyboard.
    pages: Option<&'p mut dyn PersonPages>,
    /// The configured rules, with time for a person to type `ready` in raw mode.
    rules: GameRules,
    seating: Seating,
    /// The side of the one person playing against a bot, when that is the game.
    person: Option<Side>,
    /// People's time control: theirs, or all the time in the world.
    human_time: TimeControl,
    /// When the person may take moves back: how many moves (the opening's) may not be.
    takebacks: Option<usize>,
    screen: Screen,
    /// Shared by the people at this keyboard.
    keyboard: Option<Rc<Keyboard>>,
    /// How the game ended was shown already (before the person chose not to take back).
    result_shown: bool,
}

impl<'a, 'p> Console<'a, 'p> {
    /// Works out who plays how, and introduces the game on the screen.
    fn open(
        config: &'a PlayConfig,
        supervisor: &'a Supervisor,
        pages: Option<&'p mut dyn PersonPages>,
        start: &dyn AnyGame,
        opening: &[String],
    ) -> Console<'a, 'p> {
        let in_browser = pages.is_some();
        let seating = seating(&config.sides);
        let humans = seating.humans;
        let person = match humans {
            [true, false] => Some(Side::First),
            [false, true] => Some(Side::Second),
            _ => None,
        };
        let human_time = config.human_time.unwrap_or(TimeControl {
            move_ms: MAX_MS,
            ..TimeControl::default()
        });
        let mut rules = config.rules.clone();
        if config.raw {
            // A person answers `start` by typing a `ready` line: give them a move's time for it.
            rules.startup = rules.startup.max(Clock::new(human_time).available());
        }
        // The browser's page has no undo.
        let takebacks =
            (person.is_some() && !in_browser && takebacks_allowed(config, start, opening))
                .then_some(opening.len());
        let mut screen = Screen::stdout();
        introduce(
            &mut screen,
            config,
            &seating,
            takebacks.is_some(),
            in_browser,
        );
        let keyboard = (humans.contains(&true) && !in_browser).then(|| Rc::new(Keyboard::stdin()));
        Console {
            config,
            supervisor,
            pages,
            rules,
            seating,
            person,
            human_time,
            takebacks,
            screen,
            keyboard,
            result_shown: false,
        }
    }

    /// Whether only bots play, and so each move is shown as it is played.
    fn watching(&self) -> bool {
        !self.seating.humans.contains(&true)
    }

    /// Seats `side`'s player: opens a person's page or console seat, or starts a bot.
    fn seat(&mut self, side: Side) -> Result<SideSeat, GameError> {
        let config = self.config;
        let spec = &config.rules.spec;
        Ok(match &config.sides[side.index()] {
            SideSpec::Human if self.pages.is_some() => {
                let pages = self.pages.as_mut().expect("people play in the browser");
                let label = side_name(spec, side);
                let seat = pages
                    .open(label, self.seating.who(spec, side.opponent()))
                    .map_err(|reason| GameError::CannotStart {
                        label: label.to_string(),
                        reason,
                    })?;
                SideSeat::Browser(seat)
            }
            SideSpec::Human => SideSeat::Person(ConsoleSeat::new(
                Rc::clone(self.keyboard.as_ref().expect("a person plays")),
                ConsoleOptions {
                    raw: config.raw,
                    clock: config.human_time.is_some(),
                    seating: self.seating.clone(),
                    takebacks: self.takebacks,
                },
            )),
            SideSpec::Bot(player) => {
                let seed = config.seed.wrapping_add(side.index() as u64);
                SideSeat::Bot(ShownBot {
                    seat: player.start(
                        self.supervisor,
                        &config.referee_exe,
                        seed,
                        config.rules.startup,
                        config.process.clone(),
                    )?,
                    who: self.seating.who(spec, side),
                })
            }
        })
    }

    /// Plays the game. A take-back ends it (the person leaves it) and starts it again from the
    /// moves before theirs: the judge and the bots know games, not taking back. Returns the
    /// last game played, and whether moves were taken back.
    fn play_with_takebacks(
        &mut self,
        seats: &mut [SideSeat; 2],
        number: u32,
        mut opening: Vec<String>,
    ) -> Result<(PlayedGame, bool), GameError> {
        let mut taken_back = false;
        loop {
            let played = self.play(seats, number, &opening)?;
            let kept = match self.take_back(seats, &played)? {
                Some(kept) => Some(kept),
                None => self.undo_at_the_end(seats, &played)?,
            };
            match kept {
                Some(kept) => {
                    opening = kept;
                    taken_back = true;
                }
                None => return Ok((played, taken_back)),
            }
        }
    }

    /// Plays one game from `opening` in `seats`, showing each move when only bots play.
    fn play(
        &mut self,
        seats: &mut [SideSeat; 2],
        number: u32,
        opening: &[String],
    ) -> Result<PlayedGame, GameError> {
        let (config, watching) = (self.config, self.watching());
        let spec = &config.rules.spec;
        let (screen, seating, rules) = (&mut self.screen, &self.seating, &self.rules);
        let mut spectator = |game: &dyn AnyGame, played: &referee_records::record::MoveRecord| {
            if !watching {
                return;
            }
            screen.say(
                Voice::Plain,
                &format!(
                    "{} in {} ms",
                    played_line(spec, seating, played.side, &played.notation),
                    played.us / 1000
                ),
            );
            screen.show(&draw(game, None, terminal_columns()));
            if game.outcome().is_none() {
                std::thread::sleep(config.pause);
            }
        };
        let seated_player = |side: Side, seat| SeatedPlayer {
            seat,
            label: side_name(spec, side).to_string(),
            command: config.sides[side.index()].to_string(),
            time: if seating.humans[side.index()] {
                self.human_time
            } else {
                config.bot_time
            },
            margin: match &config.sides[side.index()] {
                SideSpec::Human => rules.margin,
                SideSpec::Bot(bot) => bot.protocol().margin(rules.margin),
            },
        };
        let [first, second] = seats;
        // After a take-back, the moves kept beyond the opening the game began from are this
        // game's moves still: verdicts count them, as the person's prompt does.
        let resumed = self
            .takebacks
            .map_or(0, |from| opening.len().saturating_sub(from));
        Ok(play_game_watched(
            self.supervisor,
            number,
            rules,
            opening,
            resumed,
            [
                seated_player(Side::First, first.seat()),
                seated_player(Side::Second, second.seat()),
            ],
            &mut spectator,
        )?)
    }

    /// When the person took back their last move in `played`: says which moves went, starts
    /// again the bots that play one game per process, and returns the moves kept, the next
    /// game's opening.
    fn take_back(
        &mut self,
        seats: &mut [SideSeat; 2],
        played: &PlayedGame,
    ) -> Result<Option<Vec<String>>, GameError> {
        let Some((you, from)) = self.person.zip(self.takebacks) else {
            return Ok(None);
        };
        let took_back = match &mut seats[you.index()] {
            SideSeat::Person(seat) => seat.took_back(),
            SideSeat::Browser(_) | SideSeat::Bot(_) => false,
        };
        if !took_back {
            return Ok(None);
        }
        let moves = all_moves(played);
        let kept = before_last_move(&self.config.rules.spec, &moves, from, you);
        self.restart_before(seats, played, &moves, kept).map(Some)
    }

    /// When a move ended a casual game (see [`takebacks_allowed`]): shows how, and lets the
    /// person take back their last move and play on, or end the game. A game ended otherwise
    /// (a resignation, a fault, a draw agreed) is over. Returns the moves kept, as
    /// [`take_back`](Console::take_back) does, when the person takes theirs back.
    fn undo_at_the_end(
        &mut self,
        seats: &mut [SideSeat; 2],
        played: &PlayedGame,
    ) -> Result<Option<Vec<String>>, GameError> {
        let Some((you, from)) = self.person.zip(self.takebacks) else {
            return Ok(None);
        };
        let keyboard = Rc::clone(self.keyboard.as_ref().expect("a person plays"));
        let spec = &self.config.rules.spec;
        let moves = all_moves(played);
        let kept = before_last_move(spec, &moves, from, you);
        if !matches!(played.record.result.reason, Termination::Rules(_)) || kept == moves.len() {
            return Ok(None);
        }
        show_result(&mut self.screen, spec, &self.seating, played);
        self.result_shown = true;
        self.screen.say(
            Voice::Aside,
            "A casual game: type undo to take back your last move and play on, or press Enter\n\
             to end the game.",
        );
        loop {
            match keyboard.read(&END_PROMPT, Instant::now() + A_DAY) {
                Typed::Line { text, .. } => match text.trim().to_ascii_lowercase().as_str() {
                    "undo" | "takeback" => break,
                    "" | "quit" | "exit" => return Ok(None),
                    _ => self
                        .screen
                        .say(Voice::Warning, "Type undo, or press Enter to end the game."),
                },
                Typed::Nothing => {}
                Typed::Closed => return Ok(None),
            }
        }
        self.result_shown = false;
        self.restart_before(seats, played, &moves, kept).map(Some)
    }

    /// Takes back `moves` from `kept` on: says which moves went, starts again the bots that
    /// play one game per process, and returns the moves kept, the next game's opening.
    fn restart_before(
        &mut self,
        seats: &mut [SideSeat; 2],
        played: &PlayedGame,
        moves: &[String],
        kept: usize,
    ) -> Result<Vec<String>, GameError> {
        let spec = &self.config.rules.spec;
        let taken: Vec<String> = moves[kept..]
            .iter()
            .map(|mv| notation::both(spec, mv))
            .collect();
        self.screen
            .say(Voice::Plain, &format!("Taken back: {}.", taken.join(", ")));
        // A bot that plays one game per process is started again for the next.
        for side in Side::BOTH {
            if let SideSeat::Bot(bot) = &mut seats[side.index()] {
                if !played.keeps_process(side) {
                    bot.finish();
                    seats[side.index()] = self.seat(side)?;
                }
            }
        }
        Ok(moves[..kept].to_vec())
    }

    /// Files the game unless moves were taken back, and shows how it ended.
    fn finish(mut self, played: PlayedGame, taken_back: bool) -> Result<ConsoleGame, GameError> {
        let config = self.config;
        let files = if taken_back {
            None
        } else {
            played.write_files(config.record_dir.as_deref())?
        };
        if !self.result_shown {
            show_result(&mut self.screen, &config.rules.spec, &self.seating, &played);
        }
        if let Some(files) = &files {
            self.screen.say(
                Voice::Plain,
                &format!(
                    "Record: {} (transcript: {})",
                    files.record.display(),
                    files.transcript.display()
                ),
            );
        }
        if taken_back && config.record_dir.is_some() {
            self.screen
                .say(Voice::Plain, "Not recorded: moves were taken back.");
        }
        Ok(ConsoleGame { played, files })
    }
}

/// Ends the seats after the last game, keeping in its logs what each bot wrote as it quit.
fn finish_seats(played: &mut PlayedGame, seats: [SideSeat; 2]) {
    for (side, side_seat) in Side::BOTH.into_iter().zip(seats) {
        match side_seat {
            // A bot that broke a rule is killed at once (dropping its seat).
            SideSeat::Bot(mut bot) if !played.faulted[side.index()] => {
                played.finish_seat(side, &mut bot);
            }
            // The page must show how the game ended before the command ends.
            SideSeat::Browser(mut page) => page.finish(),
            _ => {}
        }
    }
}

/// The lines that open a game at the console: the game, who plays whom, how to get help, how
/// to choose an easier opponent than the default, and whether moves may be taken back.
fn introduce(
    screen: &mut Screen,
    config: &PlayConfig,
    seating: &Seating,
    takebacks: bool,
    in_browser: bool,
) {
    let spec = &config.rules.spec;
    let people = seating.humans.contains(&true);
    screen.say(Voice::Aside, &format!("Game: {spec}"));
    screen.say(
        Voice::Plain,
        &format!(
            "{} against {}.",
            seating.who(spec, Side::First),
            seating.who(spec, Side::Second)
        ),
    );
    if config.raw && people {
        screen.say(
            Voice::Aside,
            "Raw mode: you see the referee's lines exactly as a bot does, and what you type\n\
             is sent as it is, with a bot's verdicts (protocol.md): answer 'start' with\n\
             'ready NAME VERSION', then each 'turn' with one move.",
        );
    } else if people && !in_browser {
        screen.say(Voice::Aside, "Type help at your turn for how to play.");
    }
    if let Some(side) = config.defaulted {
        let flag = match side {
            Side::First => "--first",
            Side::Second => "--second",
        };
        screen.say(
            Voice::Aside,
            &format!(
                "{} is the strongest built-in bot.\n\
                 For an easier game: {flag} builtin:greedy, or {flag} builtin:random.",
                seating.who(spec, side)
            ),
        );
    }
    if takebacks {
        screen.say(
            Voice::Aside,
            "No clock: a casual game. Type undo to take back your last move (a game with\n\
             moves taken back is not recorded).",
        );
    }
}

/// Whether the person may take moves back: in a casual game, against a bot, without a clock
/// (a take-back would give time back), the protocol not typed by hand, and a bot that can start
/// from a position (the game starts again from the moves before the one taken back).
fn takebacks_allowed(config: &PlayConfig, start: &dyn AnyGame, opening: &[String]) -> bool {
    let mut later = opening.to_vec();
    later.extend(start.legal_moves_text().into_iter().take(1));
    config.human_time.is_none()
        && !config.raw
        && config.sides.iter().all(|side| match side {
            SideSpec::Human => true,
            SideSpec::Bot(player) => player.check_game(&config.rules.spec, &later).is_ok(),
        })
}

/// How many of `moves` stay when `person` takes back their last move (with what followed it):
/// all those before it. Moves before `from` (the opening) are never taken back.
fn before_last_move(spec: &GameSpec, moves: &[String], from: usize, person: Side) -> usize {
    let mut game = spec.new_game();
    let mut kept = moves.len();
    for (index, mv) in moves.iter().enumerate() {
        if index >= from && game.side_to_move() == person {
            kept = index;
        }
        if game.play_text(mv).is_err() {
            break;
        }
    }
    kept
}

/// What the console calls each side's player: "you" when one person plays, nothing more than
/// the side's name when two share the keyboard, the bot's command otherwise.
fn seating(sides: &[SideSpec; 2]) -> Seating {
    let humans = sides.clone().map(|side_spec| side_spec.is_human());
    let people = humans.iter().filter(|&&human| human).count();
    Seating {
        names: sides.clone().map(|side_spec| match side_spec {
            SideSpec::Human if people == 1 => "you".to_string(),
            SideSpec::Human => String::new(),
            SideSpec::Bot(player) => player.to_string(),
        }),
        humans,
    }
}

/// The moves of `played` from the start, its opening's included.
fn all_moves(played: &PlayedGame) -> Vec<String> {
    let record = &played.record;
    record
        .opening
        .iter()
        .cloned()
        .chain(record.moves.iter().map(|m| m.notation.clone()))
        .collect()
}

/// The final position and the result from the person's point of view.
fn show_result(screen: &mut Screen, spec: &GameSpec, seating: &Seating, played: &PlayedGame) {
    let record = &played.record;
    let mut game = spec.new_game();
    for mv in record
        .opening
        .iter()
        .chain(record.moves.iter().map(|m| &m.notation))
    {
        if game.play_text(mv).is_err() {
            break;
        }
    }
    if seating.humans.contains(&true) {
        // A person sees a bot's moves when asked for the next one: the bot's moves that ended
        // the game (a whole turn of them, in dots) were never shown. When the game ended on a
        // person's turn (out of time, input closed, resigned, a draw accepted), they were.
        let reason = record.result.reason;
        let person_lost = record
            .result
            .winner
            .is_some_and(|winner| seating.humans[winner.opponent().index()]);
        let asked_last = reason == Termination::Agreement || (reason.is_forfeit() && person_lost);
        let unseen = record
            .moves
            .iter()
            .rev()
            .take_while(|mv| !asked_last && !seating.humans[mv.side.index()])
            .collect::<Vec<_>>();
        for mv in unseen.into_iter().rev() {
            screen.say(
                Voice::Plain,
                &played_line(spec, seating, mv.side, &mv.notation),
            );
        }
        // The spectator has shown the last position already when only bots played.
        screen.say(Voice::Plain, "");
        screen.show(&draw(game.as_ref(), None, terminal_columns()));
    }
    let person = match seating.humans {
        [true, false] => Some(Side::First),
        [false, true] => Some(Side::Second),
        _ => None,
    };
    let headline = match (record.result.winner, person) {
        (None, _) => "Draw.".to_string(),
        (Some(winner), Some(you)) if winner == you => "You win!".to_string(),
        (Some(_), Some(_)) => "You lose.".to_string(),
        (Some(winner), None) => format!("{} wins.", seating.who(spec, winner)),
    };
    screen.say(Voice::Result, &headline);
    screen.say(Voice::Plain, &format!("  {}", record.result.detail));
}

/// The number after the highest `NNNN.json` in `dir` (1 for a new directory), so that a game
/// played at the console never overwrites an earlier record.
pub fn next_record_number(dir: &Path) -> u32 {
    let highest = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let stem = name.to_str()?.strip_suffix(".json")?;
            (stem.len() >= 4 && stem.bytes().all(|b| b.is_ascii_digit()))
                .then(|| stem.parse::<u32>().ok())
                .flatten()
        })
        .max()
        .unwrap_or(0);
    highest.saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitters_are_people_or_bots() {
        assert_eq!(SideSpec::parse("human").unwrap(), SideSpec::Human);
        assert_eq!(
            SideSpec::parse("builtin:random").unwrap().to_string(),
            "builtin:random"
        );
        assert!(SideSpec::parse("builtin:nobody").is_err());
        let one = seating(&[SideSpec::Human, SideSpec::parse("./bot -v").unwrap()]);
        assert_eq!(one.names, ["you".to_string(), "./bot -v".to_string()]);
        let two = seating(&[SideSpec::Human, SideSpec::Human]);
        assert_eq!(two.names, [String::new(), String::new()]);
        assert_eq!(two.humans, [true, true]);
    }

    #[test]
    fn a_take_back_keeps_the_moves_before_the_persons_last() {
        let dots = GameSpec::from_words("dots", &["rows=1", "cols=2"]).unwrap();
        // A draws v 1 0, closing the first box, and so draws h 1 1 too.
        let moves: Vec<String> = ["h 0 0", "h 0 1", "v 0 0", "h 1 0", "v 1 0", "h 1 1"]
            .map(String::from)
            .to_vec();
        assert_eq!(before_last_move(&dots, &moves, 0, Side::First), 5);
        assert_eq!(before_last_move(&dots, &moves, 0, Side::Second), 3);
        // The opening is never taken back.
        assert_eq!(
            before_last_move(&dots, &moves, 4, Side::Second),
            moves.len()
        );
    }

    #[test]
    fn records_are_numbered_after_the_highest() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(next_record_number(&dir.path().join("new")), 1);
        for name in [
            "0001.json",
            "0007.json",
            "0009.transcript.txt",
            "notes.json",
            "12.json",
        ] {
            fs::write(dir.path().join(name), "").unwrap();
        }
        assert_eq!(next_record_number(dir.path()), 8);
    }
}
