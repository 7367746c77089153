//! Level 3 for checkers: iterative-deepening alpha-beta (negamax with principal variation
//! search) until the deadline, then the best move of the deepest search, or of the unfinished
//! one when it has already proved a better move.
//!
//! - Quiescence: at the horizon the search goes on while the side to move must capture
//!   (captures are forced, so a position with a capture pending has no static value); a move
//!   that is the only legal one costs no depth.
//! - A transposition table keyed by Zobrist hash gives scores and best moves back across move
//!   orders and across moves of the game; move ordering is: the table's move, bigger captures,
//!   crowning, two killer moves per ply, then the history heuristic.
//! - Draws: a position already seen since the last man move or capture (in the game or along
//!   the searched line) scores as a draw, and so does reaching the move rule's count, so a bot
//!   that is ahead makes progress and one that is behind looks for them. A side without a move
//!   loses even then, as in the rules.
//! - Endgames: positions of at most four pieces are looked up in the [`EndgameDb`], at the root
//!   (a won position's fastest win is played at once, a drawn one's search is kept to the
//!   moves that hold the draw) and at every node of the search, as long as the win or loss it
//!   gives ends before the move rule. The database is loaded or built on a thread of its own
//!   once a game is down to [`LOAD_ENDGAME_FROM`] pieces; until it is there the bot plays by
//!   search alone.
//! - The search works on [`Position`] copies with move lists kept per ply, so the inner loop
//!   does not allocate.

use super::ballots::Ballots;
use super::endgame::{EndgameBuild, EndgameDb, EndgameValue, StillBuilding, MAX_PIECES};
use super::eval::{evaluate, WIN};
use super::table::{Bound, Hit, TranspositionTable};
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::checkers::{Checkers, Move, Position};
use referee_rules::games::{Game, Side};
use referee_rules::seeded::SeededRng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest line searched, extensions included.
const MAX_PLY: usize = 128;
const INFINITY: i32 = WIN + 1;
/// Scores beyond this are wins or losses a known number of plies away.
const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// 2^20 slots of 16 bytes: 16 MiB, a few times what a one-second search fills.
const TABLE_BITS: u32 = 20;
/// The clock is read every this many nodes (a power of two), a few dozen microseconds apart.
const CLOCK_INTERVAL: u64 = 256;
/// Move ordering keys, above any history score.
const TABLE_MOVE: i32 = 1 << 30;
const CROWNING: i32 = 1 << 29;
const KILLER: [i32; 2] = [1 << 28, 1 << 27];
/// Late move reductions: from this depth, for moves after this many.
const REDUCE_FROM_DEPTH: i32 = 3;
const REDUCE_AFTER: usize = 3;
/// History scores are halved when one reaches this, keeping them below the killers.
const HISTORY_LIMIT: i32 = 1 << 26;
/// Starts with at most this many pieces more than the database covers wait for it within the
/// start-up allowance (loading takes some 35 ms, building it several seconds): their searches
/// reach it within a few plies. Other starts do not wait.
const NEAR_ENDGAME: usize = 2;
/// The database is loaded or built once a game is down to this many pieces (or starts with
/// them), well before its searches reach four: a game that never gets there, like most short
/// games of the tests' debug builds, never spends a core on building it.
const LOAD_ENDGAME_FROM: usize = 12;
/// The share of a move's budget spent waiting for the database still being built, once the
/// position is in it.
const ENDGAME_WAIT_SHARE: f64 = 0.5;

/// What the last search did, for benchmarks and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The deepest iteration completed (0 when the move was forced or no iteration finished).
    pub depth: i32,
    /// The score of the move chosen, for the side that chose it.
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time the move took to choose (zero for a ballot's opening move).
    pub elapsed: Duration,
}

/// The strong checkers bot. Its tables (transposition, history) live as long as the bot
/// process, so what one search learnt helps the next.
pub struct SearchBrain {
    rng: SeededRng,
    /// The 3-move ballots it opens with (`None`: it searches from the first move).
    ballots: Option<Ballots>,
    /// Whether it uses the endgame database (the strong level does; a benchmark measures it
    /// against itself without).
    wants_endgame: bool,
    endgame: Option<Arc<EndgameDb>>,
    /// The database while it is being loaded or built.
    endgame_build: Option<EndgameBuild>,
    /// Whether this game started near an endgame, so that its setup waits for the database.
    endgame_at_start: bool,
    table: TranspositionTable,
    root: Vec<Move>,
    /// Move lists and their ordering keys by ply, reused from search to search.
    lists: Vec<Vec<Move>>,
    keys: Vec<Vec<i32>>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Cut-offs by quiet moves, by side, from and to index.
    history: [[[i32; 32]; 32]; 2],
    /// Hashes of the positions since the last man move or capture, in the game and then along
    /// the line being searched, the parent of the current node last.
    line: Vec<u64>,
    /// Plies without a man move or capture that draw (`u32::MAX` when the rule is off).
    move_rule: u32,
    deadline: Instant,
    /// The most positions this search may visit ([`Budget::node_limit`]).
    node_limit: u64,
    stopped: bool,
    nodes: u64,
    report: SearchReport,
}

impl SearchBrain {
    /// The strong level: ballots to open, then search, with the endgame database once the
    /// pieces come down. Its random choices follow `seed`.
    pub fn new(seed: u64) -> SearchBrain {
        SearchBrain {
            rng: SeededRng::seed_from_u64(seed),
            ballots: Some(Ballots::new()),
            wants_endgame: true,
            endgame: None,
            endgame_build: None,
            endgame_at_start: false,
            table: TranspositionTable::new(TABLE_BITS),
            root: Vec::new(),
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            keys: (0..MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            killers: [[None; 2]; MAX_PLY],
            history: [[[0; 32]; 32]; 2],
            line: Vec::with_capacity(2 * MAX_PLY),
            move_rule: u32::MAX,
            deadline: Instant::now(),
            node_limit: u64::MAX,
            stopped: false,
            nodes: 0,
            report: SearchReport::default(),
        }
    }

    /// The strong level as it was before it opened with the ballots, searching from the
    /// first move (and without the endgame database, which came later): what
    /// `benches/checkers_strength.rs` measures the ballots against.
    pub fn without_ballots(seed: u64) -> SearchBrain {
        SearchBrain {
            ballots: None,
            ..SearchBrain::without_endgame(seed)
        }
    }

    /// The strong level as it was before the endgame database: what
    /// `benches/checkers_strength.rs` measures the database against.
    pub fn without_endgame(seed: u64) -> SearchBrain {
        SearchBrain {
            wants_endgame: false,
            ..SearchBrain::new(seed)
        }
    }

    /// Starts loading or building the endgame database once `position` is near enough an
    /// endgame, then takes it if it is ready by `deadline`.
    fn collect_endgame(&mut self, position: &Position, deadline: Instant) {
        if !self.wants_endgame || self.endgame.is_some() {
            return;
        }
        if self.endgame_build.is_none() && pieces(position) <= LOAD_ENDGAME_FROM {
            self.endgame_build = Some(EndgameDb::start());
        }
        self.take_endgame(deadline);
    }

    /// Takes the endgame database being loaded or built if it is ready by `deadline`.
    fn take_endgame(&mut self, deadline: Instant) {
        let Some(build) = &self.endgame_build else {
            return;
        };
        match build.wait_until(deadline) {
            Ok(db) => {
                self.endgame = Some(db);
                self.endgame_build = None;
            }
            Err(StillBuilding::No) => {
                // The build failed: the bot plays by search alone.
                self.endgame_build = None;
                self.wants_endgame = false;
            }
            Err(StillBuilding::Yes) => {}
        }
    }

    /// The database's value of `position`, if it is in the database and the value holds with
    /// `quiet` plies already counted toward the move rule.
    fn endgame_value(&self, position: &Position, quiet: u32) -> Option<EndgameValue> {
        let db = self.endgame.as_ref()?;
        if pieces(position) > db.pieces() {
            return None;
        }
        db.probe(position)
            .filter(|value| value.within(self.move_rule.saturating_sub(quiet)))
    }

    /// The database's move at the root, if the position is won: the fastest win (its
    /// distance goes down at every move, so no position repeats). A drawn position keeps only
    /// the moves that hold the draw in `self.root`, and the search chooses among them. A lost
    /// one is left to the search, which finds a draw by repetition where the game's history
    /// offers one and otherwise, from the database's distances, the slowest loss.
    fn endgame_move(&mut self, game: &Checkers) -> Option<Move> {
        let position = game.position();
        let value = self.endgame_value(&position, game.quiet_plies())?;
        if matches!(value, EndgameValue::Loss { .. }) {
            return None;
        }
        let (_, best) = self.endgame.as_ref()?.best_moves(&position)?;
        if value != EndgameValue::Draw {
            return best.choose(&mut self.rng).copied();
        }
        self.root.retain(|mv| best.contains(mv));
        (self.root.len() == 1).then(|| self.root[0])
    }

    /// What the last call to [`Brain::choose`] did.
    pub fn report(&self) -> SearchReport {
        self.report
    }

    /// Iterative deepening over the root moves in `self.root` (at least two); returns the best
    /// and records the search in `self.report`. Each new best move is proposed to `budget`.
    fn deepen(&mut self, game: &Checkers, budget: &Budget, started: Instant) -> Move {
        let position = game.position();
        let quiet = game.quiet_plies();
        let mut best = self.root[0];
        budget.propose(game.format_move(best));
        for depth in 1..MAX_PLY as i32 / 2 {
            let mut alpha = -INFINITY;
            let mut improved = None;
            for i in 0..self.root.len() {
                let mv = self.root[i];
                let (child, child_quiet) = play(&position, mv, quiet);
                let score = if i == 0 {
                    -self.search(&child, depth - 1, -INFINITY, -alpha, 1, child_quiet)
                } else {
                    let score = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, child_quiet);
                    if score > alpha && !self.stopped {
                        -self.search(&child, depth - 1, -INFINITY, -alpha, 1, child_quiet)
                    } else {
                        score
                    }
                };
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    improved = Some(i);
                }
            }
            if let Some(i) = improved {
                // Searched fully: safe to play even if this iteration was cut short.
                self.root[..=i].rotate_right(1);
                if best != self.root[0] {
                    best = self.root[0];
                    budget.propose(game.format_move(best));
                }
                self.report.score = alpha;
            }
            if self.stopped {
                break;
            }
            self.report.depth = depth;
            // A win or loss found within the full-width depth is proven.
            if alpha.abs() > WIN_BOUND && WIN - alpha.abs() <= depth {
                break;
            }
            if Instant::now() >= self.deadline {
                break;
            }
        }
        self.report.nodes = self.nodes;
        self.report.elapsed = started.elapsed();
        best
    }

    /// The score of `position` for its side to move, searched `depth` plies deep (then on
    /// through captures), within the window `alpha..beta`. `ply` counts from the root; `quiet`
    /// is the number of plies since the last man move or capture.
    fn search(
        &mut self,
        position: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes % CLOCK_INTERVAL == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        // A repetition needs both sides to have moved a king away and back: four plies. The
        // hash is needed for that and for the table, which the horizon does not use.
        let repeatable = quiet >= 4;
        let hash = if depth > 0 || repeatable {
            position.zobrist()
        } else {
            // Never compared: what follows a horizon node is captures, which end the window
            // the repetition check looks back through.
            0
        };
        if repeatable && self.repeats(hash, quiet) {
            return 0;
        }
        if let Some(value) = self.endgame_value(position, quiet) {
            return endgame_score(value, ply);
        }
        if depth <= 0 && !position.must_capture() {
            // The horizon: a quiet position has its static value, found without generating
            // its moves.
            return if !position.can_move() {
                -(WIN - ply as i32)
            } else if quiet >= self.move_rule {
                0
            } else {
                evaluate(position)
            };
        }
        self.line.push(hash);
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        position.legal_moves(&mut moves);
        let score = self.node(
            position, hash, depth, alpha, beta, ply, quiet, &mut moves, &mut keys,
        );
        self.lists[ply] = moves;
        self.keys[ply] = keys;
        self.line.pop();
        score
    }

    /// Whether the position with `hash` occurred earlier since the last man move or capture
    /// (four, six, ... plies back, same side to move).
    fn repeats(&self, hash: u64, quiet: u32) -> bool {
        let seen = self.line.len();
        let reach = (quiet as usize).min(seen);
        (4..=reach)
            .step_by(2)
            .any(|back| self.line[seen - back] == hash)
    }

    /// [`SearchBrain::search`] once the node is entered and its moves generated.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        position: &Position,
        hash: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiet: u32,
        moves: &mut [Move],
        keys: &mut Vec<i32>,
    ) -> i32 {
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        if quiet >= self.move_rule {
            return 0;
        }
        let capture = moves[0].is_capture();
        if ply + 1 >= MAX_PLY {
            return evaluate(position);
        }
        // Capture sequences at the horizon are short and many: not worth a table lookup.
        let hit = if depth > 0 {
            self.table.probe(hash)
        } else {
            None
        };
        if let Some(hit) = hit.filter(|hit| hit.depth >= depth) {
            let score = from_table(hit.score, ply);
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        self.order(position, hit, ply, moves, keys);
        let child_depth = if moves.len() == 1 && depth > 0 {
            depth
        } else {
            (depth - 1).max(0)
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        for i in 0..moves.len() {
            pick_next(moves, keys, i);
            let mv = moves[i];
            let (child, child_quiet) = play(position, mv, quiet);
            let score = if i == 0 {
                -self.search(&child, child_depth, -beta, -alpha, ply + 1, child_quiet)
            } else {
                // Late quiet moves, after the table's move, the killers and crowning, are
                // looked at one ply shallower first, and again in full if they turn out good.
                let reduce = !capture
                    && depth >= REDUCE_FROM_DEPTH
                    && i >= REDUCE_AFTER
                    && keys[i] < KILLER[1];
                let mut score = -self.search(
                    &child,
                    child_depth - i32::from(reduce),
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_quiet,
                );
                if reduce && score > alpha && !self.stopped {
                    score = -self.search(
                        &child,
                        child_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_quiet,
                    );
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, child_depth, -beta, -alpha, ply + 1, child_quiet);
                }
                score
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !capture {
                            self.reward(position.side_to_move(), mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if depth > 0 {
            self.table
                .store(hash, depth, to_table(best, ply), bound, &best_move);
        }
        best
    }

    /// Fills `keys` with the ordering key of each move.
    fn order(
        &self,
        position: &Position,
        hit: Option<Hit>,
        ply: usize,
        moves: &[Move],
        keys: &mut Vec<i32>,
    ) {
        let side = position.side_to_move();
        let men = position.pieces(side) & !position.kings();
        keys.clear();
        keys.extend(moves.iter().map(|mv| {
            if hit.is_some_and(|hit| hit.is_best(mv)) {
                return TABLE_MOVE;
            }
            let crowning = if men & bit(mv.from()) != 0 && crowns(side, mv.to()) {
                CROWNING
            } else {
                0
            };
            if mv.is_capture() {
                let taken = mv.captured_bits();
                let kings = taken & position.kings();
                return crowning + 64 * taken.count_ones() as i32 + 16 * kings.count_ones() as i32;
            }
            if let Some(slot) = self.killers[ply].iter().position(|k| *k == Some(*mv)) {
                return crowning + KILLER[slot];
            }
            crowning + self.history[side.index()][index(mv.from())][index(mv.to())]
        }));
    }

    /// Remembers a quiet move that cut the search off.
    fn reward(&mut self, side: Side, mv: Move, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let history = &mut self.history[side.index()];
        let entry = &mut history[index(mv.from())][index(mv.to())];
        *entry += depth.max(1) * depth.max(1);
        if *entry >= HISTORY_LIMIT {
            history.iter_mut().flatten().for_each(|h| *h /= 2);
        }
    }

    /// Prepares the tables for a new search.
    fn forget(&mut self) {
        self.table.new_search();
        self.killers = [[None; 2]; MAX_PLY];
        self.history
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|h| *h /= 4);
        self.nodes = 0;
        self.stopped = false;
        self.report = SearchReport::default();
    }
}

impl Brain<Checkers> for SearchBrain {
    /// Starts loading or building the endgame database if the game starts with few pieces.
    fn new_game(&mut self, start: &Checkers, _side: Side) {
        let position = start.position();
        self.endgame_at_start = pieces(&position) <= MAX_PIECES + NEAR_ENDGAME;
        self.collect_endgame(&position, Instant::now());
    }

    /// A game that starts near an endgame waits for the database until `until`, near the end
    /// of the start-up allowance, so that its first moves know it on a slow machine too.
    fn prepare(&mut self, until: Instant) {
        if self.endgame_at_start && self.endgame.is_none() {
            self.take_endgame(until);
        }
    }

    fn choose(&mut self, game: &Checkers, budget: &Budget) -> Move {
        let started = Instant::now();
        let wait_until = if pieces(&game.position()) <= MAX_PIECES {
            budget.share_deadline(ENDGAME_WAIT_SHARE)
        } else {
            started
        };
        self.collect_endgame(&game.position(), wait_until);
        let ballot = self
            .ballots
            .as_ref()
            .map(|ballots| ballots.next_move(game, &mut self.rng));
        if let Some(mv) = ballot.flatten() {
            self.report = SearchReport::default();
            return mv;
        }
        self.forget();
        game.generate_moves(&mut self.root);
        self.move_rule = game.move_rule_plies().unwrap_or(u32::MAX);
        if let Some(mv) = self.endgame_move(game) {
            self.report.elapsed = started.elapsed();
            return mv;
        }
        if self.root.len() == 1 {
            self.report.elapsed = started.elapsed();
            return self.root[0];
        }
        // Equal moves are tried in a random order, so games from the same start differ.
        self.root.shuffle(&mut self.rng);
        self.deadline = budget.deadline();
        self.node_limit = budget.node_limit();
        self.line.clear();
        self.line
            .extend(game.repeatable_positions().map(|p| p.zobrist()));
        if self.line.is_empty() {
            self.line.push(game.position().zobrist());
        }
        self.deepen(game, budget, started)
    }
}

/// The position after `mv` and its count of plies since the last man move or capture.
fn play(position: &Position, mv: Move, quiet: u32) -> (Position, u32) {
    let king_moved = position.kings() & bit(mv.from()) != 0;
    let mut child = *position;
    child.apply(mv);
    let quiet = if king_moved && !mv.is_capture() {
        quiet + 1
    } else {
        0
    };
    (child, quiet)
}

/// The pieces of both sides on the board.
fn pieces(position: &Position) -> usize {
    (position.pieces(Side::First) | position.pieces(Side::Second)).count_ones() as usize
}

/// The search score of a value from the endgame database at `ply` plies from the root: a win
/// or loss as far away as the database says (kept within the plies scores count, so that it
/// stays a win or loss).
fn endgame_score(value: EndgameValue, ply: usize) -> i32 {
    let distance = |plies: u32| (ply + plies as usize).min(MAX_PLY - 1) as i32;
    match value {
        EndgameValue::Win { plies } => WIN - distance(plies),
        EndgameValue::Loss { plies } => -(WIN - distance(plies)),
        EndgameValue::Draw => 0,
    }
}

/// Swaps the move with the highest key among `from..` into place `from`.
fn pick_next(moves: &mut [Move], keys: &mut [i32], from: usize) {
    let mut best = from;
    for i in from + 1..moves.len() {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    moves.swap(from, best);
    keys.swap(from, best);
}

/// Bit index of a square 1..32.
fn index(square: u8) -> usize {
    usize::from(square - 1)
}

fn bit(square: u8) -> u32 {
    1 << index(square)
}

/// Whether a man of `side` arriving on `square` is crowned.
fn crowns(side: Side, square: u8) -> bool {
    match side {
        Side::First => square >= 29,
        Side::Second => square <= 4,
    }
}

/// Wins and losses are stored as distances from the stored position, not from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::endgame::tests::three_pieces;
    use crate::checkers::GreedyBrain;
    use crate::random::RandomBrain;
    use rand::Rng;
    use referee_rules::games::checkers::CheckersParams;

    fn budget(ms: u64) -> Budget {
        Budget::fixed(Instant::now(), Duration::from_millis(ms))
    }

    /// A search of at most a million positions, whatever the clock: more than the tests'
    /// proofs need (about 120,000 for two kings against one), and a drawn position small
    /// enough is searched to the deepest iteration well within it.
    fn searched() -> Budget {
        Budget::nodes(1_000_000)
    }

    fn game(fen: &str) -> Checkers {
        Checkers::from_fen(fen).unwrap()
    }

    fn play(game: &mut Checkers, moves: &[&str]) {
        for text in moves {
            let mv = game.parse_move(text).unwrap();
            game.play(mv).unwrap();
        }
    }

    /// 14-18 gives a man away: 23x14 is forced, and 10x17x26 takes two back.
    const SHOT: &str = "B:W22,23,24,28,29:B3,7,10,14,15";

    #[test]
    fn plays_a_two_for_one_shot() {
        let mut shot = game(SHOT);
        let mut brain = SearchBrain::without_endgame(1);
        // 50,000 positions: eleven plies deep, where the shot needs three and its captures.
        assert_eq!(
            brain.choose(&shot, &Budget::nodes(50_000)).to_string(),
            "14-18"
        );
        assert!(brain.report().score > 50, "{:?}", brain.report());
        assert!(
            (50_000..50_010).contains(&brain.report().nodes),
            "stops at the node limit: {:?}",
            brain.report()
        );
        play(&mut shot, &["14-18", "23x14", "10x17x26"]);
        let pieces = |side| shot.position().pieces(side).count_ones();
        assert_eq!((pieces(Side::First), pieces(Side::Second)), (4, 3));
        // One move of look-ahead sees only the man given away.
        let greedy = GreedyBrain::new(1).choose(&game(SHOT), &budget(100));
        assert_ne!(greedy.to_string(), "14-18");
    }

    /// Two kings against one in its double corner: a long but forced win.
    const TWO_KINGS: &str = "B:WK32:BK1,K3";

    #[test]
    fn proves_and_converts_two_kings_against_one() {
        let mut game = game(TWO_KINGS);
        // The search alone, without the endgame database.
        let mut attacker = SearchBrain::without_endgame(1);
        let mut defender = SearchBrain::without_endgame(2);
        attacker.choose(&game, &searched());
        assert!(
            attacker.report().score > WIN_BOUND,
            "{:?}",
            attacker.report()
        );
        while Game::outcome(&game).is_none() {
            let brain = match game.side_to_move() {
                Side::First => &mut attacker,
                Side::Second => &mut defender,
            };
            let mv = brain.choose(&game, &searched());
            game.play(mv).unwrap();
        }
        assert_eq!(Game::outcome(&game).unwrap().winner, Some(Side::First));
    }

    /// A game starting near an endgame does not wait for the database when it is set up, but
    /// within the start-up allowance, up to the time it is given: taking the database if it
    /// comes in time, else returning then (its moves wait for it again). The database here is
    /// the small one, coming after `delay`.
    #[test]
    fn a_game_near_an_endgame_waits_for_the_database_within_its_start_up() {
        let coming = |delay| {
            let mut brain = SearchBrain::new(1);
            brain.endgame_build = Some(EndgameBuild::spawn(move || {
                std::thread::sleep(delay);
                Some(three_pieces())
            }));
            let started = Instant::now();
            brain.new_game(&game(TWO_KINGS), Side::First);
            assert!(started.elapsed() < Duration::from_millis(500));
            brain
        };
        let mut brain = coming(Duration::from_secs(1));
        brain.prepare(Instant::now() + Duration::from_secs(60));
        assert!(brain.endgame.is_some());
        let mut brain = coming(Duration::from_secs(60));
        let until = Instant::now() + Duration::from_millis(200);
        brain.prepare(until);
        assert!(brain.endgame.is_none() && Instant::now() >= until);
    }

    #[test]
    fn converts_two_kings_against_one_against_the_random_bot_with_the_database() {
        let db = three_pieces();
        let mut game = game(TWO_KINGS);
        let Some(EndgameValue::Win { plies }) = db.probe(&game.position()) else {
            panic!("two kings against one is won");
        };
        assert!(plies < 80, "within the 40-move rule: {plies}");
        let mut attacker = SearchBrain::without_endgame(1);
        attacker.endgame = Some(db);
        let mut defender = RandomBrain::new(2);
        let mut played = 0;
        while Game::outcome(&game).is_none() {
            let mv = match game.side_to_move() {
                Side::First => attacker.choose(&game, &searched()),
                Side::Second => defender.choose(&game, &searched()),
            };
            game.play(mv).unwrap();
            played += 1;
        }
        assert_eq!(Game::outcome(&game).unwrap().winner, Some(Side::First));
        // The fastest win against any defence: no longer than against the best one.
        assert!(played <= plies, "{played} plies, {plies} at most");
        // Straight from the database, without a search.
        assert_eq!(attacker.report().nodes, 0);
    }

    #[test]
    fn a_database_loss_still_takes_a_draw_by_repetition() {
        // As in the test without the database, with two kings instead of three: a loss in the
        // database, which 1-6 escapes by repeating the position a third time.
        let mut game = game("B:WK28,K32:BK1");
        play(&mut game, &KING_ROUND);
        let db = three_pieces();
        assert!(matches!(
            db.probe(&game.position()),
            Some(EndgameValue::Loss { .. })
        ));
        let mut brain = SearchBrain::without_endgame(1);
        brain.endgame = Some(db);
        let mv = brain.choose(&game, &searched());
        assert_eq!(mv.to_string(), "1-6");
        game.play(mv).unwrap();
        assert_eq!(Game::outcome(&game).unwrap().winner, None);
    }

    #[test]
    fn a_database_win_beyond_the_move_rule_is_not_trusted() {
        let game = Checkers::new(CheckersParams {
            start: TWO_KINGS.parse().unwrap(),
            repetition: 3,
            move_rule: 2,
        });
        let mut brain = SearchBrain::without_endgame(1);
        brain.endgame = Some(three_pieces());
        brain.choose(&game, &searched());
        assert_eq!(brain.report().score, 0, "{:?}", brain.report());
    }

    #[test]
    fn the_move_rule_makes_a_win_out_of_reach_a_draw() {
        // Two moves each without a man move or capture draw: too soon to catch the king.
        let game = Checkers::new(CheckersParams {
            start: TWO_KINGS.parse().unwrap(),
            repetition: 3,
            move_rule: 2,
        });
        let mut brain = SearchBrain::without_endgame(1);
        brain.choose(&game, &searched());
        assert_eq!(brain.report().score, 0, "{:?}", brain.report());
    }

    /// Black's king goes round 1-6-2-6-1 while White's on 32 steps to 27 and back, twice.
    const KING_ROUND: [&str; 8] = [
        "1-6", "32-27", "6-2", "27-32", "2-6", "32-27", "6-1", "27-32",
    ];

    #[test]
    fn takes_a_draw_by_repetition_when_lost() {
        // Black's king has been round 1-6-2-6-1; playing 1-6 now repeats the position after
        // the first 1-6 for the third time, the only escape against three kings.
        let mut game = game("B:WK24,K28,K32:BK1");
        play(&mut game, &KING_ROUND);
        let mut brain = SearchBrain::without_endgame(1);
        let mv = brain.choose(&game, &searched());
        assert_eq!(mv.to_string(), "1-6");
        game.play(mv).unwrap();
        assert_eq!(Game::outcome(&game).unwrap().winner, None);
    }

    #[test]
    fn answers_with_a_legal_move_under_a_tiny_budget() {
        let mut rng = SeededRng::seed_from_u64(3);
        // With the database of three pieces (the full one would be built or loaded).
        let mut brain = SearchBrain::without_endgame(4);
        brain.endgame = Some(three_pieces());
        let mut moves = Vec::new();
        let mut tried = 0;
        for start in ["B:W21-32:B1-12", "W:WK1,K3,20,21,22:BK30,K32,9,12,13", SHOT] {
            let mut game = game(start);
            while Game::outcome(&game).is_none() {
                let think = Duration::from_millis(rng.gen_range(1..4));
                let started = Instant::now();
                let mv = brain.choose(&game, &Budget::fixed(started, think));
                // Generous: a debug build on a loaded machine, where a thread may wait its turn
                // for a while. A search that ignored the clock would take minutes.
                assert!(started.elapsed() < think + Duration::from_millis(1000));
                assert_eq!(game.check_move(mv), Ok(()), "{}", game.to_fen());
                tried += 1;
                game.generate_moves(&mut moves);
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(tried > 50, "{tried} positions");
    }
}
