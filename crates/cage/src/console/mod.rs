//! A person at the console as a seat: the match loop asks them for moves exactly as it asks a
//! bot, so clocks, verdicts and records are the same. The seat follows the game on its own copy
//! of the position (from the setup's `game` and `played` lines and the `opponent` lines), so it
//! can draw the board and check what is typed before sending it: bad input never costs the turn,
//! only the time spent typing it.
//!
//! In raw mode the person sees the protocol's lines exactly and what they type is sent as it
//! is: they are the bot, with a bot's verdicts (protocol.md).

pub mod board_view;
pub mod input;
pub mod keyboard;
mod long_lines;
pub mod notation;
pub mod screen;

use super::requests::Setup;
use super::{Answer, Seat};
use board_view::{draw, move_words, played_line, side_name, turn_line, Seating};
use input::{help, hint, refusal, Input};
use keyboard::{Keyboard, Prompt, Typed};
use notation::friendly;
use referee_records::transcript::{Direction, SeatLog, TranscriptLine};
use referee_rules::games::{AnyGame, Forbidden, GameSpec, PieceMove, Side};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::quote::shorten;
use referee_rules::verdict::Fault;
use screen::{terminal_columns, Screen, Voice};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// When this much time is left, the console says so once (if the move's limit is longer).
const WARNING: Duration = Duration::from_secs(10);

/// Widest line of the move list.
const LIST_WIDTH: usize = 78;

/// How a console seat behaves.
#[derive(Clone, Debug)]
pub struct ConsoleOptions {
    /// Show the protocol's lines and send what is typed as it is.
    pub raw: bool,
    /// Show the time left (false when the person plays without a clock).
    pub clock: bool,
    /// Who sits on each side, to name them in what the console says.
    pub seating: Seating,
    /// `Some(n)` when the person may take back their moves (a casual game: a bot, no clock):
    /// any but the first `n` moves of the game, which are the opening it was started from.
    pub takebacks: Option<usize>,
}

/// A person at the console, seated as a player: it draws the board, reads the moves typed and
/// refuses bad ones before the arbiter sees them.
pub struct ConsoleSeat {
    keyboard: Rc<Keyboard>,
    screen: Screen,
    options: ConsoleOptions,
    transcript: Vec<TranscriptLine>,
    followed: Option<FollowedGame>,
    /// The person left the last game to take back their last move: whoever started it is to
    /// start it again from the position before that move.
    took_back: bool,
}

/// Counts the person's move `canonical`, just played on `followed`'s game, and says it.
fn moved(seating: &Seating, followed: &mut FollowedGame, canonical: &str, offers: bool) -> String {
    followed.moves += 1;
    followed.takeable += 1;
    followed.offering = false;
    followed.offered_with_last = offers;
    let spec = &followed.spec;
    let (offer, offers_too) = if offers {
        (" and offer a draw", " and offers a draw")
    } else {
        ("", "")
    };
    said(
        seating,
        followed,
        &format!("{}{offer}.", move_words(spec, canonical, true)),
        &format!("{}{offers_too}.", move_words(spec, canonical, false)),
    )
}

/// What the person at this seat did: "You ..." (`you`), or, when two people share the
/// keyboard, their side's name and `they` ("Black resigns."), so that neither is called "you".
fn said(seating: &Seating, followed: &FollowedGame, you: &str, they: &str) -> String {
    if seating.humans.iter().all(|&human| human) {
        format!("{} {they}", side_name(&followed.spec, followed.side))
    } else {
        format!("You {you}")
    }
}

/// The game as the seat follows it.
struct FollowedGame {
    spec: GameSpec,
    game: Box<dyn AnyGame>,
    side: Side,
    /// Moves played since the opening: the prompt numbers the move asked for as verdicts,
    /// `referee check` and protocol.md count, so that "Move 3" and "at move 3" are one move.
    moves: usize,
    /// Moves of the person's that may be taken back (played after the opening).
    takeable: usize,
    /// The player offered a draw, to go with their next move.
    offering: bool,
    /// The player's last move offered a draw: the opponent's next move declines it.
    offered_with_last: bool,
}

impl ConsoleSeat {
    /// A seat reading `keyboard` (shared when two people play at one keyboard).
    pub fn new(keyboard: Rc<Keyboard>, options: ConsoleOptions) -> ConsoleSeat {
        ConsoleSeat {
            keyboard,
            screen: Screen::stdout(),
            options,
            transcript: Vec::new(),
            followed: None,
            took_back: false,
        }
    }

    /// Whether the person left the last game to take back their last move (see
    /// [`ConsoleOptions::takebacks`]); asking again says no until they do it again.
    pub fn took_back(&mut self) -> bool {
        std::mem::take(&mut self.took_back)
    }

    fn log_sent(&mut self, messages: &[RefereeMessage]) {
        self.transcript
            .extend(TranscriptLine::sent(messages, Instant::now()));
        if self.options.raw {
            for message in messages {
                self.screen.say(Voice::Plain, &message.to_string());
            }
        }
    }

    fn log_answer(&mut self, line: &str, at: Instant) {
        self.transcript.push(TranscriptLine {
            at,
            direction: Direction::FromBot,
            line: line.to_string(),
        });
    }

    /// Raw mode: the line typed before `deadline`, as it is. A line typed before it was asked
    /// for is output when not asked, as for a bot.
    fn raw_answer(&mut self, deadline: Instant) -> Result<(String, Instant), Fault> {
        if let Some(early) = self.keyboard.typed_ahead().into_iter().next() {
            return Err(Fault::Unrequested {
                line: early,
                memory_limit_mb: None,
            });
        }
        let started = Instant::now();
        match self.keyboard.read(&"", deadline) {
            Typed::Line { text, at } => {
                self.log_answer(&text, at);
                Ok((text, at))
            }
            Typed::Nothing => Err(Fault::timeout(started.elapsed())),
            Typed::Closed => Err(closed()),
        }
    }

    /// Follows the setup on a fresh copy of the game.
    fn sit_down(&mut self, messages: &[RefereeMessage]) -> Result<(), String> {
        let Setup {
            spec, side, played, ..
        } = Setup::read(messages);
        let mut game = spec.new_game();
        // After a take-back the game starts again from every move kept, but only the opening it
        // was first started from is the opening.
        let opening = self.options.takebacks.unwrap_or(played.len());
        let mut takeable = 0;
        for (index, mv) in played.iter().enumerate() {
            takeable += usize::from(index >= opening && game.side_to_move() == side);
            game.play_text(mv)
                .map_err(|e| format!("opening move '{mv}': {e}"))?;
        }
        self.followed = Some(FollowedGame {
            spec,
            game,
            side,
            moves: played.len().saturating_sub(opening),
            takeable,
            offering: false,
            offered_with_last: false,
        });
        Ok(())
    }

    /// Asks the person for a move until they give a legal one, a command that ends their turn,
    /// or the time is up.
    fn turn(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        let Some(mut followed) = self.followed.take() else {
            return Err(Fault::Exited {
                detail: "was asked for a move before the setup".into(),
            });
        };
        let answer = self.take_turn(&mut followed, messages, watchdog);
        self.followed = Some(followed);
        answer
    }

    fn take_turn(
        &mut self,
        followed: &mut FollowedGame,
        messages: &[RefereeMessage],
        watchdog: Duration,
    ) -> Result<Answer, Fault> {
        let (limit, offered) = self.begin_turn(followed, messages);
        let limit = limit.unwrap_or(watchdog);
        let shown_at = Instant::now();
        let deadline = shown_at + watchdog;
        let out_of_time = shown_at + limit;
        let mut warned = !self.options.clock || limit <= WARNING;
        let prompt = TurnPrompt {
            me: side_name(&followed.spec, followed.side),
            out_of_time: self.options.clock.then_some(out_of_time),
        };
        loop {
            let wake = if warned {
                deadline
            } else {
                out_of_time.checked_sub(WARNING).unwrap_or(out_of_time)
            };
            match self.keyboard.read(&prompt, wake) {
                Typed::Line { text, at } => {
                    if let Some(line) = self.respond(followed, &text, offered) {
                        self.log_answer(&line, at);
                        return Ok(Answer {
                            line,
                            elapsed: at.saturating_duration_since(shown_at),
                            original: None,
                            messages: Vec::new(),
                        });
                    }
                }
                Typed::Nothing if !warned => {
                    warned = true;
                    let warning = format!("\n{} left!", seconds(WARNING));
                    self.screen.say(Voice::Warning, &warning);
                }
                Typed::Nothing => {
                    self.keyboard.discard();
                    self.screen.say(Voice::Warning, "\nTime is up.");
                    return Err(Fault::timeout(shown_at.elapsed()));
                }
                Typed::Closed => {
                    self.screen
                        .say(Voice::Warning, "\nThe console's input ended.");
                    return Err(closed());
                }
            }
        }
    }

    /// Follows the opponent's moves and shows them, a draw offered, the board and whose turn it
    /// is. Returns the time limit of the turn and whether a draw is offered.
    fn begin_turn(
        &mut self,
        followed: &mut FollowedGame,
        messages: &[RefereeMessage],
    ) -> (Option<Duration>, bool) {
        let seating = &self.options.seating;
        let screen = &mut self.screen;
        let spec = &followed.spec;
        let (mut limit, mut offered) = (None, false);
        for message in messages {
            match message {
                RefereeMessage::Opponent(mv) => {
                    let opponent = followed.side.opponent();
                    // A person at this keyboard saw their own move said as they played it.
                    if !seating.humans[opponent.index()] {
                        screen.say(Voice::Plain, &played_line(spec, seating, opponent, mv));
                    }
                    followed.moves += 1;
                    if let Err(error) = followed.game.play_text(mv) {
                        let lost = format!("(the console lost track of the game: {error})");
                        screen.say(Voice::Warning, &lost);
                    }
                }
                RefereeMessage::OfferDraw => offered = true,
                RefereeMessage::Turn { ms, .. } => limit = Some(Duration::from_millis(*ms)),
                _ => {}
            }
        }
        // The opponent played on: a bot declined the person's offer (a person at this
        // keyboard said so as they played).
        let opponent = followed.side.opponent();
        if std::mem::take(&mut followed.offered_with_last) && !seating.humans[opponent.index()] {
            let declined = format!("{} declines the draw.", seating.who(spec, opponent));
            screen.say(Voice::Plain, &declined);
        }
        for early in self.keyboard.typed_ahead() {
            let ignored = format!(
                "(ignored '{}', typed before your turn)",
                shorten(&early, 40)
            );
            screen.say(Voice::Aside, &ignored);
        }
        if offered {
            let offer = format!(
                "{} offers a draw: type draw to accept it, or play a move to decline it.",
                seating.who(spec, followed.side.opponent())
            );
            screen.say(Voice::Warning, &offer);
        }
        let movable = movable_pieces(followed);
        let only_piece = match movable[..] {
            [only] => Some(only),
            _ => None,
        };
        screen.show(&draw(
            followed.game.as_ref(),
            only_piece,
            terminal_columns(),
        ));
        let turn = turn_line(spec, seating, followed.game.as_ref(), followed.moves + 1);
        screen.say(Voice::Plain, &turn);
        if !movable.is_empty() {
            screen.say(
                Voice::Plain,
                &format!(
                    "Pieces that can move: {} (type one to see where it can go).",
                    list(&movable)
                ),
            );
        }
        (limit, offered)
    }

    /// Answers a line typed during the turn; returns the reply to send when it ends the turn.
    fn respond(
        &mut self,
        followed: &mut FollowedGame,
        text: &str,
        offered: bool,
    ) -> Option<String> {
        let screen = &mut self.screen;
        let spec = &followed.spec;
        match input::read(spec, followed.game.as_ref(), text) {
            Input::Nothing => {}
            Input::Help => screen.say(Voice::Plain, &help(spec)),
            Input::Moves => screen.say(Voice::Plain, &move_list(followed)),
            Input::Resign => {
                let line = said(&self.options.seating, followed, "resign.", "resigns.");
                screen.say(Voice::Plain, &line);
                return Some("resign".into());
            }
            Input::Quit => {
                screen.say(Voice::Plain, "You leave the game (it counts as resigning).");
                return Some("resign".into());
            }
            Input::Undo if self.options.takebacks.is_none() => screen.say(
                Voice::Warning,
                "Moves are taken back only in a casual game against a bot, one that can start\n\
                 from a position, without a clock (--human-time off).",
            ),
            Input::Undo if followed.takeable == 0 => {
                screen.say(Voice::Warning, "You have no move to take back.");
            }
            Input::Undo => {
                // The game is left and started again from before the person's last move (see
                // `console_game`): a bot knows no taking back, only games.
                self.took_back = true;
                return Some("resign".into());
            }
            Input::Draw if offered => {
                let line = said(
                    &self.options.seating,
                    followed,
                    "accept the draw.",
                    "accepts the draw.",
                );
                screen.say(Voice::Plain, &line);
                return Some("draw".into());
            }
            Input::Draw if spec.allows_draw_offers() => {
                followed.offering = true;
                screen.say(
                    Voice::Plain,
                    "Your draw offer goes with your next move: type it.",
                );
            }
            Input::Draw => {
                let none = format!(
                    "There are no draw offers in {}: play on, or resign.",
                    spec.name()
                );
                screen.say(Voice::Warning, &none);
            }
            Input::Select(square) => {
                let moves: Vec<String> = piece_moves_in_order(followed.game.as_ref())
                    .into_iter()
                    .filter(|mv| mv.from == square)
                    .map(|mv| mv.notation)
                    .collect();
                if moves.is_empty() {
                    let movable = list(&movable_pieces(followed));
                    let none =
                        format!("No move starts on {square}. Pieces that can move: {movable}.");
                    screen.say(Voice::Warning, &none);
                } else {
                    screen.show(&draw(
                        followed.game.as_ref(),
                        Some(square),
                        terminal_columns(),
                    ));
                    screen.say(
                        Voice::Plain,
                        &format!("Moves of {square}: {}", moves.join(", ")),
                    );
                }
            }
            Input::Unclear(why) => screen.say(Voice::Warning, &why),
            Input::Move {
                typed,
                notation,
                offers_draw,
            } => return self.play_typed(followed, &typed, &notation, offers_draw, offered),
        }
        None
    }

    /// Plays a move typed in `notation` (`typed` as the person wrote it) when it is legal,
    /// saying so (and that an offer of the opponent's is declined); otherwise says why not.
    /// Returns the reply to send, when the move is played.
    fn play_typed(
        &mut self,
        followed: &mut FollowedGame,
        typed: &str,
        notation: &str,
        offers_draw: bool,
        offered: bool,
    ) -> Option<String> {
        let (screen, seating) = (&mut self.screen, &self.options.seating);
        let spec = &followed.spec;
        let mut trial = followed.game.boxed_clone();
        let played = trial.play_text(notation);
        if let (Ok(canonical), Some(shape)) = (&played, Forbidden::played(trial.as_ref())) {
            // The rules make it a loss; a person is told, and keeps the turn.
            screen.say(Voice::Warning, &shape.refusal(canonical));
            return None;
        }
        match played {
            Ok(_) if offers_draw && !spec.allows_draw_offers() => {
                let none = format!("There are no draw offers in {}.", spec.name());
                screen.say(Voice::Warning, &none);
                None
            }
            Ok(canonical) => {
                followed.game = trial;
                if offered {
                    let line = said(seating, followed, "decline the draw.", "declines the draw.");
                    screen.say(Voice::Plain, &line);
                }
                let offers = offers_draw || followed.offering;
                let line = moved(seating, followed, &canonical, offers);
                screen.say(Voice::Plain, &line);
                Some(if offers {
                    format!("{canonical} draw")
                } else {
                    canonical
                })
            }
            Err(error) => {
                let shown = if typed == notation {
                    typed.to_string()
                } else {
                    format!("{typed} ({notation})")
                };
                let why = refusal(&error);
                screen.say(Voice::Warning, &format!("{}: {why}", shorten(&shown, 60)));
                if let Some(hint) = hint(spec, &error) {
                    screen.say(Voice::Plain, &hint);
                }
                None
            }
        }
    }
}

impl Seat for ConsoleSeat {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        self.log_sent(messages);
        if self.options.raw {
            let (line, _) =
                self.raw_answer(Instant::now() + allowance)
                    .map_err(|fault| match fault {
                        Fault::Timeout { .. } => Fault::NoReadyLine { allowance },
                        other => other,
                    })?;
            return Ready::parse(&line).map_err(|e| Fault::NotReady {
                detail: e.to_string(),
            });
        }
        self.sit_down(messages)
            .map_err(|detail| Fault::NotReady { detail })?;
        let ready = Ready {
            name: "human".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            multi_game: false,
        };
        self.log_answer(&ready.to_string(), Instant::now());
        Ok(ready)
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.log_sent(messages);
        if self.options.raw {
            let asked = Instant::now();
            let (line, at) = self.raw_answer(asked + watchdog)?;
            return Ok(Answer {
                line,
                elapsed: at.saturating_duration_since(asked),
                original: None,
                messages: Vec::new(),
            });
        }
        self.turn(messages, watchdog)
    }

    fn tell(&mut self, messages: &[RefereeMessage]) {
        self.log_sent(messages);
        if let Some(followed) = self.followed.as_mut() {
            for message in messages {
                if let RefereeMessage::Opponent(mv) = message {
                    let _ = followed.game.play_text(mv);
                    followed.moves += 1;
                }
            }
        }
    }

    fn take_log(&mut self) -> SeatLog {
        SeatLog {
            transcript: std::mem::take(&mut self.transcript),
            ..SeatLog::default()
        }
    }

    /// A person needs no telling that the last game is over: its result was shown.
    fn finish(&mut self) {}
}

fn closed() -> Fault {
    Fault::Exited {
        detail: "closed the console's input (end of file)".into(),
    }
}

/// The prompt of a person's turn: their side, and on the clock the time left, counting down.
struct TurnPrompt {
    me: &'static str,
    out_of_time: Option<Instant>,
}

impl Prompt for TurnPrompt {
    /// `X [29 s]> `, or `X> ` without a clock.
    fn text(&self, now: Instant) -> String {
        match self.out_of_time {
            Some(end) => format!(
                "{} [{}]> ",
                self.me,
                seconds(end.saturating_duration_since(now))
            ),
            None => format!("{}> ", self.me),
        }
    }

    /// When the whole seconds shown go down by one.
    fn changes_at(&self, now: Instant) -> Option<Instant> {
        let end = self.out_of_time?;
        let left = end.saturating_duration_since(now);
        let shown = left.as_millis().div_ceil(1000) as u64;
        (shown > 0).then(|| {
            end.checked_sub(Duration::from_secs(shown - 1))
                .unwrap_or(now)
        })
    }
}

/// The time left in whole seconds, rounded up: `30 s`, ..., `1 s`, then `0 s`.
fn seconds(left: Duration) -> String {
    format!("{} s", left.as_millis().div_ceil(1000))
}

/// `9, 10, 11`.
fn list(squares: &[u8]) -> String {
    squares
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The squares of the pieces that can move, in order; empty for games without moving pieces.
fn movable_pieces(followed: &FollowedGame) -> Vec<u8> {
    let mut squares: Vec<u8> = followed
        .game
        .piece_moves()
        .iter()
        .map(|mv| mv.from)
        .collect();
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// The moves of pieces ordered by the squares they leave and reach, as a person looks for them
/// (the rules generate captures and the men's moves in their own order).
fn piece_moves_in_order(game: &dyn AnyGame) -> Vec<PieceMove> {
    let mut moves = game.piece_moves();
    moves.sort_by(|a, b| (a.from, a.to, &a.notation).cmp(&(b.from, b.to, &b.notation)));
    moves
}

/// `N legal moves: a, b, ...`, in the friendly notation, wrapped; pieces' moves in the order of
/// their squares, other moves in the rules' order (square by square, row by row).
fn move_list(followed: &FollowedGame) -> String {
    let pieces = piece_moves_in_order(followed.game.as_ref());
    let moves = if pieces.is_empty() {
        followed.game.legal_moves_text()
    } else {
        pieces.into_iter().map(|mv| mv.notation).collect()
    };
    let mut out = match moves.len() {
        1 => "1 legal move:".to_string(),
        count => format!("{count} legal moves:"),
    };
    let mut width = out.len();
    for (index, mv) in moves.iter().enumerate() {
        let item = friendly(&followed.spec, mv);
        let separator = if index + 1 < moves.len() { "," } else { "" };
        if width + 1 + item.len() + separator.len() > LIST_WIDTH {
            out.push_str("\n ");
            width = 1;
        }
        out.push(' ');
        out.push_str(&item);
        out.push_str(separator);
        width += 1 + item.len() + separator.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn followed(game: &str) -> FollowedGame {
        let spec = GameSpec::from_words::<&str>(game, &[]).unwrap();
        FollowedGame {
            game: spec.new_game(),
            spec,
            side: Side::First,
            moves: 0,
            takeable: 0,
            offering: false,
            offered_with_last: false,
        }
    }

    #[test]
    fn the_move_list_is_friendly_and_wrapped() {
        assert_eq!(
            move_list(&followed("tictactoe")),
            "9 legal moves: a0, b0, c0, a1, b1, c1, a2, b2, c2"
        );
        let list = move_list(&followed("gomoku"));
        assert!(list.starts_with("225 legal moves: a0, b0,"), "{list}");
        assert!(list.lines().all(|line| line.len() <= LIST_WIDTH), "{list}");
        assert_eq!(list.matches(',').count(), 224, "{list}");
        assert_eq!(
            move_list(&followed("checkers")),
            "7 legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16"
        );
    }

    #[test]
    fn checkers_pieces_that_can_move() {
        assert_eq!(movable_pieces(&followed("checkers")), [9, 10, 11, 12]);
        assert!(movable_pieces(&followed("uttt")).is_empty());
    }

    #[test]
    fn the_prompt_counts_the_seconds_down() {
        assert_eq!(seconds(Duration::from_millis(29_001)), "30 s");
        assert_eq!(seconds(Duration::from_millis(9_460)), "10 s");
        assert_eq!(seconds(Duration::ZERO), "0 s");
        let now = Instant::now();
        let prompt = TurnPrompt {
            me: "X",
            out_of_time: Some(now + Duration::from_millis(2_500)),
        };
        assert_eq!(prompt.text(now), "X [3 s]> ");
        let next = prompt.changes_at(now).unwrap();
        assert_eq!(next, now + Duration::from_millis(500));
        assert_eq!(prompt.text(next), "X [2 s]> ");
        let last = prompt.changes_at(next).unwrap();
        assert_eq!(prompt.text(last), "X [1 s]> ");
        assert_eq!(prompt.text(prompt.changes_at(last).unwrap()), "X [0 s]> ");
        assert_eq!(prompt.changes_at(now + Duration::from_secs(3)), None);
        let untimed = TurnPrompt {
            me: "O",
            out_of_time: None,
        };
        assert_eq!(untimed.text(now), "O> ");
        assert_eq!(untimed.changes_at(now), None);
    }
}
