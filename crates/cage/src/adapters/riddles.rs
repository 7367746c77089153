//! theaigames.com (2016) and riddles.io (2017) ultimate tic-tac-toe bots: two dialects of one
//! protocol. The bot is told its settings once (`settings timebank`, `time_per_move`,
//! `player_names`, `your_bot`, `your_botid`), then before each of its moves the whole board
//! (`update game round`, `update game move` in theaigames, `update game field`,
//! `update game macroboard`) and `action move MS` with the time left in its bank; it answers
//! `place_move X Y` (column, then row). There is no result message: the bot is stopped.
//!
//! The time bank is the referee's own: `timebank` is the bank's size and `time_per_move` its
//! increment, `bank = min(max(bank - used, 0) + time_per_move, timebank)`, as in those systems.
//! A move limit without a bank is a bank that refills completely after every move.

use super::{number_pair, play_notation, uttt_only, Definition, StartFn};
use crate::process::BotProcess;
use crate::process_options::ClockStart;
use crate::requests::{Setup, Turn};
use crate::{Answer, Reading, Seat};
use referee_records::transcript::SeatLog;
use referee_rules::clock::TimeControl;
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
    name: &'static str,
}

impl Dialect {
    /// theaigames.com's: player ids 1 and 2, `0` for an empty cell, `update game move` sent.
    pub(super) const THEAIGAMES: Dialect = Dialect {
        first_id: 1,
        empty_cell: "0",
        closed_board: "0",
        move_number: true,
        names_first: false,
        name: "theaigames",
    };
    /// riddles.io's: player ids 0 and 1, `.` for an empty cell, the names before the time.
    pub(super) const RIDDLES: Dialect = Dialect {
        first_id: 0,
        empty_cell: ".",
        closed_board: ".",
        move_number: false,
        names_first: true,
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
const EXPECTED: &str = "expected 'place_move X Y' (the column, then the row, each 0 to 8)";

/// The bot's answer `place_move X Y` as the referee's `x y`.
///
/// `place_disc` is the command of riddles.io's Four in a Row, which some ultimate tic-tac-toe
/// bots copied from it answer; the ultimate tic-tac-toe engine reads `place_move` only, so it
/// is not a move here either, and the detail says where the command comes from.
fn read_answer(line: &str) -> Reading {
    let words: Vec<&str> = referee_rules::protocol::words(line).collect();
    if let ["place_move", x, y] = words[..] {
        if let Some((x, y)) = number_pair(x, y) {
            return Reading::Answer(format!("{x} {y}"));
        }
    }
    let expected = if words.first() == Some(&"place_disc") {
        format!(
            "{EXPECTED}; 'place_disc' is the command of riddles.io's Four in a Row, \
             which the ultimate tic-tac-toe engine does not accept"
        )
    } else {
        EXPECTED.to_string()
    };
    Reading::Refuse(Fault::NotAMove {
        line: line.to_string(),
        expected,
    })
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
        let answer = self.process.exchange(request, watchdog, read_answer)?;
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

    #[test]
    fn answers() {
        assert_eq!(read_answer("place_move 3 5"), Reading::Answer("3 5".into()));
        assert_eq!(
            read_answer("place_move 9 -1"),
            Reading::Answer("9 -1".into())
        );
        for bad in ["3 5", "place_move 3", "place_move 3,5", "place_disc 3", ""] {
            let Reading::Refuse(fault) = read_answer(bad) else {
                panic!("{bad} read as a move");
            };
            assert!(fault.to_string().contains("'place_move X Y'"), "{fault}");
        }
        let Reading::Refuse(fault) = read_answer("place_disc 3 5") else {
            panic!("place_disc read as a move");
        };
        assert!(
            fault
                .to_string()
                .contains("'place_disc' is the command of riddles.io's Four in a Row"),
            "{fault}"
        );
    }
}
