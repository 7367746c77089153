//! Gomocup (piskvork) brains, as the protocol's own description has it (Petr Laštovička's
//! "Gomoku AI protocol", plastovicka.github.io/protocl2en.htm, version of 2023-03-20).
//!
//! Setup: `START size` (square boards) or `RECTSTART width,height`, answered `OK` or
//! `ERROR message` (a refusal of the board: a verdict of its own); `ABOUT`, answered with
//! `name="...", version="..."`; then `INFO` lines (`timeout_turn`, `timeout_match`,
//! `max_memory`, a budget below the enforced limit, `game_type`, `rule`), which need no
//! answer. Each move: `INFO time_left` (2147483647 without a time bank), then `BEGIN` (the brain
//! opens an empty board), `TURN x,y` (the opponent's move) or, for a game from an opening,
//! `BOARD`, one `x,y,field` line per stone in the order played (field 1 for the brain's own
//! stones, 2 for its opponent's) and `DONE`. The brain answers `x,y` (column, then row, from
//! zero); every other line it writes is logged and passed over, as Gomocup managers do, and a
//! `SUGGEST x,y` is answered `PLAY x,y` as a Gomocup tournament does. The next game in the same process starts with `RESTART`; a brain that does not
//! answer it `OK` is sent `END` and started again. `END` ends the brain.
//!
//! Lines to the brain end in CR LF as from a Gomocup manager; the brain's may end in CR LF, LF
//! or CR alone.
//!
//! A game with a swap2 opening asks the brain's decisions with `SWAP2BOARD` until the colours
//! are chosen (see `gomocup_swap2.rs`), then tells it the board with `BOARD`.

use super::gomocup_swap2::{self, Swap2};
use super::{gomocup_rule, number_pair, play_notation, Definition};
use crate::process::{BotProcess, SpawnError};
use crate::process_options::ClockStart;
use crate::process_options::{LineEnds, ProcessOptions};
use crate::requests::{Setup, Turn};
use crate::supervisor::Supervisor;
use crate::{Answer, Reading, Seat};
use referee_records::transcript::SeatLog;
use referee_rules::clock::TimeControl;
use referee_rules::games::mnk::{Mnk, Rule, SwapRule};
use referee_rules::games::{Colour, GameSpec, Side};
use referee_rules::protocol::{trim_blanks, words, Ready, RefereeMessage};
use referee_rules::verdict::Fault;
use std::time::{Duration, Instant};

/// A seat for a Gomocup brain: it keeps the stones to tell them with `BOARD`, and restarts the
/// brain between games (with `RESTART`, or a new process when the brain refuses it).
pub(super) struct Gomocup {
    /// How to start the brain again when it refuses `RESTART`.
    command: Vec<String>,
    options: ProcessOptions,
    supervisor: Supervisor,
    process: BotProcess,
    /// The board the brain was started on, (width, height): a next game on it may `RESTART`.
    board: Option<(u8, u8)>,
    /// Name and version from `ABOUT`, asked once per process.
    about: Option<(String, String)>,
    /// The logs of a process replaced during this game's setup.
    replaced_log: SeatLog,
    game: Option<GameState>,
}

/// The `time_left` of a match without a time bank, as Gomocup managers send it (the largest
/// 32-bit signed number: brains read it into an `int`).
const NO_MATCH_LIMIT: u64 = 2_147_483_647;

/// The `INFO time_left` line sent before every move request, as Piskvork, GomocupJudge and
/// c-gomoku-cli send it (brains may wait for it): what is left of the bank, else
/// [`NO_MATCH_LIMIT`].
fn time_left(bank_left: Option<u64>) -> String {
    format!("INFO time_left {}", bank_left.unwrap_or(NO_MATCH_LIMIT))
}

/// What the adapter keeps of the current game.
struct GameState {
    position: Mnk,
    side: Side,
    time: TimeControl,
    /// Every stone in the order played, the opening included: column, row, and its colour
    /// (`Side::First` Black).
    stones: Vec<(u8, u8, Side)>,
    /// Whether the brain's first move request tells the stones with `BOARD`: a game from an
    /// opening, or after a swap2 opening.
    from_opening: bool,
    /// The swap2 opening (`swap=swap2`), asked with `SWAP2BOARD` while the colours are open.
    swap2: Option<Swap2>,
    /// Moves the brain was asked for.
    asked: u32,
    /// The game's rule set as told by `INFO rule`, in words (see
    /// [`gomocup_rule::rule_name`]); `None` for freestyle, which every brain plays.
    rule: Option<String>,
    /// The brain's move handed to the arbiter, played here once the game goes on.
    own_move: Option<String>,
}

impl GameState {
    fn play(&mut self, notation: &str) {
        if let Some(swap2) = &mut self.swap2 {
            swap2.play(notation);
        }
        // The board's part of a swap2 move: `x y more` places a stone, `swap` none.
        let stone = notation.strip_suffix(" more").unwrap_or(notation);
        if stone == "swap" {
            return;
        }
        if let Some((square, colour)) = play_notation(&mut self.position, stone) {
            let (x, y) = self.position.coordinates(square);
            self.stones.push((x, y, colour));
        }
    }

    /// The colour of the brain's stones, as the board's side: its seat's, unless a swap2
    /// opening chose otherwise.
    fn own_colour(&self) -> Side {
        match self
            .swap2
            .as_ref()
            .and_then(|swap2| swap2.colour(self.side))
        {
            Some(Colour::Black) => Side::First,
            Some(Colour::White) => Side::Second,
            None => self.side,
        }
    }

    /// The brain's `timeout_turn`: the move limit, or with a bank alone the bank's size (one
    /// move may take all of it). A first-move allowance is not told: it is there for the
    /// brain's own start-up, and a brain told a longer turn would search longer.
    fn turn_limit(&self) -> u64 {
        match self.time.move_ms {
            0 => self.time.bank_ms,
            limit => limit,
        }
    }

    /// The command that asks for the brain's move: `BOARD` with every stone on its first move
    /// of a game from an opening, else `TURN` with the opponent's last move, else `BEGIN`.
    fn move_request(&self) -> Vec<String> {
        if self.asked == 0 && self.from_opening {
            let mut lines = vec!["BOARD".to_string()];
            let own = self.own_colour();
            lines.extend(self.stones.iter().map(|&(x, y, colour)| {
                let field = if colour == own { 1 } else { 2 };
                format!("{x},{y},{field}")
            }));
            lines.push("DONE".into());
            lines
        } else {
            match self.stones.last() {
                Some(&(x, y, _)) => vec![format!("TURN {x},{y}")],
                None => vec!["BEGIN".into()],
            }
        }
    }
}

/// The first word of a brain's line, upper-cased: the protocol's keywords are upper case, but
/// brains are not always strict.
pub(super) fn keyword(line: &str) -> String {
    words(line).next().unwrap_or("").to_ascii_uppercase()
}

/// Lines a brain may write at any time, for people: passed over.
fn is_chatter(line: &str) -> bool {
    matches!(keyword(line).as_str(), "" | "MESSAGE" | "DEBUG")
}

/// The square of a move line `x,y`, or of `SUGGEST x,y` (with whether it was suggested).
fn square(line: &str) -> Option<((i64, i64), bool)> {
    let line = trim_blanks(line);
    let suggested = keyword(line) == "SUGGEST";
    let text = if suggested {
        trim_blanks(&line["SUGGEST".len()..])
    } else {
        line
    };
    let (x, y) = text.split_once(',')?;
    number_pair(x, y).map(|pair| (pair, suggested))
}

/// Any line but a move, passed over when no answer is due: Gomocup managers (GomocupJudge,
/// c-gomoku-cli) read a brain's output only for moves, so brains get away with `ERROR` or
/// `UNKNOWN` answers to `INFO` lines they do not know; a move written unasked is still an
/// unrequested answer.
fn is_not_a_move(line: &str) -> bool {
    square(line).is_none()
}

/// A reply to a setup command (`OK`, `ERROR ...`, `UNKNOWN`, an `ABOUT` line).
fn read_reply(line: &str) -> Reading {
    if is_chatter(line) {
        Reading::Skip
    } else {
        Reading::Answer(trim_blanks(line).to_string())
    }
}

/// The brain's move `x,y` as the referee's `x y`; a `SUGGEST x,y` is confirmed with `PLAY`.
/// Every other line is kept in the transcript and passed over, as Gomocup managers do: real
/// brains write `ERROR Unknown command`, or a raw CR inside a `MESSAGE` that splits it in two.
/// A brain that writes no move loses on time, its last line that is no move named; a move that
/// is illegal still loses. A `MESSAGE` (the brain's evaluation, depth or best line) is kept
/// with the move.
fn read_move(line: &str) -> Reading {
    match square(line) {
        Some(((x, y), true)) => Reading::Reply(vec![format!("PLAY {x},{y}")]),
        Some(((x, y), false)) => Reading::Answer(format!("{x} {y}")),
        // The keyword is ASCII, so the text after it starts on a character boundary.
        None if keyword(line) == "MESSAGE" => {
            Reading::Message(trim_blanks(&trim_blanks(line)["MESSAGE".len()..]).to_string())
        }
        None if is_chatter(line) => Reading::Skip,
        None => Reading::NoMove(MOVE_FORM),
    }
}

/// What a brain's move is, for the sentence of a timeout after lines that are none.
const MOVE_FORM: &str = "a Gomocup move is 'x,y' (column, then row, from 0), e.g. '7,7'";

/// The bytes told in `INFO max_memory`: the budget, but at most half the enforced limit (the
/// address space), since a brain sizes its hash table to it and its code, stacks and
/// allocator need room beside that table; a brain told the limit itself fails to allocate.
fn memory_told(budget_mb: u64, limit_mb: Option<u64>) -> u64 {
    let half_limit = limit_mb.map_or(u64::MAX, |mb| mb / 2);
    budget_mb.min(half_limit) << 20
}

/// `name` and `version` from an `ABOUT` line (`name="pela", version="1.0", author="..."`).
/// Old brains answer free text: it serves as the name.
fn parse_about(line: &str) -> (String, String) {
    let value = |key: &str| {
        let pattern = format!("{key}=\"");
        let mut from = 0;
        while let Some(found) = line[from..].find(&pattern) {
            let at = from + found;
            let starts_word = !matches!(
                line[..at].chars().next_back(),
                Some(c) if c.is_ascii_alphanumeric() || c == '_'
            );
            let rest = &line[at + pattern.len()..];
            if starts_word {
                return rest.split_once('"').map(|(value, _)| value.to_string());
            }
            from = at + pattern.len();
        }
        None
    };
    let name = value("name").unwrap_or_else(|| match keyword(line).as_str() {
        "" | "UNKNOWN" | "ERROR" => "unknown".to_string(),
        _ => referee_rules::quote::shorten(trim_blanks(line), 40),
    });
    (name, value("version").unwrap_or_else(|| "-".into()))
}

/// Gomocup's protocol: five in a row on boards of 5x5 to 20x20, with the 1000 ms of tolerance
/// past a move's limit that Piskvork and GomocupJudge give their brains.
pub(super) const GOMOCUP: Definition = Definition {
    name: "gomocup",
    margin_floor: Duration::from_millis(1000),
    clock_start: ClockStart::Written,
    check_game,
    start: |supervisor, command, options, _| {
        Ok(Box::new(Gomocup::start(supervisor, command, options)?))
    },
};

/// The smallest and largest board side a Gomocup brain is asked to play on.
const GOMOCUP_SIDES: std::ops::RangeInclusive<u8> = 5..=20;

/// Refuses a game that is not five in a row on a board a Gomocup brain plays, or an opening
/// its swap rule cannot tell it.
fn check_game(spec: &GameSpec, opening: &[String]) -> Result<(), String> {
    match spec.mnk_params() {
        Some(p)
            if p.line == 5
                && GOMOCUP_SIDES.contains(&p.width)
                && GOMOCUP_SIDES.contains(&p.height) =>
        {
            gomocup_swap2::check(p, opening).map_err(String::from)
        }
        _ => Err(
            "Gomocup brains play five in a row only, on boards from 5x5 to 20x20 \
                  (gomoku, or mnk with line=5; exact=yes for exactly five)"
                .into(),
        ),
    }
}

impl Gomocup {
    /// Starts the brain (with Gomocup's line ends), a bot of `supervisor`.
    pub(super) fn start(
        supervisor: &Supervisor,
        command: &[String],
        options: ProcessOptions,
    ) -> Result<Gomocup, SpawnError> {
        let options = ProcessOptions {
            line_ends: LineEnds::CrLf,
            ..options
        };
        Ok(Gomocup {
            process: BotProcess::spawn(supervisor, command, options.clone())?,
            supervisor: supervisor.clone(),
            command: command.to_vec(),
            options,
            board: None,
            about: None,
            replaced_log: SeatLog::default(),
            game: None,
        })
    }

    /// Sends a setup command and waits at most `wait` for its reply, chatter passed over.
    fn command(&mut self, command: &str, wait: Duration) -> Result<String, Fault> {
        // Brains chatter after an answer too (pbrain-figrid writes `MESSAGE config: ...` after
        // `OK`), so what came after the previous reply is passed over first, as before a move.
        self.process.drain_unrequested(is_not_a_move)?;
        self.process
            .exchange(vec![command.to_string()], wait, read_reply)
            .map(|answer| answer.line)
            .map_err(|fault| match fault {
                Fault::Timeout { .. } => Fault::NotReady {
                    // Rounded up: the start-up's 5000 ms, waited from a moment after it began,
                    // is not "4999".
                    detail: format!(
                        "no answer to '{command}' within {} ms",
                        wait.as_micros().div_ceil(1000)
                    ),
                },
                other => other,
            })
    }

    /// Ends the brain with `END` and starts it again, keeping the old process's log.
    fn start_again(&mut self) -> Result<(), Fault> {
        self.process.end(vec!["END".to_string()]);
        self.replaced_log.append(self.process.take_log());
        self.process = BotProcess::spawn(&self.supervisor, &self.command, self.options.clone())
            .map_err(|e| Fault::Exited {
                detail: format!("could not be started again after refusing RESTART ({e})"),
            })?;
        self.board = None;
        self.about = None;
        Ok(())
    }

    /// The `INFO` lines of a game's setup.
    fn game_info(&self, state: &GameState, rule: u8) -> Vec<String> {
        let time = &state.time;
        let max_memory = memory_told(self.options.memory_budget_mb, self.options.limits.memory_mb);
        vec![
            format!("INFO timeout_turn {}", state.turn_limit()),
            format!("INFO timeout_match {}", time.bank_ms),
            format!("INFO max_memory {max_memory}"),
            // The opponent is a program.
            "INFO game_type 1".to_string(),
            format!("INFO rule {rule}"),
        ]
    }
}

/// The refusal of `rule` (the game's, while the brain may still refuse it) that `line` is.
fn refused_rule(rule: Option<&str>, line: &str) -> Option<Fault> {
    rule.and_then(|rule| gomocup_rule::refusal(rule, line))
}

impl Gomocup {
    /// The game's rule set in words while the brain may still refuse it: until its first
    /// answer of the game, which comes after its answer to `INFO rule`, if any (a brain reads
    /// its input in order). `None` for freestyle.
    fn rule_unconfirmed(&self) -> Option<String> {
        let state = self.game.as_ref().expect("asked after the setup");
        state.rule.clone().filter(|_| state.asked == 0)
    }

    /// Passes over what the brain wrote since its last answer (see [`is_not_a_move`]), but an
    /// `ERROR` that refuses the game's `rule` ends its game (see [`gomocup_rule`]).
    fn drain_before_move(&mut self, rule: Option<&str>) -> Result<(), Fault> {
        let refusal = std::cell::RefCell::new(None);
        self.process.drain_unrequested(|line| {
            if let Some(fault) = refused_rule(rule, line) {
                refusal.borrow_mut().get_or_insert(fault);
            }
            is_not_a_move(line)
        })?;
        refusal.into_inner().map_or(Ok(()), Err)
    }

    /// A decision of the swap2 opening: the next stone of the brain's last answer, handed over
    /// at once, or else `SWAP2BOARD`.
    fn ask_swap2(
        &mut self,
        turn: Turn,
        watchdog: Duration,
        rule: Option<&str>,
    ) -> Result<Answer, Fault> {
        let state = self.game.as_mut().expect("asked after the setup");
        let swap2 = state.swap2.as_mut().expect("a swap2 game");
        if let Some(line) = swap2.pending() {
            state.own_move = Some(line.clone());
            return Ok(Answer {
                line,
                elapsed: Duration::ZERO,
                original: None,
                messages: Vec::new(),
            });
        }
        let mut request = vec![time_left(turn.bank_left)];
        request.extend(swap2.request(&state.stones));
        let mut answer = self.process.exchange(request, watchdog, |line| {
            refused_rule(rule, line)
                .map_or_else(|| gomocup_swap2::read_answer(line), Reading::Refuse)
        })?;
        let state = self.game.as_mut().expect("asked after the setup");
        let swap2 = state.swap2.as_mut().expect("a swap2 game");
        let written = std::mem::take(&mut answer.line);
        answer.line = swap2.take_answer(&written);
        answer.original = (answer.line != written).then_some(written);
        state.own_move = Some(answer.line.clone());
        Ok(answer)
    }
}

impl Seat for Gomocup {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        let deadline = Instant::now() + allowance;
        let left = || deadline.saturating_duration_since(Instant::now());
        let setup = Setup::read(messages);
        let params = setup
            .spec
            .mnk_params()
            .expect("Gomocup players are checked to play m,n,k games");
        let board = (params.width, params.height);
        if self.board == Some(board) {
            let reply = self.command("RESTART", left())?;
            if keyword(&reply) != "OK" {
                self.start_again()?;
            }
        } else {
            self.board = None;
        }
        if self.board.is_none() {
            let start = if params.width == params.height {
                format!("START {}", params.width)
            } else {
                format!("RECTSTART {},{}", params.width, params.height)
            };
            let reply = self.command(&start, left())?;
            match keyword(&reply).as_str() {
                "OK" => self.board = Some(board),
                "ERROR" | "UNKNOWN" => {
                    return Err(Fault::RefusedBoard {
                        board: format!("{}x{}", params.width, params.height),
                        answer: reply,
                    })
                }
                _ => {
                    return Err(Fault::NotReady {
                        detail: format!(
                            "answered '{}' to '{start}', expected 'OK' or 'ERROR message'",
                            referee_rules::quote::shorten(&reply, 60)
                        ),
                    })
                }
            }
        }
        if self.about.is_none() {
            let reply = self.command("ABOUT", left())?;
            self.about = Some(parse_about(&reply));
        }
        let swap2 = (params.swap == SwapRule::Swap2).then(|| Swap2::new(params));
        let freestyle = params.rule == Rule::None && !params.exact;
        let mut state = GameState {
            position: Mnk::new(params),
            side: setup.side,
            time: setup.time,
            stones: Vec::new(),
            from_opening: !setup.played.is_empty() || swap2.is_some(),
            swap2,
            asked: 0,
            rule: (!freestyle).then(|| gomocup_rule::rule_name(&params)),
            own_move: None,
        };
        for mv in &setup.played {
            state.play(mv);
        }
        let info = self.game_info(&state, gomocup_rule::info_rule(&params));
        self.process.send_lines(info, deadline)?;
        self.game = Some(state);
        let (name, version) = self.about.clone().expect("asked above");
        Ok(Ready {
            name,
            version,
            multi_game: true,
        })
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        let rule = self.rule_unconfirmed();
        self.drain_before_move(rule.as_deref())?;
        let state = self.game.as_mut().expect("asked after the setup");
        if let Some(own) = state.own_move.take() {
            state.play(&own);
        }
        let turn = Turn::read(messages);
        for mv in &turn.opponent {
            state.play(mv);
        }
        if state.swap2.as_ref().is_some_and(Swap2::open) {
            return self.ask_swap2(turn, watchdog, rule.as_deref());
        }
        let mut request = vec![time_left(turn.bank_left)];
        request.extend(state.move_request());
        state.asked += 1;
        let answer = self.process.exchange(request, watchdog, |line| {
            refused_rule(rule.as_deref(), line).map_or_else(|| read_move(line), Reading::Refuse)
        })?;
        if let Some(state) = &mut self.game {
            state.own_move = Some(answer.line.clone());
        }
        Ok(answer)
    }

    fn tell(&mut self, _messages: &[RefereeMessage]) {
        // Gomocup has no result message: the next game begins with RESTART, or the brain
        // is ended.
    }

    fn take_log(&mut self) -> SeatLog {
        let mut log = std::mem::take(&mut self.replaced_log);
        log.append(self.process.take_log());
        log
    }

    fn finish(&mut self) {
        self.process.end(vec!["END".to_string()]);
    }

    /// Its brain's chatter (`MESSAGE`, `DEBUG`) is no answer.
    fn late_answer(&mut self) -> Option<crate::LateAnswer> {
        self.process.watch_late(|line| !is_chatter(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::mnk::{MnkParams, Rule, SwapRule};

    fn state(time: &str, opening: &[&str], side: Side) -> GameState {
        let mut state = GameState {
            position: Mnk::new(MnkParams {
                width: 15,
                height: 15,
                line: 5,
                exact: false,
                rule: Rule::None,
                swap: SwapRule::None,
            }),
            side,
            time: TimeControl::parse_over(TimeControl::default(), time).unwrap(),
            stones: Vec::new(),
            from_opening: !opening.is_empty(),
            swap2: None,
            asked: 0,
            rule: None,
            own_move: None,
        };
        for mv in opening {
            state.play(mv);
        }
        state
    }

    #[test]
    fn an_opening_is_told_with_board_in_the_order_played() {
        let mut second = state("", &["7 7", "8 8", "6 6"], Side::Second);
        second.play("9 9");
        assert_eq!(second.stones.len(), 4);
        assert_eq!(
            second.move_request(),
            ["BOARD", "7,7,2", "8,8,1", "6,6,2", "9,9,1", "DONE"]
        );
        second.asked = 1;
        assert_eq!(second.move_request(), ["TURN 9,9"]);
        let first = state("", &[], Side::First);
        assert_eq!(first.move_request(), ["BEGIN"]);
        let mut answering = state("", &[], Side::Second);
        answering.play("7 7");
        assert_eq!(answering.move_request(), ["TURN 7,7"]);
    }

    #[test]
    fn the_turn_limit_told_is_the_move_limit_never_the_first_move_allowance() {
        assert_eq!(
            state("move=100,first=1000", &[], Side::First).turn_limit(),
            100
        );
        assert_eq!(
            state("move=5000,bank=120000", &[], Side::First).turn_limit(),
            5000
        );
        assert_eq!(
            state("bank=10000,first=2000", &[], Side::First).turn_limit(),
            10000
        );
        assert_eq!(time_left(None), "INFO time_left 2147483647");
        assert_eq!(time_left(Some(9400)), "INFO time_left 9400");
    }

    #[test]
    fn moves_and_chatter() {
        assert_eq!(read_move("7,8"), Reading::Answer("7 8".into()));
        assert_eq!(read_move(" 7 , 8 "), Reading::Answer("7 8".into()));
        assert_eq!(read_move("-1,20"), Reading::Answer("-1 20".into()));
        assert_eq!(
            read_move("MESSAGE depth 7 eval +35 pv 7,7 8,8"),
            Reading::Message("depth 7 eval +35 pv 7,7 8,8".into())
        );
        assert_eq!(read_move("message hi"), Reading::Message("hi".into()));
        for chatter in ["DEBUG depth 7", "", "  "] {
            assert_eq!(read_move(chatter), Reading::Skip, "{chatter}");
        }
        for no_move in [
            "7 8",
            "ERROR out of memory",
            "ERROR Unknown command",
            "UNKNOWN",
            "OK",
            "SUGGEST",
            "7,8,1",
            " nodes 1200",
        ] {
            assert_eq!(read_move(no_move), Reading::NoMove(MOVE_FORM), "{no_move}");
        }
        assert_eq!(
            read_move("SUGGEST 10,10"),
            Reading::Reply(vec!["PLAY 10,10".into()])
        );
        assert!(is_not_a_move("ERROR Unknown command"));
        assert!(!is_not_a_move("7,7") && !is_not_a_move("SUGGEST 7,7"));
    }

    #[test]
    fn the_memory_told_is_a_budget_below_the_limit() {
        assert_eq!(memory_told(350, Some(4096)), 367_001_600);
        assert_eq!(memory_told(350, None), 367_001_600);
        assert_eq!(memory_told(350, Some(256)), 128 << 20);
        assert_eq!(memory_told(0, Some(4096)), 0);
    }

    #[test]
    fn about_lines() {
        assert_eq!(
            parse_about(r#"name="pela", version="1.2", author="Petr", country="CZ""#),
            ("pela".to_string(), "1.2".to_string())
        );
        assert_eq!(
            parse_about(r#"nickname="x", name="Yixin 2018""#),
            ("Yixin 2018".to_string(), "-".to_string())
        );
        assert_eq!(
            parse_about("Pisq 5 by Petr Lastovicka"),
            ("Pisq 5 by Petr Lastovicka".to_string(), "-".to_string())
        );
        assert_eq!(parse_about("UNKNOWN").0, "unknown");
    }
}
