//! Bots written for other systems, run unchanged through the real `referee match` binary:
//! Gomocup brains (tests/bots/gomocup_brain.py), CodinGame ultimate tic-tac-toe bots
//! (tests/bots/codingame_uttt.py) and theaigames / riddles.io bots (tests/bots/riddles_uttt.py),
//! each written to its protocol's own description. They play full games against the built-in
//! and the starter bots; what the adapters told them is checked line by line against the
//! position replayed on the referee's rules (Gomocup's BOARD, CodinGame's valid actions, the
//! riddles field and macroboard, the time banks); and their mistakes become the usual verdicts.
//! No bot process may survive a match.

use referee_rules::games::uttt::{BoardStatus, Uttt};
use referee_rules::games::{Game, GameSpec, Side};
use referee_rules::verdict::Termination;
use serde_json::Value;

use crate::common::{
    brain, codingame, marker, record_moves, referee, riddles, sent_to, starter, survivors, Bot,
    Match, RANDOM,
};

/// One game's record with its transcript and bot A's stderr.
struct Played {
    record: Value,
    transcript: String,
    stderr_a: String,
}

impl Played {
    /// Whether player A moved first.
    fn a_side(&self) -> Side {
        if self.record["players"][0]["label"] == "A" {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The lines the referee sent to A, in order.
    fn sent_to_a(&self) -> Vec<&str> {
        sent_to(&self.transcript, "A")
    }

    /// The lines A wrote, in order.
    fn written_by_a(&self) -> Vec<&str> {
        self.transcript
            .lines()
            .filter_map(|line| line.split_once(" A< ").map(|(_, text)| text))
            .collect()
    }

    fn reason(&self) -> &str {
        self.record["result"]["reason"].as_str().unwrap()
    }

    fn detail(&self) -> &str {
        self.record["result"]["detail"].as_str().unwrap()
    }

    /// The moves of the record: side, notation, time in microseconds.
    fn moves(&self) -> Vec<(Side, String, u64)> {
        record_moves(&self.record)
    }

    /// The opening of the record.
    fn opening(&self) -> Vec<String> {
        self.record["opening"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| mv.as_str().unwrap().to_string())
            .collect()
    }

    /// Asserts that the game ended by the rules, every move replaying legally.
    fn ended_by_the_rules(&self) {
        assert!(
            !self.reason().parse::<Termination>().unwrap().is_forfeit(),
            "game {}: {}\n{}",
            self.record["number"],
            self.detail(),
            self.transcript
        );
        let text = self.record["game"].as_str().unwrap();
        let words: Vec<&str> = text.split(' ').collect();
        let mut game = GameSpec::from_words(words[0], &words[1..])
            .unwrap()
            .new_game();
        for mv in self.opening() {
            game.play_text(&mv).unwrap();
        }
        for (side, mv, _) in self.moves() {
            assert_eq!(side, game.side_to_move());
            assert_eq!(game.play_text(&mv).unwrap(), mv);
        }
        assert_eq!(
            Termination::Rules(game.outcome().unwrap().ending).code(),
            self.reason()
        );
    }
}

/// Runs the match (see [`Match::run`]) and reads every game.
fn play(played: Match) -> Vec<Played> {
    let outcome = played.run();
    let games: Vec<Played> = (1..=outcome.records.len())
        .map(|number| Played {
            record: outcome.records[number - 1].clone(),
            transcript: outcome.file(&format!("{number:04}.transcript.txt")),
            stderr_a: std::fs::read_to_string(
                outcome.dir.join(format!("{number:04}.A.stderr.txt")),
            )
            .unwrap_or_default(),
        })
        .collect();
    assert!(!games.is_empty(), "{}", outcome.stdout);
    games
}

/// The time left in a bank before each of a player's moves, in whole milliseconds, from the
/// times its moves took (riddles.io's rule, the referee's own:
/// bank = min(max(bank - used, 0) + increment, size)). The first move is not charged: the
/// tests give it an allowance, since a bot without a handshake starts up during it.
fn banks(times_us: &[u64], size_ms: u64, increment_ms: u64) -> Vec<u64> {
    let mut bank = size_ms * 1000;
    let mut left = Vec::new();
    for &used in times_us.iter().skip(1) {
        left.push(bank / 1000);
        bank = (bank.saturating_sub(used) + increment_ms * 1000).min(size_ms * 1000);
    }
    left
}

/// Checks announced bank values (those of the moves after the first) against the rule,
/// within a millisecond (the record keeps whole microseconds, the clock nanoseconds).
fn assert_banks(told: &[u64], times_us: &[u64], size_ms: u64, increment_ms: u64) {
    let expected = banks(times_us, size_ms, increment_ms);
    assert_eq!(told.len(), expected.len(), "{told:?} {expected:?}");
    for (told, expected) in told.iter().zip(&expected) {
        assert!(told.abs_diff(*expected) <= 1, "{told:?} vs {expected:?}");
    }
}

/// The times of `side`'s moves, in microseconds.
fn times_of(game: &Played, side: Side) -> Vec<u64> {
    game.moves()
        .into_iter()
        .filter(|(s, ..)| *s == side)
        .map(|(.., us)| us)
        .collect()
}

/// The process ids a test brain reported on stderr at each START or RESTART.
fn pids(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| line.starts_with("pid "))
        .map(|line| line.split(' ').nth(1).unwrap())
        .collect()
}

#[test]
fn gomocup_brains_play_full_games_and_are_reused_with_restart() {
    let games = play(Match::new("gomoku").a(brain("good")).b(RANDOM).games(3));
    assert_eq!(games.len(), 3);
    for game in &games {
        game.ended_by_the_rules();
        assert_eq!(
            game.record["players"][game.a_side().index()]["name"],
            "gomocup-test"
        );
        assert_eq!(
            game.record["players"][game.a_side().index()]["version"],
            "1.0"
        );
        // The brain's END, at the end of the match, is on file with its last game.
        let mut sent = game.sent_to_a();
        if sent.last() == Some(&"END") {
            sent.pop();
        }
        let info_at = sent.iter().position(|l| l.starts_with("INFO")).unwrap();
        assert_eq!(
            sent[info_at..info_at + 5],
            [
                "INFO timeout_turn 1000",
                "INFO timeout_match 0",
                "INFO max_memory 367001600",
                "INFO game_type 1",
                "INFO rule 0"
            ]
        );
        // The brain opens with BEGIN as the first player, and hears each move with TURN, each
        // after INFO time_left, with no match limit as Gomocup managers tell it.
        let times_left: Vec<&str> = sent[info_at + 5..].iter().step_by(2).copied().collect();
        let requests: Vec<&str> = sent[info_at + 6..].iter().step_by(2).copied().collect();
        assert_eq!(times_left.len(), requests.len(), "{sent:?}");
        assert!(
            times_left.iter().all(|l| *l == "INFO time_left 2147483647"),
            "{sent:?}"
        );
        let opponent_moves: Vec<String> = game
            .moves()
            .into_iter()
            .filter(|(side, ..)| *side != game.a_side())
            .map(|(_, mv, _)| format!("TURN {}", mv.replace(' ', ",")))
            .collect();
        let mut expected: Vec<String> = Vec::new();
        if game.a_side() == Side::First {
            expected.push("BEGIN".into());
        }
        expected.extend(opponent_moves);
        // The brain is not asked again after the opponent's winning move.
        if game.record["result"]["winner"] != game.a_side().as_str() {
            expected.pop();
        }
        assert_eq!(requests, expected, "{}", game.transcript);
        // Its answers are the record's moves with a comma.
        let answers: Vec<String> = game
            .moves()
            .into_iter()
            .filter(|(side, ..)| *side == game.a_side())
            .map(|(_, mv, _)| mv.replace(' ', ","))
            .collect();
        let written: Vec<&str> = game
            .written_by_a()
            .into_iter()
            .filter(|l| l.contains(',') && !l.contains('='))
            .collect();
        assert_eq!(written, answers);
    }
    assert_eq!(
        games[0].sent_to_a()[..2],
        ["START 15", "ABOUT"],
        "{}",
        games[0].transcript
    );
    for game in &games[1..] {
        assert_eq!(game.sent_to_a()[0], "RESTART", "{}", game.transcript);
        assert_eq!(game.written_by_a()[0], "OK");
        assert!(!game.sent_to_a().contains(&"START 15"));
        assert!(!game.sent_to_a().contains(&"ABOUT"));
    }
    // One process for the whole match: START once, then RESTART in the same process.
    let all: Vec<&str> = games.iter().flat_map(|g| pids(&g.stderr_a)).collect();
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all.iter().all(|pid| *pid == all[0]), "{all:?}");
    for game in &games {
        assert!(!game.stderr_a.contains("not CR LF"), "{}", game.stderr_a);
    }
    for game in &games[..2] {
        assert!(!game.sent_to_a().contains(&"END"), "{}", game.transcript);
    }
    assert_eq!(
        games[2].sent_to_a().last(),
        Some(&"END"),
        "{}",
        games[2].transcript
    );
}

#[test]
fn brains_are_told_a_memory_budget_they_can_allocate() {
    // A brain that allocates a hash table of max_memory bytes: told the 4096 MiB address-space
    // limit itself, it would fail to allocate and say so when no answer is due.
    let games = play(Match::new("gomoku").a(brain("hash")).b(RANDOM).games(1));
    games[0].ended_by_the_rules();
    assert!(games[0].sent_to_a().contains(&"INFO max_memory 367001600"));
    let games = play(
        Match::new("gomoku")
            .a(brain("hash"))
            .b(RANDOM)
            .games(1)
            .args(&["--gomocup-memory-mb", "100", "--limits", "memory=1024"]),
    );
    games[0].ended_by_the_rules();
    assert!(games[0].sent_to_a().contains(&"INFO max_memory 104857600"));
}

#[test]
fn a_brain_that_refuses_restart_is_ended_and_started_again() {
    let games = play(
        Match::new("gomoku")
            .a(brain("no-restart"))
            .b(RANDOM)
            .games(2)
            .param("exact=yes"),
    );
    for game in &games {
        game.ended_by_the_rules();
        assert!(game.sent_to_a().contains(&"INFO rule 1"));
    }
    let second = &games[1];
    assert_eq!(
        second.sent_to_a()[..4],
        ["RESTART", "END", "START 15", "ABOUT"],
        "{}",
        second.transcript
    );
    assert_eq!(
        second.written_by_a()[0],
        "UNKNOWN RESTART is not implemented"
    );
    let first_pid = pids(&games[0].stderr_a);
    let second_pids = pids(&second.stderr_a);
    assert_eq!(second_pids.len(), 2, "{second_pids:?}");
    assert_eq!(
        second_pids[0], first_pid[0],
        "RESTART went to the first process"
    );
    assert_ne!(second_pids[1], first_pid[0], "then a new process");
}

#[test]
fn a_brain_plays_the_mnk_starter_from_an_opening_on_a_rectangle_with_a_bank() {
    // The brain ends its lines with CR alone.
    let games = play(
        Match::new("mnk")
            .a(brain("cr"))
            .b(starter("mnk.py"))
            .param("width=12")
            .param("height=9")
            .opening("5 5,6 6,4 4")
            .time("bank=5000,increment=100,first=5000")
            .games(2),
    );
    for game in &games {
        game.ended_by_the_rules();
        let sent = game.sent_to_a();
        assert!(
            sent[0] == "RECTSTART 12,9" || sent[0] == "RESTART",
            "{sent:?}"
        );
        assert!(sent.contains(&"INFO timeout_match 5000"));
        // BOARD gives every stone in the order played, 1 for the brain's own.
        let board_at = sent.iter().position(|l| *l == "BOARD").unwrap();
        let own = |side: Side| if side == game.a_side() { 1 } else { 2 };
        let mut expected: Vec<String> = ["5,5", "6,6", "4,4"]
            .iter()
            .zip([Side::First, Side::Second, Side::First])
            .map(|(square, side)| format!("{square},{}", own(side)))
            .collect();
        if game.a_side() == Side::First {
            // The second player moves first after three opening moves.
            let (_, first_move, _) = &game.moves()[0];
            expected.push(format!("{},2", first_move.replace(' ', ",")));
        }
        expected.push("DONE".into());
        assert_eq!(sent[board_at + 1..board_at + 1 + expected.len()], expected);
        assert!(!sent.contains(&"BEGIN"));
        // INFO time_left before each move request, following the bank.
        let mut told = Vec::new();
        for (index, line) in sent.iter().enumerate() {
            if let Some(ms) = line.strip_prefix("INFO time_left ") {
                assert!(
                    sent[index + 1] == "BOARD" || sent[index + 1].starts_with("TURN "),
                    "{sent:?}"
                );
                told.push(ms.parse::<u64>().unwrap());
            }
        }
        // Under the first move's allowance the bank is untouched.
        assert_eq!(told[0], 5000);
        assert_banks(&told[1..], &times_of(game, game.a_side()), 5000, 100);
    }
}

#[test]
fn a_turn_limit_and_a_match_bank_together_as_gomocup_plays_them() {
    let games = play(
        Match::new("gomoku")
            .a(brain("good"))
            .b(RANDOM)
            .time("move=300,bank=2000,first=900")
            .games(2),
    );
    for game in &games {
        game.ended_by_the_rules();
        let sent = game.sent_to_a();
        // The turn limit, never the first move's allowance, and the bank as the match's.
        assert!(sent.contains(&"INFO timeout_turn 300"), "{sent:?}");
        assert!(sent.contains(&"INFO timeout_match 2000"), "{sent:?}");
        assert!(!sent.iter().any(|l| l.contains(" 900")), "{sent:?}");
        let told: Vec<u64> = sent
            .iter()
            .filter_map(|l| l.strip_prefix("INFO time_left "))
            .map(|ms| ms.parse().unwrap())
            .collect();
        assert_eq!(told[0], 2000, "the first move is not charged");
        assert_banks(&told[1..], &times_of(game, game.a_side()), 2000, 0);
        // The native bot's turn is the smaller of the move limit and its bank left.
        let turns: Vec<u64> = game
            .transcript
            .lines()
            .filter_map(|l| l.split_once(" B> turn "))
            .map(|(_, ms)| ms.parse().unwrap())
            .collect();
        assert_eq!(turns[0], 900);
        let b_banks = banks(&times_of(game, game.a_side().opponent()), 2000, 0);
        for (turn, bank) in turns[1..].iter().zip(&b_banks) {
            assert!(
                turn.abs_diff((*bank).min(300)) <= 1,
                "{turns:?} {b_banks:?}"
            );
        }
    }
}

#[test]
fn brains_play_gomocups_20x20_gomoku_from_an_opening_in_gomocups_offsets() {
    let games = play(
        Match::new("gomoku")
            .a(brain("good"))
            .b(RANDOM)
            .param("size=20")
            .opening("0,0, 1,0, 1,1")
            .games(1),
    );
    let game = &games[0];
    game.ended_by_the_rules();
    assert_eq!(game.sent_to_a()[0], "START 20");
    // The centre of a 20x20 board is 10,10.
    assert_eq!(game.opening(), ["10 10", "11 10", "11 11"]);
    // A opens game 1: the first stone is its own.
    assert!(game.sent_to_a().contains(&"10,10,1"), "{}", game.transcript);
}

#[test]
fn a_brain_over_its_turn_limit_loses_with_its_bank_still_full() {
    // 1500 ms against a 300 ms turn: past Gomocup's 1000 ms tolerance, though the bank had
    // 60 s.
    let outcome = Match::new("gomoku")
        .a(brain("slow:1500"))
        .b(RANDOM)
        .time("move=300,bank=60000")
        .games(1)
        .run();
    let result = &outcome.records[0]["result"];
    assert_eq!(result["reason"], "timeout", "{}", outcome.stdout);
    let detail = result["detail"].as_str().unwrap();
    assert!(
        detail.contains("the limit is 300 ms (+1000 ms margin)"),
        "{detail}"
    );
}

#[test]
fn brains_may_chatter_end_lines_with_crlf_and_suggest() {
    for mode in ["noise", "trailing", "crlf", "suggest"] {
        let games = play(
            Match::new("gomoku")
                .a(brain(mode))
                .b(starter("mnk.py"))
                .games(2),
        );
        for game in &games {
            game.ended_by_the_rules();
            let from = game.written_by_a();
            match mode {
                "noise" => {
                    assert!(from.contains(&"MESSAGE thinking hard"));
                    assert!(from.contains(&"DEBUG eval=0.5 depth=3"));
                    assert!(from.contains(&""));
                    // Each MESSAGE is kept with the move it came with; the other lines are not.
                    let side = game.a_side().as_str();
                    for mv in game.record["moves"].as_array().unwrap() {
                        let expected = if mv["side"] == side {
                            serde_json::json!(["thinking hard"])
                        } else {
                            serde_json::Value::Null
                        };
                        assert_eq!(mv["messages"], expected, "{mv}");
                    }
                }
                "trailing" => {
                    // A MESSAGE after `OK` to START (before ABOUT is asked) is passed over.
                    let ok = from.iter().position(|l| *l == "OK").unwrap();
                    assert_eq!(from[ok + 1], "MESSAGE config: hash=16MB depth=20");
                }
                "suggest" => {
                    // Every SUGGEST is confirmed with PLAY, and the brain's echo is the move.
                    let suggested: Vec<String> = from
                        .iter()
                        .filter_map(|l| l.strip_prefix("SUGGEST "))
                        .map(|square| format!("PLAY {square}"))
                        .collect();
                    let played: Vec<&str> = game
                        .sent_to_a()
                        .into_iter()
                        .filter(|l| l.starts_with("PLAY "))
                        .collect();
                    assert!(!played.is_empty());
                    assert_eq!(suggested, played);
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_brains_messages_kept_with_a_move_are_bounded() {
    let games = play(Match::new("gomoku").a(brain("chatty")).b(RANDOM).games(1));
    let game = &games[0];
    game.ended_by_the_rules();
    let side = game.a_side().as_str();
    for mv in game.record["moves"].as_array().unwrap() {
        if mv["side"] == side {
            let messages = mv["messages"].as_array().unwrap();
            assert_eq!(messages.len(), 16, "{mv}");
            assert!(messages[0].as_str().unwrap().starts_with("0 xxx"));
            assert!(messages.iter().all(|m| m.as_str().unwrap().len() <= 259));
        }
    }
}

#[test]
fn the_clock_runs_on_over_chatter() {
    let games = play(
        Match::new("gomoku")
            .a(brain("slow-chatter:300"))
            .b(RANDOM)
            .games(1),
    );
    let game = &games[0];
    game.ended_by_the_rules();
    assert!(game.written_by_a().contains(&"MESSAGE let me think"));
    let times = times_of(game, game.a_side());
    assert!(!times.is_empty());
    // The MESSAGE comes at once, the move 300 ms later: the move's time is the whole wait, not
    // the time to the MESSAGE (less 150 ms for a referee descheduled right after its request).
    assert!(times.iter().all(|&us| us >= 150_000), "{times:?}");
}

#[test]
fn a_brain_refusing_the_board_loses_with_a_verdict_of_its_own() {
    let games = play(
        Match::new("gomoku")
            .a(brain("refuse-size"))
            .b(RANDOM)
            .games(2),
    );
    for game in &games {
        assert_eq!(game.reason(), "refused-board");
        assert_eq!(
            game.record["result"]["winner"],
            game.a_side().opponent().as_str()
        );
        assert!(
            game.detail()
                .ends_with("refused the 15x15 board: 'ERROR unsupported size' during the setup"),
            "{}",
            game.detail()
        );
    }
}

#[test]
fn a_brain_refusing_the_rule_loses_and_one_knowing_it_plays() {
    // As Rapfi answers `INFO rule 8`: it would play freestyle under a caro judge.
    let games = play(
        Match::new("gomoku")
            .a(brain("norule"))
            .b(RANDOM)
            .games(2)
            .args(&["-p", "rule=caro"]),
    );
    for game in &games {
        assert_eq!(game.reason(), "refused-board", "{}", game.detail());
        assert_eq!(
            game.record["result"]["winner"],
            game.a_side().opponent().as_str()
        );
        assert!(
            game.detail().contains(
                "refused the rule caro (INFO rule 8): 'ERROR Unknown rule id: 8. Rule is \
                 reset to freestyle...'"
            ),
            "{}",
            game.detail()
        );
    }
    // The same brain knows renju: it plays.
    let games = play(
        Match::new("gomoku")
            .a(brain("norule"))
            .b(RANDOM)
            .games(2)
            .args(&["-p", "rule=renju"]),
    );
    for game in &games {
        assert_ne!(game.reason(), "refused-board", "{}", game.detail());
        assert!(game.moves().len() > 4, "{}", game.detail());
    }
}

#[test]
fn brains_lines_that_are_not_moves_are_passed_over_and_kept() {
    let games = play(Match::new("gomoku").a(brain("junk")).b(RANDOM).games(2));
    for game in &games {
        game.ended_by_the_rules();
        let from = game.written_by_a();
        // The raw CR splits the MESSAGE in two; the byte that is not UTF-8 is shown replaced.
        for line in [
            "MESSAGE caf\\u{fffd} eval",
            " 12.5 nodes",
            "ERROR Unknown command",
            "UNKNOWN",
            "OK",
            "7,8,1",
        ] {
            assert!(from.contains(&line), "{line}\n{}", game.transcript);
        }
    }
}

#[test]
fn wrong_replies_illegal_moves_and_timeouts_of_brains() {
    // 'x y' is not a move: passed over, and the brain, which writes nothing more, loses on time,
    // told the line it wrote and what a move is.
    let games = play(Match::new("gomoku").a(brain("wrong")).b(RANDOM).games(1));
    assert_eq!(games[0].reason(), "timeout", "{}", games[0].detail());
    assert_eq!(games[0].moves().len(), 4, "{}", games[0].transcript);
    let detail = games[0].detail();
    let (before, after) = detail
        .split_once("; it wrote '")
        .unwrap_or_else(|| panic!("{detail}"));
    assert!(before.contains("did not answer move"), "{detail}");
    let (line, sentence) = after.split_once('\'').unwrap();
    assert!(line.split(' ').all(|n| n.parse::<u8>().is_ok()), "{detail}");
    assert!(
        sentence.starts_with(
            ", which is no move and was passed over: \
             a Gomocup move is 'x,y' (column, then row, from 0), e.g. '7,7'"
        ),
        "{detail}"
    );
    let games = play(Match::new("gomoku").a(brain("occupied")).b(RANDOM).games(1));
    assert_eq!(games[0].reason(), "illegal-move", "{}", games[0].detail());
    let games = play(
        Match::new("gomoku")
            .a(brain("slow:1300"))
            .b(RANDOM)
            .games(1)
            .time("move=100")
            .args(&["--score-stalled"]),
    );
    assert_eq!(games[0].reason(), "timeout", "{}", games[0].detail());
    assert!(
        games[0].detail().contains("(+1000 ms margin)"),
        "{}",
        games[0].detail()
    );
}

#[test]
fn brains_get_the_1000_ms_tolerance_of_gomocup_managers() {
    // 300 ms for a 100 ms move: late by the referee's 10 ms margin, in time by Gomocup's.
    let outcome = Match::new("gomoku")
        .a(brain("slow:300"))
        .b(RANDOM)
        .games(1)
        .time("move=100")
        .run();
    assert!(
        outcome
            .stdout
            .lines()
            .any(|l| l.starts_with("player A: gomocup:")
                && l.ends_with(" (margin 1000 ms, as its protocol's managers allow)")),
        "{}",
        outcome.stdout
    );
    assert!(outcome
        .stdout
        .lines()
        .any(|l| l.starts_with("player B: builtin:") && !l.contains("margin")));
    let reason = outcome.records[0]["result"]["reason"].as_str().unwrap();
    assert_ne!(reason, "timeout", "{}", outcome.stdout);
}

#[test]
fn gomocup_brains_play_only_five_in_a_row() {
    for (game, params) in [
        ("tictactoe", vec![]),
        ("mnk", vec!["line=4"]),
        ("uttt", vec![]),
    ] {
        let message = params
            .iter()
            .fold(Match::new(game).a(brain("good")), |refused, param| {
                refused.param(param)
            })
            .refused();
        assert!(
            message.contains("player A: gomocup bots cannot play")
                && message.contains("five in a row only"),
            "{message}"
        );
    }
}

/// The position before each of `side`'s moves, replayed on the referee's uttt rules, with the
/// opponent's last move (column, row) before it.
fn uttt_positions(game: &Played, side: Side) -> Vec<(Uttt, Option<(u8, u8)>)> {
    let text = game.record["game"].as_str().unwrap();
    let tiebreak = if text.contains("codingame") {
        "codingame"
    } else {
        "none"
    };
    let GameSpec::Uttt(params) =
        GameSpec::from_words("uttt", &[format!("tiebreak={tiebreak}")]).unwrap()
    else {
        unreachable!()
    };
    let mut position = Uttt::new(params);
    let mut last = None;
    let play = |position: &mut Uttt, mv: &str| {
        let square = position.parse_move(mv).unwrap();
        position.play(square).unwrap();
        Uttt::coordinates(square)
    };
    for mv in game.opening() {
        last = Some(play(&mut position, &mv));
    }
    let mut positions = Vec::new();
    for (mover, mv, _) in game.moves() {
        if mover == side {
            positions.push((position, last));
        }
        last = Some(play(&mut position, &mv));
    }
    positions
}

#[test]
fn codingame_bots_see_the_referees_legal_moves_row_first() {
    for opponent in [Bot::from(RANDOM), starter("uttt.py")] {
        let games = play(
            Match::new("uttt")
                .a(codingame("good"))
                .b(opponent)
                .games(2)
                // A bot without a handshake starts up during its first move: a generous
                // allowance keeps a loaded machine from deciding the game.
                .time("first=5000")
                .param("tiebreak=codingame"),
        );
        for game in &games {
            game.ended_by_the_rules();
            let sent = game.sent_to_a();
            let mut lines = sent.iter();
            for (position, last) in uttt_positions(game, game.a_side()) {
                let expected_last = match last {
                    Some((x, y)) => format!("{y} {x}"),
                    None => "-1 -1".to_string(),
                };
                assert_eq!(*lines.next().unwrap(), expected_last);
                let count: usize = lines.next().unwrap().parse().unwrap();
                let mut actions: Vec<&str> = lines.by_ref().take(count).copied().collect();
                actions.sort_unstable();
                let mut legal = Vec::new();
                position.generate_moves(&mut legal);
                legal.sort_unstable();
                let mut expected: Vec<String> = legal
                    .into_iter()
                    .map(|square| {
                        let (x, y) = Uttt::coordinates(square);
                        format!("{y} {x}")
                    })
                    .collect();
                expected.sort_unstable();
                assert_eq!(actions, expected);
            }
            assert!(lines.next().is_none(), "nothing but turns");
        }
    }
}

/// CodinGame's timer starts once a bot has read its turn's input: a bot busy for 70 ms after
/// its answer (its garbage collector, say) that then thinks 50 ms from its own read answers
/// about 120 ms after the request was written, in time on CodinGame, and in time here.
#[test]
fn a_codingame_bot_is_timed_from_when_it_reads_its_input() {
    let outcome = Match::new("uttt")
        .a(codingame("late-read:70"))
        .b(RANDOM)
        .games(2)
        .time("codingame,first=5000")
        .run();
    assert!(
        outcome
            .stdout
            .lines()
            .any(|l| l.starts_with("player A: codingame:")
                && l.ends_with("(its clock starts once it has read its input, as CodinGame's)")),
        "{}",
        outcome.stdout
    );
    for record in &outcome.records {
        assert_ne!(record["result"]["reason"], "timeout", "{}", outcome.stdout);
        let a = if record["players"][0]["label"] == "A" {
            "first"
        } else {
            "second"
        };
        let times: Vec<u64> = record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["side"] == a)
            .map(|m| m["us"].as_u64().unwrap())
            .collect();
        // Timed from its read: about 50 ms, not the 120 ms since the request was written. The
        // referee sees the read at its next check of the pipe (every millisecond), later when
        // the machine is busy (the tests run in parallel: 5 and 15 ms late were seen), which
        // only shortens the time charged: so a wide gap below 50 ms. A bot descheduled after
        // its read answers late on any clock (116 ms was seen once under CI's load), so above
        // 50 ms the median decides, and most moves.
        let mut later: Vec<u64> = times[1..].to_vec();
        later.sort_unstable();
        assert!(later[0] >= 25_000, "{times:?}");
        assert!(
            (25_000..=80_000).contains(&later[later.len() / 2]),
            "{times:?}"
        );
        let slow = later.iter().filter(|&&us| us > 100_000).count();
        assert!(slow * 10 <= later.len(), "{times:?}");
    }
    // Its start-up before its first read is not on its clock, as on CodinGame (where it mostly
    // happens before the input is sent): a bot that starts 300 ms late and then answers at
    // once is charged about nothing for its first move.
    let slow_start = Match::new("uttt")
        .a(codingame("slow-start:300"))
        .b(RANDOM)
        .games(1)
        .time("codingame")
        .run();
    let first = &slow_start.records[0]["moves"][0];
    assert_eq!(first["side"], "first", "A moves first in game 1");
    assert!(first["us"].as_u64().unwrap() < 50_000, "{first}");
    // A bot that reads at once and takes 200 ms is late all the same.
    let late = Match::new("uttt")
        .a(codingame("slow:200"))
        .b(RANDOM)
        .games(1)
        .time("codingame,first=5000")
        .run();
    assert_eq!(
        late.records[0]["result"]["reason"], "timeout",
        "{}",
        late.stdout
    );
}

/// CodinGame lists the valid actions in an order that changes from game to game: a bot that
/// always plays the first one opens in different squares, and the match seed replays them.
/// CodinGame's strikes (codingame-game-engine 4.7.7): a bot over its limit on two turns, within
/// the hard limit, plays on with a strike on each of those moves; over it on a third, it loses.
/// Wide gaps: the late turns take 400 ms against a limit of 200 ms (+10 ms margin) and a
/// hard limit 600 ms past it.
#[test]
fn a_codingame_bot_late_twice_plays_on_and_late_thrice_loses() {
    let time = "move=200,first=2000,strikes=2,hard=600";
    let games = play(
        Match::new("uttt")
            .a(codingame("late:400:2"))
            .b(RANDOM)
            .games(1)
            .time(time),
    );
    games[0].ended_by_the_rules();
    let strikes: Vec<u64> = games[0].record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|mv| mv["strike"].as_u64())
        .collect();
    assert_eq!(strikes, [1, 2], "{}", games[0].record["moves"]);
    let games = play(
        Match::new("uttt")
            .a(codingame("late:400:3"))
            .b(RANDOM)
            .games(1)
            .time(time),
    );
    assert_eq!(games[0].reason(), "timeout");
    assert!(
        games[0]
            .detail()
            .contains(": its strike 3 over the limit, 2 being forgiven"),
        "{}",
        games[0].detail()
    );
}

#[test]
fn codingame_valid_actions_are_shuffled_by_the_seed() {
    let openings = |seed: &str| -> Vec<Vec<String>> {
        play(
            Match::new("uttt")
                .a(codingame("first"))
                .b(RANDOM)
                .games(4)
                .time("first=5000")
                .args(&["--seed", seed]),
        )
        .iter()
        .map(|game| game.sent_to_a().iter().map(|l| (*l).to_string()).collect())
        .collect()
    };
    let games = openings("5");
    // A opens games 1 and 3, with all 81 squares listed; the first listed is its move.
    assert_eq!(games[0][..2], ["-1 -1", "81"]);
    assert_eq!(games[2][..2], ["-1 -1", "81"]);
    assert_ne!(
        games[0][2], games[2][2],
        "the same first action in two games"
    );
    assert_ne!(games[0][2..83], games[2][2..83]);
    assert_eq!(openings("5"), games, "the same seed, the same lists");
}

#[test]
fn codingame_messages_crlf_wrong_replies_and_the_first_move_allowance() {
    for mode in ["message", "crlf"] {
        for game in play(
            Match::new("uttt")
                .a(codingame(mode))
                .b(RANDOM)
                .games(2)
                .time("first=5000"),
        ) {
            game.ended_by_the_rules();
        }
    }
    let games = play(
        Match::new("uttt")
            .a(codingame("wrong"))
            .b(RANDOM)
            .games(1)
            .time("first=5000"),
    );
    assert_eq!(games[0].reason(), "not-a-move");
    assert!(
        games[0].detail().contains(
            "for move 5, which is not a move: expected 'ROW COL' (the row first, then the \
             column, each 0 to 8), optionally followed by a message, e.g. '2 7' for row 2, \
             column 7"
        ),
        "{}",
        games[0].detail()
    );
    // 300 ms is inside the first move's allowance (5000 ms here rather than CodinGame's 1000,
    // for the interpreter's start-up on a loaded machine) and past the 100 ms of the next.
    let games = play(
        Match::new("uttt")
            .a(codingame("slow:300"))
            .b(RANDOM)
            .games(1)
            .time("codingame,first=5000")
            .args(&["--score-stalled"]),
    );
    assert_eq!(games[0].reason(), "timeout");
    assert!(
        games[0].detail().contains(" move 3 "),
        "{}",
        games[0].detail()
    );
    assert_eq!(
        games[0].record["players"][0]["time"],
        serde_json::json!({"move": 100, "bank": 0, "increment": 0, "first": 5000,
                           "strikes": 2, "hard": 50})
    );
}

#[test]
fn an_illegal_move_quotes_what_the_bot_wrote() {
    let games = play(
        Match::new("uttt")
            .a(codingame("illegal"))
            .b(RANDOM)
            .games(1)
            .time("first=5000"),
    );
    let game = &games[0];
    assert_eq!(game.reason(), "illegal-move");
    // The bot's third move, at move 5: a square outside its valid actions, row first.
    let written = game.written_by_a()[2];
    let (row, col) = written.split_once(' ').unwrap();
    assert_ne!(row, col);
    assert!(
        game.detail().starts_with(&format!(
            "A (first player) played the illegal move '{col} {row}' (written '{written}') at \
             move 5: "
        )),
        "{}",
        game.detail()
    );
}

#[test]
#[ignore = "needs node (Node.js 18.19, 20.6 or later) on the PATH"]
fn a_codingame_javascript_bot_has_the_platforms_readline_and_print() {
    let bot = format!(
        "codingame:node {} {}",
        crate::common::repo_file("tests/bots/codingame_stub.js").display(),
        marker()
    );
    let games = play(
        Match::new("uttt")
            .a(bot)
            .b(RANDOM)
            .games(2)
            .time("codingame")
            .args(&["-p", "tiebreak=codingame"]),
    );
    for game in &games {
        game.ended_by_the_rules();
        // printErr() wrote, and readline() read, every turn's input.
        assert!(game.stderr_a.contains("actions"), "{}", game.stderr_a);
    }
}

#[test]
fn codingame_bots_cannot_start_from_an_opening_nor_play_other_games() {
    let message = Match::new("uttt")
        .a(codingame("good"))
        .opening("4 4")
        .refused();
    assert!(
        message.contains("cannot start from an opening"),
        "{message}"
    );
    let message = Match::new("gomoku").a(codingame("good")).refused();
    assert!(
        message.contains("ultimate tic-tac-toe (uttt) only"),
        "{message}"
    );
    assert!(survivors(&marker()).is_empty());
}

/// `referee check` (and so a contest's gate) plays a foreign protocol's bot through its own
/// adapter: a CodinGame bot used to be spoken to natively, and left out as "missing flush".
#[test]
fn check_speaks_a_foreign_bots_own_protocol() {
    let marker = marker();
    let check = |mode: &str| {
        referee()
            .args(["check", "uttt", "--time", "move=1000,first=5000"])
            .arg(codingame(mode).command(&marker))
            .output()
            .unwrap()
    };
    let good = check("good");
    let stdout = String::from_utf8_lossy(&good.stdout);
    assert_eq!(good.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("through the codingame adapter, as the first player): played to the end")
            && stdout.contains("compliant: 0 problems"),
        "{stdout}"
    );
    let illegal = check("illegal");
    let stdout = String::from_utf8_lossy(&illegal.stdout);
    assert_eq!(illegal.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("PROBLEM  game 1 (through the codingame adapter"),
        "{stdout}"
    );
    assert!(stdout.contains("illegal"), "{stdout}");
    assert!(survivors(&marker).is_empty());
}

/// `referee check GAME BOT` with a short start-up allowance and move limit; its output.
fn check_output(game: &str, bot: &Bot, marker: &str) -> String {
    let output = referee()
        .args(["check", game, "--startup-ms", "1500", "--time", "move=300"])
        .arg(bot.command(marker))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    stdout
}

/// `referee check` tells the author of a bot of another system that it does not flush, as it
/// tells a native bot's (the answer its adapter waited for comes only as the bot exits), once,
/// and plays no more games; and that it never ended its line.
#[test]
fn check_names_a_foreign_bots_missing_flush_and_unended_line() {
    let marker = marker();
    for (game, bot, written) in [
        ("gomoku", brain("no-flush"), "'OK'"),
        ("uttt", codingame("no-flush"), "'"),
        ("uttt", riddles("riddles", "no-flush"), "'place_move "),
        ("uttt", riddles("theaigames", "no-flush"), "'place_move "),
    ] {
        let stdout = check_output(game, &bot, &marker);
        let flush = format!(
            "PROBLEM  game 1 (through the {} adapter, as the first player): missing flush: the \
             bot wrote {written}",
            bot.command(&marker).split(':').next().unwrap()
        );
        assert!(stdout.contains(&flush), "{stdout}");
        assert!(
            stdout.contains("only when its input was closed, so it keeps its output in a buffer"),
            "{stdout}"
        );
        assert_eq!(stdout.matches("missing flush:").count(), 1, "{stdout}");
        assert!(
            stdout.contains("stopped  the last game was not played: every game would end the same way until the bot flushes its output"),
            "{stdout}"
        );
    }
    let stdout = check_output("gomoku", &brain("no-newline"), &marker);
    assert!(
        stdout.contains("; it wrote '7,7' but never ended the line: end every line with a line feed ('\\n'), then flush"),
        "{stdout}"
    );
    assert!(!stdout.contains("missing flush:"), "{stdout}");
    assert!(survivors(&marker).is_empty());
}

/// A bot of another system that breaks the same rule in both games of its check is told the
/// whole diagnosis once, with its stderr, and one short line for the second game, as a bot of
/// protocol.md is: it used to get all of it twice.
#[test]
fn check_says_a_foreign_bots_repeated_fault_once() {
    let marker = marker();
    for (game, bot, said) in [
        ("gomoku", brain("no-newline"), "but never ended the line"),
        (
            "uttt",
            codingame("stderr"),
            "on standard error; moves must go",
        ),
    ] {
        let stdout = check_output(game, &bot, &marker);
        let adapter = bot.command(&marker);
        let adapter = adapter.split(':').next().unwrap();
        assert_eq!(stdout.matches("PROBLEM").count(), 1, "{stdout}");
        assert_eq!(stdout.matches(said).count(), 1, "{stdout}");
        assert_eq!(
            stdout.matches("its stderr ended with:").count(),
            1,
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!(
                "again    game 2 (through the {adapter} adapter, as the second player): timeout \
                 again, as in game 1"
            )),
            "{stdout}"
        );
        assert!(stdout.contains("not compliant: 1 problem,"), "{stdout}");
    }
    assert!(survivors(&marker).is_empty());
}

/// A bot of another system that writes its move to stderr times out, and the verdict quotes
/// the move as the bot wrote it, in its own protocol's format.
#[test]
fn a_foreign_bots_move_on_stderr_is_named_in_the_timeout() {
    for (game, bot, format) in [
        ("gomoku", brain("stderr"), ","),
        ("uttt", codingame("stderr"), " "),
        ("uttt", riddles("riddles", "stderr"), "place_move "),
        ("uttt", riddles("theaigames", "stderr"), "place_move "),
    ] {
        let outcome = Match::new(game)
            .a(bot)
            .b(RANDOM)
            .games(1)
            .time("move=300")
            .run();
        let record = outcome.record();
        assert_eq!(record["result"]["reason"], "timeout", "{record:#}");
        let detail = record["result"]["detail"].as_str().unwrap();
        let (_, named) = detail
            .split_once("; it wrote '")
            .unwrap_or_else(|| panic!("no move named: {detail}"));
        assert!(named.contains(format), "{detail}");
        assert!(
            named.contains(
                "' on standard error; moves must go to standard output (print / System.out / \
                 cout), flushed"
            ),
            "{detail}"
        );
    }
}

/// The field and macroboard a dialect shows for `position` (ids and empty marks by dialect).
fn riddles_board(dialect: &str, position: &Uttt) -> (String, String) {
    let (first_id, empty) = if dialect == "theaigames" {
        (1, "0")
    } else {
        (0, ".")
    };
    let id = |side: Side| (first_id + side.index()).to_string();
    let mut cells = Vec::new();
    for y in 0..9 {
        for x in 0..9 {
            cells.push(position.mark_at(x, y).map_or(empty.to_string(), id));
        }
    }
    let boards: Vec<String> = (0..9)
        .map(|board| match position.board_status(board) {
            BoardStatus::Won(side) => id(side),
            BoardStatus::Undecided
                if position.forced_board().is_none() || position.forced_board() == Some(board) =>
            {
                "-1".to_string()
            }
            _ => empty.to_string(),
        })
        .collect();
    (cells.join(","), boards.join(","))
}

#[test]
fn theaigames_and_riddles_bots_see_the_whole_board() {
    for dialect in ["theaigames", "riddles"] {
        for opponent in [Bot::from(RANDOM), starter("uttt.py")] {
            let games = play(
                Match::new("uttt")
                    .a(riddles(dialect, "good"))
                    .b(opponent.clone())
                    .games(2)
                    .opening("4 4")
                    .time("first=5000"),
            );
            for game in &games {
                game.ended_by_the_rules();
                let sent = game.sent_to_a();
                let (first_id, second_id) = if dialect == "theaigames" {
                    (1, 2)
                } else {
                    (0, 1)
                };
                let own = if game.a_side() == Side::First {
                    first_id
                } else {
                    second_id
                };
                let time = [
                    "settings timebank 1000".to_string(),
                    "settings time_per_move 1000".to_string(),
                ];
                let names = [
                    format!("settings player_names player{first_id},player{second_id}"),
                    format!("settings your_bot player{own}"),
                ];
                // Each engine's order: riddles.io's names first, theaigames' time first.
                let (before, after) = if dialect == "theaigames" {
                    (time, names)
                } else {
                    (names, time)
                };
                assert_eq!(sent[..2], before);
                assert_eq!(sent[2..4], after);
                assert_eq!(sent[4], format!("settings your_botid {own}"));
                let requests: Vec<&[&str]> = sent[5..]
                    .split_inclusive(|line| line.starts_with("action move"))
                    .collect();
                let positions = uttt_positions(game, game.a_side());
                assert_eq!(requests.len(), positions.len());
                // One move of the opening, then the moves of the game.
                let mut played = 1 + usize::from(game.a_side() == Side::First);
                for (index, (request, (position, _))) in requests.iter().zip(&positions).enumerate()
                {
                    let (field, macroboard) = riddles_board(dialect, position);
                    let mut expected = vec![format!("update game round {}", played / 2 + 1)];
                    if dialect == "theaigames" {
                        expected.push(format!("update game move {}", played + 1));
                    }
                    expected.push(format!("update game field {field}"));
                    expected.push(format!("update game macroboard {macroboard}"));
                    let ms = if index == 0 { 5000 } else { 1000 };
                    expected.push(format!("action move {ms}"));
                    assert_eq!(request.to_vec(), expected);
                    played += 2;
                }
            }
        }
    }
}

#[test]
fn the_riddles_time_bank_drains_and_refills() {
    for dialect in ["theaigames", "riddles"] {
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "bank"))
                .b(starter("uttt.py"))
                .games(2)
                .time("bank=1000,increment=100,first=5000"),
        );
        for game in &games {
            game.ended_by_the_rules();
            let told: Vec<u64> = game
                .sent_to_a()
                .iter()
                .filter_map(|line| line.strip_prefix("action move "))
                .map(|ms| ms.parse().unwrap())
                .collect();
            // The bot sleeps up to 120 ms a move against 100 ms back: the bank must move.
            assert_eq!(told[0], 5000, "the first move's allowance");
            assert!(told.iter().any(|&ms| ms < 1000), "{told:?}");
            assert_banks(&told[1..], &times_of(game, game.a_side()), 1000, 100);
            let bank_lines: Vec<u64> = game
                .stderr_a
                .lines()
                .filter_map(|line| line.strip_prefix("bank "))
                .map(|ms| ms.parse().unwrap())
                .collect();
            assert_eq!(bank_lines, told, "what the bot read");
            assert!(game
                .stderr_a
                .contains("settings timebank 1000\nsettings time_per_move 100\n"));
        }
    }
}

#[test]
fn riddles_wrong_replies_timeouts_and_crlf() {
    for dialect in ["theaigames", "riddles"] {
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "crlf"))
                .b(RANDOM)
                .games(2)
                .time("first=5000"),
        );
        for game in &games {
            game.ended_by_the_rules();
        }
        // A reply that is not a move: riddles.io's engine ends the game, theaigames' asks once
        // more (`action move` alone), and the bot's next answer is its move.
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "wrong"))
                .b(RANDOM)
                .games(1)
                .time("first=5000"),
        );
        if dialect == "riddles" {
            assert_eq!(games[0].reason(), "not-a-move");
            assert!(
                games[0].detail().contains(
                    "for move 5, which is not a move: expected 'place_move X Y' (the \
                         column, then the row, each 0 to 8), e.g. 'place_move 7 2'"
                ),
                "{}",
                games[0].detail()
            );
        } else {
            games[0].ended_by_the_rules();
            let sent = games[0].sent_to_a();
            let again = sent
                .windows(2)
                .filter(|pair| pair[0].starts_with("action move") && pair[1].starts_with("action"))
                .count();
            assert_eq!(again, 1, "{}", games[0].transcript);
        }
        // Start-up is not charged to the first move: 600 ms of CPU before the bot reads its
        // input, against 300 ms a move and no first-move allowance.
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "startup:600"))
                .b(RANDOM)
                .games(1)
                .time("move=300"),
        );
        games[0].ended_by_the_rules();
        // A JVM that cannot reserve its memory under the limit says so on stdout: the
        // sentence names the limit.
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "nomem"))
                .b(RANDOM)
                .games(1)
                .time("first=5000")
                .args(&["--limits", "memory=768"]),
        );
        assert_eq!(games[0].reason(), "unrequested-output");
        assert!(
            games[0]
                .detail()
                .contains("its memory limit of 768 MiB (address space, --limits memory=)"),
            "{}",
            games[0].detail()
        );
        // Four in a Row's command, answered by bots copied from it: riddles.io's engine reads
        // the numbers and not the word, theaigames' asks once more.
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "disc"))
                .b(RANDOM)
                .games(1)
                .time("first=5000"),
        );
        games[0].ended_by_the_rules();
        assert!(games[0]
            .written_by_a()
            .iter()
            .any(|line| line.starts_with("place_disc")));
        // A square already taken: riddles.io's engine ends the game, theaigames' asks again.
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "taken"))
                .b(RANDOM)
                .games(1)
                .time("first=5000"),
        );
        if dialect == "riddles" {
            assert_eq!(games[0].reason(), "illegal-move", "{}", games[0].detail());
        } else {
            games[0].ended_by_the_rules();
        }
        let games = play(
            Match::new("uttt")
                .a(riddles(dialect, "slow:400"))
                .b(RANDOM)
                .games(1)
                .time("bank=1000,increment=100,first=5000")
                .args(&["--score-stalled"]),
        );
        assert_eq!(games[0].reason(), "timeout", "{}", games[0].detail());
    }
    let message = Match::new("checkers")
        .a(riddles("riddles", "good"))
        .refused();
    assert!(
        message.contains("player A: riddles bots cannot play checkers"),
        "{message}"
    );
}

#[test]
fn theaigames_asks_twice_and_reads_decimals() {
    // theaigames asks twice, not three times: a second bad reply loses.
    let games = play(
        Match::new("uttt")
            .a(riddles("theaigames", "twice"))
            .b(RANDOM)
            .games(1)
            .time("first=5000"),
    );
    assert_eq!(games[0].reason(), "not-a-move", "{}", games[0].detail());
    // theaigames reads decimal coordinates and passes over words after them; riddles.io
    // wants exactly three words.
    let games = play(
        Match::new("uttt")
            .a(riddles("theaigames", "decimal"))
            .b(RANDOM)
            .games(1)
            .time("first=5000"),
    );
    games[0].ended_by_the_rules();
    let games = play(
        Match::new("uttt")
            .a(riddles("riddles", "decimal"))
            .b(RANDOM)
            .games(1)
            .time("first=5000"),
    );
    assert_eq!(games[0].reason(), "not-a-move", "{}", games[0].detail());
}
