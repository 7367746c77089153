//! The match loop for one game: sets up both seats, asks the side to move for its move, times
//! it, checks it against the rules, and decides the result. It joins the rules (through
//! [`AnyGame`]) and the seats (through [`Seat`]) without either knowing of the other.

use crate::clock::{Clock, TimeControl};
use crate::games::{AnyGame, GameSpec, MoveError, Side};
use crate::players::{shorten, Fault, Seat, SeatLog};
use crate::protocol::{GameResult, Ready, RefereeMessage, Reply, VERSION};
use crate::record::{write_game, GameRecord, MoveRecord, PlayerRecord, RecordFiles, ResultRecord};
use crate::stall;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

/// How a game is played; the same for every game of a match or tournament (the sides and the
/// opening vary).
#[derive(Clone, Debug)]
pub struct GameRules {
    pub spec: GameSpec,
    /// A reply may arrive this much after the limit and still count.
    pub margin: Duration,
    /// How long a bot may take to answer `start` (not charged to its clock).
    pub startup: Duration,
    /// Send a `legal` line before each `turn`.
    pub send_legal_moves: bool,
}

/// Extra time the watchdog waits past limit + margin before giving up on a bot, so that the
/// verdict rests on the reader's timestamp and never on when this loop woke up.
const WATCHDOG_SLACK: Duration = Duration::from_millis(50);

/// A player in one game: its seat, what to call it, and its time control.
pub struct Contestant<'a> {
    pub seat: &'a mut dyn Seat,
    pub label: String,
    pub command: String,
    pub time: TimeControl,
}

/// A finished game: its record, the seats' logs (first, second), who broke a rule (their
/// process should be killed rather than reused), and what each bot said in its `ready`.
pub struct PlayedGame {
    pub record: GameRecord,
    pub logs: [SeatLog; 2],
    pub started_at: Instant,
    pub faulted: [bool; 2],
    pub ready: [Option<Ready>; 2],
}

impl PlayedGame {
    /// Writes the game's record, transcript and stderr files into `dir`, when there is one.
    pub fn write_files(&self, dir: Option<&Path>) -> io::Result<Option<RecordFiles>> {
        dir.map(|dir| write_game(dir, &self.record, &self.logs, self.started_at))
            .transpose()
    }

    /// Ends a seat's program after its last game, keeping in this game's logs what it wrote as
    /// it exited: the `quit` it was sent, and whatever it printed to stderr on its way out.
    pub fn finish_seat(&mut self, side: Side, seat: &mut dyn Seat) {
        seat.finish();
        self.logs[side.index()].append(seat.take_log());
    }
}

/// An opening that cannot be played: the user's mistake, reported before any game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("opening move {number} '{notation}' cannot be played: {error}")]
pub struct OpeningError {
    pub number: usize,
    pub notation: String,
    pub error: MoveError,
}

/// Plays the opening on a fresh game, returning the position and the moves in canonical form.
pub fn play_opening(
    spec: &GameSpec,
    opening: &[String],
) -> Result<(Box<dyn AnyGame>, Vec<String>), OpeningError> {
    let mut game = spec.new_game();
    let mut canonical = Vec::new();
    for (index, notation) in opening.iter().enumerate() {
        let played = game.play_text(notation).map_err(|error| OpeningError {
            number: index + 1,
            notation: notation.clone(),
            error,
        })?;
        canonical.push(played);
        if game.outcome().is_some() {
            return Err(OpeningError {
                number: index + 1,
                notation: notation.clone(),
                error: MoveError::NotAMove("the opening must not end the game".into()),
            });
        }
    }
    Ok((game, canonical))
}

/// The result reason of a draw agreed by the players (checkers).
pub const AGREEMENT: &str = "agreement";

/// Whether a result reason is a forfeit (a resignation, a protocol fault or an illegal move)
/// rather than an ending of the rules or a draw by agreement.
pub fn is_forfeit(reason: &str) -> bool {
    reason != AGREEMENT && !crate::games::Ending::ALL.iter().any(|e| e.code() == reason)
}

/// How the game ended, before it is written into a record.
struct Ending {
    winner: Option<Side>,
    reason: String,
    violation: Option<String>,
    detail: String,
}

impl Ending {
    fn forfeit(loser: Side, reason: &str, detail: String) -> Ending {
        Ending {
            winner: Some(loser.opponent()),
            reason: reason.to_string(),
            violation: None,
            detail,
        }
    }
}

/// Plays one game from `opening` (moves played before the bots take over). `players` are
/// indexed by side: `[first, second]`.
pub fn play_game(
    number: u32,
    rules: &GameRules,
    opening: &[String],
    players: [Contestant<'_>; 2],
) -> Result<PlayedGame, OpeningError> {
    play_game_watched(number, rules, opening, players, &mut |_, _| {})
}

/// Plays one game like [`play_game`], showing each move to `spectator` as soon as it is played,
/// with the position after it (for a game shown move by move at the console).
pub fn play_game_watched(
    number: u32,
    rules: &GameRules,
    opening: &[String],
    mut players: [Contestant<'_>; 2],
    spectator: &mut dyn FnMut(&dyn AnyGame, &MoveRecord),
) -> Result<PlayedGame, OpeningError> {
    let started_at = Instant::now();
    let started = SystemTime::now();
    let (mut game, opening) = play_opening(&rules.spec, opening)?;
    let mut faulted = [false; 2];
    let mut ready: [Option<Ready>; 2] = [None, None];
    let mut clocks = [Clock::new(players[0].time), Clock::new(players[1].time)];
    let mut moves: Vec<MoveRecord> = Vec::new();
    // Moves each side has not been told about yet.
    let mut unseen: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    // The side whose draw offer awaits its opponent's answer.
    let mut draw_offer: Option<Side> = None;
    // When the last move was asked for and answered: a timeout is judged against stalls then.
    let mut last_ask = (started_at, started_at);
    stall::start_watching();
    let who = |players: &[Contestant<'_>; 2], side: Side| {
        format!("{} ({} player)", players[side.index()].label, side)
    };

    let mut ending = None;
    for side in Side::BOTH {
        let player = &mut players[side.index()];
        let mut setup = vec![
            RefereeMessage::Referee { version: VERSION },
            RefereeMessage::Game(rules.spec.clone()),
            RefereeMessage::Side(side),
            RefereeMessage::Time(player.time),
        ];
        setup.extend(opening.iter().cloned().map(RefereeMessage::Played));
        setup.push(RefereeMessage::Start);
        match player.seat.setup(&setup, rules.startup) {
            Ok(answer) => ready[side.index()] = Some(answer),
            Err(fault) => {
                faulted[side.index()] = true;
                ending = Some(forfeit_for(fault, side, &who(&players, side), 0));
                break;
            }
        }
    }

    while ending.is_none() {
        if let Some(outcome) = game.outcome() {
            ending = Some(Ending {
                winner: outcome.winner,
                reason: outcome.ending.code().to_string(),
                violation: None,
                detail: match outcome.winner {
                    Some(side) => format!("{} wins: {}", who(&players, side), outcome.ending),
                    None => format!("draw: {}", outcome.ending),
                },
            });
            break;
        }
        let side = game.side_to_move();
        let move_number = moves.len() as u32 + 1;
        let limit = clocks[side.index()].available();
        let mut request: Vec<RefereeMessage> = unseen[side.index()]
            .drain(..)
            .map(RefereeMessage::Opponent)
            .collect();
        let offered = draw_offer == Some(side.opponent());
        if offered {
            request.push(RefereeMessage::OfferDraw);
        }
        // An offer stands only until the opponent's next answer.
        draw_offer = None;
        if rules.send_legal_moves {
            request.push(RefereeMessage::Legal(game.legal_moves_text()));
        }
        request.push(RefereeMessage::Turn {
            ms: limit.as_millis() as u64,
        });
        let allowed = limit + rules.margin;
        let asked_at = Instant::now();
        let answer = players[side.index()]
            .seat
            .ask(&request, allowed + WATCHDOG_SLACK);
        last_ask = (asked_at, Instant::now());
        let answer = match answer {
            Ok(answer) => answer,
            Err(fault) => {
                faulted[side.index()] = true;
                ending = Some(forfeit_for(fault, side, &who(&players, side), move_number));
                break;
            }
        };
        if answer.elapsed > allowed {
            faulted[side.index()] = true;
            ending = Some(Ending::forfeit(
                side,
                "timeout",
                format!(
                    "{} answered move {move_number} after {:.1} ms; the limit is {} ms (+{} ms margin)",
                    who(&players, side),
                    answer.elapsed.as_secs_f64() * 1000.0,
                    limit.as_millis(),
                    rules.margin.as_millis()
                ),
            ));
            break;
        }
        clocks[side.index()].charge(answer.elapsed);
        let (text, offers_draw) = match Reply::parse(&answer.line) {
            Reply::Resign => {
                ending = Some(Ending::forfeit(
                    side,
                    "resign",
                    format!("{} resigned at move {move_number}", who(&players, side)),
                ));
                break;
            }
            Reply::AcceptDraw if offered => {
                ending = Some(Ending {
                    winner: None,
                    reason: AGREEMENT.into(),
                    violation: None,
                    detail: format!(
                        "draw: {} accepted the draw offered by {}",
                        who(&players, side),
                        who(&players, side.opponent())
                    ),
                });
                break;
            }
            Reply::AcceptDraw => {
                faulted[side.index()] = true;
                ending = Some(Ending::forfeit(
                    side,
                    "not-a-move",
                    format!(
                        "{} answered 'draw' for move {move_number}, but no draw was offered",
                        who(&players, side)
                    ),
                ));
                break;
            }
            Reply::Move {
                offers_draw: true, ..
            } if !rules.spec.allows_draw_offers() => {
                faulted[side.index()] = true;
                ending = Some(Ending::forfeit(
                    side,
                    "not-a-move",
                    format!(
                        "{} offered a draw with move {move_number}, but {} has no draw offers",
                        who(&players, side),
                        rules.spec.name()
                    ),
                ));
                break;
            }
            Reply::Move { text, offers_draw } => (text, offers_draw),
        };
        match game.play_text(&text) {
            Ok(notation) => {
                unseen[side.opponent().index()].push(notation.clone());
                if offers_draw {
                    draw_offer = Some(side);
                }
                moves.push(MoveRecord {
                    side,
                    notation,
                    us: answer.elapsed.as_micros() as u64,
                    cpu_us: answer.cpu.map(|cpu| cpu.as_micros() as u64),
                    at_us: started_at.elapsed().as_micros() as u64,
                    offers_draw,
                });
                spectator(game.as_ref(), moves.last().expect("just pushed"));
            }
            Err(error) => {
                faulted[side.index()] = true;
                let shown = shorten(&text, 60);
                // What a bot of another protocol really wrote, since `shown` is its translation.
                let written = answer
                    .original
                    .as_deref()
                    .map(|line| format!(" (written '{}')", shorten(line, 60)))
                    .unwrap_or_default();
                ending = Some(match error {
                    MoveError::NotAMove(expected) => Ending::forfeit(
                        side,
                        "not-a-move",
                        format!(
                            "{} sent '{shown}'{written} for move {move_number}, which is not a move: {expected}",
                            who(&players, side)
                        ),
                    ),
                    MoveError::Illegal(illegal) => Ending {
                        winner: Some(side.opponent()),
                        reason: "illegal-move".into(),
                        violation: Some(illegal.code().into()),
                        detail: format!(
                            "{} played the illegal move '{shown}'{written} at move {move_number}: {illegal}",
                            who(&players, side)
                        ),
                    },
                });
            }
        }
    }
    let ending = ending.expect("the loop ends with an ending");
    // A timeout while the referee itself was frozen longer than the margin is not the bot's.
    let stalled = ending.reason == "timeout"
        && stall::worst_stall_between(last_ask.0, last_ask.1).is_some_and(|s| s > rules.margin);

    for side in Side::BOTH {
        if ready[side.index()].is_none() {
            continue;
        }
        let result = match ending.winner {
            None => GameResult::Draw,
            Some(winner) if winner == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        let mut closing: Vec<RefereeMessage> = unseen[side.index()]
            .drain(..)
            .map(RefereeMessage::Opponent)
            .collect();
        closing.push(RefereeMessage::Result {
            result,
            reason: ending.reason.clone(),
            detail: ending.detail.clone(),
        });
        players[side.index()].seat.tell(&closing);
    }

    let points = |side: Side| match ending.winner {
        None => 0.5,
        Some(winner) if winner == side => 1.0,
        Some(_) => 0.0,
    };
    let player_record = |side: Side, players: &[Contestant<'_>; 2]| {
        let player = &players[side.index()];
        let answer = ready[side.index()].as_ref();
        PlayerRecord {
            label: player.label.clone(),
            command: player.command.clone(),
            name: answer.map(|r| r.name.clone()),
            version: answer.map(|r| r.version.clone()),
            time: player.time,
            points: points(side),
        }
    };
    let record = GameRecord {
        referee: env!("CARGO_PKG_VERSION").to_string(),
        number,
        game: rules.spec.to_string(),
        players: [
            player_record(Side::First, &players),
            player_record(Side::Second, &players),
        ],
        opening,
        moves,
        result: ResultRecord {
            winner: ending.winner,
            reason: ending.reason,
            violation: ending.violation,
            detail: ending.detail,
            stalled,
        },
        scores: game.scores(),
        started: humantime::format_rfc3339_millis(started).to_string(),
        ended: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
        final_position: game.render(),
    };
    let logs = [players[0].seat.take_log(), players[1].seat.take_log()];
    Ok(PlayedGame {
        record,
        logs,
        started_at,
        faulted,
        ready,
    })
}

/// The verdict for a seat's fault.
fn forfeit_for(fault: Fault, side: Side, who: &str, move_number: u32) -> Ending {
    let at = if move_number == 0 {
        "during the setup".to_string()
    } else {
        format!("at move {move_number}")
    };
    let reason = match &fault {
        Fault::NotReady { .. } => "not-ready",
        Fault::Timeout { .. } => "timeout",
        Fault::LineTooLong { .. } => "line-too-long",
        Fault::Unrequested { .. } => "unrequested-output",
        Fault::Exited { .. } => "exited",
        Fault::Limit { code, .. } => code,
        Fault::NotAMove { .. } => "not-a-move",
        Fault::RefusedBoard { .. } => "refused-board",
    };
    let detail = match &fault {
        // Worded as when the rules cannot read a move.
        Fault::NotAMove { line, expected } => format!(
            "{who} sent '{}' for move {move_number}, which is not a move: {expected}",
            shorten(line, 60)
        ),
        _ => format!("{who} {fault} {at}"),
    };
    Ending::forfeit(side, reason, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::Answer;
    use std::collections::VecDeque;

    /// A seat that answers from a script and remembers every line it was sent.
    #[derive(Default)]
    struct ScriptedSeat {
        replies: VecDeque<&'static str>,
        received: Vec<String>,
    }

    impl ScriptedSeat {
        fn new(replies: &[&'static str]) -> ScriptedSeat {
            ScriptedSeat {
                replies: replies.iter().copied().collect(),
                received: Vec::new(),
            }
        }
    }

    impl Seat for ScriptedSeat {
        fn setup(&mut self, messages: &[RefereeMessage], _: Duration) -> Result<Ready, Fault> {
            self.received
                .extend(messages.iter().map(ToString::to_string));
            Ok(Ready::parse("ready scripted 1").unwrap())
        }

        fn ask(&mut self, messages: &[RefereeMessage], _: Duration) -> Result<Answer, Fault> {
            self.received
                .extend(messages.iter().map(ToString::to_string));
            let line = self
                .replies
                .pop_front()
                .expect("a scripted reply")
                .to_string();
            Ok(Answer {
                line,
                elapsed: Duration::from_millis(1),
                cpu: None,
                original: None,
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
        };
        play_game_watched(
            1,
            &rules,
            &[],
            [
                Contestant {
                    seat: first,
                    label: "A".into(),
                    command: "scripted".into(),
                    time: TimeControl::default(),
                },
                Contestant {
                    seat: second,
                    label: "B".into(),
                    command: "scripted".into(),
                    time: TimeControl::default(),
                },
            ],
            spectator,
        )
        .unwrap()
        .record
    }

    #[test]
    fn forfeits_are_told_from_endings() {
        for reason in [
            "timeout",
            "illegal-move",
            "resign",
            "exited",
            "memory-limit",
            "refused-board",
        ] {
            assert!(is_forfeit(reason), "{reason}");
        }
        for reason in ["line", "all-lines-drawn", "repetition", "agreement"] {
            assert!(!is_forfeit(reason), "{reason}");
        }
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
        assert_eq!(record.result.reason, "agreement");
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
        assert_eq!(record.result.reason, "not-a-move");
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
        assert_eq!(record.result.reason, "line");
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
}
