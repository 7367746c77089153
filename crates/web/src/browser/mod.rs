//! A person in a web browser as a seat (`referee play GAME --browser`): the match loop asks
//! them for moves exactly as it asks a bot or the console, so clocks, verdicts and records are
//! the same. The seat follows the game on its own copy of the position (from the setup's `game`
//! and `played` lines and the `opponent` lines) and shows it on a page served from this
//! machine: the position's picture with the legal moves clickable, a clock counting down, and
//! buttons to resign and to offer or accept a draw. A move is checked before it is sent, so a
//! slip never costs the turn.

mod page;

pub use page::{answer, PlayPage, PlayRefused};
use page::{Shown, Submission};
use referee_cage::console::screen::{Screen, Voice};
use referee_cage::requests::Setup;
use referee_cage::{Answer, Seat};
use referee_core::console_game::PersonPages;
use referee_records::transcript::{Direction, SeatLog, TranscriptLine};
use referee_rules::games::{AnyGame, Colour, GameSpec, Side, SwapStep};
use referee_rules::protocol::{GameResult, Ready, RefereeMessage};
use referee_rules::verdict::Fault;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the end of a game waits for the page to fetch the result.
const RESULT_SEEN_WAIT: Duration = Duration::from_secs(3);

/// How long a person has to open the page before their first move is lost on time: their
/// clock starts only once the page shows the position.
const OPEN_DEADLINE: Duration = Duration::from_secs(300);

/// The pages of the people who play in the browser (`referee play --browser`): the first
/// person's on the port asked for (0: any free port), a second person's on any free port.
pub struct BrowserPages {
    /// The first page's socket, until that page is opened.
    first: Option<std::net::TcpListener>,
}

impl BrowserPages {
    /// Pages whose first is served on `port`, taken now: a port in use is said before the
    /// game is announced (it was said as the person's failure to start, after the banner).
    pub fn new(port: u16) -> std::io::Result<BrowserPages> {
        Ok(BrowserPages {
            first: Some(PlayPage::listen(port)?),
        })
    }
}

impl PersonPages for BrowserPages {
    fn open(&mut self, label: &str, opponent: String) -> Result<Box<dyn Seat + Send>, String> {
        let served = match self.first.take() {
            Some(listener) => PlayPage::start(listener),
            None => PlayPage::listen(0).and_then(PlayPage::start),
        };
        let (page, url) =
            served.map_err(|error| format!("cannot serve the browser page: {error}"))?;
        Screen::stdout().say(
            Voice::Plain,
            &format!(
                "{label} plays in the browser: open {} (the clock starts when the page shows the position; open it within {} minutes)",
                url,
                OPEN_DEADLINE.as_secs() / 60
            ),
        );
        Ok(Box::new(BrowserSeat::new(page, opponent)))
    }
}

/// The game as the seat follows it.
struct FollowedGame {
    spec: GameSpec,
    game: Box<dyn AnyGame>,
    side: Side,
    moves: Vec<String>,
}

/// A person's seat in the browser.
pub struct BrowserSeat {
    page: PlayPage,
    answers: Receiver<Submission>,
    transcript: Vec<TranscriptLine>,
    followed: Option<FollowedGame>,
    /// Who the opponent is, for the page's messages.
    opponent: String,
    /// The person offered a draw with their last move: if the game goes on, the opponent
    /// declined it, which the next turn says.
    offered_draw: bool,
}

impl BrowserSeat {
    /// A seat showing its game on `page`, against `opponent` (as the page names it).
    pub fn new(page: PlayPage, opponent: String) -> BrowserSeat {
        let answers = page.answers();
        BrowserSeat {
            page,
            answers,
            transcript: Vec::new(),
            followed: None,
            opponent,
            offered_draw: false,
        }
    }

    fn log_sent(&mut self, messages: &[RefereeMessage]) {
        self.transcript
            .extend(TranscriptLine::sent(messages, Instant::now()));
    }

    /// Shows the position; `turn` is the time the person has for a move when it is theirs.
    fn show(
        &self,
        message: String,
        turn: Option<Option<Duration>>,
        draw_offered: bool,
        over: bool,
    ) {
        let Some(followed) = &self.followed else {
            return;
        };
        let legal = if turn.is_some() {
            followed.game.legal_moves_text()
        } else {
            Vec::new()
        };
        let picture = followed.game.picture();
        // Dots and boxes: the score, which the drawing shows only box by box.
        let message = match followed.game.scores() {
            Some(scores) => format!(
                "{message} Boxes: you {}, {} {}.",
                scores[followed.side.index()],
                self.opponent,
                scores[followed.side.opponent().index()]
            ),
            None => message,
        };
        // Once a swap opening has chosen the colours, the person's is said (it may not be the
        // seat's usual one).
        let playing = match followed.game.colours() {
            Some(colours) => colours[followed.side.index()].to_string(),
            None => followed.spec.side_names()[followed.side.index()].to_string(),
        };
        self.page.show(Shown {
            title: format!(
                "You play {playing} ({}) against {}",
                followed.side, self.opponent
            ),
            svg: picture.to_svg(turn.is_some()),
            legal,
            moves: followed.moves.clone(),
            your_turn: turn.is_some(),
            remaining_ms: turn.flatten().map(|left| left.as_millis() as u64),
            draw_offers: followed.spec.allows_draw_offers(),
            draw_offered,
            message,
            over,
            game: followed.game.boxed_clone(),
        });
    }

    /// What the person is told at their turn: the draw they offered declined, what a swap
    /// opening asks of them (the colour of a stone shows only once placed), a draw offered.
    fn turn_message(&mut self, offered: bool) -> String {
        let mut message = "Your move.".to_string();
        if std::mem::take(&mut self.offered_draw) {
            message += &format!(" {} declines your draw.", self.opponent);
        }
        let step = self.followed.as_ref().and_then(|f| f.game.swap_step());
        match step {
            Some(SwapStep::Place(stone)) => message += &format!(" Place {stone}."),
            Some(SwapStep::Choose { more }) => {
                let white = Colour::White.stone();
                message += &if more {
                    format!(
                        " Take Black with Swap, place {white} and play White, or place two more and let {} choose.",
                        self.opponent
                    )
                } else {
                    format!(" Take Black with Swap, or place {white} and play White.")
                };
            }
            None => {}
        }
        if offered {
            message += &format!(" {} offers a draw.", self.opponent);
        }
        message
    }

    /// Plays the opponent's moves told in `messages`; whether they offered a draw.
    fn follow(&mut self, messages: &[RefereeMessage]) -> bool {
        let mut offered = false;
        if let Some(followed) = self.followed.as_mut() {
            for message in messages {
                match message {
                    RefereeMessage::Opponent(mv) if followed.game.play_text(mv).is_ok() => {
                        followed.moves.push(mv.clone());
                    }
                    RefereeMessage::OfferDraw => offered = true,
                    _ => {}
                }
            }
        }
        offered
    }
}

impl Seat for BrowserSeat {
    fn setup(&mut self, messages: &[RefereeMessage], _allowance: Duration) -> Result<Ready, Fault> {
        self.log_sent(messages);
        let Setup {
            spec, side, played, ..
        } = Setup::read(messages);
        let mut game = spec.new_game();
        for mv in &played {
            game.play_text(mv).map_err(|e| Fault::NotReady {
                detail: format!("opening move '{mv}': {e}"),
            })?;
        }
        self.followed = Some(FollowedGame {
            spec,
            game,
            side,
            moves: played,
        });
        self.show(
            format!("Waiting for {} to be ready.", self.opponent),
            None,
            false,
            false,
        );
        let ready = Ready {
            name: "human".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            multi_game: false,
        };
        self.transcript.push(TranscriptLine {
            at: Instant::now(),
            direction: Direction::FromBot,
            line: ready.to_string(),
        });
        Ok(ready)
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.log_sent(messages);
        let offered = self.follow(messages);
        let limit = messages.iter().find_map(|message| match message {
            RefereeMessage::Turn { ms, .. } => Some(Duration::from_millis(*ms)),
            _ => None,
        });
        // Answers sent before this turn (a double click) are not for it.
        while self.answers.try_recv().is_ok() {}
        let message = self.turn_message(offered);
        self.show(message, Some(limit), offered, false);
        // The clock starts once the page shows the position, not before it is opened.
        let Some(asked) = self.page.first_seen(OPEN_DEADLINE) else {
            return Err(Fault::timeout(OPEN_DEADLINE));
        };
        loop {
            let left = watchdog.saturating_sub(asked.elapsed());
            let submission = match self.answers.recv_timeout(left) {
                Ok(submission) => submission,
                Err(RecvTimeoutError::Timeout) => return Err(Fault::timeout(watchdog)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Exited {
                        detail: "the browser page's server stopped".into(),
                    })
                }
            };
            let at = Instant::now();
            let line = match submission {
                Submission::Resign => "resign".to_string(),
                Submission::AcceptDraw if offered => "draw".to_string(),
                Submission::AcceptDraw => continue,
                Submission::Move {
                    canonical,
                    offers_draw,
                } => {
                    let followed = self.followed.as_mut().expect("set up before a turn");
                    if followed.game.play_text(&canonical).is_err() {
                        continue;
                    }
                    followed.moves.push(canonical.clone());
                    self.offered_draw = offers_draw;
                    if offers_draw {
                        format!("{canonical} draw")
                    } else {
                        canonical
                    }
                }
            };
            self.transcript.push(TranscriptLine {
                at,
                direction: Direction::FromBot,
                line: line.clone(),
            });
            self.show(
                format!("{} is thinking...", self.opponent),
                None,
                false,
                false,
            );
            return Ok(Answer {
                line,
                elapsed: at.saturating_duration_since(asked),
                original: None,
                messages: Vec::new(),
            });
        }
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        self.log_sent(messages);
        self.follow(messages);
        if let Some(RefereeMessage::Result { result, detail, .. }) = messages
            .iter()
            .find(|message| matches!(message, RefereeMessage::Result { .. }))
        {
            // The person first, in their words; then the verdict as it stands in the record.
            let headline = match result {
                GameResult::Win => "You win.",
                GameResult::Loss => "You lose.",
                GameResult::Draw => "Draw.",
            };
            self.show(format!("Game over. {headline} {detail}"), None, false, true);
        }
    }

    fn take_log(&mut self) -> SeatLog {
        SeatLog {
            transcript: std::mem::take(&mut self.transcript),
            ..SeatLog::default()
        }
    }

    /// The page stays up showing the result until the command ends; the seat first waits (a few
    /// seconds at most) for the page to fetch that result, so that a command ending with the
    /// game does not take the result away before it was seen.
    fn finish(&mut self) {
        self.page.wait_until_fetched(RESULT_SEEN_WAIT);
    }
}
