//! `referee play` driven through a real pseudo-terminal, as a person would use it: complete
//! games against the built-in random bot for every game, wrong inputs, `help`, `moves`, the line
//! editor (arrows, history, what is typed ahead), the clock counting down, a timeout, a
//! resignation, two people at one keyboard, raw mode, colours and NO_COLOR, slow bots and the
//! default one. The assertions are on what the screen shows.

use crate::common::{referee, script};
use rexpect::session::{spawn_with_options, Options, PtySession};
use rexpect::ReadUntil;
use std::path::Path;
use std::process::Stdio;

/// The ending of every game at the console: the result and where the record went.
const RECORD: &str = "Record: ";

/// The referee's prompt for a person on the clock ends so: `X [30 s]> `.
const PROMPT: &str = "]> ";

/// The prompt after a move ended a casual game: take it back, or end the game.
const END_PROMPT: &str = "undo or Enter> ";

/// A `referee play` session in a pseudo-terminal that takes colours, answering as a terminal
/// does when asked where its cursor is (the line editor asks before it draws a prompt).
struct Console {
    session: PtySession,
    /// What the referee wrote and the test has not looked at yet, escape sequences included.
    unread: String,
    /// The referee's output has ended.
    ended: bool,
    /// Answer the cursor-position requests (a terminal that does not, when false).
    answers: bool,
    /// How the prompt ends: [`PROMPT`] on the clock, `X> ` without.
    prompt_end: &'static str,
    /// Everything shown so far, without colours.
    screen: String,
}

/// What came after a move.
enum Next {
    /// The next prompt.
    Prompt,
    /// The end of the game, with everything shown until the referee exited.
    End(String),
    /// A move ended a casual game: what was shown until the person is asked whether to take
    /// it back.
    Over(String),
}

/// A terminal's request for its cursor's position, and the answer: the bottom row, first
/// column, where a terminal's cursor is after a screenful of output.
const WHERE_IS_THE_CURSOR: &str = "\x1b[6n";
const CURSOR_AT: &str = "\x1b[24;1R";

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
            unread: String::new(),
            ended: false,
            answers: true,
            prompt_end: PROMPT,
            screen: String::new(),
        }
    }

    /// Reads what the referee wrote since the last look (waiting for something), answering the
    /// terminal requests in it.
    fn read_more(&mut self) {
        // Looks often at first, as an answer comes quickly (rexpect's own wait looks every
        // 100 ms, and the line editor's requests are many); then waits as long as it takes,
        // which also tells the end of the output.
        let quick = std::time::Instant::now() + std::time::Duration::from_millis(100);
        let mut read = false;
        while !read && std::time::Instant::now() < quick {
            while let Some(c) = self.session.try_read() {
                self.unread.push(c);
                read = true;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        if !read {
            match self.session.exp_any(vec![ReadUntil::NBytes(1)]) {
                Ok((_, first)) => self.unread.push_str(&first),
                Err(rexpect::error::Error::EOF { .. }) => self.ended = true,
                Err(error) => panic!("{error}\n--- screen so far ---\n{}", self.screen),
            }
        }
        while let Some(at) = self.unread.find(WHERE_IS_THE_CURSOR) {
            self.unread
                .replace_range(at..at + WHERE_IS_THE_CURSOR.len(), "");
            if self.answers {
                self.session.send(CURSOR_AT).expect("cannot answer");
                self.session.flush().expect("cannot answer");
            }
        }
    }

    /// Waits for the first of `needles` in the plain text (without colours); returns the plain
    /// text before it and the needle found, having read past it. `None` at the end of the output.
    fn until_any(&mut self, needles: &[&str]) -> Option<(String, String)> {
        loop {
            let (text, ends) = plain_with_ends(&self.unread);
            let found = needles
                .iter()
                .filter_map(|needle| text.find(needle).map(|at| (at, *needle)))
                .min();
            if let Some((at, needle)) = found {
                let end = ends[at + needle.len() - 1];
                self.unread.drain(..end);
                let before = text[..at].to_string();
                self.screen.push_str(&before);
                self.screen.push_str(needle);
                return Some((before, needle.to_string()));
            }
            if self.ended {
                return None;
            }
            self.read_more();
        }
    }

    /// Waits for `needle` (in the text without colours); returns the text shown before it.
    fn expect(&mut self, needle: &str) -> String {
        match self.until_any(&[needle]) {
            Some((before, _)) => before,
            None => panic!(
                "waiting for {needle:?}, the output ended\n--- screen so far ---\n{}{}",
                self.screen,
                plain(&self.unread)
            ),
        }
    }

    /// Like [`expect`](Console::expect) on the output as written, colours included.
    fn expect_raw(&mut self, needle: &str) -> String {
        loop {
            if let Some(at) = self.unread.find(needle) {
                let before: String = self.unread.drain(..at + needle.len()).collect();
                let before = before[..at].to_string();
                self.screen.push_str(&plain(&before));
                self.screen.push_str(&plain(needle));
                return before;
            }
            assert!(!self.ended, "waiting for {needle:?}: the output ended");
            self.read_more();
        }
    }

    fn prompt(&mut self) -> String {
        self.expect(self.prompt_end)
    }

    /// Types `line` and Enter, and waits for the line to be taken: its end is echoed. What
    /// follows is the answer to it, never a prompt redrawn before it was taken.
    fn send(&mut self, line: &str) {
        self.keys(&format!("{line}\r"));
        self.expect(&format!("{line}\n"));
    }

    /// Types `keys` as they are, Enter or not.
    fn keys(&mut self, keys: &str) {
        self.session.send(keys).expect("cannot type");
        self.session.flush().expect("cannot type");
    }

    /// Pastes `text` as a terminal does, all at once, answering the cursor requests the
    /// referee makes meanwhile (a terminal answers them whatever it is sending).
    fn paste(&mut self, text: &str) {
        for piece in text.as_bytes().chunks(1024) {
            self.keys(std::str::from_utf8(piece).expect("ASCII"));
            while let Some(c) = self.session.try_read() {
                self.unread.push(c);
            }
            while let Some(at) = self.unread.find(WHERE_IS_THE_CURSOR) {
                self.unread
                    .replace_range(at..at + WHERE_IS_THE_CURSOR.len(), "");
                self.keys(CURSOR_AT);
            }
        }
    }

    /// Types `line` at the prompt; returns what is shown until the next prompt.
    fn answer(&mut self, line: &str) -> String {
        self.send(line);
        self.prompt()
    }

    /// At the end of a casual game, types `line`; returns what is shown until it asks again.
    fn answer_at_the_end(&mut self, line: &str) -> String {
        self.send(line);
        self.expect(END_PROMPT)
    }

    /// Waits for the next prompt or the end of the game.
    fn next(&mut self) -> Next {
        match self.until_any(&[self.prompt_end, RECORD, END_PROMPT]) {
            Some((_, needle)) if needle == self.prompt_end => Next::Prompt,
            Some((before, needle)) if needle == END_PROMPT => Next::Over(before),
            Some((before, _)) => Next::End(before + RECORD + &self.finish()),
            None => Next::End(self.finish()),
        }
    }

    /// Everything shown until the referee exits.
    fn finish(&mut self) -> String {
        plain(&self.finish_raw())
    }

    /// Like [`finish`](Console::finish), colours included.
    fn finish_raw(&mut self) -> String {
        while !self.ended {
            self.read_more();
        }
        let raw = std::mem::take(&mut self.unread);
        self.screen.push_str(&plain(&raw));
        raw
    }

    /// From a prompt, plays the first legal move (as `moves` lists it) at every turn until the
    /// game ends (or a casual game asks whether to take the last move back); returns what was
    /// shown at the end.
    fn play_out(&mut self) -> String {
        loop {
            let listed = self.answer("moves");
            let first = first_listed(&listed);
            self.send(&first);
            match self.next() {
                Next::Prompt => {}
                Next::End(ending) | Next::Over(ending) => return ending,
            }
        }
    }
}

/// The text without ANSI escape sequences and carriage returns.
fn plain(raw: &str) -> String {
    plain_with_ends(raw).0
}

/// The text without ANSI escape sequences and carriage returns, and for each of its bytes the
/// end in `raw` of the character it came from.
fn plain_with_ends(raw: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(raw.len());
    let mut ends = Vec::with_capacity(raw.len());
    let mut escape = false;
    for (at, c) in raw.char_indices() {
        if c == '\x1b' {
            escape = true;
        } else if escape {
            escape = !c.is_ascii_alphabetic();
        } else if c != '\r' {
            out.push(c);
            ends.extend(std::iter::repeat(at + c.len_utf8()).take(c.len_utf8()));
        }
    }
    (out, ends)
}

/// The escape sequences in `raw` that set a colour or a style (SGR sequences other than the
/// reset): the line editor moves the cursor with escape sequences whatever the colours.
fn styles(raw: &str) -> Vec<String> {
    raw.split('\x1b')
        .skip(1)
        .filter_map(|rest| {
            let params = rest.strip_prefix('[')?;
            let end = params.find(|c: char| c.is_ascii_alphabetic())?;
            (&params[end..=end] == "m" && !matches!(&params[..end], "" | "0"))
                .then(|| params[..=end].to_string())
        })
        .collect()
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
    assert!(help.contains("undo     take back your last move"), "{help}");
    assert!(help.contains("Up and down"), "{help}");
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

/// A point forbidden to Black, typed by a person, is refused and the turn kept: the rules
/// score it as a loss, which is for bots.
#[test]
fn renju_refuses_a_person_a_forbidden_point() {
    let mut console = Console::play(&[
        "gomoku",
        "-p",
        "rule=renju",
        "--second",
        "builtin:greedy",
        "--opening",
        "7 5,0 0,7 6,0 14,5 7,14 0,6 7,14 14",
        "--no-record",
    ]);
    console.prompt();
    let refused = console.answer("7 7");
    assert!(
        refused.contains(
            "7 7 is forbidden to Black in renju: it would make a double three; choose another"
        ),
        "{refused}"
    );
    assert!(!refused.contains("wins"), "{refused}");
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
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
            "): illegal move: outside the forced board: you must play in small board {forced}"
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
    // The bot played on: it declined, and the console says so once.
    assert_eq!(
        after
            .matches("White (builtin:random) declines the draw.")
            .count(),
        1,
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

/// `12 19` names the jump a person sees; the rules make it go on to 28 (12x19x28), and it is
/// the only capture through 19, so it is played. A plain move is still refused.
#[test]
fn checkers_takes_a_jump_named_by_its_first_landing() {
    let mut console = Console::play(&[
        "checkers",
        "-p",
        "fen=B:W16,24:B12",
        "--second",
        "builtin:random",
        "--no-record",
    ]);
    console.prompt();
    let refused = console.answer("12 15");
    assert!(
        refused.contains("a capture is mandatory: you must jump"),
        "{refused}"
    );
    console.send("12 19");
    let Next::End(ending) = console.next() else {
        panic!("White has no piece left: the game is over");
    };
    assert!(ending.contains("You played 12x19x28."), "{ending}");
    assert!(ending.contains("You win!"), "{ending}");
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
fn the_line_editor_edits_recalls_and_sorts_out_what_was_typed_ahead() {
    // The bot takes long enough for the test to type while it thinks.
    let slow = format!("python3 {} slow:1500", script().display());
    let mut console = Console::play(&[
        "tictactoe",
        "--second",
        &slow,
        "--time",
        "move=5000",
        "--no-record",
    ]);
    console.prompt();
    // The arrows move in the line: ab1, two to the left, a backspace, Enter: b1.
    console.keys("ab1\x1b[D\x1b[D\x7f\r");
    console.expect("b1\n");
    // While the bot thinks, a whole line typed is ignored (it was typed without seeing the bot's
    // move) and a line begun is kept at the prompt.
    let played = console.expect("is thinking...");
    assert!(played.contains("You played b1 (1 1)."), "{played}");
    console.keys("c2\rmov");
    let after = console.prompt();
    assert!(
        after.contains("(ignored 'c2', typed before your turn)"),
        "{after}"
    );
    let listed = console.answer("es");
    assert!(listed.contains("7 legal moves: "), "{listed}");
    // Up recalls the lines typed before, the last first.
    console.keys("\x1b[A\r");
    console.expect("]> moves\n");
    assert!(console.prompt().contains("7 legal moves: "));
    console.keys("\x1b[A\x1b[A\r");
    console.expect("]> b1\n");
    let again = console.prompt();
    assert!(
        again.contains("b1 (1 1): illegal move: 1 1 is already taken"),
        "{again}"
    );
    assert!(!console.screen.contains("^["), "{}", console.screen);
    assert!(!console.screen.contains("line editing is off"));
    console.send("resign");
    console.finish();
}

/// A paste far longer than a line is refused in a line of its own, without being shown, and
/// line editing stays on.
#[test]
fn a_very_long_paste_is_refused_and_line_editing_stays_on() {
    let mut console = Console::play(&["tictactoe", "--second", "builtin:random", "--no-record"]);
    console.prompt();
    console.paste(&format!("{}\r", "7".repeat(90_000)));
    let refused = console
        .expect("That line is longer than 256 characters: it was refused. Type a move, or help.\n");
    assert!(!refused.contains("7777"), "{refused}");
    console.prompt();
    // The arrows still move in the line: 1, one to the left, b, Enter: b1.
    console.keys("1\x1b[Db\r");
    console.expect("You played b1 (1 1).");
    console.prompt();
    assert!(!console.screen.contains("line editing is off"));
    console.send("resign");
    console.finish();
}

#[test]
fn a_terminal_that_does_not_answer_is_typed_on_without_line_editing() {
    let mut console = Console::play(&["tictactoe", "--second", "builtin:random", "--no-record"]);
    console.answers = false;
    let start = console.expect("(line editing is off: ");
    assert!(start.contains("Move 1: X (you) to move"), "{start}");
    console.prompt();
    // (The test's terminal does not echo what is typed: the line editor showed it.)
    console.keys("b1\r");
    let after = console.prompt();
    assert!(after.contains("You played b1 (1 1)."), "{after}");
    console.keys("resign\r");
    assert!(console.finish().contains("You lose."));
}

#[test]
fn moves_are_taken_back_in_a_casual_game_only_and_it_is_not_recorded() {
    // On the clock, taking back would give time back: no.
    let mut console = Console::play(&["tictactoe", "--second", "builtin:random", "--no-record"]);
    assert!(!console.prompt().contains("undo"));
    console.send("b1");
    console.prompt();
    let refused = console.answer("undo");
    assert!(
        refused.contains("Moves are taken back only in a casual game against a bot"),
        "{refused}"
    );
    console.send("resign");
    console.finish();

    // Without a clock, against a bot: the person's last move goes, and the bot's reply.
    let (mut console, records) = Console::play_recorded(&[
        "tictactoe",
        "--second",
        "builtin:random",
        "--human-time",
        "off",
    ]);
    console.prompt_end = "X> ";
    let start = console.prompt();
    assert!(
        start.contains("Type undo to take back your last move"),
        "{start}"
    );
    let nothing = console.answer("undo");
    assert!(
        nothing.contains("You have no move to take back."),
        "{nothing}"
    );
    let reply = |after: &str| -> String {
        let line = after
            .lines()
            .find(|line| line.starts_with("O (builtin:random) played "))
            .unwrap_or_else(|| panic!("no reply in:\n{after}"));
        line["O (builtin:random) played ".len()..].to_string()
    };
    let first = reply(&console.answer("b1"));
    let undone = console.answer("undo");
    assert!(
        undone.contains(&format!("Taken back: b1 (1 1), {first}.")),
        "{undone}"
    );
    assert!(
        undone.contains("  1 .  .  .\n"),
        "the board is empty again: {undone}"
    );
    assert!(undone.contains("Move 1: X (you) to move"), "{undone}");
    // Again, deeper: the first moves stay.
    let first = reply(&console.answer("a0"));
    let second = reply(&console.answer("c2"));
    let undone = console.answer("undo");
    assert!(
        undone.contains(&format!("Taken back: c2 (2 2), {second}.")),
        "{undone}"
    );
    assert!(undone.contains("Move 3: X (you) to move"), "{undone}");
    assert!(undone.contains("  0 X"), "a0 stays: {undone}");
    assert!(!first.is_empty());
    let ending = console.play_out();
    assert!(has_result(&ending), "{ending}");
    // Enter ends the game.
    console.send("");
    let ending = console.finish();
    assert!(
        ending.contains("Not recorded: moves were taken back."),
        "{ending}"
    );
    assert!(!ending.contains(RECORD), "{ending}");
    assert_eq!(std::fs::read_dir(records.path()).unwrap().count(), 0);
}

/// After a take-back the game goes on from the moves kept: they keep their numbers, at the
/// prompt and in the verdict, and the opening is not counted.
#[test]
fn a_move_keeps_its_number_after_a_take_back() {
    let mut console = Console::play(&[
        "gomoku",
        "--second",
        "builtin:random",
        "--human-time",
        "off",
        "--opening",
        "7 7,8 8",
        "--no-record",
    ]);
    console.prompt_end = "X> ";
    assert!(console.prompt().contains("Move 1: X (you) to move"));
    console.answer("a0");
    assert!(console.answer("a1").contains("Move 5: X (you) to move"));
    let undone = console.answer("undo");
    assert!(undone.contains("Move 3: X (you) to move"), "{undone}");
    console.send("resign");
    let ending = console.finish();
    assert!(
        ending.contains("X (first player) resigned at move 3"),
        "{ending}"
    );
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
    assert!(start.ends_with("X [2 s"), "{start}");
    let ending = console.finish();
    assert!(ending.contains("Time is up."), "{ending}");
    assert!(ending.contains("You lose."), "{ending}");
    assert!(
        ending.contains("X (first player) did not answer move 1 within"),
        "{ending}"
    );
}

#[test]
fn the_clock_counts_down_at_the_prompt_and_warns_and_a_late_line_loses() {
    let mut console = Console::play(&[
        "tictactoe",
        "--second",
        "builtin:random",
        "--human-time",
        "move=11000",
        "--no-record",
    ]);
    assert!(console.prompt().ends_with("X [11 s"));
    // A line begun is kept while the prompt is redrawn, each second and after the warning.
    console.keys("b");
    let warned = console.expect("10 s left!");
    assert!(warned.contains("X [11 s]> b"), "{warned}");
    let redrawn = console.expect("]> b");
    assert!(
        redrawn.ends_with("X [10 s") || redrawn.ends_with("X [9 s"),
        "{redrawn}"
    );
    console.expect("X [8 s]> b");
    console.send("1");
    let after = console.prompt();
    assert!(after.contains("You played b1 (1 1)."), "{after}");
    // The next move starts with a full clock that counts down on its own; whatever is being
    // typed when it runs out is lost with the game.
    assert!(after.ends_with("X [11 s"), "{after}");
    console.keys("a2");
    console.expect("X [1 s]> a2");
    let ending = console.finish();
    assert!(ending.contains("Time is up."), "{ending}");
    assert!(ending.contains("You lose."), "{ending}");
    assert!(
        ending.contains("X (first player) did not answer move 3 within"),
        "{ending}"
    );
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
    // The bot's move was shown with the prompt: not again, as if it were a new one.
    assert!(!ending.contains(" played "), "{ending}");
    assert!(ending.contains("it counts as resigning"), "{ending}");
    assert!(
        ending.contains("O (second player) resigned at move 2"),
        "{ending}"
    );

    // From an opening: the prompt counts the moves after it, as the verdict does.
    let mut console = Console::play(&[
        "tictactoe",
        "--second",
        "builtin:random",
        "--opening",
        "1 1,0 0",
        "--no-record",
    ]);
    let start = console.prompt();
    assert!(start.contains("Move 1: X (you) to move"), "{start}");
    console.send("resign");
    let ending = console.finish();
    assert!(
        ending.contains("X (first player) resigned at move 1"),
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
    // Each move said once, by the side that played it: neither person is "you".
    assert!(
        white.contains("Black played 9-13 and offers a draw."),
        "{white}"
    );
    assert_eq!(white.matches("played 9-13").count(), 1, "{white}");
    assert!(!white.contains("You "), "{white}");
    assert!(
        white.contains("Black offers a draw: type draw to accept it"),
        "{white}"
    );
    assert!(white.contains("Move 2: White to move"), "{white}");
    console.send("draw");
    let ending = console.finish();
    assert!(ending.contains("White accepts the draw."), "{ending}");
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

/// Ctrl-C while a bot thinks kills the bots: the game has no result, so none is shown or
/// recorded (it was, as a loss of the bot killed).
#[test]
fn ctrl_c_while_a_bot_thinks_shows_and_records_no_result() {
    let (mut console, records) = Console::play_recorded(&[
        "gomoku",
        "--first",
        "builtin:strong",
        "--second",
        "builtin:strong",
        "--pause-ms",
        "0",
        "--time",
        "move=3000",
    ]);
    console.expect("is thinking...");
    console.session.send_control('c').unwrap();
    let ending = console.finish();
    assert!(ending.contains("stopped by signal 2"), "{ending}");
    assert!(
        !ending.contains("wins") && !ending.contains("Record:"),
        "{ending}"
    );
    let files: Vec<_> = std::fs::read_dir(records.path())
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name())
        .collect();
    assert!(files.is_empty(), "{files:?}");
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
    let setup = console.expect("start\n");
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
    assert_eq!(styles(&raw), [""; 0], "{raw:?}");
    console.send("e4");
    let raw = console.expect_raw(PROMPT);
    assert_eq!(styles(&raw), [""; 0], "{raw:?}");
    assert!(raw.contains("next: X in small board "), "{raw}");
    console.send("resign");
    let rest = console.finish_raw();
    assert_eq!(styles(&rest), [""; 0], "{rest:?}");

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

/// A move that ends a casual game can be taken back: the person sees how the game ended,
/// then types undo and plays on (or presses Enter to end it).
#[test]
fn the_move_that_ends_a_casual_game_can_be_taken_back() {
    // X (the person) to move; O threatens c1, and X does not block it.
    let (mut console, records) = Console::play_recorded(&[
        "tictactoe",
        "--second",
        "builtin:strong",
        "--human-time",
        "off",
        "--opening",
        "0 0,0 1,2 2,1 1",
    ]);
    console.prompt_end = "X> ";
    console.prompt();
    console.send("c0");
    let Next::Over(ending) = console.next() else {
        panic!("O wins at once: the game is over");
    };
    assert!(ending.contains("You lose."), "{ending}");
    assert!(
        ending.contains("A casual game: type undo to take back your last move and play on"),
        "{ending}"
    );
    let confused = console.answer_at_the_end("what");
    assert!(confused.contains("Type undo, or press Enter"), "{confused}");
    console.send("undo");
    let undone = console.prompt();
    assert!(
        undone.contains("Taken back: c0 (2 0), c1 (2 1)."),
        "{undone}"
    );
    // Moves are counted after the opening, as verdicts count them.
    assert!(undone.contains("Move 1: X (you) to move"), "{undone}");
    // A resignation is not a move: no undo after it.
    console.send("resign");
    let ending = console.finish();
    assert!(ending.contains("You resign."), "{ending}");
    assert!(!ending.contains(END_PROMPT), "{ending}");
    assert!(
        ending.contains("Not recorded: moves were taken back."),
        "{ending}"
    );
    assert_eq!(std::fs::read_dir(records.path()).unwrap().count(), 0);
}

/// When a bot offers a draw and the person plays on, the console says the offer was declined.
#[test]
fn a_draw_offered_by_the_bot_is_declined_by_playing_on() {
    let bot = format!("python3 {} offer", crate::common::script().display());
    let mut console =
        Console::play(&["checkers", "--second", &bot, "--legal-moves", "--no-record"]);
    console.prompt();
    console.send("11 15");
    let offered = console.prompt();
    assert!(
        offered.contains("offers a draw: type draw to accept it"),
        "{offered}"
    );
    let listed = console.answer("moves");
    console.send(&first_listed(&listed));
    let after = console.prompt();
    assert_eq!(after.matches("You decline the draw.").count(), 1, "{after}");
}

/// The bot's move that ends the game is announced (it never was: a person sees a bot's move
/// when asked for the next one, and there is none after the last).
#[test]
fn the_bots_move_that_ends_the_game_is_announced() {
    let (mut console, _records) =
        Console::play_recorded(&["tictactoe", "--second", "builtin:strong"]);
    console.prompt();
    let ending = console.play_out();
    let record = record_named(&ending);
    let moves = record["moves"].as_array().unwrap();
    let last = moves.last().unwrap();
    assert_eq!(last["side"], "second", "the bot ended the game: {record}");
    assert!(ending.contains("You lose."), "{ending}");
    let notation = last["move"].as_str().unwrap();
    let (x, y) = notation.split_once(' ').unwrap();
    let square = format!("{}{}", char::from(b'a' + x.parse::<u8>().unwrap()), y);
    let announced = ending.lines().rev().find(|line| line.contains(" played "));
    assert!(
        announced.is_some_and(|line| line.starts_with("O") && line.contains(&square)),
        "{announced:?} for {notation}: {ending}"
    );
}
