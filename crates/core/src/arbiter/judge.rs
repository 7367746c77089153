//! The judge of one game: given the position, the clocks and what a seat returned (a line and
//! how long it took, or a fault), it plays the move or decides the ending, and says what each bot
//! must be sent. It does no I/O and reads no clock of its own, so every verdict, timing ones
//! included, is tested without a process or a sleep.

use super::{play_opening, GameRules, OpeningError};
use referee_cage::Answer;
use referee_records::record::{micros, MoveRecord};
use referee_rules::clock::{Clock, Settled, TimeControl};
use referee_rules::games::{AnyGame, GameSpec, MoveError, Side};
use referee_rules::protocol::{GameResult, RefereeMessage, Reply, VERSION};
use referee_rules::verdict::{Fault, Forfeit, LastMove, Moment, Verdict};
use std::time::Duration;

/// What the side to move must be sent, and how long its answer may take and still count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The side to move, whom the messages go to.
    pub side: Side,
    /// The opponent's moves it has not seen, any draw offer and `legal` line, then `turn`.
    pub messages: Vec<RefereeMessage>,
    /// Its time left plus its margin (and, with strikes left, the hard limit past it): a later
    /// answer is a timeout.
    pub allowed: Duration,
}

/// A game being judged.
pub struct Judge {
    spec: GameSpec,
    game: Box<dyn AnyGame>,
    opening: Vec<String>,
    /// Each player's margin past its limit (first, second): a protocol may allow more.
    margins: [Duration; 2],
    send_legal_moves: bool,
    times: [TimeControl; 2],
    clocks: [Clock; 2],
    /// How verdicts name the players, first then second: `A (first player)`.
    names: [String; 2],
    /// Moves each side has not been told about yet.
    unseen: [Vec<String>; 2],
    /// The side whose draw offer awaits its opponent's answer.
    draw_offer: Option<Side>,
    /// Whether the request awaiting an answer carried the opponent's draw offer.
    offered: bool,
    moves: Vec<MoveRecord>,
    /// Moves at the end of `opening` that were played in this game before it was started again
    /// (a take-back at the console): verdicts count them, so that a move keeps its number.
    resumed: u32,
    verdict: Option<Verdict>,
    /// The time of the answer that lost the game when the rules refused it (not a move, an
    /// illegal move), in microseconds, as a move's.
    refused_us: Option<u64>,
}

/// What a judged game leaves for its record.
pub struct Judged {
    /// In its final position, for the scores, colours and picture in the record.
    pub game: Box<dyn AnyGame>,
    /// Moves played before the bots took over, in canonical notation.
    pub opening: Vec<String>,
    /// Moves the bots played, with their times.
    pub moves: Vec<MoveRecord>,
    /// How the game ended.
    pub verdict: Verdict,
    /// How the verdict names the players, with their colours when a swap opening chose them.
    pub names: [String; 2],
    /// The time of the answer that lost the game when the rules refused it, in microseconds.
    pub refused_us: Option<u64>,
}

impl Judge {
    /// A game from `opening` (moves played before the bots take over), the last `resumed` of
    /// them played in this game before it was started again, the players on `times` (first,
    /// second), named in verdicts as `names`.
    pub fn new(
        rules: &GameRules,
        opening: &[String],
        resumed: usize,
        times: [TimeControl; 2],
        margins: [Duration; 2],
        names: [String; 2],
    ) -> Result<Judge, OpeningError> {
        let (game, opening) = play_opening(&rules.spec, opening)?;
        Ok(Judge {
            spec: rules.spec.clone(),
            game,
            opening,
            margins,
            send_legal_moves: rules.send_legal_moves,
            times,
            clocks: times.map(Clock::new),
            names,
            unseen: [Vec::new(), Vec::new()],
            draw_offer: None,
            offered: false,
            moves: Vec::new(),
            resumed: u32::try_from(resumed).unwrap_or(u32::MAX),
            verdict: None,
            refused_us: None,
        })
    }

    /// The setup `side` is sent before the game, ending with `start`.
    pub fn setup(&self, side: Side) -> Vec<RefereeMessage> {
        let mut setup = vec![
            RefereeMessage::Referee { version: VERSION },
            RefereeMessage::Game(self.spec.clone()),
            RefereeMessage::Side(side),
            RefereeMessage::Time(self.times[side.index()]),
        ];
        setup.extend(self.opening.iter().cloned().map(RefereeMessage::Played));
        setup.push(RefereeMessage::Start);
        setup
    }

    /// `side` did not get ready: it forfeits.
    pub fn setup_failed(&mut self, side: Side, fault: Fault) {
        let overtime = self.clocks[side.index()].overtime(self.margins[side.index()]);
        self.verdict = Some(Verdict::fault(side, Moment::Setup, fault, overtime, |_| {
            false
        }));
    }

    /// The next move to ask for, or `None` when the game is over (the rules may just have ended
    /// it).
    pub fn next_request(&mut self) -> Option<Request> {
        if self.verdict.is_some() {
            return None;
        }
        if let Some(outcome) = self.game.outcome() {
            let last = self.moves.last().map(|played| LastMove {
                number: self.resumed + self.moves.len() as u32,
                notation: played.notation.clone(),
            });
            self.verdict = Some(Verdict::Rules {
                winner: outcome.winner,
                ending: outcome.ending,
                last,
            });
            return None;
        }
        let side = self.game.side_to_move();
        let clock = &self.clocks[side.index()];
        // Room for the opponent's moves and at most three more messages: one allocation.
        let mut messages = Vec::with_capacity(self.unseen[side.index()].len() + 3);
        messages.extend(
            self.unseen[side.index()]
                .drain(..)
                .map(RefereeMessage::Opponent),
        );
        self.offered = self.draw_offer == Some(side.opponent());
        if self.offered {
            messages.push(RefereeMessage::OfferDraw);
        }
        // An offer stands only until the opponent's next answer.
        self.draw_offer = None;
        if self.send_legal_moves {
            messages.push(RefereeMessage::Legal(self.game.legal_moves_text()));
        }
        let millis = |time: Duration| u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
        messages.push(RefereeMessage::Turn {
            ms: millis(clock.available()),
            bank_left: clock.has_bank().then(|| millis(clock.bank())),
        });
        Some(Request {
            side,
            messages,
            allowed: clock.deadline(self.margins[side.index()]),
        })
    }

    /// Judges what `side` returned for the move asked for; `at` is when, since the game started.
    /// Returns whether a move was played (the game may still have ended with it).
    pub fn answer(&mut self, side: Side, reply: Result<Answer, Fault>, at: Duration) -> bool {
        let at_move = Moment::Move(self.resumed + self.moves.len() as u32 + 1);
        let clock = &mut self.clocks[side.index()];
        let forfeit = |forfeit| Verdict::Forfeit {
            loser: side,
            at: at_move,
            forfeit,
        };
        let answer = match reply {
            Ok(answer) => answer,
            Err(fault) => {
                let overtime = clock.overtime(self.margins[side.index()]);
                let game = &self.game;
                let legal = |notation: &str| match Reply::parse(notation) {
                    Ok(Reply::Move { text, .. }) => game.boxed_clone().play_text(&text).is_ok(),
                    _ => false,
                };
                self.verdict = Some(Verdict::fault(side, at_move, fault, overtime, legal));
                return false;
            }
        };
        let strike = match clock.settle(answer.elapsed, self.margins[side.index()]) {
            Ok(Settled::InTime) => None,
            Ok(Settled::Strike(number)) => Some(number),
            Err(overtime) => {
                self.verdict = Some(forfeit(Forfeit::late(
                    Some(answer.elapsed),
                    overtime,
                    None,
                    None,
                )));
                return false;
            }
        };
        let us = micros(answer.elapsed);
        let reply = match Reply::parse(&answer.line) {
            Ok(reply) => reply,
            Err(unprintable) => {
                let refused = Forfeit::NotAMove {
                    sent: answer.line,
                    written: answer.original,
                    expected: unprintable.to_string(),
                };
                return self.refuse(forfeit(refused), us);
            }
        };
        let (text, offers_draw) = match reply {
            Reply::Resign => {
                self.verdict = Some(forfeit(Forfeit::Resigned));
                return false;
            }
            Reply::AcceptDraw if self.offered => {
                self.verdict = Some(Verdict::Agreement { accepted_by: side });
                return false;
            }
            Reply::AcceptDraw => {
                self.verdict = Some(forfeit(Forfeit::UnofferedDraw));
                return false;
            }
            Reply::Move {
                offers_draw: true, ..
            } if !self.spec.allows_draw_offers() => {
                self.verdict = Some(forfeit(Forfeit::DrawOfferNotAllowed {
                    game: self.spec.name().to_string(),
                }));
                return false;
            }
            Reply::Move { text, offers_draw } => (text, offers_draw),
        };
        let refused = match self.game.play_text(&text) {
            Ok(notation) => {
                self.unseen[side.opponent().index()].push(notation.clone());
                if offers_draw {
                    self.draw_offer = Some(side);
                }
                self.moves.push(MoveRecord {
                    side,
                    notation,
                    us,
                    at_us: micros(at),
                    offers_draw,
                    messages: answer.messages,
                    strike,
                });
                return true;
            }
            Err(MoveError::NotAMove(expected)) => Forfeit::NotAMove {
                sent: text,
                written: answer.original,
                expected,
            },
            Err(MoveError::Illegal(error)) => Forfeit::IllegalMove {
                sent: text,
                written: answer.original,
                error,
            },
        };
        self.refuse(forfeit(refused), us)
    }

    /// The answer, which took `us` microseconds, lost the game by `verdict`: the rules refused
    /// it. Returns that no move was played.
    fn refuse(&mut self, verdict: Verdict, us: u64) -> bool {
        self.verdict = Some(verdict);
        self.refused_us = Some(us);
        false
    }

    /// The position now, and the last move played.
    pub fn last_move(&self) -> Option<(&dyn AnyGame, &MoveRecord)> {
        Some((self.game.as_ref(), self.moves.last()?))
    }

    /// What `side` is told once the game is over: the moves it has not seen, then the result.
    pub fn closing(&mut self, side: Side) -> Vec<RefereeMessage> {
        let verdict = self.verdict.as_ref().expect("closing after the verdict");
        let result = match verdict.winner() {
            None => GameResult::Draw,
            Some(winner) if winner == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        let mut closing: Vec<RefereeMessage> = self.unseen[side.index()]
            .drain(..)
            .map(RefereeMessage::Opponent)
            .collect();
        closing.push(RefereeMessage::Result {
            result,
            reason: verdict.termination(),
            detail: verdict.sentence(&self.named()).to_string(),
        });
        closing
    }

    /// How verdicts name the players: with the colour each plays once a swap opening chose
    /// them (`B (second player) as Black`).
    fn named(&self) -> [String; 2] {
        match self.game.colours() {
            Some(colours) => {
                std::array::from_fn(|index| format!("{} as {}", self.names[index], colours[index]))
            }
            None => self.names.clone(),
        }
    }

    /// The verdict, once the game is over.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// Ends the judging once there is a verdict, leaving what the record needs; panics before.
    pub fn finish(self) -> Judged {
        let names = self.named();
        Judged {
            game: self.game,
            opening: self.opening,
            moves: self.moves,
            verdict: self.verdict.expect("finish after the verdict"),
            names,
            refused_us: self.refused_us,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::verdict::Termination;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn judge(game: &str, time: &str) -> Judge {
        let rules = GameRules {
            spec: GameSpec::from_words::<&str>(game, &[]).unwrap(),
            margin: MS(10),
            startup: Duration::from_secs(1),
            send_legal_moves: false,
            watch_late: false,
        };
        let time = TimeControl::parse_over(TimeControl::default(), time).unwrap();
        Judge::new(
            &rules,
            &[],
            0,
            [time, time],
            [rules.margin; 2],
            ["A (first player)".into(), "B (second player)".into()],
        )
        .unwrap()
    }

    fn answer(line: &str, elapsed: Duration) -> Result<Answer, Fault> {
        Ok(Answer {
            line: line.into(),
            elapsed,
            original: None,
            messages: Vec::new(),
        })
    }

    /// Plays `moves` of tic-tac-toe, each answered after the given time, and returns the judge
    /// with the turn limit each request announced.
    fn play(time: &str, moves: &[(&str, Duration)]) -> (Judge, Vec<u64>) {
        let mut judge = judge("tictactoe", time);
        let mut turns = Vec::new();
        for (line, elapsed) in moves {
            let Some(request) = judge.next_request() else {
                break;
            };
            match request.messages.last() {
                Some(RefereeMessage::Turn { ms, .. }) => turns.push(*ms),
                other => panic!("a request ends with a turn, not {other:?}"),
            }
            judge.answer(request.side, answer(line, *elapsed), *elapsed);
        }
        (judge, turns)
    }

    fn sentence(judge: &Judge) -> String {
        judge
            .verdict()
            .expect("a verdict")
            .sentence(&judge.names)
            .to_string()
    }

    #[test]
    fn an_answer_up_to_the_limit_plus_the_margin_counts() {
        for elapsed in [
            MS(0),
            MS(200),
            MS(210).checked_sub(Duration::from_nanos(1)).unwrap(),
            MS(210),
        ] {
            let (judge, _) = play("move=200", &[("1 1", elapsed)]);
            assert_eq!(judge.verdict(), None, "{elapsed:?}");
            assert_eq!(judge.moves.len(), 1);
            assert_eq!(judge.moves[0].us, micros(elapsed));
        }
    }

    #[test]
    fn an_answer_just_past_the_limit_plus_the_margin_is_late() {
        let (judge, _) = play("move=200", &[("1 1", MS(210) + Duration::from_micros(1))]);
        let verdict = judge.verdict().unwrap();
        assert_eq!(verdict.termination(), Termination::Timeout);
        assert_eq!(verdict.winner(), Some(Side::Second));
        assert!(judge.moves.is_empty(), "a late move is not played");
        assert_eq!(
            sentence(&judge),
            "A (first player) answered move 1 after 210.0 ms; the limit is 200 ms (+10 ms margin)"
        );
    }

    #[test]
    fn no_answer_before_the_watchdog_is_the_same_lateness() {
        let mut judge = judge("tictactoe", "move=200");
        let request = judge.next_request().unwrap();
        assert_eq!(request.allowed, MS(210));
        judge.answer(Side::First, Err(Fault::timeout(MS(260))), MS(260));
        assert_eq!(judge.verdict().unwrap().termination(), Termination::Timeout);
        assert_eq!(
            sentence(&judge),
            "A (first player) did not answer move 1 within 210 ms; the limit is 200 ms (+10 ms margin)"
        );
    }

    /// A move written on stderr is named in the timeout when the rules allow it here: not a
    /// line that is no move, not a square already taken.
    #[test]
    fn a_timeout_names_a_legal_move_written_on_stderr() {
        let timed_out = |lines: &[&str]| {
            let (mut judge, _) = play("move=200", &[("1 1", MS(1))]);
            let request = judge.next_request().unwrap();
            let on_stderr = lines
                .iter()
                .map(|line| referee_rules::verdict::StderrMove {
                    written: format!("{line} "),
                    notation: (*line).to_string(),
                })
                .collect();
            let fault = Fault::Timeout {
                waited: MS(260),
                on_stderr,
                passed_over: None,
            };
            judge.answer(request.side, Err(fault), MS(260));
            sentence(&judge)
        };
        let bare = "B (second player) did not answer move 2 within 210 ms; the limit is 200 ms \
                    (+10 ms margin)";
        assert_eq!(timed_out(&["eval 3", "1 1"]), bare);
        assert_eq!(
            timed_out(&["2 2", "eval 3", "1 1"]),
            format!(
                "{bare}; it wrote '2 2 ' on standard error; moves must go to standard output \
                 (print / System.out / cout), flushed"
            )
        );
    }

    /// CodinGame's SDK: a player late on two turns within the hard limit plays on, each late
    /// move a strike in the record; late on a third, it loses.
    #[test]
    fn two_strikes_play_on_and_the_third_loses() {
        let late = MS(140);
        // B's first move has CodinGame's first-turn 1000 ms; its next ones are late.
        let mut moves = vec![
            ("0 0", MS(5)),
            ("1 1", MS(5)),
            ("2 2", MS(5)),
            ("0 2", late),
            ("2 0", MS(5)),
            ("1 0", late),
            ("1 2", MS(110)),
        ];
        let (judge, _) = play("codingame", &moves);
        assert_eq!(judge.verdict(), None);
        let strikes: Vec<Option<u64>> = judge.moves.iter().map(|m| m.strike).collect();
        assert_eq!(strikes, [None, None, None, Some(1), None, Some(2), None]);
        moves.push(("2 1", late));
        let (judge, _) = play("codingame", &moves);
        assert_eq!(judge.verdict().unwrap().termination(), Termination::Timeout);
        assert_eq!(judge.moves.len(), 7, "the third late move is not played");
        assert_eq!(
            sentence(&judge),
            "B (second player) answered move 8 after 140.0 ms; the limit is 100 ms (+10 ms \
             margin): its strike 3 over the limit, 2 being forgiven"
        );
        // Past the hard limit, a first late move loses at once.
        let (judge, _) = play(
            "codingame",
            &[("0 0", MS(5)), ("1 1", MS(5)), ("2 2", MS(161))],
        );
        assert_eq!(
            sentence(&judge),
            "A (first player) answered move 3 after 161.0 ms; the limit is 100 ms (+10 ms \
             margin), and 160 ms for a move counted as a strike"
        );
        let mut fresh = self::judge("tictactoe", "codingame");
        assert_eq!(fresh.next_request().unwrap().allowed, MS(1060));
    }

    #[test]
    fn a_bank_shrinks_with_each_move_and_the_turn_says_what_is_left() {
        // Each side's first move uses 900 of its 1000 ms: 100 ms left for its second.
        let (judge, turns) = play(
            "bank=1000",
            &[
                ("0 0", MS(900)),
                ("1 1", MS(900)),
                ("2 2", MS(110)),
                ("0 2", MS(111)),
            ],
        );
        assert_eq!(turns, [1000, 1000, 100, 100]);
        assert_eq!(judge.moves.len(), 3, "110 ms is within 100 ms + 10 ms");
        assert_eq!(
            sentence(&judge),
            "B (second player) answered move 4 after 111.0 ms; the limit is 100 ms (+10 ms margin)"
        );
    }

    #[test]
    fn an_increment_refills_the_bank() {
        // 1000 - 900 + 300 = 400 ms for each side's second move.
        let (judge, turns) = play(
            "bank=1000,increment=300",
            &[
                ("0 0", MS(900)),
                ("1 1", MS(900)),
                ("2 2", MS(410)),
                ("0 2", MS(411)),
            ],
        );
        assert_eq!(turns, [1000, 1000, 400, 400]);
        assert_eq!(judge.moves.len(), 3);
        assert_eq!(judge.verdict().unwrap().termination(), Termination::Timeout);
    }

    #[test]
    fn the_first_move_allowance_holds_for_each_side_once() {
        let (judge, turns) = play(
            "move=100,first=1000",
            &[
                ("0 0", MS(1010)),
                ("1 1", MS(950)),
                ("2 2", MS(110)),
                ("0 2", MS(111)),
            ],
        );
        assert_eq!(turns, [1000, 1000, 100, 100]);
        assert_eq!(judge.moves.len(), 3);
        assert_eq!(
            sentence(&judge),
            "B (second player) answered move 4 after 111.0 ms; the limit is 100 ms (+10 ms margin)"
        );
    }

    #[test]
    fn the_first_move_allowance_is_not_charged_to_a_bank() {
        let (judge, turns) = play(
            "bank=500,first=2000",
            &[("0 0", MS(1900)), ("1 1", MS(10)), ("2 2", MS(500))],
        );
        assert_eq!(turns, [2000, 2000, 500]);
        assert_eq!(judge.verdict(), None);
    }

    #[test]
    fn a_setup_fault_forfeits_before_any_move() {
        let mut judge = judge("tictactoe", "move=200");
        judge.setup_failed(
            Side::Second,
            Fault::NotReady {
                detail: "no 'ready' within 1000 ms".into(),
            },
        );
        assert_eq!(judge.next_request(), None);
        assert_eq!(
            judge.verdict().unwrap().termination(),
            Termination::NotReady
        );
        assert_eq!(
            sentence(&judge),
            "B (second player) not ready: no 'ready' within 1000 ms during the setup"
        );
        let closing = judge.closing(Side::First);
        assert_eq!(
            closing.last().unwrap().to_string(),
            "result win not-ready B (second player) not ready: no 'ready' within 1000 ms during the setup"
        );
    }

    #[test]
    fn an_illegal_move_names_the_broken_rule() {
        let (judge, _) = play("move=200", &[("1 1", MS(1)), ("1 1", MS(1))]);
        let verdict = judge.verdict().unwrap();
        assert_eq!(verdict.termination(), Termination::IllegalMove);
        assert_eq!(verdict.violation(), Some("occupied"));
        assert_eq!(
            sentence(&judge),
            "B (second player) played the illegal move '1 1' at move 2: 1 1 is already taken"
        );
    }

    /// The time of an answer the rules refused (an illegal move, a line that is not a move) is
    /// kept for the record, as a move's; a resignation is no refusal.
    #[test]
    fn a_refused_answer_keeps_its_time() {
        for (answer, kept) in [
            ("1 1", Some(7000)),
            ("banana", Some(7000)),
            ("1\u{7}1", Some(7000)),
            ("resign", None),
        ] {
            let (judge, _) = play("move=200", &[("1 1", MS(1)), (answer, MS(7))]);
            assert!(judge.verdict().is_some(), "{answer:?}");
            assert_eq!(judge.finish().refused_us, kept, "{answer:?}");
        }
    }

    /// The opening's moves are not counted; moves kept from before a take-back are.
    #[test]
    fn moves_are_counted_after_the_opening_resumed_ones_included() {
        let rules = GameRules {
            spec: GameSpec::Tictactoe,
            margin: MS(10),
            startup: Duration::from_secs(1),
            send_legal_moves: false,
            watch_late: false,
        };
        let opening = ["1 1", "0 0", "2 2"].map(String::from);
        for (resumed, number) in [(0, 1), (1, 2)] {
            let time = TimeControl::default();
            let names = ["A (first player)".into(), "B (second player)".into()];
            let mut judge = Judge::new(
                &rules,
                &opening,
                resumed,
                [time; 2],
                [rules.margin; 2],
                names,
            )
            .unwrap();
            let request = judge.next_request().unwrap();
            judge.answer(request.side, answer("resign", MS(1)), MS(1));
            assert_eq!(
                sentence(&judge),
                format!("B (second player) resigned at move {number}")
            );
        }
    }
}
