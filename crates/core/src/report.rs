//! What `referee match` prints: one line per game, the SPRT's progress and the final score.

use crate::matches::{MatchScore, MatchTally, MatchTest};
use crate::standings::sprt::{Decision, SprtSpec};
use crate::table::FinishedGame;
use referee_rules::games::Side;
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
        "game {}: {first} vs {second}  {}-{}  {}  {}",
        record.number,
        score(Side::First),
        score(Side::Second),
        counted(record.moves.len() as u64, "move"),
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

/// Under a game line: the last lines of the stderr of each player that broke a rule, escaped
/// (a bot's bytes must not reach the terminal as they are), and where the whole of it is.
///
/// ```text
///   A's stderr ended with:
///   | Traceback (most recent call last):
///   | ZeroDivisionError: division by zero
///   (all of it: records/0001.A.stderr.txt)
/// ```
pub fn stderr_tail_lines(game: &FinishedGame) -> Vec<String> {
    let record = &game.played.record;
    let mut lines = Vec::new();
    for side in Side::BOTH {
        let player = &record.players[side.index()];
        let Some(tail) = &player.stderr_tail else {
            continue;
        };
        lines.push(format!("  {}'s stderr ended with:", player.label));
        lines.extend(
            tail.iter()
                .map(|line| format!("  | {}", referee_rules::quote::escape(line))),
        );
        lines.push(
            match game
                .files()
                .and_then(|files| files.stderr[side.index()].as_ref())
            {
                Some(path) => format!("  {}", whole_stderr_at(path)),
                None => "  (run with --record DIR to keep all of it)".to_string(),
            },
        );
    }
    lines
}

/// Where the whole of a stderr shown by its end is kept, as the line under that end says it.
pub fn whole_stderr_at(path: &std::path::Path) -> String {
    format!("{WHOLE_STDERR_AT}{})", path.display())
}

/// The path a line written by [`whole_stderr_at`] names, its indent aside (the arena shows its
/// users another place than the server's path).
pub fn whole_stderr_path(line: &str) -> Option<&str> {
    line.trim_start()
        .strip_prefix(WHOLE_STDERR_AT)?
        .strip_suffix(')')
}

/// How [`whole_stderr_at`]'s line begins.
const WHOLE_STDERR_AT: &str = "(all of it: ";

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

/// `sprt: 12 pairs [0, 2, 5, 4, 1]  LLR 1.23 (-2.94, 2.94)  elo +58.5 (95% interval -25.7 to +150.1)`
pub fn sprt_line(sprt: &MatchTest, score: &MatchScore) -> String {
    let pairs = &score.pairing.pairs;
    let (lower, upper) = sprt.spec.bounds();
    let mut line = format!(
        "sprt: {} {pairs}  LLR {:.2} ({lower:.2}, {upper:.2})",
        counted(pairs.pairs(), "pair"),
        sprt.llr
    );
    if let Some(estimate) = pairs.elo_estimate() {
        line.push_str(&format!(
            "  elo {:+.1} (95% interval {})",
            estimate.elo,
            estimate.interval(1)
        ));
    }
    line
}

/// What the SPRT decided, or that the games ran out first.
pub fn sprt_verdict(sprt: &MatchTest, score: &MatchScore) -> String {
    let spec = &sprt.spec;
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
            "sprt: no decision after {} (LLR {llr:.2}, bounds {lower:.2}, {upper:.2}): the --games cap was reached",
            counted(score.pairing.pairs.pairs(), "pair")
        ),
    }
}

/// `score: A 1.5 - 0.5 B  (2 games: A won 1, drew 1, lost 0)`
pub fn score_line(tally: &MatchTally) -> String {
    let [a, b] = tally.points();
    format!(
        "score: A {} - {} B  ({}: A won {}, drew {}, lost {})",
        format_points(a),
        format_points(b),
        counted(
            u64::from(tally.wins[0] + tally.wins[1] + tally.draws),
            "game"
        ),
        tally.wins[0],
        tally.draws,
        tally.wins[1]
    )
}

/// The end of a match's report, as fastchess gives it: the Elo difference of A over B from
/// the game pairs (pentanomial: each pair plays both sides, so the first player's advantage
/// cancels), with its 95% interval and LOS, and the pairs' counts.
///
/// ```text
/// elo: A - B +120.4 (95% interval -38.0 to +359.4), LOS 93.0% (the likelihood that A is the stronger)
/// pairs: [0, 1, 2, 1, 2] (game pairs in which A scored 0, 1/2, 1, 3/2, 2 points)
/// ```
pub fn elo_lines(score: &MatchScore) -> Vec<String> {
    let pairs = &score.pairing.pairs;
    let [a, b] = score.tally.points();
    let elo = match pairs.elo_estimate() {
        // Every pair scored the same: the spread is zero, and an interval of +/- 0 would claim
        // a certainty so few pairs cannot give.
        Some(estimate) if estimate.is_exact() => format!(
            "elo: A - B {:+.1}, no interval: every one of the {} scored the same (play more \
             games for one)",
            estimate.elo,
            counted(pairs.pairs(), "game pair")
        ),
        Some(estimate) => format!(
            "elo: A - B {:+.1} (95% interval {}), LOS {:.1}% (the likelihood that A is the stronger)",
            estimate.elo,
            estimate.interval(1),
            estimate.los * 100.0
        ),
        None if pairs.pairs() < 2 => format!(
            "elo: no estimate from {}: it needs 2 or more (--games 4)",
            counted(pairs.pairs(), "game pair")
        ),
        None => format!(
            "elo: no finite estimate: {} scored every point of the pairs",
            if a > b { "A" } else { "B" }
        ),
    };
    let mut lines = vec![elo];
    if pairs.pairs() > 0 {
        lines.push(format!(
            "pairs: {pairs} (game pairs in which A scored 0, 1/2, 1, 3/2, 2 points)"
        ));
    }
    if score.pairing.has_unpaired_game() {
        let games = score.tally.wins[0] + score.tally.wins[1] + score.tally.draws;
        lines.push(format!(
            "(game {games} has no partner with the sides swapped: it is in the score, not in the Elo estimate)"
        ));
    }
    lines
}

/// Where a run's records can be watched, said once it ends: `referee serve` shows them live
/// and replays them in a browser, `referee report` makes one page to publish.
pub fn watch_line(records: &std::path::Path) -> String {
    let dir = records.display().to_string();
    let dir = shlex::try_quote(&dir).map_or(dir.clone(), std::borrow::Cow::into_owned);
    format!(
        "watch and replay these games in a browser: referee serve {dir} (one page to publish: referee report SITE --from {dir})"
    )
}

/// `1 game`, `3 games`: a count and its noun.
pub fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `1`, `0.5`, `12.5`: points without a useless `.0`.
pub fn format_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{}", points as i64)
    } else {
        format!("{points}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score_of(results: &[Option<usize>]) -> MatchScore {
        let mut score = MatchScore::new(None);
        for &winner in results {
            score.count(winner);
        }
        score
    }

    #[test]
    fn the_end_of_a_match_gives_the_elo_difference_los_and_pairs() {
        // Pairs (A's points): 2, 1, 1.5, 1, 2, 0.5.
        let (a, b, draw) = (Some(0), Some(1), None);
        let score = score_of(&[a, a, a, b, a, draw, draw, draw, a, a, b, draw]);
        assert_eq!(
            score_line(&score.tally),
            "score: A 8 - 4 B  (12 games: A won 6, drew 4, lost 2)"
        );
        let lines = elo_lines(&score);
        assert_eq!(
            lines[0],
            "elo: A - B +120.4 (95% interval -38.0 to +359.4), LOS 93.0% (the likelihood that A is the stronger)"
        );
        assert_eq!(
            lines[1],
            "pairs: [0, 1, 2, 1, 2] (game pairs in which A scored 0, 1/2, 1, 3/2, 2 points)"
        );
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn short_perfect_and_odd_matches_say_why_there_is_no_estimate() {
        let one = score_of(&[Some(0)]);
        assert_eq!(
            score_line(&one.tally),
            "score: A 1 - 0 B  (1 game: A won 1, drew 0, lost 0)"
        );
        assert_eq!(
            elo_lines(&one),
            [
                "elo: no estimate from 0 game pairs: it needs 2 or more (--games 4)",
                "(game 1 has no partner with the sides swapped: it is in the score, not in the Elo estimate)"
            ]
        );
        let perfect = score_of(&[Some(1); 4]);
        assert_eq!(
            elo_lines(&perfect)[0],
            "elo: no finite estimate: B scored every point of the pairs"
        );
        // Each player won with the first move: every pair 1-1, no spread to measure.
        let alike = score_of(&[Some(0), Some(1), Some(0), Some(1)]);
        assert_eq!(
            elo_lines(&alike)[0],
            "elo: A - B +0.0, no interval: every one of the 2 game pairs scored the same (play \
             more games for one)"
        );
    }
}
