//! `referee play` driven through a real pseudo-terminal, as a person would use it: complete
//! games against the built-in random bot for every game, wrong inputs, `help`, `moves`, a
//! timeout, a resignation, two people at one keyboard, raw mode, colours and NO_COLOR. The
//! assertions are on what the screen shows.

use crate::common::{referee, script};
use rexpect::session::{spawn_with_options, Options, PtySession};
use rexpect::ReadUntil;
use std::path::Path;
use std::process::Stdio;

/// The ending of every game at the console: the result and where the record went.
const RECORD: &str = "Record: ";

/// The referee's prompt for a person on the clock ends so: `X [30 s]> `.
const PROMPT: &str = "]> ";

/// A `referee play` session in a pseudo-terminal that takes colours.
struct Console {
    session: PtySession,
    /// Everything shown so far, without colours.
    screen: String,
}

/// What came after a move.
enum Next {
    /// The next prompt.
    Prompt,
    /// The end of the game, with everything shown until the referee exited.
    End(String),
}

impl Console {
    fn play(args: &[&str]) -> Console {
        Console::with_env(args, &[])
    }

    /// Plays with `args`, recording the game into a new temporary directory.
    fn play_recorded(args: &[&str]) -> (Console, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let mut args = args.to_vec();
        args.extend(["--record", dir.path().to_str().unwrap()]);
        (Console::play(&args), dir)
    }

    fn with_env(args: &[&str], env: &[(&str, &str)]) -> Console {
        let mut command = referee();
        command.arg("play").args(args).env("TERM", "xterm-256color");
        for variable in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
            command.env_remove(variable);
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let session = spawn_with_options(
            command,
            Options {
                // Generous: a loaded machine must not fail these tests.
                timeout_ms: Some(60_000),
                strip_ansi_escape_codes: false,
            },
        )
        .expect("cannot start the referee in a pseudo-terminal");
        Console {
            session,
            screen: String::new(),
        }
    }

    /// Waits for `needle` (raw, colours included); returns the text shown before it, without
    /// colours.
    fn expect(&mut self, needle: &str) -> String {
        match self.session.exp_string(needle) {
            Ok(before) => self.seen(&before, needle),
            Err(error) => panic!(
                "waiting for {needle:?}: {error}\n--- screen so far ---\n{}",
                self.screen
            ),
        }
    }

    /// Like [`expect`], keeping the colours.
    fn expect_raw(&mut self, needle: &str) -> String {
        let before = self
            .session
            .exp_string(needle)
            .unwrap_or_else(|error| panic!("waiting for {needle:?}: {error}"));
        self.seen(&before, needle);
        before
    }

    fn seen(&mut self, raw: &str, needle: &str) -> String {
        let text = plain(raw);
        self.screen.push_str(&text);
        self.screen.push_str(&plain(needle));
        text
    }

    fn prompt(&mut self) -> String {
        self.expect(PROMPT)
    }

    fn send(&mut self, line: &str) {
        self.session.send_line(line).expect("cannot type");
    }

    /// Types `line` at the prompt; returns what is shown until the next prompt.
    fn answer(&mut self, line: &str) -> String {
        self.send(line);
        self.prompt()
    }

    /// Waits for the next prompt or the end of the game.
    fn next(&mut self) -> Next {
        let found = self.session.exp_any(vec![
            ReadUntil::String(PROMPT.into()),
            ReadUntil::String(RECORD.into()),
            ReadUntil::EOF,
        ]);
        match found {
            Ok((before, needle)) if needle == PROMPT => {
                self.seen(&before, &needle);
                Next::Prompt
            }
            Ok((before, needle)) if needle == RECORD => {
                let mut text = self.seen(&before, &needle);
                text.push_str(&needle);
                text.push_str(&self.finish());
                Next::End(text)
            }
            // The end of the output (rexpect gives it all as the match).
            Ok((before, rest)) => {
                let text = plain(&(before + &rest));
                self.screen.push_str(&text);
                Next::End(text)
            }
            Err(error) => panic!(
                "waiting for a prompt or the end: {error}\n--- screen so far ---\n{}",
                self.screen
            ),
        }
    }

    /// Everything shown until the referee exits.
    fn finish(&mut self) -> String {
        let rest = self
            .session
            .exp_eof()
            .unwrap_or_else(|error| panic!("waiting for the end: {error}\n{}", self.screen));
        let text = plain(&rest);
        self.screen.push_str(&text);
        text
    }

    /// From a prompt, plays the first legal move (as `moves` lists it) at every turn until the
    /// game ends; returns what was shown at the end.
    fn play_out(&mut self) -> String {
        loop {
            let listed = self.answer("moves");
            let first = first_listed(&listed);
            self.send(&first);
            if let Next::End(ending) = self.next() {
                return ending;
            }
        }
    }
}

/// The text without ANSI escape sequences and carriage returns.
fn plain(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut escape = false;
    for c in raw.chars() {
        if c == '\x1b' {
            escape = true;
        } else if escape {
            escape = !c.is_ascii_alphabetic();
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

/// The first move of the last `N legal moves: ...` list in `text`.
fn first_listed(text: &str) -> String {
    let at = text
        .rfind(" legal move")
        .unwrap_or_else(|| panic!("no move list in:\n{text}"));
    let list = &text[at..];
    let start = list.find(": ").expect("a colon") + 2;
    list[start..]
        .split([',', '\n'])
        .next()
        .expect("a move")
        .trim()
        .to_string()
}

/// The JSON record the screen names after `Record: `.
fn record_named(screen: &str) -> serde_json::Value {
    let line = screen
        .lines()
        .find(|line| line.starts_with(RECORD))
        .unwrap_or_else(|| panic!("no record line in:\n{screen}"));
    let path = line[RECORD.len()..]
        .split(" (transcript")
        .next()
        .unwrap()
        .trim();
    let text = std::fs::read_to_string(Path::new(path))
        .unwrap_or_else(|e| panic!("cannot read the record {path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// A game's result line, one of the three the console prints.
fn has_result(ending: &str) -> bool {
    ["You win!", "You lose.", "Draw."]
        .iter()
        .any(|headline| ending.contains(headline))
}

#[test]
fn tictactoe_against_random_with_help_moves_and_every_wrong_input() {
    let (mut console, dir) = Console::play_recorded(&["tictactoe", "--second", "builtin:random"]);
    let start = console.prompt();
    assert!(
        start.contains("X (you) against O (builtin:random)"),
        "{start}"
    );
    assert!(
        start.contains("    a  b  c\n    0  1  2\n  0 .  .  .\n"),
        "{start}"
    );
    assert!(start.contains("Move 1: X (you) to move"), "{start}");
    assert!(start.ends_with("X [30 s"), "{start}");

    let help = console.answer("help");
    assert!(help.contains("b2 is '1 2'"), "{help}");
    assert!(help.contains("resign"), "{help}");
    let moves = console.answer("moves");
    assert!(
        moves.contains("9 legal moves: a0, b0, c0, a1, b1, c1, a2, b2, c2"),
        "{moves}"
    );
    let banana = console.answer("banana");
    assert!(banana.contains("banana: not a move"), "{banana}");
    assert!(banana.contains("Write a square as b2"), "{banana}");
    let off = console.answer("d5");
    assert!(
        off.contains("d5 (3 5): illegal move: 3 5 is off the 3x3 board"),
        "{off}"
    );
    assert!(
        off.contains("The board has columns a-c (0-2), rows 0-2."),
        "{off}"
    );
    // Still move 1: nothing was lost.
    console.send("b1");
    let after = console.prompt();
    assert!(after.contains("You played b1 (1 1)."), "{after}");
    assert!(after.contains("O (builtin:random) played"), "{after}");
    assert!(
        after
            .lines()
            .any(|line| line.starts_with("  1") && line.contains('X')),
        "{after}"
    );
    assert!(after.contains('['), "the bot's move is marked: {after}");
    assert!(after.contains("Move 3: X (you) to move"), "{after}");
    let taken = console.answer("1 1");
    assert!(
        taken.contains("1 1: illegal move: 1 1 is already taken"),
        "{taken}"
    );

    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    let record = record_named(&ending);
    assert_eq!(record["players"][0]["command"], "human");
    assert_eq!(record["players"][0]["label"], "X");
    assert_eq!(record["players"][1]["command"], "builtin:random");
    assert_eq!(record["moves"][0]["move"], "1 1");
    assert!(dir.path().join("0001.transcript.txt").exists());
}

#[test]
fn gomoku_against_random_to_the_end() {
    let (mut console, _records) = Console::play_recorded(&["gomoku", "--second", "builtin:random"]);
    let start = console.prompt();
    assert!(
        start.contains("    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o\n"),
        "{start}"
    );
    assert!(start.contains(" 14 .  ."), "{start}");
    let moves = console.answer("moves");
    assert!(moves.contains("225 legal moves: a0, b0,"), "{moves}");
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    assert_eq!(
        record_named(&ending)["game"],
        "gomoku width=15 height=15 line=5 exact=no"
    );
}

#[test]
fn uttt_highlights_the_forced_board_in_green_and_refuses_moves_outside_it() {
    let (mut console, _records) = Console::play_recorded(&["uttt", "--second", "builtin:random"]);
    let start = console.prompt();
    assert!(
        start.contains("    a  b  c   d  e  f   g  h  i\n    0  1  2   3  4  5   6  7  8\n"),
        "{start}"
    );
    assert!(start.contains("next: X in any undecided board"), "{start}");
    console.send("e4");
    // The bot's move sends X to a small board: its empty cells are drawn in green.
    let raw = console.expect_raw(PROMPT);
    let green_dot = "\x1b[1m\x1b[32m.\x1b[0m";
    assert!(raw.contains(green_dot), "no green cell in {raw:?}");
    let shown = plain(&raw);
    let forced: u8 = shown
        .split("next: X in small board ")
        .nth(1)
        .unwrap_or_else(|| panic!("no forced board in:\n{shown}"))[..1]
        .parse()
        .unwrap();
    let empty = (0..9)
        .map(|cell| {
            let (x, y) = (forced % 3 * 3 + cell % 3, forced / 3 * 3 + cell / 3);
            (x, y)
        })
        .filter(|&(x, y)| {
            let row = shown
                .lines()
                .rev()
                .find(|line| line.starts_with(&format!("{y:>3}")))
                .unwrap();
            // Column x is drawn at 3 + 3x (plus one per small-board border before it).
            let at = 3 + 3 * x as usize + x as usize / 3 + 1;
            &row[at..=at] == "."
        })
        .count();
    assert_eq!(raw.matches(green_dot).count(), empty, "{shown}");

    // A square in another small board.
    let elsewhere = if forced == 0 { "i8" } else { "a0" };
    let refused = console.answer(elsewhere);
    assert!(
        refused.contains(&format!(
            "is outside the forced board: you must play in small board {forced}"
        )),
        "{refused}"
    );
    // The forced board is named by the letters moves are typed with, under the board and in
    // the refusal alike.
    let (first, last) = (
        char::from(b'a' + forced % 3 * 3),
        char::from(b'a' + forced % 3 * 3 + 2),
    );
    let area = format!("small board {forced} (columns {first}-{last}, rows ");
    assert!(refused.contains(&area), "{refused}");
    assert!(shown.contains(&format!("next: X in {area}")), "{shown}");
    assert!(!console.screen.contains("(columns 0-") && !console.screen.contains("(columns 3-"));
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    assert!(ending.contains("won: X"), "{ending}");
}

#[test]
fn checkers_against_random_with_a_draw_offer_and_piece_destinations() {
    let (mut console, _records) =
        Console::play_recorded(&["checkers", "--second", "builtin:random"]);
    let start = console.prompt();
    assert!(
        start.contains("Pieces that can move: 9, 10, 11, 12 (type one to see where it can go)."),
        "{start}"
    );
    assert!(start.contains("Move 1: Black (you) to move"), "{start}");
    let shown = console.answer("11");
    assert!(shown.contains("Moves of 11: 11-15, 11-16"), "{shown}");
    assert!(
        shown.contains(" .     .     *     *       13    14    15    16"),
        "{shown}"
    );
    let none = console.answer("1");
    assert!(
        none.contains("No move starts on 1. Pieces that can move: 9, 10, 11, 12."),
        "{none}"
    );
    let backwards = console.answer("11-8");
    assert!(backwards.contains("11-8: illegal move"), "{backwards}");
    let offer = console.answer("draw");
    assert!(
        offer.contains("Your draw offer goes with your next move"),
        "{offer}"
    );
    console.send("11 15");
    let after = console.prompt();
    assert!(
        after.contains("You played 11-15 and offer a draw."),
        "{after}"
    );
    // Each move is told once, by the console: the drawing adds no "White played 22-17" nor
    // "Black to move" of its own.
    assert_eq!(after.matches(" played ").count(), 2, "{after}");
    assert!(after.contains("White (builtin:random) played"), "{after}");
    assert!(!after.contains("Black to move"), "{after}");
    // The legal moves are listed in the order of their squares.
    let listed = console.answer("moves");
    let list = &listed[listed.find("legal moves: ").expect("a list") + 13..];
    // The list and its wrapped lines (which start with a space), not the prompt after it.
    let mut lines = list.lines();
    let first = lines.next().unwrap_or_default();
    let list: String = lines
        .take_while(|line| line.starts_with(' '))
        .fold(first.to_string(), |list, line| list + line);
    let squares: Vec<Vec<u8>> = list
        .split(", ")
        .map(|mv| {
            mv.trim()
                .split(['-', 'x'])
                .map(|n| n.parse().unwrap())
                .collect()
        })
        .collect();
    assert!(squares.len() > 1, "{listed}");
    assert!(
        squares.windows(2).all(|pair| pair[0] <= pair[1]),
        "{listed}"
    );
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    let record = record_named(&ending);
    assert_eq!(record["moves"][0]["move"], "11-15");
    assert_eq!(record["moves"][0]["offers_draw"], true);
}

#[test]
fn checkers_says_a_capture_is_mandatory() {
    let mut console = Console::play(&[
        "checkers",
        "-p",
        "fen=B:W18:B1,14",
        "--second",
        "builtin:random",
        "--no-record",
    ]);
    let start = console.prompt();
    // Only the man on 14 can move, so its capture is shown at once.
    assert!(start.contains("Pieces that can move: 14"), "{start}");
    assert!(start.contains('*'), "{start}");
    let refused = console.answer("1-5");
    assert!(
        refused.contains(
            "1-5: illegal move: a capture is mandatory: you must jump (for example 14x23)"
        ),
        "{refused}"
    );
    assert!(
        refused.contains("type moves to list the captures"),
        "{refused}"
    );
    assert!(console.answer("moves").contains("1 legal move: 14x23"));
    console.send("14 23");
    let Next::End(ending) = console.next() else {
        panic!("White has no piece left: the game is over");
    };
    assert!(ending.contains("You win!"), "{ending}");
    assert!(ending.contains("no legal move"), "{ending}");
}

#[test]
fn dots_against_random_with_lines_between_dots() {
    let (mut console, _records) =
        Console::play_recorded(&["dots", "-p", "size=2", "--second", "builtin:random"]);
    let start = console.prompt();
    assert!(start.contains("   a   b   c\n   0   1   2\n"), "{start}");
    assert!(
        start.contains("boxes: A (first) 0 - B (second) 0"),
        "{start}"
    );
    let unclear = console.answer("a0-c0");
    assert!(
        unclear.contains("a0 and c0 are not neighbouring dots"),
        "{unclear}"
    );
    console.send("a0-b0");
    let after = console.prompt();
    assert!(after.contains("You played a0-b0 (h 0 0)."), "{after}");
    assert!(after.contains(" 0 +---+"), "{after}");
    // The bot's line is told once, in the console's notation: no "second drew v 0 0".
    assert_eq!(after.matches(" played ").count(), 2, "{after}");
    assert!(after.contains("B (builtin:random) played "), "{after}");
    assert!(!after.contains(" drew "), "{after}");
    let taken = console.answer("h 0 0");
    assert!(taken.contains("line h 0 0 is already drawn"), "{taken}");
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    assert!(ending.contains("boxes: A (first) "), "{ending}");
    let record = record_named(&ending);
    let scores = record["scores"].as_array().unwrap();
    assert_eq!(scores.iter().map(|s| s.as_u64().unwrap()).sum::<u64>(), 4);
}

#[test]
fn the_default_bot_comes_with_easier_ones_and_a_slow_bot_is_said_to_be_busy() {
    // Nobody named for O: the strongest bot, and how to choose another. At dots it solves the
    // board while it gets ready, which the console says before the first board is drawn.
    let mut console = Console::play(&["dots", "--no-record"]);
    let start = console.prompt();
    assert!(
        start.contains(
            "B (builtin:strong) is the strongest built-in bot.\n\
             For an easier game: --second builtin:greedy, or --second builtin:random.\n"
        ),
        "{start}"
    );
    let ready = start
        .find("B (builtin:strong) is getting ready...\n")
        .unwrap_or_else(|| panic!("no notice in:\n{start}"));
    assert!(ready < start.find("Move 1: A (you)").unwrap(), "{start}");
    console.send("resign");
    console.finish();

    // Played first with --second human: the advice names --first.
    let mut console = Console::play(&["tictactoe", "--second", "human", "--no-record"]);
    let start = console.prompt();
    assert!(
        start.contains("For an easier game: --first builtin:greedy, or --first builtin:random."),
        "{start}"
    );
    console.send("quit");
    console.finish();

    // A bot named on the command line: no advice. It takes 600 ms a move: the console says it
    // is thinking, after the person's move and before the bot's.
    let slow = format!("python3 {} slow:600", script().display());
    let mut console = Console::play(&["tictactoe", "--second", &slow, "--no-record"]);
    let start = console.prompt();
    assert!(!start.contains("easier"), "{start}");
    console.send("b1");
    let after = console.prompt();
    assert!(
        after.contains(&format!(
            "You played b1 (1 1).\nO ({slow}) is thinking...\nO ({slow}) played a0 (0 0)\n"
        )),
        "{after}"
    );
    console.send("resign");
    console.finish();
}

#[test]
fn a_person_who_does_not_answer_loses_on_time() {
    let mut console = Console::play(&[
        "tictactoe",
        "--second",
        "builtin:random",
        "--human-time",
        "move=1500",
        "--no-record",
    ]);
    let start = console.prompt();
    assert!(start.ends_with("X [1.5 s"), "{start}");
    let ending = console.finish();
    assert!(ending.contains("Time is up."), "{ending}");
    assert!(ending.contains("You lose."), "{ending}");
    assert!(
        ending.contains("X (first player) did not answer move 1 within"),
        "{ending}"
    );
}

#[test]
fn the_clock_warns_ten_seconds_before_the_end() {
    let mut console = Console::play(&[
        "tictactoe",
        "--second",
        "builtin:random",
        "--human-time",
        "move=11000",
        "--no-record",
    ]);
    assert!(console.prompt().ends_with("X [11 s"));
    let warned = console.prompt();
    assert!(warned.contains("10 s left!"), "{warned}");
    console.send("resign");
    assert!(console.finish().contains("You lose."));
}

#[test]
fn resigning_and_leaving() {
    let mut console = Console::play(&["uttt", "--second", "builtin:random", "--no-record"]);
    console.prompt();
    console.send("resign");
    let ending = console.finish();
    assert!(ending.contains("You resign."), "{ending}");
    assert!(ending.contains("You lose."), "{ending}");
    assert!(
        ending.contains("X (first player) resigned at move 1"),
        "{ending}"
    );

    // Playing second: the bot moves first, then the person quits.
    let mut console = Console::play(&["tictactoe", "--first", "builtin:random", "--no-record"]);
    let start = console.prompt();
    assert!(start.contains("X (builtin:random) played"), "{start}");
    assert!(start.contains("Move 2: O (you) to move"), "{start}");
    console.send("quit");
    let ending = console.finish();
    assert!(ending.contains("it counts as resigning"), "{ending}");
    assert!(
        ending.contains("O (second player) resigned at move 2"),
        "{ending}"
    );

    // End of input (Ctrl-D) at the prompt.
    let mut console = Console::play(&["dots", "--second", "builtin:random", "--no-record"]);
    console.prompt();
    console.session.send_control('d').unwrap();
    let ending = console.finish();
    assert!(ending.contains("The console's input ended."), "{ending}");
    assert!(ending.contains("closed the console's input"), "{ending}");
}

#[test]
fn two_people_at_one_keyboard_agree_a_draw() {
    let mut console = Console::play(&[
        "checkers",
        "--first",
        "human",
        "--second",
        "human",
        "--no-record",
    ]);
    let start = console.prompt();
    assert!(start.contains("checkers"), "{start}");
    assert!(start.contains("Black against White"), "{start}");
    assert!(start.contains("Move 1: Black to move"), "{start}");
    console.send("9-13 draw");
    let white = console.prompt();
    assert!(
        white.contains("You played 9-13 and offer a draw."),
        "{white}"
    );
    assert!(white.contains("Black played 9-13"), "{white}");
    assert!(
        white.contains("Black offers a draw: type draw to accept it"),
        "{white}"
    );
    assert!(white.contains("Move 2: White to move"), "{white}");
    console.send("draw");
    let ending = console.finish();
    assert!(ending.contains("You accept the draw."), "{ending}");
    assert!(ending.contains("Draw."), "{ending}");
    assert!(
        ending.contains("White (second player) accepted the draw offered by Black"),
        "{ending}"
    );
}

#[test]
fn two_bots_are_shown_move_by_move() {
    let (mut console, _records) = Console::play_recorded(&[
        "tictactoe",
        "--first",
        "builtin:random",
        "--second",
        "builtin:random",
        "--pause-ms",
        "0",
    ]);
    let ending = console.finish();
    assert!(
        ending.contains("X (builtin:random) against O (builtin:random)"),
        "{ending}"
    );
    assert!(ending.contains("X (builtin:random) played"), "{ending}");
    assert!(ending.contains("O (builtin:random) played"), "{ending}");
    assert!(ending.contains(" ms\n    a  b  c\n"), "{ending}");
    assert!(
        ending.contains("wins.") || ending.contains("Draw."),
        "{ending}"
    );
    let record = record_named(&ending);
    assert_eq!(
        record["moves"].as_array().unwrap().len(),
        ending.matches(") played ").count()
    );
}

#[test]
fn raw_mode_shows_the_protocol_and_sends_what_is_typed() {
    let mut console = Console::play(&[
        "tictactoe",
        "--raw",
        "--second",
        "builtin:random",
        "--no-record",
    ]);
    let setup = console.expect("start\r\n");
    assert!(setup.contains("Raw mode"), "{setup}");
    assert!(
        setup.contains(
            "referee 1\ngame tictactoe width=3 height=3 line=3 exact=no\nside first\n\
             time move=30000 bank=0 increment=0 first=0\n"
        ),
        "{setup}"
    );
    console.send("ready byhand 0.1");
    console.expect("turn 30000");
    console.send("1 1");
    let reply = console.expect("turn 30000");
    assert!(reply.contains("opponent "), "{reply}");
    // No second chance in raw mode: a bot's verdict.
    console.send("b2");
    let ending = console.finish();
    assert!(
        ending.contains("result loss not-a-move X (first player) sent 'b2' for move 3"),
        "{ending}"
    );
    assert!(ending.contains("You lose."), "{ending}");
}

#[test]
fn no_color_means_no_colour() {
    let mut console = Console::with_env(
        &["uttt", "--second", "builtin:random", "--no-record"],
        &[("NO_COLOR", "1")],
    );
    let raw = console.expect_raw(PROMPT);
    assert!(!raw.contains('\x1b'), "{raw:?}");
    console.send("e4");
    let raw = console.expect_raw(PROMPT);
    assert!(!raw.contains('\x1b'), "{raw:?}");
    assert!(raw.contains("next: X in small board "), "{raw}");
    console.send("resign");
    let rest = console.session.exp_eof().unwrap();
    assert!(!rest.contains('\x1b'), "{rest:?}");

    // Not a terminal: no colour either, and a script's lines are read one after another.
    let output = referee()
        .args([
            "play",
            "tictactoe",
            "--second",
            "builtin:random",
            "--no-record",
        ])
        .env("TERM", "xterm-256color")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"help\nmoves\nresign\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success());
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
    assert!(stdout.contains("9 legal moves"), "{stdout}");
    assert!(stdout.contains("You resign."), "{stdout}");
}
