//! What a running tournament shows: on a terminal, a progress bar (games done of total, rate,
//! time left, current leader); otherwise (a log, a cluster job) one plain line per game.

use super::journal::Entry;
use crate::report::{format_points, say};
use crate::standings::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::{Duration, Instant};

pub struct Progress {
    tally: Tally,
    total: u64,
    done: u64,
    /// Games played by this run (not found in the journal).
    played: u64,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// `total` games in this run's share of the schedule; a bar when `terminal`.
    pub fn new(total: u64, terminal: bool) -> Progress {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {pos}/{len} games  {per_sec}  ETA {eta}  {msg}",
                )
                .expect("a valid template")
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
        }
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
        }
        self.done += entries.len() as u64;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
            bar.reset_eta();
        }
        if !entries.is_empty() {
            self.say(&format!(
                "resuming: {} of {} games already in the journal",
                entries.len(),
                self.total
            ));
        }
    }

    pub fn finished(&mut self, entry: &Entry) {
        self.tally.add(entry.scored());
        self.done += 1;
        self.played += 1;
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
                    Some(crate::games::Side::First) => "1-0",
                    Some(crate::games::Side::Second) => "0-1",
                };
                let elapsed = self.started.elapsed().as_secs_f64();
                let rate = self.played as f64 / elapsed.max(1e-9);
                let left = (self.total.saturating_sub(self.done)) as f64 / rate.max(1e-9);
                say(&format!(
                    "[{}/{}] game {}: {} vs {} {score} {}  {leader}  {rate:.1} games/s, ETA {}",
                    self.done,
                    self.total,
                    entry.index + 1,
                    entry.players[0],
                    entry.players[1],
                    entry.reason,
                    humantime::format_duration(Duration::from_secs(left.round() as u64)),
                ));
            }
        }
    }

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

    /// Removes the bar and returns the games played by this run and the time it took.
    pub fn finish(&mut self) -> (u64, Duration) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        (self.played, self.started.elapsed())
    }
}
