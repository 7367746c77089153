//! Level 3 for m,n,k games: iterative-deepening alpha-beta (negamax with principal variation
//! search and a transposition table) over the threat-aware board.
//!
//! Threats prune the tree before any evaluation: a side that can complete a line wins at once,
//! a side facing one winning square must take it (searched without using up depth, so forced
//! sequences are followed to their end), and a side facing two has lost. On large boards a
//! side that can make two winning squares with one move (an open four) has won if the
//! opponent has no four to make in answer, and past the search's depth the answers to such a
//! threat (an open three) are still searched, a few plies: the evaluation alone cannot tell
//! who wins that race. Moves are ordered by how much they
//! advance one's own windows and kill the opponent's; on large boards only the best few near
//! the marks are searched, the later ones first a ply or two shallower (late move reductions).
//! On small boards (tic-tac-toe) every move is searched, and once the depth reaches the number
//! of empty squares the result is exact: perfect play.
//!
//! Before the search, a threat-space search looks much deeper for a forced win: by fours
//! (VCF), then on large boards by fours and threes (VCT). After it, on large boards, the
//! search's choice is checked against the opponent's forced wins by threats, and when one
//! follows it, the next move in the search's order that has none is played instead. Both are
//! small and capped: under load a move's whole search is a few milliseconds, and every
//! position they visit is one the alpha-beta does not (the searches for the opponent's wins
//! before the alpha-beta, for every root move, and shape bonuses in the move ordering, cost
//! more than they gained).
//!
//! In renju, Black's forbidden points are never among Black's moves, and a four of White's
//! whose only block is forbidden to Black wins: so White's search steers Black onto them.

use super::board::{Board, Threats};
use super::table::{Bound, TranspositionTable};
use super::threat_space::{Attack, ThreatSearch};
use super::BoardSlot;
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::mnk::{Mnk, Square};
use referee_rules::games::Game;
use referee_rules::seeded::SeededRng;
use std::cmp::Reverse;
use std::time::Instant;

/// The score of completing a line now; a win `n` plies ahead scores `WIN - n`, so the search
/// prefers quick wins and slow losses.
const WIN: i32 = 1_000_000_000;
/// Scores beyond this are wins or losses, not evaluations.
const PROVEN: i32 = WIN - 10_000;
const INFINITY: i32 = WIN + 1;
/// Moves searched at each node below the root on large boards.
const BEAM: usize = 18;
/// Past the search's depth, the replies to a threat of a double threat (an open three) are
/// still searched, up to this many plies: a leaf's evaluation cannot tell who wins the race.
const QUIESCENCE: i32 = 4;
/// Moves of a quiet node after this many (in the ordering's order) are searched shallower
/// first (late move reductions): one ply less, two after twice as many.
const LATE: usize = 3;
/// Transposition table size: 2^20 entries, 16 MiB, allocated with the bot (before its first
/// move's clock starts).
const TABLE_BITS: u32 = 20;
/// Attacking moves a threat-space search looks ahead: by fours (cheap: one reply each) and by
/// fours and threes.
const VCF_DEPTH: usize = 12;
const VCT_DEPTH: usize = 10;
/// The most positions the search for one's own forced win may visit, by fours and by threes
/// (the VCTs found in 280 games at 300 ms a move took at most 2,537; one that finds nothing
/// takes all it is given, which the alpha-beta then lacks) ...
const VCF_NODES: u64 = 50_000;
const VCT_NODES: u64 = 2_000;
/// ... and the most of the thinking time each may take.
const VCF_SHARE: f64 = 0.25;
const VCT_SHARE: f64 = 0.1;
/// The share of the thinking time kept back from the alpha-beta to check its choice against
/// the opponent's forced wins by threats, and the positions each check may visit.
const CHECK_SHARE: f64 = 0.08;
const CHECK_NODES: u64 = 2_000;

pub(crate) struct StrongBrain {
    rng: SeededRng,
    board: BoardSlot,
    table: TranspositionTable,
    threats: ThreatSearch,
    /// Each ply's moves with their ordering scores, kept so the search does not allocate.
    plies: Vec<Vec<(i32, Square)>>,
    candidates: Vec<Square>,
    nodes: u64,
    /// The most positions this search may visit ([`Budget::node_limit`]).
    node_limit: u64,
    deadline: Instant,
    stopped: bool,
}

impl StrongBrain {
    pub(crate) fn new(seed: u64) -> StrongBrain {
        StrongBrain {
            rng: SeededRng::seed_from_u64(seed),
            board: BoardSlot::default(),
            table: TranspositionTable::new(TABLE_BITS),
            threats: ThreatSearch::new(),
            plies: Vec::new(),
            candidates: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: Instant::now(),
            stopped: false,
        }
    }

    /// Appends the side to move's moves to `list`, best first by ordering score, leaving out
    /// `skip` (already searched): only the defences when the opponent threatens a double
    /// threat, otherwise the candidates, on a large board only as many as `beam` (counting
    /// those already in the list). Returns whether they are defences.
    fn order_moves(
        &mut self,
        board: &mut Board,
        list: &mut Vec<(i32, Square)>,
        skip: Option<Square>,
        beam: usize,
    ) -> bool {
        let me = board.side_to_move();
        self.candidates.clear();
        board.defences(me.opponent(), &mut self.candidates);
        self.candidates.retain(|&square| !board.forbidden(square));
        let defending = !self.candidates.is_empty();
        if !defending {
            board.candidates(&mut self.candidates);
            self.candidates.retain(|&square| !board.forbidden(square));
            if self.candidates.is_empty() {
                // Every point near the stones is forbidden: any allowed point will do.
                self.candidates.extend(board.allowed_moves());
            }
        }
        let start = list.len();
        list.extend(
            self.candidates
                .iter()
                .filter(|&&square| Some(square) != skip)
                .map(|&square| (board.gain(square, me), square)),
        );
        list[start..].sort_unstable_by_key(|&(score, _)| Reverse(score));
        if !board.full_width() && !defending {
            list.truncate(beam);
        }
        defending
    }

    fn negamax(&mut self, board: &mut Board, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes % 16 == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let forced = match judge(board, depth, ply) {
            Ok(forced) => forced,
            Err(score) => return score,
        };
        let hash = board.hash();
        let mut remembered = None;
        if let Some(entry) = self.table.probe(hash) {
            remembered = entry.best();
            if entry.depth >= depth as i16 {
                let score = score_from_table(entry.score, ply);
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff {
                    return score;
                }
            }
        }
        // A forced reply costs no depth: the line is followed until the threats stop. Otherwise
        // the move the table remembers is searched before the others are even generated: it
        // often settles the node alone.
        let mut moves = self.take_ply(ply);
        let child_depth = match forced {
            Some(square) => {
                moves.push((0, square));
                depth
            }
            None => {
                moves.extend(
                    remembered
                        .filter(|&s| board.is_empty(s) && !board.forbidden(s))
                        .map(|s| (0, s)),
                );
                depth - 1
            }
        };
        let mut generated = forced.is_some();
        // Late moves of a quiet node are searched a ply or two shallower first, and again at
        // full depth only if they turn out better than the best so far.
        let mut reducible = false;
        let (mut alpha, original_alpha) = (alpha, alpha);
        let mut best = (-INFINITY, None);
        let mut i = 0;
        loop {
            if i == moves.len() {
                if generated {
                    break;
                }
                generated = true;
                let defending = self.order_moves(board, &mut moves, remembered, BEAM);
                reducible = !defending && !board.full_width() && depth >= 3;
                if i == moves.len() {
                    break;
                }
            }
            let square = moves[i].1;
            board.play(square);
            let mut score;
            if i == 0 {
                score = -self.negamax(board, child_depth, ply + 1, -beta, -alpha);
            } else {
                let reduction = match i {
                    _ if !reducible => 0,
                    0..=LATE => 0,
                    _ if i < 2 * LATE => 1,
                    _ => 2,
                };
                score = -self.negamax(board, child_depth - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 && score > alpha {
                    score = -self.negamax(board, child_depth, ply + 1, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(board, child_depth, ply + 1, -beta, -alpha);
                }
            }
            board.undo();
            if self.stopped {
                break;
            }
            if score > best.0 {
                best = (score, Some(square));
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
            i += 1;
        }
        moves.clear();
        self.plies[ply] = moves;
        if self.stopped {
            return 0;
        }
        let bound = if best.0 <= original_alpha {
            Bound::Upper
        } else if best.0 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let stored = score_to_table(best.0, ply);
        self.table.store(hash, depth as i16, stored, bound, best.1);
        best.0
    }

    /// This ply's (empty) move list, taken out so the search can recurse while using it.
    fn take_ply(&mut self, ply: usize) -> Vec<(i32, Square)> {
        while self.plies.len() <= ply {
            self.plies.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.plies[ply]);
        moves.clear();
        moves
    }

    /// The first move of a forced win for the side to move found by a threat-space search: by
    /// fours, then on large boards by fours and threes, each within its share of the time.
    fn forced_win(&mut self, board: &mut Board, budget: &Budget) -> Option<Square> {
        let nodes = self.node_limit.min(VCF_NODES);
        let deadline = budget.share_deadline(VCF_SHARE);
        let by_fours = self
            .threats
            .find(board, Attack::Fours, VCF_DEPTH, nodes, deadline);
        if by_fours.is_some() || board.full_width() {
            return by_fours;
        }
        let nodes = self.node_limit.min(VCT_NODES);
        let deadline = budget.share_deadline(VCT_SHARE);
        self.threats
            .find(board, Attack::Threes, VCT_DEPTH, nodes, deadline)
    }

    /// Iterative deepening from the root: each finished depth gives the best move so far, handed
    /// to `propose` (the answer should the hard deadline come first); the search stops at the
    /// deadline, at a proven result, or once it has seen to the end of the board (on
    /// full-width boards, an exact solution).
    fn search(&mut self, board: &mut Board, propose: &dyn Fn(Square)) -> (Square, bool) {
        // The root's moves, shuffled first so that equal moves are chosen at random (seeded).
        let mut root = self.take_ply(0);
        self.order_moves(board, &mut root, None, usize::MAX);
        root.shuffle(&mut self.rng);
        root.sort_unstable_by_key(|&(score, _)| Reverse(score));
        let mut best = root[0].1;
        propose(best);
        let most = board.empty_squares() as i32;
        let mut proven = false;
        for depth in 1..=most {
            let mut alpha = -INFINITY;
            let mut found: Option<(usize, i32)> = None;
            for (i, &(_, square)) in root.iter().enumerate() {
                board.play(square);
                let mut score = if i == 0 {
                    -self.negamax(board, depth - 1, 1, -INFINITY, -alpha)
                } else {
                    -self.negamax(board, depth - 1, 1, -alpha - 1, -alpha)
                };
                if i > 0 && score > alpha && !self.stopped {
                    score = -self.negamax(board, depth - 1, 1, -INFINITY, -alpha);
                }
                board.undo();
                if self.stopped {
                    break;
                }
                if found.map_or(true, |(_, top)| score > top) {
                    found = Some((i, score));
                    alpha = score;
                }
            }
            // A depth cut short still counts once its first move (the previous best) was
            // searched: anything that beat it did so at this depth.
            let Some((index, score)) = found else { break };
            best = root[index].1;
            propose(best);
            root[..=index].rotate_right(1);
            proven = score.abs() >= PROVEN;
            if self.stopped || proven || (board.full_width() && depth >= most) {
                break;
            }
        }
        // The root's moves stay in their final order (the best first) for `safe_choice`.
        self.plies[0] = root;
        (best, proven)
    }

    /// The alpha-beta's choice, checked against the opponent's forced wins by threats on large
    /// boards (where the search cannot see to the end) unless the search proved the result.
    fn checked_search(&mut self, board: &mut Board, budget: &Budget, game: &Mnk) -> Square {
        let propose = |square| budget.propose(game.format_move(square));
        if board.full_width() {
            return self.search(board, &propose).0;
        }
        let deadline = self.deadline;
        self.deadline = budget.share_deadline(1.0 - CHECK_SHARE);
        let (best, proven) = self.search(board, &propose);
        self.deadline = deadline;
        if proven {
            return best;
        }
        let safe = self.safe_choice(board);
        safe.inspect(|&square| propose(square));
        safe.unwrap_or(best)
    }

    /// The first of the root's moves, in the search's order (its choice first), after which
    /// the opponent has no forced win by threats (VCF, then VCT) that a small search finds,
    /// checked until the deadline. `None` when every move checked loses: the search's choice
    /// stands (the opponent may miss the win).
    fn safe_choice(&mut self, board: &mut Board) -> Option<Square> {
        let root = std::mem::take(&mut self.plies[0]);
        let nodes = self.node_limit.min(CHECK_NODES);
        let mut safe = None;
        for &(_, square) in &root {
            if Instant::now() >= self.deadline {
                break;
            }
            board.play(square);
            let lost = [(Attack::Fours, VCF_DEPTH), (Attack::Threes, VCT_DEPTH)]
                .into_iter()
                .any(|(attack, depth)| {
                    self.threats
                        .find(board, attack, depth, nodes, self.deadline)
                        .is_some()
                });
            board.undo();
            if !lost {
                safe = Some(square);
                break;
            }
        }
        self.plies[0] = root;
        safe
    }
}

/// What the threats alone tell of a node: `Err` with its score when they settle it (a win,
/// a loss, a full board, or a quiet leaf's evaluation), otherwise the square the side to
/// move is forced to take, if any.
fn judge(board: &mut Board, depth: i32, ply: usize) -> Result<Option<Square>, i32> {
    let me = board.side_to_move();
    if board.can_win(me) {
        return Err(WIN - ply as i32 - 1);
    }
    if board.empty_squares() == 0 {
        return Err(0);
    }
    let forced = match board.threats(me.opponent()) {
        Threats::Several(_) => return Err(-(WIN - ply as i32 - 2)),
        // Renju: Black cannot block on a forbidden point, so the five comes.
        Threats::One(square) if board.forbidden(square) => return Err(-(WIN - ply as i32 - 2)),
        Threats::One(square) => Some(square),
        Threats::None => None,
    };
    if forced.is_none() {
        if !board.full_width() && board.makes_double_threat() {
            return Err(WIN - ply as i32 - 3);
        }
        if depth <= 0 && (depth <= -QUIESCENCE || !board.threatens_double(me.opponent())) {
            return Err(board.evaluate());
        }
    }
    Ok(forced)
}

/// Win scores count plies from the root; the table stores them from the node, so that a
/// position reached at another ply reads back the right distance.
fn score_to_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= PROVEN => s + ply as i32,
        s if s <= -PROVEN => s - ply as i32,
        s => s,
    }
}

fn score_from_table(score: i32, ply: usize) -> i32 {
    match score {
        s if s >= PROVEN => s - ply as i32,
        s if s <= -PROVEN => s + ply as i32,
        s => s,
    }
}

impl Brain<Mnk> for StrongBrain {
    fn choose(&mut self, game: &Mnk, budget: &Budget) -> Square {
        let (mut board, rebuilt) = self.board.take(game);
        if rebuilt {
            self.table.forget();
        }
        let me = board.side_to_move();
        self.deadline = budget.deadline();
        self.node_limit = budget.node_limit();
        self.stopped = false;
        self.nodes = 0;
        let choice = match (board.threats(me), board.threats(me.opponent())) {
            (Threats::One(win) | Threats::Several(win), _) => win,
            (Threats::None, Threats::One(block) | Threats::Several(block))
                if !board.forbidden(block) =>
            {
                block
            }
            _ => match self.forced_win(&mut board, budget) {
                Some(win) => win,
                None => self.checked_search(&mut board, budget, game),
            },
        };
        self.board.put(board);
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::tests::position;
    use referee_rules::games::mnk::Gomoku;
    use referee_rules::games::{Game, GameSpec, Side};
    use std::time::Duration;

    fn think(seconds: f64) -> Budget {
        Budget::fixed(Instant::now(), Duration::from_secs_f64(seconds))
    }

    /// A search of at most 100,000 positions, whatever the clock: far more than the tests'
    /// positions need (a few thousand at most; the search stops once it has proven a result).
    fn searched() -> Budget {
        Budget::nodes(100_000)
    }

    /// Every sequence of opponent moves against the bot, as either side: it never loses.
    #[test]
    fn never_loses_tictactoe() {
        fn walk(brain: &mut StrongBrain, game: &mut Mnk, bot: Side, games: &mut u32) {
            if let Some(outcome) = game.outcome() {
                assert_ne!(outcome.winner, Some(bot.opponent()), "\n{}", game.render());
                *games += 1;
                return;
            }
            let previous = game.last_move();
            let mut replies = Vec::new();
            if game.side_to_move() == bot {
                // The search stops as soon as it has solved the position, long before its limit.
                replies.push(brain.choose(game, &searched()));
            } else {
                game.generate_moves(&mut replies);
            }
            for square in replies {
                game.play(square).unwrap();
                walk(brain, game, bot, games);
                game.undo(square, previous);
            }
        }
        for bot in Side::BOTH {
            let mut brain = StrongBrain::new(5);
            let mut start = position(GameSpec::Tictactoe, &[]);
            brain.new_game(&start, bot);
            let mut games = 0;
            walk(&mut brain, &mut start, bot, &mut games);
            assert!(games > 50, "{games} games");
        }
    }

    /// An open three on an open board: making it an open four wins (found by fours).
    #[test]
    fn finds_a_win_by_fours() {
        let gomoku = GameSpec::Gomoku(Gomoku::STANDARD);
        let game = position(gomoku, &["5 7", "0 0", "6 7", "14 14", "7 7", "0 14"]);
        let mut brain = StrongBrain::new(1);
        let choice = brain.choose(&game, &searched());
        assert!(["4 7", "8 7"].contains(&game.format_move(choice).as_str()));
    }

    /// Two twos crossing at 6 7: filling it makes two open threes at once, a win in five
    /// moves that no sequence of fours reaches; the search must see it.
    #[test]
    fn finds_a_double_three() {
        let (game, mut board) =
            gomoku_board(&["7 7", "0 0", "8 7", "14 14", "6 5", "0 14", "6 6", "14 0"]);
        // Bounded by its depth only: the deadline is a day away.
        assert_eq!(
            ThreatSearch::new().find(
                &mut board,
                Attack::Fours,
                20,
                u64::MAX,
                Instant::now() + Duration::from_secs(24 * 60 * 60)
            ),
            None
        );
        let mut brain = StrongBrain::new(1);
        let choice = brain.choose(&game, &searched());
        assert_eq!(game.format_move(choice), "6 7");
    }

    /// Past the search's depth, an open three of the side to move wins (it makes an open four)
    /// and the replies to the opponent's are still searched: two open threes are lost at depth
    /// zero, one is not.
    #[test]
    fn open_threes_are_judged_beyond_the_depth() {
        let mut brain = StrongBrain::new(1);
        brain.deadline = Instant::now() + Duration::from_secs(24 * 60 * 60);
        let mut value = |moves: &[&str]| {
            let (_, mut board) = gomoku_board(moves);
            brain.negamax(&mut board, 0, 0, -INFINITY, INFINITY)
        };
        // X's open three on the row, O's stones far away in the corners; O to move.
        let one_three = ["5 7", "0 14", "6 7", "4 14", "7 7"];
        assert!(value(&one_three).abs() < PROVEN);
        // And a second open three of X's, on a column.
        let mut two_threes = one_three.to_vec();
        two_threes.extend(["8 14", "11 3", "12 14", "11 4", "14 12", "11 5"]);
        assert!(value(&two_threes) <= -PROVEN);
        // X to move with its open three.
        let mut to_move = one_three.to_vec();
        to_move.push("14 10");
        assert_eq!(value(&to_move), WIN - 3);
    }

    /// The gomoku position after `moves`, and the search's board loaded with it.
    fn gomoku_board(moves: &[&str]) -> (Mnk, Board) {
        let game = position(GameSpec::Gomoku(Gomoku::STANDARD), moves);
        let mut board = Board::new(game.params());
        board.load(&game);
        (game, board)
    }

    /// O's two twos cross at 6 7, where a double three wins by threats; X's stones are near
    /// but block nothing.
    fn crossing_twos() -> (Mnk, Board) {
        gomoku_board(&["5 5", "7 7", "5 6", "8 7", "8 8", "6 5", "14 0", "6 6"])
    }

    /// Whether the side to move has a forced win by threats within 8 attacking moves.
    fn wins_by_threats(board: &mut Board) -> bool {
        let later = Instant::now() + Duration::from_secs(24 * 60 * 60);
        ThreatSearch::new()
            .find(board, Attack::Threes, 8, u64::MAX, later)
            .is_some()
    }

    /// A move far away leaves O a forced win; the bot's move does not.
    #[test]
    fn leaves_the_opponent_no_win_by_threats() {
        let (game, mut board) = crossing_twos();
        board.play(game.parse_move("14 14").unwrap());
        assert!(wins_by_threats(&mut board));
        board.undo();
        let choice = StrongBrain::new(1).choose(&game, &searched());
        board.play(choice);
        assert!(!wins_by_threats(&mut board), "{}", game.format_move(choice));
    }

    /// The check of the search's choice passes over a first move after which the opponent
    /// wins by threats, to the next one, which holds.
    #[test]
    fn the_check_passes_over_a_move_that_loses_by_threats() {
        let (game, mut board) = crossing_twos();
        let mut brain = StrongBrain::new(1);
        brain.deadline = Instant::now() + Duration::from_secs(24 * 60 * 60);
        let order = ["14 14", "6 7"].map(|mv| (0, game.parse_move(mv).unwrap()));
        brain.plies = vec![order.to_vec()];
        let safe = brain.safe_choice(&mut board);
        assert_eq!(safe.map(|s| game.format_move(s)), Some("6 7".to_string()));
    }

    /// Solving tic-tac-toe's first move takes a few thousand positions; a budget of 100 stops
    /// the search at the 100th, with a legal move.
    #[test]
    fn a_node_budget_stops_the_search_at_its_limit() {
        let game = position(GameSpec::Tictactoe, &[]);
        let mut brain = StrongBrain::new(3);
        let choice = brain.choose(&game, &Budget::nodes(100));
        // A call or two on the way back out count too, returning at once.
        assert!((100..105).contains(&brain.nodes), "{}", brain.nodes);
        assert!(game.check_move(choice).is_ok());
        let mut unbounded = StrongBrain::new(3);
        unbounded.choose(&game, &searched());
        assert!(unbounded.nodes > 1000, "{}", unbounded.nodes);
    }

    /// On the largest board, with a deadline too short for even one full depth, the answer is
    /// still a legal move, in time.
    #[test]
    fn answers_in_time_on_a_crowded_large_board() {
        let spec = GameSpec::from_words("mnk", &["size=20", "line=6", "exact=yes"]).unwrap();
        let mut game = Mnk::new(spec.mnk_params().unwrap());
        let mut rng = SeededRng::seed_from_u64(4);
        let mut moves = Vec::new();
        for _ in 0..150 {
            game.generate_moves(&mut moves);
            let square = *moves.choose(&mut rng).unwrap();
            game.play(square).unwrap();
        }
        assert!(game.outcome().is_none(), "a game still to play");
        let mut brain = StrongBrain::new(2);
        for think_ms in [1, 5, 20] {
            let budget = think(think_ms as f64 / 1000.0);
            let choice = brain.choose(&game, &budget);
            assert!(game.check_move(choice).is_ok());
            // Generous: the deadline plus room for a slow, shared machine.
            assert!(Instant::now() < budget.deadline() + Duration::from_millis(500));
        }
    }
}
