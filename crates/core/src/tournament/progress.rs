//! What a running tournament shows: on a terminal, a progress bar (games done of total, rate,
//! time left, current leader); otherwise (a log, a cluster job) one plain line per game. Either
//! way, a warning as soon as a player has crashed in each of its first games.

use super::journal::Entry;
use crate::report::{counted, format_points, say};
use crate::standings::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use referee_records::record::GameRecord;
use referee_records::record_pack::{is_pack_name, PackIndex};
use referee_rules::games::Side;
use referee_rules::verdict::ForfeitColumn;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A player that crashed in each of its first this many games is most likely broken (a file
/// missing, a syntax error, a library not installed): said at once, not after the tournament.
const CRASH_WARNING_GAMES: u32 = 3;

/// A running tournament's display: the bar or the per-game lines, and the standings behind the
/// leader it shows.
pub struct Progress {
    tally: Tally,
    total: u64,
    done: u64,
    /// Games played by this run (not found in the journal).
    played: u64,
    started: Instant,
    bar: Option<ProgressBar>,
    /// The output directory, which journal entries name their records from.
    out: PathBuf,
    /// Each player's games so far and its crashes among them, until it is warned about or
    /// has played [`CRASH_WARNING_GAMES`].
    crashes: HashMap<String, (u32, u32)>,
}

/// A rate people read: `1.9 games/s`, or `12 s/game` when games are slow.
pub fn rate(games_per_second: f64) -> String {
    if games_per_second >= 1.0 || games_per_second <= 0.0 {
        format!("{games_per_second:.1} games/s")
    } else {
        format!("{:.0} s/game", 1.0 / games_per_second)
    }
}

impl Progress {
    /// `total` games in this run's share of the schedule, written into `out`; a bar when
    /// `terminal`.
    pub fn new(total: u64, terminal: bool, out: PathBuf) -> Progress {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {pos}/{len} games  {rate}  ETA {eta}  {msg}",
                )
                .expect("a valid template")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&rate(state.per_sec()));
                    },
                )
                .progress_chars("=> "),
            );
            bar
        });
        Progress {
            tally: Tally::new(),
            total,
            done: 0,
            played: 0,
            started: Instant::now(),
            bar,
            out,
            crashes: HashMap::new(),
        }
    }

    /// Counts a game towards the crash warning; warns about a player whose first games all
    /// ended in its crash, with the end of its stderr from the last one's record.
    fn watch_crashes(&mut self, entry: &Entry) {
        for side in Side::BOTH {
            let name = &entry.players[side.index()];
            let crashed = entry.winner == Some(side.opponent())
                && entry.reason.forfeit_column() == Some(ForfeitColumn::Crash);
            let (games, crashes) = self.crashes.entry(name.clone()).or_default();
            if *games >= CRASH_WARNING_GAMES {
                continue;
            }
            *games += 1;
            *crashes += u32::from(crashed);
            if *games == CRASH_WARNING_GAMES && *crashes == *games {
                let warning = self.crash_warning(entry, side);
                self.warn(&warning);
            }
        }
    }

    /// The warning about the player at `side` of `entry`, which crashed in each of its first
    /// games, this one the last.
    fn crash_warning(&self, entry: &Entry, side: Side) -> String {
        let name = &entry.players[side.index()];
        let mut warning = format!(
            "referee: warning: {name} crashed in each of its first {CRASH_WARNING_GAMES} games \
             ({}): `referee check GAME \"COMMAND\"` tells what is wrong with a bot",
            entry.reason
        );
        let record = entry.record.as_ref().and_then(|path| {
            let path = self.out.join(path);
            if path
                .file_name()
                .and_then(|name| name.to_str())
                .is_some_and(is_pack_name)
            {
                let number = u32::try_from(entry.index + 1).ok()?;
                let index = PackIndex::read_whole(&path).ok()?;
                return Some(index.read(number).ok()??.record);
            }
            let text = std::fs::read_to_string(path).ok()?;
            serde_json::from_str::<GameRecord>(&text).ok()
        });
        let Some(record) = record else {
            return warning;
        };
        warning.push_str(&format!(
            "\n  game {}: {}",
            record.number,
            referee_rules::quote::escape(&record.result.detail)
        ));
        if let Some(tail) = &record.players[side.index()].stderr_tail {
            warning.push_str(&format!("\n  {name}'s stderr ended with:"));
            for line in tail {
                warning.push_str(&format!("\n  | {}", referee_rules::quote::escape(line)));
            }
        }
        warning
    }

    /// Players known before any game, so that the standings list them all.
    pub fn enter_players<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        for name in names {
            self.tally.enter(name);
        }
    }

    /// Games found in the journal on `--resume`.
    pub fn resumed(&mut self, entries: &[Entry]) {
        for entry in entries {
            self.tally.add(entry.scored());
            self.watch_crashes(entry);
        }
        self.done += entries.len() as u64;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
            bar.reset_eta();
        }
        if !entries.is_empty() {
            self.say(&format!(
                "resuming: {} of {} already in the journal",
                entries.len(),
                counted(self.total, "game")
            ));
        }
    }

    /// Counts a game this run finished, shows it, and warns of a player that keeps crashing.
    pub fn finished(&mut self, entry: &Entry) {
        self.tally.add(entry.scored());
        self.done += 1;
        self.played += 1;
        self.watch_crashes(entry);
        let leader = self
            .tally
            .leader()
            .map(|(name, points, games)| format!("leader {name} {}/{games}", format_points(points)))
            .unwrap_or_default();
        match &self.bar {
            Some(bar) => {
                bar.set_message(leader);
                bar.set_position(self.done);
            }
            None => {
                let score = match entry.winner {
                    None => "1/2-1/2",
                    Some(Side::First) => "1-0",
                    Some(Side::Second) => "0-1",
                };
                let elapsed = self.started.elapsed().as_secs_f64();
                let per_second = self.played as f64 / elapsed.max(1e-9);
                let left = (self.total.saturating_sub(self.done)) as f64 / per_second.max(1e-9);
                say(&format!(
                    "[{}/{}] game {}: {} vs {} {score} {}  {leader}  {}, ETA {}",
                    self.done,
                    self.total,
                    entry.index + 1,
                    entry.players[0],
                    entry.players[1],
                    entry.reason,
                    rate(per_second),
                    humantime::format_duration(Duration::from_secs(left.round() as u64)),
                ));
            }
        }
    }

    /// Says that game `number` is played again: what `detail` says (the verdict) happened during a
    /// stall of the referee.
    pub fn replayed(&mut self, number: u32, detail: &str) {
        self.say(&format!(
            "game {number}: {detail} during a stall of the referee; replaying it"
        ));
    }

    /// A line that does not disturb the bar.
    pub fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => say(line),
        }
    }

    /// A warning: above the bar, or on stderr.
    fn warn(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Removes the bar and returns the games played by this run and the time it took.
    pub fn finish(&mut self) -> (u64, Duration) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        (self.played, self.started.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_read_at_a_glance() {
        assert_eq!(rate(1.8593), "1.9 games/s");
        assert_eq!(rate(309.25), "309.2 games/s");
        assert_eq!(rate(0.05), "20 s/game");
        assert_eq!(rate(0.0), "0.0 games/s");
    }
}
