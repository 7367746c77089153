//! Exhaustive search for dots and boxes: negamax with alpha-beta on the boxes still to win.
//!
//! The value of a position (the mover's boxes minus the opponent's, among the boxes still open,
//! under perfect play) depends only on which lines are drawn, not on how they came to be or on
//! the score so far. So a position is one `u64` of lines in play ([`Coins`] renumbers them,
//! hence at most 64), and a transposition table keyed by that set, reduced by the board's
//! symmetries when the whole board is in play, keeps what was learnt from one move, and one
//! game, to the next. Captures that cannot be wrong are played without branching (see
//! [`Coins::capture_is_forced`]), which collapses the long runs of captures of an endgame.

use super::coins::{Coins, LineBits, GROUND};
use super::table::{Bounds, TranspositionTable};
use referee_rules::games::dots::{Dots, Line, Orientation};
use std::time::Instant;

/// The most lines in play a search handles: a position is one machine word.
pub(super) const MAX_LINES: usize = 64;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;
const INFINITY: i32 = 1000;

/// A permutation of the board's lines (a reflection or rotation), applied to a set of lines
/// one byte at a time.
struct Symmetry {
    /// The image of every value of every byte of a set.
    bytes: Vec<[u64; 256]>,
}

impl Symmetry {
    fn apply(&self, drawn: u64) -> u64 {
        self.bytes
            .iter()
            .enumerate()
            .fold(0, |image, (index, table)| {
                image | table[(drawn >> (8 * index)) as usize & 0xFF]
            })
    }
}

/// The symmetries of the board other than the identity: the three reflections and the half
/// turn of a rectangle, and the four more of a square.
fn symmetries(game: &Dots) -> Vec<Symmetry> {
    let (rows, cols) = (game.rows(), game.cols());
    let lines = game.line_count() as usize;
    let mut found = Vec::new();
    for transpose in [false, true] {
        if transpose && rows != cols {
            continue;
        }
        for (flip_x, flip_y) in [(false, false), (true, false), (false, true), (true, true)] {
            if !transpose && !flip_x && !flip_y {
                continue;
            }
            let dot = |x: u8, y: u8| {
                let (x, y) = (
                    if flip_x { cols - x } else { x },
                    if flip_y { rows - y } else { y },
                );
                if transpose {
                    (y, x)
                } else {
                    (x, y)
                }
            };
            let mut bytes = vec![[0u64; 256]; lines.div_ceil(8)];
            for line in 0..lines {
                let (orientation, x, y) = game.line_coordinates(line as Line);
                let (a, b) = match orientation {
                    Orientation::Horizontal => (dot(x, y), dot(x + 1, y)),
                    Orientation::Vertical => (dot(x, y), dot(x, y + 1)),
                };
                let image = if a.1 == b.1 {
                    game.line(Orientation::Horizontal, a.0.min(b.0), a.1)
                } else {
                    game.line(Orientation::Vertical, a.0, a.1.min(b.1))
                }
                .expect("a symmetry maps lines onto lines");
                for (value, images) in bytes[line / 8].iter_mut().enumerate() {
                    if value & 1 << (line % 8) != 0 {
                        *images |= 1 << image;
                    }
                }
            }
            found.push(Symmetry { bytes });
        }
    }
    found
}

/// The symmetries a view can use: the board's when the whole board is in play (a set of lines
/// of part of the board has no symmetry to speak of).
fn view_symmetries(game: &Dots, coins: &Coins) -> Vec<Symmetry> {
    assert!(coins.line_count() <= MAX_LINES, "too many lines in play");
    if coins.line_count() == game.line_count() as usize {
        symmetries(game)
    } else {
        Vec::new()
    }
}

/// What a search of one position found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The mover's boxes minus the opponent's, among those still open, with perfect play.
    pub value: i32,
    /// Every move (as a line of the board) that achieves it.
    pub best: Vec<Line>,
}

/// The exhaustive search of the positions of one view ([`Coins`]): its transposition table
/// keeps what one search learnt for the next, until the view changes.
pub struct Solver {
    coins: Coins,
    symmetries: Vec<Symmetry>,
    table: TranspositionTable,
    deadline: Option<Instant>,
    nodes: u64,
    /// The most positions one search may visit ([`Solver::limit_nodes`]), and the count of
    /// `nodes` at which the current search stops for it.
    node_limit: u64,
    stop_at: u64,
    out_of_time: bool,
}

impl Solver {
    /// A solver with a table of 2^`table_bits` entries (16 bytes each) and no view yet: see
    /// [`Solver::set_view`].
    pub fn new(table_bits: u32) -> Solver {
        Solver {
            coins: Coins::default(),
            symmetries: Vec::new(),
            table: TranspositionTable::new(table_bits),
            deadline: None,
            nodes: 0,
            node_limit: u64::MAX,
            stop_at: u64::MAX,
            out_of_time: false,
        }
    }

    /// Works on the positions of `coins` (at most [`MAX_LINES`] lines in play) of the board of
    /// `game` from now on, forgetting what was learnt before.
    pub fn set_view(&mut self, game: &Dots, coins: Coins) {
        self.symmetries = view_symmetries(game, &coins);
        self.coins = coins;
        self.table.invalidate();
    }

    /// Each search from now on stops, as at its deadline, once it has visited `nodes`
    /// positions (`u64::MAX`, the default: no limit). For [`crate::Budget::nodes`].
    pub fn limit_nodes(&mut self, nodes: u64) {
        self.node_limit = nodes;
    }

    /// The view this solver works on.
    pub fn coins(&self) -> &Coins {
        &self.coins
    }

    /// The value of `game` (which the view must cover), or `None` if `deadline` came first.
    pub fn value(&mut self, game: &Dots, deadline: Option<Instant>) -> Option<i32> {
        self.start(deadline);
        let drawn = self.coins.drawn_in(game);
        let open = self.coins.open_boxes(drawn) as i32;
        let value = self.search(drawn, open, -INFINITY, INFINITY);
        (!self.out_of_time).then_some(value)
    }

    /// The value of `game` and every move that achieves it, or `None` if `deadline` came first.
    pub fn solve(&mut self, game: &Dots, deadline: Option<Instant>) -> Option<Solution> {
        self.start(deadline);
        let drawn: u64 = self.coins.drawn_in(game);
        let open = self.coins.open_boxes(drawn) as i32;
        if let Some(line) = self.forced_capture(drawn) {
            let gain = self.coins.gain(drawn, line) as i32;
            let rest = self.search(drawn.with(line), open - gain, -INFINITY, INFINITY);
            return (!self.out_of_time).then(|| Solution {
                value: gain + rest,
                best: vec![self.coins.global(line)],
            });
        }
        let mut moves = [0u8; MAX_LINES];
        let count = self.ordered_moves(drawn, None, &mut moves);
        let mut solution = Solution {
            value: -INFINITY,
            best: Vec::new(),
        };
        for &line in &moves[..count] {
            // A window just below the best so far tells equal moves from worse ones.
            let value = self.child(drawn, open, line, solution.value - 1, INFINITY);
            if self.out_of_time {
                return None;
            }
            if value > solution.value {
                solution.value = value;
                solution.best.clear();
            }
            if value == solution.value {
                solution.best.push(self.coins.global(line));
            }
        }
        Some(solution)
    }

    /// The share of the plausible replies to `line` (a best move of `game`) that are mistakes,
    /// giving up part of the value: among moves equally good against perfect play, the one
    /// with the most pitfalls gives a fallible opponent the most chances to go wrong. Plausible
    /// replies take a box if one is offered, else draw a safe line if there is one. A capture
    /// keeps the move, so it has none. `None` if `deadline` came first.
    pub fn pitfalls(&mut self, game: &Dots, line: Line, deadline: Option<Instant>) -> Option<f64> {
        self.start(deadline);
        let drawn: u64 = self.coins.drawn_in(game);
        let line = self.coins.local(line).expect("a line in play");
        if self.coins.gain(drawn, line) > 0 {
            return Some(0.0);
        }
        let after = drawn.with(line);
        let open = self.coins.open_boxes(after) as i32;
        let value = self.search(after, open, -INFINITY, INFINITY);
        let mut replies = [0u8; MAX_LINES];
        let count = self.ordered_moves(after, None, &mut replies);
        let coins = &self.coins;
        let captures = replies[..count].iter().any(|&r| coins.gain(after, r) > 0);
        let safe = replies[..count].iter().any(|&r| coins.is_safe(after, r));
        let plausible: Vec<u8> = replies[..count]
            .iter()
            .copied()
            .filter(|&r| {
                if captures {
                    coins.gain(after, r) > 0
                } else {
                    !safe || coins.is_safe(after, r)
                }
            })
            .collect();
        let mut pitfalls = 0;
        for &reply in &plausible {
            // A null window just below the value: failing low is a mistake.
            if self.child(after, open, reply, value - 1, value) < value {
                pitfalls += 1;
            }
            if self.out_of_time {
                return None;
            }
        }
        (!self.out_of_time).then(|| pitfalls as f64 / plausible.len().max(1) as f64)
    }

    fn start(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.stop_at = self.nodes.saturating_add(self.node_limit);
        self.out_of_time = false;
    }

    /// The smallest image of `drawn` under the board's symmetries.
    fn key(&self, drawn: u64) -> u64 {
        self.symmetries
            .iter()
            .fold(drawn, |key, symmetry| key.min(symmetry.apply(drawn)))
    }

    /// A capture that is at least as good as any other move, if there is one.
    fn forced_capture(&self, drawn: u64) -> Option<u8> {
        self.coins
            .captures(drawn)
            .find(|&(line, index)| self.coins.capture_is_forced(drawn, index, line))
            .map(|(line, _)| line)
    }

    /// The value for the mover of drawing `line` in `drawn`: a capture keeps the move.
    fn child(&mut self, drawn: u64, open: i32, line: u8, alpha: i32, beta: i32) -> i32 {
        let gain = self.coins.gain(drawn, line) as i32;
        let after = drawn.with(line);
        if gain > 0 {
            gain + self.search(after, open - gain, alpha - gain, beta - gain)
        } else {
            -self.search(after, open, -beta, -alpha)
        }
    }

    /// The undrawn lines, most promising first: the hint, captures, safe lines, then lines that
    /// give away one box before those that give away two or more.
    fn ordered_moves(&self, drawn: u64, hint: Option<u8>, moves: &mut [u8; MAX_LINES]) -> usize {
        let coins = &self.coins;
        let mut scored = [(0u8, 0u8); MAX_LINES];
        let mut count = 0;
        let all = if coins.line_count() == 64 {
            u64::MAX
        } else {
            (1 << coins.line_count()) - 1
        };
        let mut free = all & !drawn;
        while free != 0 {
            let line = free.trailing_zeros() as u8;
            free &= free - 1;
            let score = if Some(line) == hint {
                5
            } else if coins.gain(drawn, line) > 0 {
                4
            } else {
                // Boxes left with three sides: 0 for a safe line.
                let opened = coins
                    .beside(line)
                    .into_iter()
                    .filter(|&index| index != GROUND && coins.undrawn(drawn, index) == 2)
                    .count() as u8;
                3 - opened
            };
            scored[count] = (score, line);
            count += 1;
        }
        scored[..count].sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
        for (slot, &(_, line)) in moves.iter_mut().zip(&scored[..count]) {
            *slot = line;
        }
        count
    }

    /// Negamax with alpha-beta: the mover's boxes minus the opponent's among the `open` boxes
    /// left. Returns garbage once out of time (`out_of_time` is then set, and nothing is
    /// stored).
    fn search(&mut self, drawn: u64, open: i32, mut alpha: i32, mut beta: i32) -> i32 {
        if open == 0 {
            return 0;
        }
        self.nodes += 1;
        if self.nodes >= self.stop_at {
            self.out_of_time = true;
        }
        if self.nodes % CLOCK_EVERY == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.out_of_time = true;
                }
            }
        }
        if self.out_of_time {
            return 0;
        }
        if let Some(line) = self.forced_capture(drawn) {
            let gain = self.coins.gain(drawn, line) as i32;
            return gain + self.search(drawn.with(line), open - gain, alpha - gain, beta - gain);
        }
        // Nobody can get more than the boxes left.
        if alpha >= open {
            return open;
        }
        if beta <= -open {
            return -open;
        }
        let key = self.key(drawn);
        let mut hint = None;
        let (mut lower, mut upper) = (-open, open);
        if let Some(entry) = self.table.get(key) {
            (lower, upper) = (entry.lower as i32, entry.upper as i32);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            hint = Some(entry.best);
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let original_alpha = alpha;
        let mut moves = [0u8; MAX_LINES];
        let count = self.ordered_moves(drawn, hint.filter(|&line| !drawn.has(line)), &mut moves);
        let mut best = (-INFINITY, moves[0]);
        for &line in &moves[..count] {
            let value = self.child(drawn, open, line, alpha, beta);
            if self.out_of_time {
                return 0;
            }
            if value > best.0 {
                best = (value, line);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        let value = best.0;
        if value <= original_alpha {
            upper = value;
        } else if value >= beta {
            lower = value;
        } else {
            (lower, upper) = (value, value);
        }
        self.table.put(
            key,
            Bounds {
                lower: lower as i8,
                upper: upper as i8,
                best: best.1,
            },
        );
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::dots::DotsParams;
    use referee_rules::games::Game;
    use std::time::Duration;

    fn board(rows: u8, cols: u8) -> Dots {
        Dots::new(DotsParams { rows, cols })
    }

    fn solver_for(game: &Dots) -> Solver {
        let mut solver = Solver::new(18);
        solver.set_view(game, Coins::whole_board(game));
        solver
    }

    /// Boxes of the first and the second player under perfect play.
    fn perfect_play(rows: u8, cols: u8) -> [i32; 2] {
        let game = board(rows, cols);
        let value = solver_for(&game).value(&game, None).unwrap();
        let total = rows as i32 * cols as i32;
        [(total + value) / 2, (total - value) / 2]
    }

    #[test]
    fn perfect_play_matches_the_published_results() {
        assert_eq!(perfect_play(1, 1), [0, 1]);
        assert_eq!(perfect_play(1, 2), [1, 1]);
        assert_eq!(perfect_play(2, 1), [1, 1]);
        assert_eq!(perfect_play(2, 2), [3, 1]);
        assert_eq!(perfect_play(2, 3), [2, 4]);
        assert_eq!(perfect_play(3, 2), [2, 4]);
    }

    /// The position of `rows` x `cols` with the lines of the bit set `lines` drawn.
    fn position(rows: u8, cols: u8, lines: u32) -> Dots {
        let mut game = board(rows, cols);
        for line in 0..game.line_count() {
            if lines & 1 << line != 0 {
                game.play_unchecked(line);
            }
        }
        game
    }

    /// The value of every position is the best, over every move, of what the move gains plus
    /// what follows: so neither the captures played without a search nor the table's bounds
    /// ever lose anything.
    #[test]
    fn every_value_is_the_best_of_all_moves() {
        for (rows, cols, step) in [(2, 2, 1), (1, 3, 1), (2, 3, 61)] {
            let start = board(rows, cols);
            let mut solver = solver_for(&start);
            let sets = 1u32 << start.line_count();
            let mut moves = Vec::new();
            for lines in (0..sets).step_by(step) {
                let game = position(rows, cols, lines);
                let value = solver.value(&game, None).unwrap();
                game.generate_moves(&mut moves);
                let me = game.side_to_move();
                let best = moves.iter().map(|&line| {
                    let mut child = game.clone();
                    child.play_unchecked(line);
                    let gained = child.box_counts()[me.index()] - game.box_counts()[me.index()];
                    let rest = solver.value(&child, None).unwrap();
                    gained as i32
                        + if child.side_to_move() == me {
                            rest
                        } else {
                            -rest
                        }
                });
                assert_eq!(value, best.max().unwrap_or(0), "{}", game.render());
            }
        }
    }

    #[test]
    fn solve_names_every_best_move() {
        let game = board(2, 2);
        let mut solver = solver_for(&game);
        let solution = solver.solve(&game, None).unwrap();
        assert_eq!(solution.value, 2);
        // The eight lines on the edge win 3-1; the four inside lines do not.
        let mut edge: Vec<Line> = (0..game.line_count())
            .filter(|&line| game.boxes_beside(line).contains(&None))
            .collect();
        edge.sort();
        let mut best = solution.best.clone();
        best.sort();
        assert_eq!(best, edge);
        for line in (0..game.line_count()).filter(|line| !edge.contains(line)) {
            let mut child = game.clone();
            child.play_unchecked(line);
            assert!(-solver.value(&child, None).unwrap() < 2);
        }
    }

    #[test]
    fn mirror_images_share_an_entry() {
        let game = board(3, 3);
        let solver = solver_for(&game);
        assert_eq!(solver.symmetries.len(), 7);
        // The whole board is in play: the view numbers lines as the board does.
        let set = |lines: &[&str]| {
            lines.iter().fold(0u64, |bits, text| {
                bits.with(game.parse_move(text).unwrap() as u8)
            })
        };
        // A corner's two edges, in each of the four corners.
        let corners = [
            set(&["h 0 0", "v 0 0"]),
            set(&["h 2 0", "v 3 0"]),
            set(&["h 0 3", "v 0 2"]),
            set(&["h 2 3", "v 3 2"]),
        ];
        for corner in corners {
            assert_eq!(solver.key(corner), solver.key(corners[0]));
        }
        assert_ne!(solver.key(set(&["h 0 0", "v 1 0"])), solver.key(corners[0]));
        // A 2x3 board has only the four symmetries of a rectangle.
        let wide = board(2, 3);
        assert_eq!(solver_for(&wide).symmetries.len(), 3);
    }

    #[test]
    fn gives_up_at_the_deadline_and_stays_correct() {
        let game = board(2, 3);
        let mut solver = solver_for(&game);
        let past = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .unwrap();
        assert_eq!(solver.solve(&game, Some(past)), None);
        let big = board(5, 5);
        let mut big_solver = solver_for(&big);
        let soon = Instant::now() + Duration::from_millis(20);
        assert_eq!(big_solver.value(&big, Some(soon)), None);
        assert!(Instant::now() < soon + Duration::from_millis(500));
        // Whatever was cut short left nothing wrong behind.
        assert_eq!(solver.value(&game, None), Some(-2));
    }

    #[test]
    fn gives_up_at_its_node_limit_and_stays_correct() {
        let big = board(5, 5);
        let mut solver = solver_for(&big);
        solver.limit_nodes(1000);
        assert_eq!(solver.value(&big, None), None);
        // A call or two on the way back out count too, returning at once.
        assert!((1000..1005).contains(&solver.nodes), "{}", solver.nodes);
        // The limit is per search: the next one may visit as many again.
        assert_eq!(solver.value(&big, None), None);
        assert!((2000..2010).contains(&solver.nodes), "{}", solver.nodes);
        // Whatever was cut short left nothing wrong behind.
        let game = board(2, 3);
        let mut small = solver_for(&game);
        small.limit_nodes(1000);
        assert_eq!(small.solve(&game, None), None);
        small.limit_nodes(u64::MAX);
        assert_eq!(small.value(&game, None), Some(-2));
    }

    #[test]
    fn pitfalls_are_the_plausible_replies_that_lose_value() {
        let start = board(2, 3);
        let mut solver = solver_for(&start);
        let mut moves = Vec::new();
        let mut seen = 0;
        for lines in (0..1u32 << start.line_count()).step_by(997) {
            let game = position(2, 3, lines);
            let Some(solution) = solver.solve(&game, None) else {
                unreachable!("no deadline");
            };
            for &line in &solution.best {
                let pitfalls = solver.pitfalls(&game, line, None).unwrap();
                let mut after = game.clone();
                after.play_unchecked(line);
                if after.side_to_move() == game.side_to_move() || after.outcome().is_some() {
                    assert_eq!(pitfalls, 0.0);
                    continue;
                }
                // Plausible replies, judged by the rules engine: take a box, else a safe line.
                let sides = |line: Line| -> Vec<u8> {
                    after
                        .boxes_beside(line)
                        .into_iter()
                        .flatten()
                        .map(|(col, row)| after.sides_drawn(col, row))
                        .collect()
                };
                after.generate_moves(&mut moves);
                let captures: Vec<Line> = moves
                    .iter()
                    .copied()
                    .filter(|&l| sides(l).contains(&3))
                    .collect();
                let safe: Vec<Line> = moves
                    .iter()
                    .copied()
                    .filter(|&l| sides(l).iter().all(|&s| s < 2))
                    .collect();
                let plausible = [captures, safe, moves.clone()]
                    .into_iter()
                    .find(|lines| !lines.is_empty())
                    .unwrap();
                let value = solver.value(&after, None).unwrap();
                let mistakes = plausible
                    .iter()
                    .filter(|&&reply| {
                        let mut answered = after.clone();
                        answered.play_unchecked(reply);
                        let rest = solver.value(&answered, None).unwrap();
                        let mover = after.side_to_move();
                        let gained = answered.box_counts()[mover.index()]
                            - after.box_counts()[mover.index()];
                        let got = gained as i32
                            + if answered.side_to_move() == mover {
                                rest
                            } else {
                                -rest
                            };
                        got < value
                    })
                    .count();
                assert_eq!(pitfalls, mistakes as f64 / plausible.len() as f64);
                seen += 1;
            }
        }
        assert!(seen > 100, "{seen}");
    }
}
