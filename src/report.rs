//! What `referee match` prints: one line per game, the SPRT's progress and the final score.

use crate::games::Side;
use crate::matches::{MatchTally, MatchTest};
use crate::standings::sprt::{Decision, SprtSpec};
use crate::table::FinishedGame;
use std::io::{self, Write};

/// Prints a line of output. A closed stdout (`referee match ... | head -1`) must not stop the
/// match or panic: the games, records and bots still need to finish properly.
pub fn say(line: &str) {
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{line}");
    let _ = stdout.flush();
}

/// `game 2: B vs A  0-1  5 moves  B (first player) played the illegal move ...`
pub fn game_line(game: &FinishedGame) -> String {
    let record = &game.played.record;
    let first = &record.players[0].label;
    let second = &record.players[1].label;
    let score = |side: Side| format_points(record.points(side));
    let mut line = format!(
        "game {}: {first} vs {second}  {}-{}  {} moves  {}",
        record.number,
        score(Side::First),
        score(Side::Second),
        record.moves.len(),
        record.result.detail
    );
    if record.result.stalled {
        line.push_str(" [the referee stalled during this timeout]");
    }
    if let Some(scores) = record.scores {
        line.push_str(&format!(" (boxes {}-{})", scores[0], scores[1]));
    }
    line
}

/// `game 3: timeout during a stall of the referee; replaying it`
pub fn replay_line(game: &FinishedGame) -> String {
    format!(
        "game {}: {} during a stall of the referee; replaying it",
        game.played.record.number, game.played.record.result.detail
    )
}

/// `sprt: elo0=0 elo1=5 alpha=0.05 beta=0.05 (logistic Elo of A over B); LLR bounds (-2.94, 2.94)`
pub fn sprt_header(spec: &SprtSpec) -> String {
    let (lower, upper) = spec.bounds();
    format!("sprt: {spec} (logistic Elo of A over B); LLR bounds ({lower:.2}, {upper:.2})")
}

/// `sprt: 12 pairs [0, 2, 5, 4, 1]  LLR 1.23 (-2.94, 2.94)  elo +35 +/- 20`
pub fn sprt_line(sprt: &MatchTest) -> String {
    let test = &sprt.test;
    let (lower, upper) = test.spec.bounds();
    let mut line = format!(
        "sprt: {} pairs {}  LLR {:.2} ({lower:.2}, {upper:.2})",
        test.pairs.pairs(),
        test.pairs,
        sprt.llr
    );
    if let Some((elo, error)) = test.pairs.elo_estimate() {
        line.push_str(&format!("  elo {elo:+.1} +/- {error:.1}"));
    }
    line
}

/// What the SPRT decided, or that the games ran out first.
pub fn sprt_verdict(sprt: &MatchTest) -> String {
    let spec = &sprt.test.spec;
    let (lower, upper) = spec.bounds();
    let llr = sprt.llr;
    match sprt.decision {
        Decision::H1 => format!(
            "sprt: H1 accepted (LLR {llr:.2} >= {upper:.2}): A is stronger than B by {} Elo rather than {}",
            spec.elo1, spec.elo0
        ),
        Decision::H0 => format!(
            "sprt: H0 accepted (LLR {llr:.2} <= {lower:.2}): A is not stronger than B by {} Elo",
            spec.elo1
        ),
        Decision::Continue => format!(
            "sprt: no decision after {} pairs (LLR {llr:.2}, bounds {lower:.2}, {upper:.2}): the --games cap was reached",
            sprt.test.pairs.pairs()
        ),
    }
}

/// `score: A 1.5 - 0.5 B  (2 games: A won 1, drew 1, lost 0)`
pub fn score_line(tally: &MatchTally) -> String {
    let [a, b] = tally.points();
    format!(
        "score: A {} - {} B  ({} games: A won {}, drew {}, lost {})",
        format_points(a),
        format_points(b),
        tally.wins[0] + tally.wins[1] + tally.draws,
        tally.wins[0],
        tally.draws,
        tally.wins[1]
    )
}

/// `1`, `0.5`, `12.5`: points without a useless `.0`.
pub fn format_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{}", points as i64)
    } else {
        format!("{points}")
    }
}
