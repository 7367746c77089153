//! The driver of one game: does the I/O the [`Judge`] asks for (the setup, each request, the
//! results) with the seats, checks a timeout against the stalls of the referee's own machine
//! that the [`Supervisor`]'s monitor noted, and files the record.

use super::judge::{Judge, Judged};
use super::{GameRules, OpeningError, PlayedGame, SeatedPlayer};
use referee_cage::supervisor::Supervisor;
use referee_cage::LateAnswer;
use referee_records::record::{
    stderr_line_times, stderr_tail, DroppedRecord, GameRecord, MoveRecord, Overload, PlayerRecord,
    ResultRecord,
};
use referee_rules::games::{AnyGame, Side};
use referee_rules::protocol::Ready;
use referee_rules::verdict::{Forfeit, Termination, Verdict};
use std::time::{Duration, Instant, SystemTime};

/// Extra time the watchdog waits past limit + margin before giving up on a bot, so that the
/// verdict rests on the reader's timestamp and never on when this loop woke up.
const WATCHDOG_SLACK: Duration = Duration::from_millis(50);

/// Plays one game from `opening` (moves played before the bots take over). `players` are
/// indexed by side: `[first, second]`; `supervisor` is the one their bots were started by (its
/// stall monitor tells a bot's timeout from the referee's own freeze).
pub fn play_game(
    supervisor: &Supervisor,
    number: u32,
    rules: &GameRules,
    opening: &[String],
    players: [SeatedPlayer<'_>; 2],
) -> Result<PlayedGame, OpeningError> {
    play_game_watched(
        supervisor,
        number,
        rules,
        opening,
        0,
        players,
        &mut |_, _| {},
    )
}

/// Plays one game like [`play_game`], showing each move to `spectator` as soon as it is played,
/// with the position after it (for a game shown move by move at the console). The last
/// `resumed` moves of `opening` were played in this game before a take-back started it again
/// (0 but at the console): verdicts number them as moves, so that a move keeps its number.
pub fn play_game_watched(
    supervisor: &Supervisor,
    number: u32,
    rules: &GameRules,
    opening: &[String],
    resumed: usize,
    mut players: [SeatedPlayer<'_>; 2],
    spectator: &mut dyn FnMut(&dyn AnyGame, &MoveRecord),
) -> Result<PlayedGame, OpeningError> {
    let started_at = Instant::now();
    let started = SystemTime::now();
    let names = Side::BOTH.map(|side| format!("{} ({side} player)", players[side.index()].label));
    let mut judge = Judge::new(
        rules,
        opening,
        resumed,
        players.each_ref().map(|p| p.time),
        players.each_ref().map(|p| p.margin),
        names,
    )?;
    let mut ready: [Option<Ready>; 2] = [None, None];

    for side in Side::BOTH {
        let seat = &mut players[side.index()].seat;
        match seat.setup(&judge.setup(side), rules.startup) {
            Ok(answer) => ready[side.index()] = Some(answer),
            Err(fault) => {
                judge.setup_failed(side, fault);
                break;
            }
        }
    }
    // When the last move was asked for and answered: a timeout is judged against stalls then.
    let mut last_ask = (started_at, started_at);
    while let Some(request) = judge.next_request() {
        let asked_at = Instant::now();
        let reply = players[request.side.index()]
            .seat
            .ask(&request.messages, request.allowed + WATCHDOG_SLACK);
        last_ask = (asked_at, Instant::now());
        if judge.answer(request.side, reply, started_at.elapsed()) {
            let (game, played) = judge.last_move().expect("a move was just played");
            spectator(game, played);
        }
    }
    for side in Side::BOTH {
        if ready[side.index()].is_some() {
            players[side.index()].seat.tell(&judge.closing(side));
        }
    }
    let judged = judge.finish();
    // A timeout while the referee itself was frozen longer than the late side's margin (a
    // protocol may allow more than the match's) is not the bot's.
    let stalled = match &judged.verdict {
        Verdict::Forfeit {
            forfeit: Forfeit::Late { margin, .. },
            ..
        } => supervisor
            .worst_stall_between(last_ask.0, last_ask.1)
            .is_some_and(|stall| stall > *margin),
        _ => false,
    };
    // Read at once: a timeout is the game's last event.
    let overloaded = match judged.verdict.termination() {
        Termination::Timeout => {
            referee_cage::cpus::overload().map(|(runnable, processors)| Overload {
                runnable,
                processors,
            })
        }
        _ => None,
    };
    let faulted = Side::BOTH.map(|side| judged.verdict.at_fault() == Some(side));
    let late = watch_late(rules, judged.verdict.termination(), faulted, &mut players);
    let mut record = record(number, rules, &players, &ready, judged, started, stalled);
    if let Some(overload) = overloaded {
        record.result.detail = format!("{}; {overload}", record.result.detail);
        record.result.overloaded = Some(overload);
    }
    let logs = [players[0].seat.take_log(), players[1].seat.take_log()];
    for (side, log) in Side::BOTH.into_iter().zip(&logs) {
        let player = &mut record.players[side.index()];
        player.dropped = DroppedRecord::of(log);
        player.cpu_us = log.cpu.map(|cpu| cpu.as_micros() as u64);
        player.stderr_at_us = stderr_line_times(log, started_at);
        if faulted[side.index()] {
            player.stderr_tail = stderr_tail(log);
        }
    }
    Ok(PlayedGame {
        record,
        logs,
        started_at,
        faulted,
        ready,
        late,
    })
}

/// What each side that lost on time or never got ready wrote once the game was over, when the
/// rules watch for it (see [`GameRules::watch_late`]); logged in this game's transcript.
fn watch_late(
    rules: &GameRules,
    ending: Termination,
    faulted: [bool; 2],
    players: &mut [SeatedPlayer<'_>; 2],
) -> [Option<LateAnswer>; 2] {
    let waited = matches!(ending, Termination::Timeout | Termination::NotReady);
    let mut late = [None, None];
    for side in Side::BOTH {
        if rules.watch_late && waited && faulted[side.index()] {
            late[side.index()] = players[side.index()].seat.late_answer();
        }
    }
    late
}

/// The record of a judged game.
fn record(
    number: u32,
    rules: &GameRules,
    players: &[SeatedPlayer<'_>; 2],
    ready: &[Option<Ready>; 2],
    judged: Judged,
    started: SystemTime,
    stalled: bool,
) -> GameRecord {
    let verdict = &judged.verdict;
    let player = |side: Side| {
        let player = &players[side.index()];
        let answer = ready[side.index()].as_ref();
        PlayerRecord {
            label: player.label.clone(),
            command: player.command.clone(),
            name: answer.map(|r| r.name.clone()),
            version: answer.map(|r| r.version.clone()),
            time: player.time,
            colour: judged.game.colours().map(|colours| colours[side.index()]),
            points: verdict.points(side),
            cpu_us: None,
            dropped: None,
            stderr_tail: None,
            stderr_at_us: Vec::new(),
        }
    };
    GameRecord {
        referee: env!("CARGO_PKG_VERSION").to_string(),
        number,
        game: rules.spec.to_string(),
        players: Side::BOTH.map(player),
        opening: judged.opening,
        moves: judged.moves,
        result: ResultRecord {
            winner: verdict.winner(),
            reason: verdict.termination(),
            violation: verdict.violation().map(str::to_string),
            detail: verdict.sentence(&judged.names).to_string(),
            line: verdict.quoted_line().map(str::to_string),
            notation: verdict.illegal_move().map(str::to_string),
            us: judged.refused_us,
            stalled,
            overloaded: None,
        },
        scores: judged.game.scores(),
        started: humantime::format_rfc3339_millis(started).to_string(),
        ended: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
        final_position: judged.game.render(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_cage::{Answer, Seat};
    use referee_records::transcript::SeatLog;
    use referee_rules::clock::TimeControl;
    use referee_rules::games::{Ending, GameSpec};
    use referee_rules::protocol::RefereeMessage;
    use referee_rules::verdict::{Fault, Termination};
    use std::collections::VecDeque;

    /// A seat that answers from a script and remembers every line it was sent.
    #[derive(Default)]
    struct ScriptedSeat {
        /// Each answer: a line and how long it took, or a fault.
        replies: VecDeque<Result<(&'static str, Duration), Fault>>,
        received: Vec<String>,
        /// How long the driver let each request wait.
        watchdogs: Vec<Duration>,
    }

    impl ScriptedSeat {
        /// Answers each request with the next line, after 1 ms.
        fn new(replies: &[&'static str]) -> ScriptedSeat {
            ScriptedSeat::timed(
                replies
                    .iter()
                    .map(|line| Ok((*line, Duration::from_millis(1))))
                    .collect(),
            )
        }

        fn timed(replies: Vec<Result<(&'static str, Duration), Fault>>) -> ScriptedSeat {
            ScriptedSeat {
                replies: replies.into(),
                received: Vec::new(),
                watchdogs: Vec::new(),
            }
        }
    }

    impl Seat for ScriptedSeat {
        fn setup(&mut self, messages: &[RefereeMessage], _: Duration) -> Result<Ready, Fault> {
            self.received
                .extend(messages.iter().map(ToString::to_string));
            Ok(Ready::parse("ready scripted 1").unwrap())
        }

        fn ask(
            &mut self,
            messages: &[RefereeMessage],
            watchdog: Duration,
        ) -> Result<Answer, Fault> {
            self.received
                .extend(messages.iter().map(ToString::to_string));
            self.watchdogs.push(watchdog);
            let (line, elapsed) = self.replies.pop_front().expect("a scripted reply")?;
            Ok(Answer {
                line: line.to_string(),
                elapsed,
                original: None,
                messages: Vec::new(),
            })
        }

        fn tell(&mut self, messages: &[RefereeMessage]) {
            self.received
                .extend(messages.iter().map(ToString::to_string));
        }

        fn take_log(&mut self) -> SeatLog {
            SeatLog::default()
        }

        fn finish(&mut self) {}
    }

    fn play(game: &str, first: &mut ScriptedSeat, second: &mut ScriptedSeat) -> GameRecord {
        play_watched(game, first, second, &mut |_, _| {})
    }

    fn play_watched(
        game: &str,
        first: &mut ScriptedSeat,
        second: &mut ScriptedSeat,
        spectator: &mut dyn FnMut(&dyn AnyGame, &MoveRecord),
    ) -> GameRecord {
        let rules = GameRules {
            spec: GameSpec::from_words::<&str>(game, &[]).unwrap(),
            margin: Duration::from_millis(10),
            startup: Duration::from_secs(1),
            send_legal_moves: false,
            watch_late: false,
        };
        play_game_watched(
            &Supervisor::new(),
            1,
            &rules,
            &[],
            0,
            [
                SeatedPlayer {
                    seat: first,
                    label: "A".into(),
                    command: "scripted".into(),
                    time: TimeControl::default(),
                    margin: rules.margin,
                },
                SeatedPlayer {
                    seat: second,
                    label: "B".into(),
                    command: "scripted".into(),
                    time: TimeControl::default(),
                    margin: rules.margin,
                },
            ],
            spectator,
        )
        .unwrap()
        .record
    }

    #[test]
    fn a_spectator_sees_every_move_with_the_position_after_it() {
        let mut first = ScriptedSeat::new(&["0 0", "1 0", "2 0"]);
        let mut second = ScriptedSeat::new(&["0 1", "1 1"]);
        let mut seen = Vec::new();
        let record = play_watched("tictactoe", &mut first, &mut second, &mut |game, played| {
            seen.push((played.side, played.notation.clone(), game.render()));
        });
        let moves: Vec<&str> = seen.iter().map(|(_, mv, _)| mv.as_str()).collect();
        assert_eq!(moves, ["0 0", "0 1", "1 0", "1 1", "2 0"]);
        assert_eq!(seen[1].0, Side::Second);
        assert_eq!(
            seen[1].2,
            "    0  1  2\n  0 X  .  .\n  1[O] .  .\n  2 .  .  .\n"
        );
        assert_eq!(seen[4].2, record.final_position);
    }

    #[test]
    fn an_accepted_offer_is_a_draw_by_agreement() {
        let mut first = ScriptedSeat::new(&["11-15 draw"]);
        let mut second = ScriptedSeat::new(&["draw"]);
        let record = play("checkers", &mut first, &mut second);
        assert_eq!(record.result.reason, Termination::Agreement);
        assert_eq!(record.result.winner, None);
        assert!(record.moves[0].offers_draw);
        let turn = second
            .received
            .iter()
            .position(|l| l == "turn 1000")
            .unwrap();
        assert_eq!(
            second.received[turn - 2..turn],
            ["opponent 11-15", "offer draw"]
        );
        assert!(second
            .received
            .last()
            .unwrap()
            .starts_with("result draw agreement"));
    }

    #[test]
    fn an_offer_lapses_once_the_opponent_has_moved() {
        let mut first = ScriptedSeat::new(&["11-15 draw", "12-16"]);
        let mut second = ScriptedSeat::new(&["24-20", "draw"]);
        let record = play("checkers", &mut first, &mut second);
        assert_eq!(record.result.reason, Termination::NotAMove);
        assert_eq!(record.result.winner, Some(Side::First));
        assert!(
            record.result.detail.contains("no draw was offered"),
            "{}",
            record.result.detail
        );
        assert_eq!(
            second
                .received
                .iter()
                .filter(|l| *l == "offer draw")
                .count(),
            1
        );
    }

    #[test]
    fn the_loser_of_a_rules_ending_hears_the_last_move() {
        let mut first = ScriptedSeat::new(&["0 0", "1 0", "2 0"]);
        let mut second = ScriptedSeat::new(&["0 1", "1 1"]);
        let record = play("tictactoe", &mut first, &mut second);
        assert_eq!(record.result.reason, Termination::Rules(Ending::Line));
        assert_eq!(record.players[0].points, 1.0);
        let tail = &second.received[second.received.len() - 2..];
        assert_eq!(tail[0], "opponent 2 0");
        assert!(tail[1].starts_with("result loss line"), "{}", tail[1]);
        assert!(first
            .received
            .last()
            .unwrap()
            .starts_with("result win line"));
    }

    #[test]
    fn the_driver_waits_the_limit_plus_margin_and_slack_then_tells_both_sides() {
        let late = Duration::from_millis(1011);
        let mut first = ScriptedSeat::timed(vec![Ok(("0 0", late))]);
        let mut second = ScriptedSeat::new(&[]);
        let record = play("tictactoe", &mut first, &mut second);
        assert_eq!(
            first.watchdogs,
            [Duration::from_millis(1010) + WATCHDOG_SLACK]
        );
        assert_eq!(record.result.reason, Termination::Timeout);
        assert_eq!(record.players[1].points, 1.0);
        assert!(record.moves.is_empty());
        let sentence =
            "A (first player) answered move 1 after 1011.0 ms; the limit is 1000 ms (+10 ms margin)";
        // On a busy machine, the record adds that it was overloaded (the bots are told the
        // verdict before).
        let overloaded = record.result.overloaded.map(|o| format!("; {o}"));
        assert_eq!(
            record.result.detail,
            format!("{sentence}{}", overloaded.unwrap_or_default())
        );
        assert_eq!(
            first.received.last().unwrap(),
            &format!("result loss timeout {sentence}")
        );
        assert_eq!(
            second.received.last().unwrap(),
            &format!("result win timeout {sentence}")
        );
    }

    #[test]
    fn a_seat_fault_is_the_faulty_sides_loss() {
        let mut first = ScriptedSeat::new(&["0 0"]);
        let mut second = ScriptedSeat::timed(vec![Err(Fault::Exited {
            detail: "exited with code 3 before the game ended".into(),
        })]);
        let record = play("tictactoe", &mut first, &mut second);
        assert_eq!(record.result.reason, Termination::Exited);
        assert_eq!(record.result.winner, Some(Side::First));
        assert_eq!(
            record.result.detail,
            "B (second player) exited with code 3 before the game ended at move 2"
        );
        assert_eq!(record.moves.len(), 1);
    }
}
