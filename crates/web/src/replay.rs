//! One game as the viewer shows it: the record (or the moves so far of a live game), each
//! position's picture replayed with the rules, and the lines each bot exchanged on each turn.

use referee_records::export::format_of;
use referee_records::live::{find_live, LiveGame};
use referee_records::record::StoredGame;
use referee_rules::clock::Clock;
use referee_rules::games::{AnyGame, GameSpec};
use referee_rules::quote;
use referee_rules::verdict::Termination;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// The most bytes of a stderr file shown: the referee writes at most 64 KiB a game, and a
/// little more after the game ends.
const STDERR_SHOWN: usize = 256 * 1024;

/// The most characters of a refused answer listed among the moves, as much as a verdict quotes.
const REFUSED_SHOWN: usize = 60;

/// A line of the transcript, as the viewer places it beside its turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct TurnLine {
    /// Milliseconds since the game began.
    pub ms: f64,
    /// The player's label.
    pub player: String,
    /// `>` for a line sent to the bot, `<` for one read from it.
    pub way: String,
    /// The line, escaped to printable ASCII by the referee when it wrote the transcript.
    pub text: String,
}

/// A line of a bot's stderr, with the position it was written on the way to, when the record
/// says when it began (its first 4096 lines).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub(crate) struct StderrLine {
    pub ply: Option<usize>,
    /// Escaped to printable ASCII.
    pub text: String,
}

/// Everything the viewer shows of a game but its pictures.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GameView {
    /// The record; for a live game, the same fields so far, with `result` null.
    pub record: Value,
    pub live: bool,
    /// Positions to step through: the start, then one after each move (opening included), and
    /// last, when the game was lost by an answer the rules refused, the last position again
    /// with that answer marked.
    pub positions: usize,
    /// The answer that lost the game when the rules refused it (an illegal move, a line that
    /// is not a move), as the bot sent it, escaped and cut short: listed after the moves.
    pub refused: Option<String>,
    /// The transcript's lines by position: those of the exchange that led to it.
    pub turns: Vec<Vec<TurnLine>>,
    /// Each player's stderr file, escaped line by line, when it wrote anything.
    pub stderr: [Option<Vec<StderrLine>>; 2],
    /// `pdn` or `sgf` when the game can be exported.
    pub export: Option<&'static str>,
    /// What the bots reported of their positions, move by move (protocol.md, "Reporting an
    /// evaluation"): the viewer draws it as a graph.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evaluations: Vec<Evaluation>,
}

/// A bot's evaluation of the position it moved from, as it reported it while it thought.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Evaluation {
    /// The position its move led to.
    pub ply: usize,
    /// `first` or `second`: who moved and reported it.
    pub side: String,
    /// From the mover's own point of view, in its own unit: positive is good for it. For a
    /// mate, the moves to it (negative: to be mated).
    pub value: f64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mate: bool,
}

/// The evaluation a line reports, if any: the number after its first word `eval`, `ev`,
/// `score` or `value` (any case, `:` or `=` may join them, `cp` may come between), or
/// `mate N` there. Covers UCI-like `info ... score cp 35` and Gomocup brains' `MESSAGE`s.
pub(crate) fn evaluation_in(line: &str) -> Option<(f64, bool)> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || "|,;:=".contains(c))
        .filter(|word| !word.is_empty())
        .collect();
    let at = words.iter().position(|word| {
        ["eval", "ev", "score", "value"]
            .iter()
            .any(|key| word.eq_ignore_ascii_case(key))
    })?;
    let mut rest = words[at + 1..].iter().copied();
    let mut next = rest.next()?;
    if next.eq_ignore_ascii_case("cp") {
        next = rest.next()?;
    }
    let mate = next.eq_ignore_ascii_case("mate");
    if mate {
        next = rest.next()?;
    }
    let value: f64 = next.parse().ok()?;
    (value.is_finite() && (!mate || value != 0.0)).then_some((value, mate))
}

/// How long after a move's answer (at most until the opponent's) a line of its mover's stderr
/// still counts as written before it: stderr is drained apart from the answers, so a line
/// written just before the answer can be read just after it (protocol.md,
/// `players[].stderr_at_us`).
const STDERR_LAG_US: u64 = 50_000;

/// Each move's last reported evaluation: from its `MESSAGE`s, else from the last line its
/// mover wrote on stderr after its own previous move and by this one; when none was read by
/// then (a loaded machine drains stderr late), from the first read after it and before the
/// opponent's answer (`stderr` is each seat's text and its lines' stamps, in microseconds).
fn evaluations(record: &Value, stderr: &[Option<(String, Vec<u64>)>; 2]) -> Vec<Evaluation> {
    let opening = record["opening"].as_array().map_or(0, Vec::len);
    let moves = record["moves"].as_array().map_or(&[][..], Vec::as_slice);
    let said: [Vec<(u64, (f64, bool))>; 2] = [0, 1].map(|seat| match &stderr[seat] {
        Some((text, stamps)) => text
            .lines()
            .zip(stamps)
            .filter_map(|(line, &at)| Some((at, evaluation_in(line)?)))
            .collect(),
        None => Vec::new(),
    });
    let mut since = [0u64; 2];
    let mut found = Vec::new();
    for (index, mv) in moves.iter().enumerate() {
        let side = mv["side"].as_str().unwrap_or("first");
        let seat = usize::from(side == "second");
        // Lines read once the opponent answered are about the mover's next move.
        let answered = |mv: &Value| mv["at_us"].as_u64().unwrap_or(0);
        let next = moves.get(index + 1).map_or(u64::MAX, answered);
        let until = (answered(mv) + STDERR_LAG_US).min(next);
        let messages = mv["messages"].as_array().into_iter().flatten();
        let in_messages = messages
            .rev()
            .find_map(|text| evaluation_in(text.as_str()?));
        let in_time = said[seat]
            .iter()
            .rev()
            .find(|(at, _)| *at > since[seat] && *at <= until);
        let late = || said[seat].iter().find(|(at, _)| *at > until && *at <= next);
        let line = in_time.or_else(late);
        since[seat] = line.map_or(until, |(at, _)| *at.max(&until));
        let written = line.map(|(_, evaluation)| *evaluation);
        if let Some((value, mate)) = in_messages.or(written) {
            found.push(Evaluation {
                ply: opening + index + 1,
                side: side.to_string(),
                value,
                mate,
            });
        }
    }
    found
}

/// The moves of a game from its start, opening included.
fn all_moves(record: &Value) -> Vec<String> {
    let strings = |key: &str, field: Option<&str>| -> Vec<String> {
        record[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|item| match field {
                Some(field) => item[field].as_str().map(str::to_string),
                None => item.as_str().map(str::to_string),
            })
            .collect()
    };
    let mut moves = strings("opening", None);
    moves.extend(strings("moves", Some("move")));
    moves
}

/// The game a record or live game was played at.
fn spec_of_text(game: &str) -> Option<GameSpec> {
    let mut words = game.split_whitespace();
    let name = words.next()?;
    let params: Vec<&str> = words.collect();
    GameSpec::from_words(name, &params).ok()
}

/// The position after the first `ply` moves; none if a move cannot be played (a record
/// edited by hand).
fn position(spec: &GameSpec, moves: &[String], ply: usize) -> Option<Box<dyn AnyGame>> {
    let mut game = spec.new_game();
    for mv in moves.iter().take(ply) {
        game.play_text(mv).ok()?;
    }
    Some(game)
}

/// The answer that lost a game when the rules refused it (see [`GameView::refused`]); none
/// for any other ending.
fn refused(record: &Value) -> Option<String> {
    let reason: Termination = record["result"]["reason"].as_str()?.parse().ok()?;
    matches!(reason, Termination::IllegalMove | Termination::NotAMove).then_some(())?;
    Some(quote::shorten(
        record["result"]["line"].as_str()?,
        REFUSED_SHOWN,
    ))
}

/// The picture (SVG, no click targets) of the position after `ply` moves of the game a
/// viewer's record holds, and one past its last move, of a refused answer (see
/// [`GameView::positions`]): the last position, with the illegal move's square marked; none
/// past that or for a record that cannot be replayed.
pub(crate) fn picture_at(record: &Value, ply: usize) -> Option<String> {
    let spec = spec_of_text(record["game"].as_str()?)?;
    let moves = all_moves(record);
    let last = moves.len();
    (ply <= last || (ply == last + 1 && refused(record).is_some())).then_some(())?;
    let game = position(&spec, &moves, ply.min(last))?;
    let marked = (ply > last)
        .then(|| game.refused_picture(record["result"]["move"].as_str()?))
        .flatten();
    Some(marked.unwrap_or_else(|| game.picture()).to_svg(false))
}

/// The view of a finished game, from its record, transcript and stderr as stored.
pub(crate) fn finished(game: &StoredGame) -> GameView {
    let record = &game.record;
    let value = serde_json::to_value(record).unwrap_or(Value::Null);
    let stderr = [0, 1].map(|i| {
        game.stderr[i]
            .as_deref()
            .map(|bytes| (escaped(bytes), record.players[i].stderr_at_us.clone()))
    });
    let export = format_of(record).map(referee_records::export::Exporter::extension);
    view(value, false, &game.transcript, stderr, export)
}

/// The view of a live game: what was played so far.
pub(crate) fn live(dir: &Path, number: u32) -> Option<GameView> {
    find_live(dir, number).map(live_game)
}

/// Each player's clock in a game being played, after the moves made so far: the time it has
/// for its next move (what is left of its bank, or its move's limit, as the referee counts
/// them) and which player is to move (none once the game is over): a list of live games shows
/// both, the mover's running.
pub(crate) fn live_clocks(game: &LiveGame) -> Value {
    let header = &game.header;
    let mut clocks = header.time.map(Clock::new);
    for mv in &game.moves {
        let used = Duration::from_micros(mv.us);
        // A late move (a strike) was charged by the referee as made; so it is here.
        let _ = clocks[mv.side.index()].settle(used, Duration::MAX / 4);
    }
    let to_move = spec_of_text(&header.game).and_then(|spec| {
        let mut moves = header.opening.clone();
        moves.extend(game.moves.iter().map(|mv| mv.notation.clone()));
        let position = position(&spec, &moves, moves.len())?;
        position
            .outcome()
            .is_none()
            .then(|| position.side_to_move().index())
    });
    json!({
        "left_ms": clocks.map(|clock| clock.available().as_millis() as u64),
        "to_move": to_move,
    })
}

/// The view of a game being played, from what its live file holds.
pub(crate) fn live_game(game: LiveGame) -> GameView {
    let header = &game.header;
    let players: Vec<Value> = (0..2)
        .map(|i| json!({"label": header.players[i], "time": header.time[i]}))
        .collect();
    let value = json!({
        "number": header.number,
        "game": header.game,
        "players": players,
        "opening": header.opening,
        "moves": game.moves,
        "result": null,
        "started": header.started,
    });
    view(value, true, "", [None, None], None)
}

fn view(
    record: Value,
    live: bool,
    transcript: &str,
    stderr: [Option<(String, Vec<u64>)>; 2],
    export: Option<&'static str>,
) -> GameView {
    let opening = record["opening"].as_array().map_or(0, Vec::len);
    let answered: Vec<f64> = record["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|mv| mv["at_us"].as_f64().unwrap_or(0.0) / 1000.0)
        .collect();
    let refused = refused(&record);
    let positions = opening + answered.len() + 1 + usize::from(refused.is_some());
    // The position a line written `ms` into the game led to: the next one after it.
    let ply_at = |ms: f64| {
        let moves_before = answered.partition_point(|&at| at < ms - 0.001);
        (opening + moves_before + 1).min(positions - 1)
    };
    let mut turns: Vec<Vec<TurnLine>> = vec![Vec::new(); positions];
    for line in transcript.lines().filter_map(turn_line) {
        // The exchange that led to a bot's move: every line up to its answer.
        turns[ply_at(line.ms)].push(line);
    }
    let found = evaluations(&record, &stderr);
    let stderr = stderr.map(|file| {
        file.map(|(text, starts)| {
            text.lines()
                .enumerate()
                .map(|(index, line)| StderrLine {
                    ply: starts.get(index).map(|&us| ply_at(us as f64 / 1000.0)),
                    text: line.to_string(),
                })
                .collect()
        })
    });
    GameView {
        evaluations: found,
        record,
        live,
        positions,
        refused,
        turns,
        stderr,
        export,
    }
}

/// Reads `+12.345 ms A> turn 1000`.
fn turn_line(line: &str) -> Option<TurnLine> {
    let rest = line.strip_prefix('+')?;
    let (ms, rest) = rest.split_once(" ms ")?;
    let (who, text) = rest.split_once(' ').unwrap_or((rest, ""));
    let way = who.chars().last().filter(|c| *c == '<' || *c == '>')?;
    Some(TurnLine {
        ms: ms.parse().ok()?,
        player: who[..who.len() - 1].to_string(),
        way: way.to_string(),
        text: text.to_string(),
    })
}

/// A stderr file's first bytes, each line escaped to printable ASCII (a bot's terminal escapes
/// are shown, not obeyed).
fn escaped(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(STDERR_SHOWN)]);
    text.lines()
        .map(quote::escape)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_lines_go_to_the_turn_they_led_to() {
        let record = json!({
            "opening": ["1 1"],
            "moves": [{"move": "0 0", "at_us": 2000}, {"move": "2 2", "at_us": 3000}],
        });
        let transcript = "+0.010 ms A> referee 1\n+2.000 ms A< 0 0\n+2.100 ms B> opponent 0 0\n\
                          +3.000 ms B< 2 2\n+3.500 ms A> result loss line\nnot a line\n";
        let view = view(record, false, transcript, [None, None], None);
        assert_eq!(view.positions, 4);
        let texts: Vec<Vec<&str>> = view
            .turns
            .iter()
            .map(|lines| lines.iter().map(|l| l.text.as_str()).collect())
            .collect();
        assert_eq!(
            texts,
            [
                vec![],
                vec![],
                vec!["referee 1", "0 0"],
                vec!["opponent 0 0", "2 2", "result loss line"]
            ]
        );
        assert_eq!(view.turns[2][1].way, "<");
        assert_eq!(view.turns[3][0].player, "B");
    }

    /// The answer that lost a game, refused by the rules, is a last step after the moves:
    /// the last position again, an illegal move's square marked; a line that is not a move is
    /// listed escaped, with no mark.
    #[test]
    fn a_refused_answer_is_shown_after_the_moves() {
        let record = |reason: &str, line: Option<&str>, mv: Option<&str>| {
            json!({
                "game": "tictactoe width=3 height=3 line=3 exact=no",
                "opening": [],
                "moves": [{"side": "first", "move": "1 1", "at_us": 1000}],
                "result": {"winner": "first", "reason": reason, "detail": "", "line": line, "move": mv},
            })
        };
        let shown = |record: &Value| {
            let seen = view(record.clone(), false, "", [None, None], None);
            (seen.positions, seen.refused)
        };
        let marked =
            |record: &Value, ply| picture_at(record, ply).map(|svg| svg.contains("refused"));

        let illegal = record("illegal-move", Some("1 1"), Some("1 1"));
        assert_eq!(shown(&illegal), (3, Some("1 1".to_string())));
        assert_eq!(
            [0, 1, 2, 3].map(|ply| marked(&illegal, ply)),
            [Some(false), Some(false), Some(true), None]
        );
        let garbage = record("not-a-move", Some("\u{1b}[2J banana"), None);
        assert_eq!(shown(&garbage), (3, Some("\\x1b[2J banana".to_string())));
        assert_eq!(marked(&garbage, 2), Some(false));
        let won = record("line", None, None);
        assert_eq!(shown(&won), (2, None));
        assert_eq!(marked(&won, 2), None);
    }

    #[test]
    fn stderr_lines_go_to_the_turn_they_were_written_in() {
        let record = json!({
            "opening": [],
            "moves": [{"move": "0 0", "at_us": 2000}, {"move": "2 2", "at_us": 3000}],
        });
        // Three lines stamped, the fourth past the stamps kept.
        let stderr = (
            "start\nthink 1\nthink 2\nlate".to_string(),
            vec![10, 1500, 2500],
        );
        let view = view(record, false, "", [Some(stderr), None], None);
        let lines = view.stderr[0].as_ref().unwrap();
        let plies: Vec<Option<usize>> = lines.iter().map(|line| line.ply).collect();
        assert_eq!(plies, [Some(1), Some(1), Some(2), None]);
        assert_eq!(lines[3].text, "late");
        assert!(view.stderr[1].is_none());
    }

    #[test]
    fn evaluations_are_read_in_the_usual_spellings() {
        for (line, expected) in [
            ("eval 35", Some((35.0, false))),
            ("info depth 9 score cp -120 pv 4 4", Some((-120.0, false))),
            ("depth 7 ev +35 pv 7,7 8,8", Some((35.0, false))),
            ("Depth 10-20 | Eval 45 | Time 1234ms", Some((45.0, false))),
            ("value=0.25", Some((0.25, false))),
            ("score mate -3", Some((-3.0, true))),
            ("evaluating the position", None),
            ("eval", None),
            ("eval nan", None),
            ("eval inf", None),
            ("score mate 0", None),
        ] {
            assert_eq!(evaluation_in(line), expected, "{line}");
        }
    }

    #[test]
    fn a_move_takes_its_movers_last_evaluation() {
        let record = json!({
            "opening": ["1 1"],
            "moves": [
                {"side": "second", "move": "0 0", "at_us": 2000, "messages": ["depth 3 ev 10", "depth 5 ev 12"]},
                {"side": "first", "move": "2 2", "at_us": 3000},
                {"side": "second", "move": "2 0", "at_us": 4000},
            ],
        });
        // First's lines: one before any move of its own (pondering), two for its own move
        // at 3 ms, the second read 0.4 ms after its answer (still its own: the opponent had
        // not answered), and one after the opponent's answer (about a next move it never
        // made). Second writes nothing about its last move.
        let stderr = (
            "eval 99\ninfo score 1\ninfo score 2\ninfo score 3".to_string(),
            vec![10, 2500, 3400, 4100],
        );
        let view = view(record, false, "", [Some(stderr), None], None);
        let got: Vec<(usize, &str, f64)> = view
            .evaluations
            .iter()
            .map(|e| (e.ply, e.side.as_str(), e.value))
            .collect();
        assert_eq!(got, [(2, "second", 12.0), (3, "first", 2.0)]);
    }

    #[test]
    fn a_line_read_late_still_goes_to_the_move_it_came_with() {
        let record = json!({
            "moves": [
                {"side": "first", "move": "0 0", "at_us": 1000},
                {"side": "second", "move": "1 1", "at_us": 300_000},
                {"side": "first", "move": "2 2", "at_us": 400_000},
            ],
        });
        // Each of first's lines read 80 ms after its answer, past the usual lag: the first
        // before second answered, the last after the game's end.
        let stderr = ("score 5\nscore 7".to_string(), vec![81_000, 480_000]);
        let view = view(record, false, "", [Some(stderr), None], None);
        let got: Vec<(usize, f64)> = view.evaluations.iter().map(|e| (e.ply, e.value)).collect();
        assert_eq!(got, [(1, 5.0), (3, 7.0)]);
    }
}
