//! The fight for control in dots and boxes: while safe lines remain (lines that give nothing
//! away), the players draw them, and whoever runs out first must open the first chain or loop.
//! What that is worth is the value of the loony endgame that remains ([`loony_value`]), so a search
//! over the safe lines alone, with that value at its leaves, tells which safe line to draw.
//!
//! The model leaves out sacrifices made while safe lines remain, and values joints (boxes
//! where chains meet) approximately; it is the knowledge for boards too large to search
//! exhaustively.

use super::coins::{Coins, Component, LineBits, WideBits};
use super::control::loony_value;
use super::table::{wide_key, Bounds, TranspositionTable};
use rand::Rng;
use std::time::Instant;

/// Positions between two looks at the clock.
const CLOCK_EVERY: u64 = 64;
/// Slots of the table of values (16 bytes each).
const TABLE_BITS: u32 = 18;

/// Values of positions of the safe-line game, kept while the board stays the same (a value
/// depends only on the lines drawn).
pub(super) struct SafeLines {
    values: TranspositionTable,
    nodes: u64,
}

impl Default for SafeLines {
    fn default() -> SafeLines {
        SafeLines {
            values: TranspositionTable::new(TABLE_BITS),
            nodes: 0,
        }
    }
}

impl SafeLines {
    /// Forgets every value (for another board).
    pub(super) fn clear(&mut self) {
        self.values.invalidate();
    }

    /// The value for the mover of each safe line of `drawn` (the mover's boxes minus the
    /// opponent's among those still open, in the model), or `None` if `deadline` came first.
    pub(super) fn line_values(
        &mut self,
        coins: &Coins,
        drawn: WideBits,
        deadline: Instant,
    ) -> Option<Vec<(u8, i32)>> {
        safe_lines(coins, drawn)
            .map(|line| {
                let value = -self.value(coins, drawn.with(line), deadline)?;
                Some((line, value))
            })
            .collect()
    }

    fn value(&mut self, coins: &Coins, drawn: WideBits, deadline: Instant) -> Option<i32> {
        let key = wide_key(&drawn);
        if let Some(known) = self.values.get(key) {
            return Some(known.lower as i32);
        }
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 && Instant::now() >= deadline {
            return None;
        }
        let mut best = None;
        for line in safe_lines(coins, drawn) {
            let value = -self.value(coins, drawn.with(line), deadline)?;
            best = Some(best.map_or(value, |best: i32| best.max(value)));
        }
        let value = match best {
            Some(value) => value,
            None => {
                let components: Vec<Component> = coins
                    .components(drawn)
                    .into_iter()
                    .map(|(component, _)| component)
                    .collect();
                loony_value(&components)
            }
        };
        self.values.put(
            key,
            Bounds {
                lower: value as i8,
                upper: value as i8,
                best: 0,
            },
        );
        Some(value)
    }
}

/// Estimates of the value for the mover of the safe lines of `drawn`, from random games of
/// safe lines played to their end until `deadline`: for a position too large to search. Each
/// line gets a game in turn, then UCB1 gives the promising ones most games; lines that got
/// none before the deadline are left out.
pub(super) fn sampled_line_values(
    coins: &Coins,
    drawn: WideBits,
    deadline: Instant,
    rng: &mut impl Rng,
) -> Vec<(u8, f64)> {
    // Per line: games played and their total value.
    let mut lines: Vec<(u8, u32, f64)> = safe_lines(coins, drawn).map(|l| (l, 0, 0.0)).collect();
    let spread = coins.open_boxes(drawn).max(1) as f64;
    let mut scratch = Vec::new();
    let mut games = 0u32;
    loop {
        if games % 16 == 0 && Instant::now() >= deadline {
            break;
        }
        let pick = if (games as usize) < lines.len() {
            games as usize
        } else {
            let log_games = (games as f64).ln();
            let bound = |&(_, played, total): &(u8, u32, f64)| {
                total / played as f64 + spread * (log_games / played as f64).sqrt()
            };
            (0..lines.len())
                .max_by(|&a, &b| bound(&lines[a]).total_cmp(&bound(&lines[b])))
                .expect("safe lines")
        };
        let (line, played, total) = &mut lines[pick];
        let value = -random_safe_game(coins, drawn.with(*line), rng, &mut scratch);
        *played += 1;
        *total += value as f64;
        games += 1;
    }
    lines
        .into_iter()
        .filter(|&(_, played, _)| played > 0)
        .map(|(line, played, total)| (line, total / played as f64))
        .collect()
}

/// Plays random safe lines from `drawn` until there are none left; the value, for the mover
/// at `drawn`, of the loony endgame reached.
fn random_safe_game(
    coins: &Coins,
    mut drawn: WideBits,
    rng: &mut impl Rng,
    candidates: &mut Vec<u8>,
) -> i32 {
    candidates.clear();
    candidates.extend(safe_lines(coins, drawn));
    let mut sign = 1;
    // A line that is not safe any more never becomes safe again: drop it when met.
    while !candidates.is_empty() {
        let line = candidates.swap_remove(rng.gen_range(0..candidates.len()));
        if coins.is_safe(drawn, line) {
            drawn = drawn.with(line);
            sign = -sign;
        }
    }
    let components: Vec<Component> = coins
        .components(drawn)
        .into_iter()
        .map(|(component, _)| component)
        .collect();
    sign * loony_value(&components)
}

/// The undrawn lines of `drawn` that give nothing away.
pub(super) fn safe_lines(coins: &Coins, drawn: WideBits) -> impl Iterator<Item = u8> + '_ {
    (0..coins.line_count() as u8)
        .filter(move |&line| !drawn.has(line) && coins.is_safe(drawn, line))
}
