//! theaigames.com (2016) and riddles.io (2017) ultimate tic-tac-toe bots: two dialects of one
//! protocol. The bot is told its settings once (`settings timebank`, `time_per_move`,
//! `player_names`, `your_bot`, `your_botid`), then before each of its moves the whole board
//! (`update game round`, `update game move` in theaigames, `update game field`,
//! `update game macroboard`) and `action move MS` with the time left in its bank; it answers
//! `place_move X Y` (column, then row). There is no result message: the bot is stopped.
//!
//! Each engine reads the answer its own way, and the adapter reads it as that engine did:
//! theaigames' (`Processor.parseResponse`) wants `place_move` first, reads the next two words
//! as decimal numbers (`7.0`), ignores any more, and after a reply that is not a move or is an
//! illegal one asks once more before the game is lost; riddles.io's 1.0.7
//! (`TicTacToeMoveDeserializer.visitMove`) wants exactly three words, ignores the first, and
//! reads two whole numbers.
//!
//! The time bank is the referee's own: `timebank` is the bank's size and `time_per_move` its
//! increment, `bank = min(max(bank - used, 0) + time_per_move, timebank)`, as in those systems.
//! A move limit without a bank is a bank that refills completely after every move.

use super::{play_notation, uttt_only, Definition, StartFn};
use crate::process::BotProcess;
use crate::process_options::ClockStart;
use crate::requests::{Setup, Turn};
use crate::{Answer, Reading, Seat};
use referee_records::transcript::SeatLog;
use referee_rules::clock::TimeControl;
use referee_rules::games::parse_coordinate;
use referee_rules::games::uttt::{BoardStatus, Uttt};
use referee_rules::games::{GameSpec, Side};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::verdict::Fault;
use std::time::{Duration, Instant};

/// theaigames.com's (2016) dialect: ultimate tic-tac-toe.
pub(super) const THEAIGAMES: Definition =
    dialect_protocol("theaigames", |supervisor, command, options, _| {
        let process = BotProcess::spawn(supervisor, command, options)?;
        Ok(Box::new(Riddles::new(process, Dialect::THEAIGAMES)))
    });

/// riddles.io's (2017) dialect: ultimate tic-tac-toe.
pub(super) const RIDDLES: Definition =
    dialect_protocol("riddles", |supervisor, command, options, _| {
        let process = BotProcess::spawn(supervisor, command, options)?;
        Ok(Box::new(Riddles::new(process, Dialect::RIDDLES)))
    });

/// A dialect's protocol, started by `start`: both time and judge alike.
const fn dialect_protocol(name: &'static str, start: StartFn) -> Definition {
    Definition {
        name,
        margin_floor: Duration::ZERO,
        clock_start: ClockStart::Written,
        check_game: |spec, _| uttt_only(spec),
        start,
    }
}

/// What tells the two dialects apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dialect {
    /// The id of the first player; the second's is one more (theaigames 1, riddles.io 0).
    first_id: u8,
    /// An empty cell of the field (theaigames `0`, riddles.io `.`).
    empty_cell: &'static str,
    /// A small board that is neither playable nor won: undecided but not the forced one, or
    /// full (theaigames `0`, riddles.io `.`).
    closed_board: &'static str,
    /// Whether `update game move` is sent (theaigames only).
    move_number: bool,
    /// Whether the names come before the time in the settings, as riddles.io's engines send
    /// them (`player_names`, `your_bot`, `timebank`, `time_per_move`, `your_botid`);
    /// theaigames' engine sends the time first. A bot that reads its settings in a fixed
    /// order sees them where its own engine put them.
    names_first: bool,
    /// How the engine reads an answer.
    answers: AnswerFormat,
    /// Whether a reply that is not a move, or is an illegal one, is asked for once more before
    /// the game is lost (theaigames: `Processor.playRound` calls `requestMove` a second time).
    asks_twice: bool,
    name: &'static str,
}

/// How an engine reads a bot's answer. Both split it at each single space (Java's
/// `split(" ")`: words may not be separated by two spaces or a tab, and spaces at the end are
/// dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnswerFormat {
    /// theaigames: the first word is `place_move`, the next two are decimal numbers cut to
    /// whole ones (`Double.parseDouble`, then a cast to `int`: `7.0` and `7.9` are 7), and
    /// any more words are ignored.
    PlaceMoveDecimals,
    /// riddles.io 1.0.7: exactly three words, the first one ignored (`place_disc 3 4` is the
    /// move `3 4`), the other two whole numbers (`Integer.parseInt`).
    AnyWordIntegers,
}

impl Dialect {
    /// theaigames.com's: player ids 1 and 2, `0` for an empty cell, `update game move` sent.
    pub(super) const THEAIGAMES: Dialect = Dialect {
        first_id: 1,
        empty_cell: "0",
        closed_board: "0",
        move_number: true,
        names_first: false,
        answers: AnswerFormat::PlaceMoveDecimals,
        asks_twice: true,
        name: "theaigames",
    };
    /// riddles.io's: player ids 0 and 1, `.` for an empty cell, the names before the time.
    pub(super) const RIDDLES: Dialect = Dialect {
        first_id: 0,
        empty_cell: ".",
        closed_board: ".",
        move_number: false,
        names_first: true,
        answers: AnswerFormat::AnyWordIntegers,
        asks_twice: false,
        name: "riddles",
    };

    fn id(&self, side: Side) -> u8 {
        self.first_id + side.index() as u8
    }

    /// `player0`, `player1` (riddles.io) or `player1`, `player2` (theaigames).
    fn player_name(&self, side: Side) -> String {
        format!("player{}", self.id(side))
    }
}

/// A seat for a theaigames or riddles.io bot: it keeps the position to send the whole board
/// before each move.
pub(super) struct Riddles {
    process: BotProcess,
    dialect: Dialect,
    /// The adapter's copy of the position, for the field and the macroboard.
    game: Option<Uttt>,
    /// Moves played since the start, the opening included (for the round and move numbers).
    moves_played: u32,
    /// The bot's move handed to the arbiter, played here once the game goes on.
    own_move: Option<String>,
}

impl Riddles {
    /// A seat for the bot `process`, spoken to in `dialect`.
    pub(super) fn new(process: BotProcess, dialect: Dialect) -> Riddles {
        Riddles {
            process,
            dialect,
            game: None,
            moves_played: 0,
            own_move: None,
        }
    }

    /// Whether the engine would refuse the first reply to a request: a line it reads no move
    /// from, or a move the rules do not allow (a fault of another kind, a timeout or a crash,
    /// ends the game at once).
    fn refused(&self, reply: &Result<Answer, Fault>) -> bool {
        match reply {
            Err(Fault::NotAMove { .. }) => true,
            Ok(answer) => {
                let mut game = self.game.expect("asked after the setup");
                play_notation(&mut game, &answer.line).is_none()
            }
            Err(_) => false,
        }
    }

    /// Asks once more after a refused reply, as theaigames' engine did: `action move` alone,
    /// with what is left of the move's time, `spent` having gone on the first reply. The move
    /// is charged both replies; the second one is final.
    fn ask_again(
        &mut self,
        spent: Duration,
        move_ms: u64,
        watchdog: Duration,
    ) -> Result<Answer, Fault> {
        let left = move_ms.saturating_sub(spent.as_millis() as u64);
        let answers = self.dialect.answers;
        let request = vec![format!("action move {left}")];
        match self
            .process
            .exchange(request, watchdog.saturating_sub(spent), |line| {
                answers.read(line)
            }) {
            Ok(answer) => Ok(Answer {
                elapsed: spent + answer.elapsed,
                ..answer
            }),
            Err(Fault::Timeout {
                waited,
                on_stderr,
                passed_over,
            }) => Err(Fault::Timeout {
                waited: spent + waited,
                on_stderr,
                passed_over,
            }),
            Err(fault) => Err(fault),
        }
    }

    /// Plays a move on the adapter's copy of the position.
    fn play(&mut self, notation: &str) {
        let game = self.game.as_mut().expect("asked after the setup");
        if play_notation(game, notation).is_some() {
            self.moves_played += 1;
        }
    }
}

/// The settings lines: the bank and its refill in milliseconds, the names and the bot's own.
fn settings(dialect: &Dialect, side: Side, time: &TimeControl) -> Vec<String> {
    let (timebank, time_per_move) = if time.bank_ms > 0 {
        (time.bank_ms, time.increment_ms)
    } else {
        (time.move_ms, time.move_ms)
    };
    let time = [
        format!("settings timebank {timebank}"),
        format!("settings time_per_move {time_per_move}"),
    ];
    let names = [
        format!(
            "settings player_names {},{}",
            dialect.player_name(Side::First),
            dialect.player_name(Side::Second)
        ),
        format!("settings your_bot {}", dialect.player_name(side)),
    ];
    let (before, after) = if dialect.names_first {
        (names, time)
    } else {
        (time, names)
    };
    let mut lines = Vec::from(before);
    lines.extend(after);
    lines.push(format!("settings your_botid {}", dialect.id(side)));
    lines
}

/// The 81 cells, row by row, comma-separated: the player's id or the empty mark.
fn field(dialect: &Dialect, game: &Uttt) -> String {
    let mut cells = Vec::with_capacity(81);
    for y in 0..9 {
        for x in 0..9 {
            cells.push(match game.mark_at(x, y) {
                Some(side) => dialect.id(side).to_string(),
                None => dialect.empty_cell.to_string(),
            });
        }
    }
    cells.join(",")
}

/// The 9 small boards, row by row: `-1` where the player may move, the winner's id, or the
/// closed mark.
fn macroboard(dialect: &Dialect, game: &Uttt) -> String {
    let boards: Vec<String> = (0..9)
        .map(|board| match game.board_status(board) {
            BoardStatus::Won(side) => dialect.id(side).to_string(),
            BoardStatus::Undecided if game.forced_board().unwrap_or(board) == board => {
                "-1".to_string()
            }
            BoardStatus::Undecided | BoardStatus::Full => dialect.closed_board.to_string(),
        })
        .collect();
    boards.join(",")
}

/// What a reply that is not `place_move X Y` is told.
const EXPECTED: &str =
    "expected 'place_move X Y' (the column, then the row, each 0 to 8), e.g. 'place_move 7 2'";

/// The words of a line as Java's `line.split(" ")` gives them: cut at every single space, the
/// empty words at the end dropped.
fn java_words(line: &str) -> Vec<&str> {
    let mut words: Vec<&str> = line.split(' ').collect();
    while words.last() == Some(&"") {
        words.pop();
    }
    words
}

/// A whole number as Java's `Integer.parseInt` reads it: an optional sign and ASCII digits,
/// within 32 bits.
fn java_int(word: &str) -> Option<i64> {
    parse_coordinate(word).filter(|value| i32::try_from(*value).is_ok())
}

/// A number as Java's `(int) Double.parseDouble(word)` makes it: blanks around it trimmed, a
/// decimal number with an optional exponent and `f`/`d` suffix (or `NaN`, `Infinity`), cut
/// toward zero to 32 bits (`NaN` is 0). Hexadecimal numbers (`0x1p3`), which Java also reads,
/// are not.
fn java_double_as_int(word: &str) -> Option<i64> {
    let word = word.trim_matches(|c: char| c <= ' ');
    let number = word
        .strip_suffix(['f', 'F', 'd', 'D'])
        .filter(|rest| rest.ends_with(|c: char| c.is_ascii_digit() || c == '.'))
        .unwrap_or(word);
    let unsigned = number.trim_start_matches(['+', '-']);
    let value = match unsigned {
        "NaN" | "Infinity" if number.len() - unsigned.len() <= 1 => {
            number.replace("Infinity", "inf").parse::<f64>().ok()?
        }
        _ if number
            .chars()
            .all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) =>
        {
            number.parse::<f64>().ok()?
        }
        _ => return None,
    };
    Some(i64::from(value as i32))
}

impl AnswerFormat {
    /// The square an answer names, as the engine reads it, or `None` when it reads no move.
    fn square(self, line: &str) -> Option<(i64, i64)> {
        let words = java_words(line);
        match (self, &words[..]) {
            (AnswerFormat::PlaceMoveDecimals, ["place_move", x, y, ..]) => {
                Some((java_double_as_int(x)?, java_double_as_int(y)?))
            }
            (AnswerFormat::AnyWordIntegers, [_, x, y]) => Some((java_int(x)?, java_int(y)?)),
            _ => None,
        }
    }

    /// The bot's answer as the referee's `x y`, or the fault of a reply that is no move.
    fn read(self, line: &str) -> Reading {
        match self.square(line) {
            Some((x, y)) => Reading::Answer(format!("{x} {y}")),
            None => Reading::Refuse(Fault::NotAMove {
                line: line.to_string(),
                expected: EXPECTED.to_string(),
            }),
        }
    }
}

impl Seat for Riddles {
    fn setup(&mut self, messages: &[RefereeMessage], allowance: Duration) -> Result<Ready, Fault> {
        self.process.drain_unrequested(|_| false)?;
        let setup = Setup::read(messages);
        let GameSpec::Uttt(params) = setup.spec else {
            unreachable!("{} players are checked to play uttt", self.dialect.name)
        };
        self.game = Some(Uttt::new(params));
        self.moves_played = 0;
        self.own_move = None;
        for mv in &setup.played {
            self.play(mv);
        }
        // The settings need no answer: the bot is ready when it answers its first move. Those
        // systems start the bots before their engine, which then takes a while to send the
        // settings: a bot's start-up is not charged to its first move, so it is given here,
        // within the start-up allowance.
        let deadline = Instant::now() + allowance;
        self.process
            .send_lines(settings(&self.dialect, setup.side, &setup.time), deadline)?;
        self.process.settle(deadline);
        Ok(Ready {
            name: self.dialect.name.into(),
            version: "-".into(),
            multi_game: false,
        })
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.process.drain_unrequested(|_| false)?;
        if let Some(own) = self.own_move.take() {
            self.play(&own);
        }
        let turn = Turn::read(messages);
        for mv in &turn.opponent {
            self.play(mv);
        }
        let game = self.game.as_ref().expect("asked after the setup");
        let mut request = vec![format!("update game round {}", self.moves_played / 2 + 1)];
        if self.dialect.move_number {
            request.push(format!("update game move {}", self.moves_played + 1));
        }
        request.push(format!("update game field {}", field(&self.dialect, game)));
        request.push(format!(
            "update game macroboard {}",
            macroboard(&self.dialect, game)
        ));
        request.push(format!("action move {}", turn.ms));
        let answers = self.dialect.answers;
        let asked_at = Instant::now();
        let first = self
            .process
            .exchange(request, watchdog, |line| answers.read(line));
        let answer = if self.dialect.asks_twice && self.refused(&first) {
            self.ask_again(asked_at.elapsed(), turn.ms, watchdog)?
        } else {
            first?
        };
        self.own_move = Some(answer.line.clone());
        Ok(answer)
    }

    fn tell(&mut self, _messages: &[RefereeMessage]) {
        // Neither system tells a bot the result: it is stopped.
    }

    fn take_log(&mut self) -> SeatLog {
        self.process.take_log()
    }

    fn finish(&mut self) {
        self.process.end(Vec::new());
    }

    fn late_answer(&mut self) -> Option<crate::LateAnswer> {
        self.process.watch_late(|_| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::uttt::UtttParams;

    /// A position where X (first) won small board 0 and O must play in board 4.
    fn position() -> Uttt {
        let mut game = Uttt::new(UtttParams::default());
        // X takes board 0's top row, O sending it back there from boards 1 and 2; then O is
        // free, plays in board 4, and X's last move (cell 4 of board 8) sends O to board 4.
        for mv in ["1 0", "3 0", "2 0", "6 0", "0 0", "5 5", "7 7"] {
            play_notation(&mut game, mv).unwrap_or_else(|| panic!("{mv}"));
        }
        game
    }

    #[test]
    fn the_board_in_both_dialects() {
        let game = position();
        assert_eq!(game.forced_board(), Some(4));
        let riddles = field(&Dialect::RIDDLES, &game);
        let cells: Vec<&str> = riddles.split(',').collect();
        assert_eq!(cells.len(), 81);
        assert_eq!(cells[..3], ["0", "0", "0"], "X's row, id 0");
        assert_eq!(cells[3..6], ["1", ".", "."], "O on 3 0");
        assert_eq!(cells[5 * 9 + 5], "1", "O on 5 5");
        assert_eq!(cells[7 * 9 + 7], "0", "X on 7 7");
        let theaigames = field(&Dialect::THEAIGAMES, &game);
        assert_eq!(&theaigames[..18], "1,1,1,2,0,0,2,0,0,");
        assert_eq!(macroboard(&Dialect::RIDDLES, &game), "0,.,.,.,-1,.,.,.,.");
        assert_eq!(
            macroboard(&Dialect::THEAIGAMES, &game),
            "1,0,0,0,-1,0,0,0,0"
        );
        let free = Uttt::new(UtttParams::default());
        assert_eq!(
            macroboard(&Dialect::RIDDLES, &free),
            "-1,-1,-1,-1,-1,-1,-1,-1,-1"
        );
    }

    #[test]
    fn settings_of_both_time_controls() {
        let bank =
            TimeControl::parse_over(TimeControl::default(), "bank=10000,increment=500").unwrap();
        assert_eq!(
            settings(&Dialect::RIDDLES, Side::Second, &bank),
            [
                "settings player_names player0,player1",
                "settings your_bot player1",
                "settings timebank 10000",
                "settings time_per_move 500",
                "settings your_botid 1",
            ]
        );
        let per_move = TimeControl::parse_over(TimeControl::default(), "move=200").unwrap();
        assert_eq!(
            settings(&Dialect::THEAIGAMES, Side::First, &per_move)[..5],
            [
                "settings timebank 200",
                "settings time_per_move 200",
                "settings player_names player1,player2",
                "settings your_bot player1",
                "settings your_botid 1",
            ]
        );
    }

    fn square(format: AnswerFormat, line: &str) -> Option<(i64, i64)> {
        format.square(line)
    }

    #[test]
    fn theaigames_reads_answers_as_its_engine() {
        let format = AnswerFormat::PlaceMoveDecimals;
        for (line, x, y) in [
            ("place_move 3 5", 3, 5),
            ("place_move 7.0 3.0 extra", 7, 3),
            ("place_move 7.9 -0.5", 7, 0),
            ("place_move 3 5 ", 3, 5),
            ("place_move 1e0 2d", 1, 2),
            ("place_move NaN 4", 0, 4),
            ("place_move 9 -1", 9, -1),
            ("place_move Infinity 1", i64::from(i32::MAX), 1),
        ] {
            assert_eq!(square(format, line), Some((x, y)), "{line}");
        }
        for bad in [
            "3 5",
            "place_move 3",
            "place_move 3,5",
            "place_move  3 5",
            "place_move\t3 5",
            " place_move 3 5",
            "place_disc 3 5",
            "place_move 0x1p3 1",
            "place_move inf 1",
            "",
        ] {
            assert_eq!(square(format, bad), None, "{bad}");
        }
        assert_eq!(
            format.read("place_move 7.0 3.0 extra"),
            Reading::Answer("7 3".into())
        );
    }

    #[test]
    fn riddles_reads_answers_as_its_engine() {
        let format = AnswerFormat::AnyWordIntegers;
        for (line, x, y) in [
            ("place_move 3 5", 3, 5),
            ("place_disc 3 5", 3, 5),
            ("anything +3 05", 3, 5),
            ("place_move 3 5  ", 3, 5),
            ("place_move 9 -1", 9, -1),
        ] {
            assert_eq!(square(format, line), Some((x, y)), "{line}");
        }
        for bad in [
            "3 5",
            "place_move 3",
            "place_move 3 5 extra",
            "place_move 7.0 3",
            "place_move  3 5",
            " place_move 3 5",
            "place_move 3 2147483648",
            "",
        ] {
            assert_eq!(square(format, bad), None, "{bad}");
        }
        let Reading::Refuse(fault) = format.read("place_disc 3") else {
            panic!("two words read as a move");
        };
        assert!(fault.to_string().contains("'place_move X Y'"), "{fault}");
    }
}
