//! What `referee match` prints: one line per game and the final score.

use crate::games::Side;
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

/// Wins, draws and points of A and B over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: [u32; 2],
    pub draws: u32,
}

impl Tally {
    pub fn add(&mut self, game: &FinishedGame) {
        match game.winner() {
            None => self.draws += 1,
            Some(player) => self.wins[player] += 1,
        }
    }

    pub fn points(&self) -> [f64; 2] {
        let half = self.draws as f64 / 2.0;
        [self.wins[0] as f64 + half, self.wins[1] as f64 + half]
    }

    /// `score: A 1.5 - 0.5 B  (2 games: A won 1, drew 1, lost 0)`
    pub fn score_line(&self) -> String {
        let [a, b] = self.points();
        format!(
            "score: A {} - {} B  ({} games: A won {}, drew {}, lost {})",
            format_points(a),
            format_points(b),
            self.wins[0] + self.wins[1] + self.draws,
            self.wins[0],
            self.draws,
            self.wins[1]
        )
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
