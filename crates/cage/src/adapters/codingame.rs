//! CodinGame's ultimate tic-tac-toe bots. There is no setup and no result: each turn the bot
//! reads the opponent's last move as `row col` (`-1 -1` when it opens the game), the number of
//! valid actions and that many `row col` lines, and answers `row col`, optionally followed by
//! a message. Rows come first, so the adapter swaps to and from the referee's `x y`.
//!
//! CodinGame lists the valid actions in an order that changes from game to game, so a bot
//! that plays the first one does not always open in the same square; the adapter shuffles them
//! with the seed it is started with (the same seed, the same orders).
//!
//! CodinGame starts a bot for every game and gives it 1000 ms for its first turn and 100 ms for
//! each later one (the `codingame` time control), timed from when the bot has read its input
//! (see [`crate::Protocol::clock_start`]).
//!
//! CodinGame's JavaScript runs the bot with globals that plain Node lacks (`readline()`,
//! `print()`, `printErr()`), which its generated code calls: a bot run with `node` gets them
//! from a preload the referee ships (`codingame_globals.mjs`). The other languages' generated
//! code uses its language's own input and output.

use super::{number_pair, play_notation, uttt_only, Definition};
use crate::process::BotProcess;
use crate::process_options::ClockStart;
use crate::requests::{Setup, Turn};
use crate::{Answer, Reading, Seat};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_records::transcript::SeatLog;
use referee_rules::games::uttt::Uttt;
use referee_rules::games::{Game, GameSpec};
use referee_rules::protocol::{Ready, RefereeMessage};
use referee_rules::seeded::SeededRng;
use referee_rules::verdict::Fault;
use std::path::Path;
use std::time::Duration;

/// A seat for a CodinGame bot: it keeps the position to list the valid actions each turn.
pub(super) struct Codingame {
    process: BotProcess,
    /// The adapter's copy of the position, for the valid actions.
    game: Option<Uttt>,
    /// The bot's move handed to the arbiter, played here once the game goes on.
    own_move: Option<String>,
    /// Orders the valid actions of every turn.
    rng: SeededRng,
}

/// CodinGame's protocol: ultimate tic-tac-toe from the start, the clock starting once the bot
/// has read its turn's input, as CodinGame's runner times it (protocol.md 12).
pub(super) const CODINGAME: Definition = Definition {
    name: "codingame",
    margin_floor: Duration::ZERO,
    clock_start: ClockStart::Read,
    check_game: |spec, opening| {
        uttt_only(spec)?;
        match opening {
            [] => Ok(()),
            _ => Err(
                "CodinGame bots are told only the opponent's last move, so they cannot \
                      start from an opening"
                    .into(),
            ),
        }
    },
    start: |supervisor, command, options, seed| {
        let command = with_platform_globals(command);
        let process = BotProcess::spawn(supervisor, &command, options)?;
        Ok(Box::new(Codingame::new(process, seed)))
    },
};

/// CodinGame's JavaScript globals: `readline()`, `print()` and `printErr()`.
const JS_GLOBALS: &str = include_str!("codingame_globals.mjs");

/// The bot's command, with CodinGame's JavaScript globals preloaded when it runs node itself
/// (`node bot.js`, `/usr/bin/nodejs bot.js`): the preload is a `data:` URL module given to
/// node's `--import` (Node 18.19 and 20.6 on), so no file has to be shown in the sandbox.
fn with_platform_globals(command: &[String]) -> Vec<String> {
    let runs_node = command
        .first()
        .and_then(|program| Path::new(program).file_name())
        .is_some_and(|name| name == "node" || name == "nodejs");
    let mut command = command.to_vec();
    if runs_node {
        let url = format!("data:text/javascript,{}", percent_encoded(JS_GLOBALS));
        command.insert(1, format!("--import={url}"));
    }
    command
}

/// `text` with every byte but ASCII letters, digits and `-_.~` written `%XX`, as a URL holds it.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

impl Codingame {
    /// A seat for the bot `process`, whose valid actions `seed` orders. A bot plays one game
    /// (see [`Seat::setup`]), and the table gives each game its own seed.
    pub(super) fn new(process: BotProcess, seed: u64) -> Codingame {
        Codingame {
            process,
            game: None,
            own_move: None,
            rng: SeededRng::seed_from_u64(seed),
        }
    }
}

/// The turn's input: the opponent's last move, the count of valid actions, and the actions,
/// each `row col`, in an order drawn from `rng`.
fn turn_input(game: &Uttt, last_opponent: Option<(u8, u8)>, rng: &mut SeededRng) -> Vec<String> {
    let (row, col) = last_opponent.map_or((-1, -1), |(x, y)| (i16::from(y), i16::from(x)));
    let mut actions = Vec::new();
    game.generate_moves(&mut actions);
    // Sorted first, the order depends on the seed only, not on the move generator's.
    actions.sort_unstable();
    actions.shuffle(rng);
    let mut lines = vec![format!("{row} {col}"), actions.len().to_string()];
    lines.extend(actions.into_iter().map(|square| {
        let (x, y) = Uttt::coordinates(square);
        format!("{y} {x}")
    }));
    lines
}

/// The bot's answer `row col [message]` as the referee's `x y`.
fn read_answer(line: &str) -> Reading {
    let mut words = referee_rules::protocol::words(line);
    match (words.next(), words.next()) {
        (Some(row), Some(col)) => match number_pair(row, col) {
            Some((row, col)) => Reading::Answer(format!("{col} {row}")),
            None => not_a_move(line),
        },
        _ => not_a_move(line),
    }
}

fn not_a_move(line: &str) -> Reading {
    Reading::Refuse(Fault::NotAMove {
        line: line.to_string(),
        expected: "expected 'ROW COL' (the row first, then the column, each 0 to 8), \
                   optionally followed by a message, e.g. '2 7' for row 2, column 7"
            .into(),
    })
}

impl Seat for Codingame {
    fn setup(&mut self, messages: &[RefereeMessage], _allowance: Duration) -> Result<Ready, Fault> {
        self.process.drain_unrequested(|_| false)?;
        let setup = Setup::read(messages);
        let GameSpec::Uttt(params) = setup.spec else {
            unreachable!("CodinGame players are checked to play uttt")
        };
        let mut game = Uttt::new(params);
        for mv in &setup.played {
            play_notation(&mut game, mv);
        }
        self.game = Some(game);
        self.own_move = None;
        // CodinGame says nothing before the first turn: nothing to wait for.
        Ok(Ready {
            name: "codingame".into(),
            version: "-".into(),
            multi_game: false,
        })
    }

    fn ask(&mut self, messages: &[RefereeMessage], watchdog: Duration) -> Result<Answer, Fault> {
        self.process.drain_unrequested(|_| false)?;
        let game = self.game.as_mut().expect("asked after the setup");
        if let Some(own) = self.own_move.take() {
            play_notation(game, &own);
        }
        let mut last_opponent = None;
        for mv in Turn::read(messages).opponent {
            if let Some((square, _)) = play_notation(game, &mv) {
                last_opponent = Some(Uttt::coordinates(square));
            }
        }
        let input = turn_input(game, last_opponent, &mut self.rng);
        let answer = self.process.exchange(input, watchdog, read_answer)?;
        self.own_move = Some(answer.line.clone());
        Ok(answer)
    }

    fn tell(&mut self, _messages: &[RefereeMessage]) {
        // CodinGame tells a bot nothing when the game ends: it is stopped.
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

    #[test]
    fn node_bots_get_codingames_globals_and_others_run_as_given() {
        let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
        for node in ["node bot.js", "/usr/bin/nodejs bot.js --fast"] {
            let command = with_platform_globals(&words(node));
            assert_eq!(command.len(), words(node).len() + 1, "{node}");
            let url = command[1]
                .strip_prefix("--import=data:text/javascript,")
                .unwrap();
            assert!(url.contains("globalThis.readline"), "{url}");
            assert!(url
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"%-_.~".contains(&b)));
            assert_eq!(command[2..], words(node)[1..]);
        }
        for other in [
            "python3 bot.py",
            "./node_bot",
            "java -cp . Player",
            "nodemon bot.js",
        ] {
            assert_eq!(
                with_platform_globals(&words(other)),
                words(other),
                "{other}"
            );
        }
        assert_eq!(percent_encoded("a b\n%"), "a%20b%0A%25");
    }

    fn first_turn(seed: u64) -> Vec<String> {
        let mut rng = SeededRng::seed_from_u64(seed);
        turn_input(&Uttt::new(UtttParams::default()), None, &mut rng)
    }

    #[test]
    fn the_first_turn_lists_every_square_in_an_order_of_the_seed() {
        let input = first_turn(7);
        assert_eq!(input[..2], ["-1 -1", "81"]);
        let mut squares = input[2..].to_vec();
        squares.sort_unstable();
        let every: Vec<String> = (0..9)
            .flat_map(|row| (0..9).map(move |col| format!("{row} {col}")))
            .collect();
        assert_eq!(squares, every);
        assert_eq!(first_turn(7), input, "the same seed, the same order");
        // A bot that plays the first valid action does not always open in the same square.
        let openings: std::collections::HashSet<String> =
            (0..10).map(|seed| first_turn(seed)[2].clone()).collect();
        assert!(openings.len() > 1, "{openings:?}");
    }

    #[test]
    fn rows_come_first() {
        let mut game = Uttt::new(UtttParams::default());
        // x 4, y 1: cell 4 of board 1, so the reply must be in board 4 (rows 3-5, columns 3-5).
        let (square, _) = play_notation(&mut game, "4 1").unwrap();
        let mut rng = SeededRng::seed_from_u64(1);
        let input = turn_input(&game, Some(Uttt::coordinates(square)), &mut rng);
        assert_eq!(input[0], "1 4");
        assert_eq!(input[1], "9");
        let mut actions = input[2..].to_vec();
        actions.sort_unstable();
        assert_eq!(
            actions,
            ["3 3", "3 4", "3 5", "4 3", "4 4", "4 5", "5 3", "5 4", "5 5"]
        );
        assert_eq!(read_answer("5 3"), Reading::Answer("3 5".into()));
        assert_eq!(
            read_answer("5 3 gg, well played"),
            Reading::Answer("3 5".into())
        );
        assert_eq!(read_answer(" 9 0 "), Reading::Answer("0 9".into()));
        for bad in ["5", "5,3", "", "a b", "place_move 3 5"] {
            let Reading::Refuse(fault) = read_answer(bad) else {
                panic!("{bad} read as a move");
            };
            assert!(fault.to_string().contains("'ROW COL'"), "{fault}");
        }
    }
}
