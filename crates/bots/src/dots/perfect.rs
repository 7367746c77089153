//! Perfect play on boards of at most 24 lines (3x3 and smaller), from a table of every
//! position.
//!
//! The value of a position (the mover's boxes minus the opponent's, among the boxes still open)
//! depends only on the set of lines drawn, so a board of `n` lines has 2^n positions: 16 Mi
//! for 3x3, one byte each. Drawing a line only adds to the set, so one pass over the sets from
//! the full one down values every position from positions already valued. The pass takes
//! about half a second on a 3x3 board, once per process, inside the start-up allowance; then
//! every move is a few lookups, perfect at any time per move. The pass runs on a thread of its
//! own ([`TableBuild`]), so that a slow or busy machine, or a debug build, which may take
//! several seconds, still answers `ready` in time and plays by search until it is done.

use referee_rules::games::dots::{Dots, Line};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

/// The most lines a table covers: 3x3 boxes have 24.
pub(super) const MAX_TABLE_LINES: u16 = 24;

pub(super) struct PerfectTable {
    /// The board's size, boxes across and down.
    shape: (u8, u8),
    /// For each line, the lines of each box beside it (0 where the line is on the edge).
    beside: Vec<[u32; 2]>,
    /// For each set of drawn lines, the mover's boxes minus the opponent's, among those still
    /// open, with perfect play.
    values: Vec<i8>,
}

/// The tables built so far in this process, one per board: a bot process builds one at most,
/// the tests share theirs.
static BUILT: Mutex<Vec<Arc<PerfectTable>>> = Mutex::new(Vec::new());

/// A table being built (see [`PerfectTable::start_for_board`]).
pub(super) struct TableBuild {
    done: Arc<(Mutex<Option<Arc<PerfectTable>>>, Condvar)>,
}

impl TableBuild {
    /// The table once built, waiting for it until `deadline` at most (for ever with none).
    pub(super) fn wait_until(&self, deadline: Option<Instant>) -> Option<Arc<PerfectTable>> {
        let (slot, built) = &*self.done;
        let mut table = slot.lock().unwrap_or_else(PoisonError::into_inner);
        while table.is_none() {
            table = match deadline {
                None => built.wait(table).unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    built
                        .wait_timeout(table, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
        table.clone()
    }
}

impl PerfectTable {
    /// The table for the board of `game`, built once per process, if the board has at most
    /// [`MAX_TABLE_LINES`] lines.
    pub(super) fn for_board(game: &Dots) -> Option<Arc<PerfectTable>> {
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(table) = built.iter().find(|table| table.covers(game)) {
            return Some(Arc::clone(table));
        }
        let table = Arc::new(PerfectTable::build(game)?);
        built.push(Arc::clone(&table));
        Some(table)
    }

    /// Starts building the table for the board of `game` on a thread of its own, if the board
    /// has at most [`MAX_TABLE_LINES`] lines.
    pub(super) fn start_for_board(game: &Dots) -> Option<TableBuild> {
        if game.line_count() > MAX_TABLE_LINES {
            return None;
        }
        let build = TableBuild {
            done: Arc::new((Mutex::new(None), Condvar::new())),
        };
        let done = Arc::clone(&build.done);
        let game = game.clone();
        std::thread::Builder::new()
            .name("dots-table".into())
            .spawn(move || {
                let table = PerfectTable::for_board(&game);
                let (slot, built) = &*done;
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = table;
                built.notify_all();
            })
            .ok()?;
        Some(build)
    }

    fn build(game: &Dots) -> Option<PerfectTable> {
        let lines = game.line_count();
        if lines > MAX_TABLE_LINES {
            return None;
        }
        let beside = (0..lines)
            .map(|line| {
                game.boxes_beside(line).map(|place| {
                    place.map_or(0, |(col, row)| {
                        game.box_lines(col, row)
                            .iter()
                            .fold(0, |mask, &side| mask | 1 << side)
                    })
                })
            })
            .collect();
        let mut table = PerfectTable {
            shape: (game.cols(), game.rows()),
            beside,
            values: vec![0; 1 << lines],
        };
        table.fill();
        Some(table)
    }

    /// Values every set of lines, from the full set down: a set's successors are larger. The
    /// loop is written out (no closures, no iterators) so that it is quick in debug builds too.
    fn fill(&mut self) {
        let all = self.values.len() - 1;
        let values = &mut self.values;
        for drawn in (0..all).rev() {
            let mut free = (all & !drawn) as u32;
            let mut best = i8::MIN;
            while free != 0 {
                let line = free.trailing_zeros() as usize;
                free &= free - 1;
                let after = drawn | 1 << line;
                let [one, other] = self.beside[line];
                let after_bits = after as u32;
                let gain = (one != 0 && after_bits & one == one) as i8
                    + (other != 0 && after_bits & other == other) as i8;
                let rest = values[after];
                let value = if gain > 0 { gain + rest } else { -rest };
                if value > best {
                    best = value;
                }
            }
            values[drawn] = best;
        }
    }

    /// The value for the mover of drawing `line`, which leads to the set `after`: a box
    /// completed keeps the move.
    fn move_value(&self, after: usize, line: usize) -> i8 {
        let gain = self.gain(after as u32, line);
        if gain > 0 {
            gain + self.values[after]
        } else {
            -self.values[after]
        }
    }

    /// The boxes that drawing `line` completed, `after` being the set with it.
    fn gain(&self, after: u32, line: usize) -> i8 {
        self.beside[line]
            .iter()
            .filter(|&&sides| sides != 0 && after & sides == sides)
            .count() as i8
    }

    /// Whether the table is for the board of `game`.
    pub(super) fn covers(&self, game: &Dots) -> bool {
        self.shape == (game.cols(), game.rows())
    }

    fn drawn(&self, game: &Dots) -> u32 {
        (0..self.beside.len() as Line)
            .filter(|&line| game.is_drawn(line))
            .fold(0, |set, line| set | 1 << line)
    }

    /// Every move of `game` that keeps its value.
    pub(super) fn best_moves(&self, game: &Dots) -> Vec<Line> {
        let drawn = self.drawn(game);
        let value = self.values[drawn as usize];
        self.free(drawn)
            .filter(|&line| self.move_value((drawn | 1 << line) as usize, line) == value)
            .map(|line| line as Line)
            .collect()
    }

    fn free(&self, drawn: u32) -> impl Iterator<Item = usize> + '_ {
        (0..self.beside.len()).filter(move |&line| drawn & 1 << line == 0)
    }

    /// The share of the plausible replies to `line` that are mistakes, giving up part of the
    /// value: among moves equally good against perfect play, the one with the most pitfalls
    /// gives a fallible opponent the most chances to go wrong. Plausible replies take a box if
    /// one is offered, else draw a safe line (one that gives no box a third side) if there is
    /// one. A capture keeps the move, so it has none.
    pub(super) fn pitfalls(&self, game: &Dots, line: Line) -> f64 {
        let line = line as usize;
        let after = self.drawn(game) | 1 << line;
        if self.gain(after, line) > 0 {
            return 0.0;
        }
        let replies: Vec<usize> = self.free(after).collect();
        let captures = |&reply: &usize| self.gain(after | 1 << reply, reply) > 0;
        let safe = |&reply: &usize| {
            self.beside[reply]
                .iter()
                .all(|&sides| sides == 0 || (sides & !(after | 1 << reply)).count_ones() >= 2)
        };
        let plausible: Vec<usize> = if replies.iter().any(captures) {
            replies.into_iter().filter(captures).collect()
        } else if replies.iter().any(safe) {
            replies.into_iter().filter(safe).collect()
        } else {
            replies
        };
        let value = self.values[after as usize];
        let mistakes = plausible
            .iter()
            .filter(|&&reply| self.move_value((after | 1 << reply) as usize, reply) < value)
            .count();
        mistakes as f64 / plausible.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::super::coins::Coins;
    use super::super::solver::Solver;
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use referee_rules::games::dots::DotsParams;
    use referee_rules::games::Game;
    use referee_rules::seeded::SeededRng;

    impl PerfectTable {
        /// The value of `game` for the side to move.
        fn value(&self, game: &Dots) -> i32 {
            self.values[self.drawn(game) as usize].into()
        }
    }

    /// Checks the table against the exhaustive search on `positions` positions of random games
    /// of `params`, each after `drawn` random lines.
    fn agrees_with_search(table: &PerfectTable, params: DotsParams, positions: u32, drawn: u16) {
        let start = Dots::new(params);
        let mut solver = Solver::new(16);
        solver.set_view(&start, Coins::whole_board(&start));
        let mut rng = SeededRng::seed_from_u64(u64::from(drawn));
        let mut moves = Vec::new();
        for _ in 0..positions {
            let mut game = start.clone();
            while game.drawn_count() < drawn && game.outcome().is_none() {
                game.generate_moves(&mut moves);
                game.play_unchecked(*moves.choose(&mut rng).unwrap());
            }
            if game.outcome().is_some() {
                continue;
            }
            let value = solver.value(&game, None).expect("no deadline");
            assert_eq!(table.value(&game), value, "{game:?}");
            // Every move's value, so every best move, as the search finds them.
            game.generate_moves(&mut moves);
            let best = table.best_moves(&game);
            for &line in &moves {
                let mut after = game.clone();
                after.play_unchecked(line);
                let kept = after.side_to_move() == game.side_to_move();
                let gain =
                    after.box_counts().iter().sum::<u32>() - game.box_counts().iter().sum::<u32>();
                let rest = match after.outcome() {
                    Some(_) => 0,
                    None => solver.value(&after, None).expect("no deadline"),
                };
                let move_value = if kept { gain as i32 + rest } else { -rest };
                assert_eq!(best.contains(&line), move_value == value, "{game:?} {line}");
            }
        }
    }

    #[test]
    fn small_boards_agree_with_the_exhaustive_search() {
        for (rows, cols) in [(1, 1), (1, 3), (2, 2), (2, 3)] {
            let params = DotsParams { rows, cols };
            let table = PerfectTable::for_board(&Dots::new(params)).unwrap();
            for drawn in 0..Dots::new(params).line_count().min(12) {
                agrees_with_search(&table, params, 4, drawn);
            }
        }
    }

    #[test]
    fn the_3x3_table_agrees_with_the_exhaustive_search() {
        let params = DotsParams { rows: 3, cols: 3 };
        let table = PerfectTable::for_board(&Dots::new(params)).unwrap();
        // Perfect play wins 3x3 for the second player by 6-3 (a value of -3 at the start).
        assert_eq!(table.value(&Dots::new(params)), -3);
        for drawn in [10, 13, 16] {
            agrees_with_search(&table, params, 3, drawn);
        }
    }

    #[test]
    fn larger_boards_have_no_table() {
        let board = Dots::new(DotsParams { rows: 3, cols: 4 });
        assert!(PerfectTable::for_board(&board).is_none());
        assert!(PerfectTable::start_for_board(&board).is_none());
    }

    #[test]
    fn a_table_built_on_its_thread_is_the_table_of_the_board() {
        let board = Dots::new(DotsParams { rows: 2, cols: 3 });
        let build = PerfectTable::start_for_board(&board).unwrap();
        let table = build.wait_until(None).unwrap();
        assert!(table.covers(&board));
        assert_eq!(
            table.value(&board),
            PerfectTable::for_board(&board).unwrap().value(&board)
        );
        // Once built, a wait whose deadline has passed still gets it.
        assert!(build.wait_until(Some(Instant::now())).is_some());
    }
}
