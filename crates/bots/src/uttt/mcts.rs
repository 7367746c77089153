//! Level 3 for ultimate tic-tac-toe: Monte Carlo tree search with UCT.
//!
//! - Playouts take a small board whenever the side to move can when it is sent to one (see
//!   [`super::playout`]).
//! - A leaf's result mixes its playout's with a static evaluation ([`super::evaluation`]),
//!   which lowers the noise of one playout. Against OpenSpiel's own MCTS at 1000 ms a move,
//!   both colours, 93.5% over 200 games (as the second player 85.5%) where playouts alone
//!   scored 86.7% over 300 (as the second player 77.7%); at 100 ms 96.4% over 400 games, where
//!   they scored 93.9% (docs/builtin-bots.md).
//! - Solved positions: a node whose game is over, or that has a winning child, or whose
//!   children all lose, is proven; the search never explores a proven loss again when there is
//!   another move, always takes a proven win, and the root chooses by proofs first.
//! - A move that wins the game at once is proven when its parent is expanded, not when it is
//!   first visited: the parent is then proven lost for whoever moved into it at once, and the
//!   search turns away from it without trying each of its other moves first (88.5% against
//!   OpenSpiel's MCTS at 100 ms over 1,000 games, 87.4% without: docs/builtin-bots.md).
//! - The best move so far is proposed to the budget as it changes, for an answer in time.
//!
//! The tree lives in a preallocated arena of small nodes (the children of a node are contiguous,
//! so a node stores only where they start and how many there are), and playouts run on the
//! rules engine's own `Copy` bitboard position without touching the heap. Playout results come
//! from the rules' own outcome, so the tie-break in force (`tiebreak=codingame`: more small
//! boards wins) counts exactly as the referee will count it. After a move, the subtree of the
//! position the opponent chose is kept for the next search.

use super::playout::{PlayoutRng, Rollout};
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::uttt::{Square, Uttt};
use referee_rules::games::{Game, Side};
use std::time::Instant;

/// Nodes in an arena (20 bytes each). When it is full the tree stops growing and the search
/// goes on with playouts from its leaves.
const ARENA_NODES: usize = 1 << 21;
/// The exploration constant of UCB1, for results in 0..=1: lower than the textbook 1.0 (sqrt
/// 2 for -1..1), which the solved positions and the better playouts make affordable. 0.4
/// scored as well at 100 ms per move but clearly worse at 1000 ms (docs/builtin-bots.md).
const EXPLORATION: f32 = 0.55;
/// The share of the static evaluation ([`super::evaluation`]) in a leaf's result, the rest
/// the playout's. Measured at 100 ms a move as the second player against the rebuilt
/// OpenSpiel MCTS, 200 games each (docs/builtin-bots.md): 0.3 scored 86.8%, 0.4 91.2%, 0.5
/// 89.0%, 0.7 89.0%; the middle of that plateau.
const EVALUATION_SHARE: f32 = 0.5;
/// Iterations between two looks at the clock: a playout takes a few microseconds.
const CLOCK_EVERY: u32 = 16;
/// The longest path from the root: one node per mark, plus the root.
const MAX_DEPTH: usize = 82;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Index of the first child in the arena; meaningful once `children > 0`.
    first_child: u32,
    visits: u32,
    /// The mean result for the player who made the move leading here (win 1, draw 1/2).
    mean: f32,
    /// `1 / sqrt(visits)`, kept up to date with `visits`: the selection weighs every child of a
    /// node on each descent, and working it out there cost a square root and a division per
    /// child (updating it costs one of each per node on the path).
    inverse_root: f32,
    /// The move leading here (unused at the root).
    square: Square,
    /// Number of children; 0 until the node is expanded.
    children: u8,
    /// What is proven for the player who made the move leading here: 1 a win, -1 a loss, 0
    /// nothing.
    proven: i8,
}

/// The strong ultimate tic-tac-toe bot (level 3): a tree search that keeps the subtree of the
/// position reached from one move to the next.
pub struct UtttMcts {
    rng: PlayoutRng,
    nodes: Vec<Node>,
    /// The other arena, that the kept subtree is copied into between moves.
    spare: Vec<Node>,
    /// The position at the root of the tree (node 0), and the move chosen there.
    root: Option<(Uttt, Square)>,
    moves: Vec<Square>,
    /// Whether both arenas have been written through (see [`Brain::new_game`]).
    written: bool,
}

impl UtttMcts {
    /// A search whose random choices (playouts, move order) follow `seed`, its two arenas
    /// reserved at full size (some 40 MiB each).
    pub fn new(seed: u64) -> UtttMcts {
        UtttMcts {
            rng: PlayoutRng::seed_from_u64(seed),
            nodes: Vec::with_capacity(ARENA_NODES),
            spare: Vec::with_capacity(ARENA_NODES),
            root: None,
            moves: Vec::with_capacity(81),
            written: false,
        }
    }

    /// Makes node 0 the position `game`: the subtree grown under it during the last search if
    /// there is one (the opponent's reply to our move), else a fresh root.
    fn set_root(&mut self, game: &Uttt) {
        let kept = self.root.take().and_then(|(position, ours)| {
            let opponents = game.last_move()?;
            let mine = self.child(0, ours)?;
            let theirs = self.child(mine, opponents)?;
            let mut expected = position;
            expected.play_unchecked(ours);
            expected.play_unchecked(opponents);
            (expected == *game).then_some(theirs)
        });
        match kept {
            Some(node) => self.keep_subtree(node),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::default());
            }
        }
    }

    /// The child of `node` reached by `square`, if the node is expanded.
    fn child(&self, node: u32, square: Square) -> Option<u32> {
        let Node {
            first_child,
            children,
            ..
        } = self.nodes[node as usize];
        (first_child..first_child + children as u32)
            .find(|&child| self.nodes[child as usize].square == square)
    }

    /// Copies the subtree under `node` to the front of the spare arena, breadth first (which
    /// keeps every node's children contiguous), and swaps the arenas.
    fn keep_subtree(&mut self, node: u32) {
        self.spare.clear();
        self.spare.push(self.nodes[node as usize]);
        let mut next = 0;
        while next < self.spare.len() {
            let copied = self.spare[next];
            if copied.children > 0 {
                let old = copied.first_child as usize;
                self.spare[next].first_child = self.spare.len() as u32;
                self.spare
                    .extend_from_slice(&self.nodes[old..old + copied.children as usize]);
            }
            next += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
    }

    /// Adds the children of `node`, in random order so that the unvisited ones are tried
    /// without bias, a move that wins at once proven (and so `node` too). Returns false when
    /// the arena has no room for them.
    fn expand(&mut self, node: usize, position: &Uttt) -> bool {
        position.generate_moves(&mut self.moves);
        if self.nodes.len() + self.moves.len() > ARENA_NODES {
            return false;
        }
        self.moves.shuffle(&mut self.rng);
        self.nodes[node].first_child = self.nodes.len() as u32;
        self.nodes[node].children = self.moves.len() as u8;
        self.nodes.extend(self.moves.iter().map(|&square| Node {
            square,
            proven: i8::from(wins_at_once(position, square)),
            ..Node::default()
        }));
        self.prove(node);
        true
    }

    /// The UCB1 choice among the children of `node`: a proven win, else an unvisited child,
    /// never a proven loss while there is another move.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let first = parent.first_child as usize;
        let children = &self.nodes[first..first + parent.children as usize];
        let weight = EXPLORATION * (parent.visits.max(1) as f32).ln().sqrt();
        let mut best = (f32::MIN, first);
        for (index, child) in children.iter().enumerate() {
            if child.proven == 1 {
                return first + index;
            }
            if child.proven == -1 {
                continue;
            }
            if child.visits == 0 {
                return first + index;
            }
            let value = child.mean + weight * child.inverse_root;
            if value > best.0 {
                best = (value, first + index);
            }
        }
        best.1
    }

    /// Proves `node` from its children if they prove it: a winning child makes it a loss for
    /// the player who moved into it, children that all lose make it a win. Returns whether it
    /// is proven.
    fn prove(&mut self, node: usize) -> bool {
        let Node {
            first_child,
            children,
            proven,
            ..
        } = self.nodes[node];
        if proven != 0 {
            return true;
        }
        if children == 0 {
            return false;
        }
        let first = first_child as usize;
        let children = &self.nodes[first..first + children as usize];
        let proven = if children.iter().any(|child| child.proven == 1) {
            -1
        } else if children.iter().all(|child| child.proven == -1) {
            1
        } else {
            0
        };
        self.nodes[node].proven = proven;
        proven != 0
    }

    /// The child of the root to play: a proven win, else the most visited of those not proven
    /// to lose (of all of them if every one loses).
    fn best_child(&self) -> usize {
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let children = first..first + root.children as usize;
        let key = |&child: &usize| {
            let node = &self.nodes[child];
            (node.proven, node.visits)
        };
        children
            .clone()
            .find(|&child| self.nodes[child].proven == 1)
            .or_else(|| {
                children
                    .clone()
                    .filter(|&child| self.nodes[child].proven != -1)
                    .max_by_key(key)
            })
            .or_else(|| children.max_by_key(key))
            .expect("the game is not over, so the root has children")
    }

    /// The result for the first player of a leaf whose game is not over: its playout's, with
    /// [`EVALUATION_SHARE`] of the static evaluation mixed in.
    fn leaf_result(&mut self, position: &Uttt) -> f32 {
        let rollout = Rollout::new(position);
        let evaluation = match position.side_to_move() {
            Side::First => rollout.evaluation(),
            Side::Second => 1.0 - rollout.evaluation(),
        };
        let played = result_for_first(rollout.play_out(&mut self.rng));
        (1.0 - EVALUATION_SHARE) * played + EVALUATION_SHARE * evaluation
    }

    /// One descent from the root: select, expand, play out, and back the result up.
    fn iterate(&mut self, root: &Uttt) {
        // The nodes on the way down, each with the side that moved into it.
        let mut path = [(0usize, Side::First); MAX_DEPTH];
        let mut depth = 0;
        let mut node = 0;
        let mut position = *root;
        let mut mover = root.side_to_move().opponent();
        let result = loop {
            path[depth] = (node, mover);
            depth += 1;
            if let Some(outcome) = position.outcome() {
                self.nodes[node].proven = match outcome.winner {
                    Some(winner) if winner == mover => 1,
                    Some(_) => -1,
                    None => 0,
                };
                break result_for_first(outcome.winner);
            }
            if self.nodes[node].children == 0 {
                let fresh = node != 0 && self.nodes[node].visits == 0;
                if fresh || !self.expand(node, &position) {
                    break self.leaf_result(&position);
                }
                if self.nodes[node].proven == -1 {
                    // The side to move wins at once: that is the result, without a playout.
                    break result_for_first(Some(position.side_to_move()));
                }
            }
            node = self.select(node);
            mover = position.side_to_move();
            position.play_unchecked(self.nodes[node].square);
        };
        for &(node, mover) in &path[..depth] {
            let node = &mut self.nodes[node];
            node.visits += 1;
            let visits = node.visits as f32;
            let result = match mover {
                Side::First => result,
                Side::Second => 1.0 - result,
            };
            node.mean += (result - node.mean) / visits;
            node.inverse_root = visits.sqrt().recip();
        }
        // A proof found at the leaf climbs as far as it proves the nodes above.
        for &(node, _) in path[..depth].iter().rev().skip(1) {
            if !self.prove(node) {
                break;
            }
        }
    }
}

/// Whether `square` wins the game for the side to move in `position` at once. Only a move that
/// takes a small board or fills the last open cell (then the only legal move) can end the game,
/// so the others are not played.
fn wins_at_once(position: &Uttt, square: Square) -> bool {
    let me = position.side_to_move();
    (position.completes_board(me, square) || position.move_count() == 1) && {
        let mut after = *position;
        after.play_unchecked(square);
        after
            .outcome()
            .is_some_and(|outcome| outcome.winner == Some(me))
    }
}

fn result_for_first(winner: Option<Side>) -> f32 {
    match winner {
        Some(Side::First) => 1.0,
        Some(Side::Second) => 0.0,
        None => 0.5,
    }
}

impl Brain<Uttt> for UtttMcts {
    /// Also writes both arenas through once, in the first game's start-up allowance: memory
    /// reserved but never written costs a page fault per 4 KiB the first time the search grows
    /// into it, some 20,000 of them over the first moves and on their clocks, where losses on
    /// time clustered (timing_fairness `builtin --game uttt`). Written once, the pages stay.
    fn new_game(&mut self, _start: &Uttt, _side: Side) {
        self.root = None;
        if !self.written {
            for arena in [&mut self.nodes, &mut self.spare] {
                arena.resize(ARENA_NODES, Node::default());
                arena.clear();
            }
            self.written = true;
        }
    }

    fn choose(&mut self, game: &Uttt, budget: &Budget) -> Square {
        game.generate_moves(&mut self.moves);
        let winning = self
            .moves
            .iter()
            .copied()
            .find(|&square| wins_at_once(game, square));
        if let Some(square) = winning {
            self.root = None;
            return square;
        }
        self.set_root(game);
        let deadline = budget.deadline();
        let most = budget.node_limit();
        // At least the root's expansion, so that there is a child to choose.
        self.iterate(game);
        let mut iterations = 1u32;
        let mut proposed = None;
        loop {
            if iterations % CLOCK_EVERY == 0 {
                let best = self.nodes[self.best_child()].square;
                if proposed != Some(best) {
                    proposed = Some(best);
                    budget.propose(game.format_move(best));
                }
                if Instant::now() >= deadline {
                    break;
                }
            }
            if u64::from(iterations) >= most || self.nodes[0].proven != 0 {
                break;
            }
            self.iterate(game);
            iterations += 1;
        }
        let square = self.nodes[self.best_child()].square;
        self.root = Some((*game, square));
        square
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use referee_rules::games::uttt::{UtttParams, UtttTiebreak};
    use referee_rules::seeded::SeededRng;
    use std::time::Duration;

    /// The result of `game` for the side to move (1 win, 0 draw, -1 loss) within `depth` more
    /// moves, searching at most `nodes` nodes; `None` when that is not enough to know.
    fn solve(game: &Uttt, depth: u32, nodes: &mut u32) -> Option<i32> {
        if let Some(outcome) = game.outcome() {
            // With the CodinGame tie-break the side to move can win a game it did not end.
            return Some(match outcome.winner {
                Some(winner) if winner == game.side_to_move() => 1,
                Some(_) => -1,
                None => 0,
            });
        }
        if depth == 0 {
            return None;
        }
        *nodes = nodes.checked_sub(1)?;
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        let mut best = Some(-1);
        for square in moves {
            let mut after = *game;
            after.play_unchecked(square);
            let value = solve(&after, depth - 1, nodes).map(|value| -value);
            best = match (best, value) {
                (_, Some(1)) => return Some(1),
                (Some(best), Some(value)) => Some(best.max(value)),
                _ => None,
            };
        }
        best
    }

    /// Whether the side to move in `game` wins in at most `moves` of its own moves.
    fn wins_within(game: &Uttt, moves: u32) -> bool {
        solve(game, 2 * moves - 1, &mut 1_000_000) == Some(1)
    }

    /// Positions of seeded random games under `params` where the side to move wins with its
    /// second move whatever the opponent does, but not with its first, and that `also` accepts
    /// (given the same moves under the other tie-break).
    fn forced_wins(params: UtttParams, wanted: usize, also: impl Fn(&Uttt) -> bool) -> Vec<Uttt> {
        let other = UtttParams {
            tiebreak: match params.tiebreak {
                UtttTiebreak::None => UtttTiebreak::Codingame,
                UtttTiebreak::Codingame => UtttTiebreak::None,
            },
        };
        let mut rng = SeededRng::seed_from_u64(5);
        let mut found = Vec::new();
        let mut moves = Vec::new();
        while found.len() < wanted {
            let mut game = Uttt::new(params);
            let mut twin = Uttt::new(other);
            while game.outcome().is_none() {
                game.generate_moves(&mut moves);
                if !wins_within(&game, 1) && wins_within(&game, 2) && also(&twin) {
                    found.push(game);
                    break;
                }
                let square = moves[rng.gen_range(0..moves.len())];
                game.play_unchecked(square);
                twin.play_unchecked(square);
            }
        }
        found
    }

    /// Whether `square` keeps a forced win for the side to move in `game` (the quickest one, or
    /// one a bounded search can prove).
    fn keeps_the_win(game: &Uttt, square: Square) -> bool {
        let mut after = *game;
        after.play_unchecked(square);
        [3, 81]
            .into_iter()
            .any(|depth| solve(&after, depth, &mut 1_000_000) == Some(-1))
    }

    fn plays_the_forced_wins(positions: Vec<Uttt>) {
        for game in positions {
            let mut brain = UtttMcts::new(9);
            // 20,000 playouts: ten times what these positions need (fewer than 2,000 lose some).
            let square = brain.choose(&game, &Budget::nodes(20_000));
            assert!(
                keeps_the_win(&game, square),
                "{} loses the win:\n{}",
                game.format_move(square),
                game.render()
            );
        }
    }

    #[test]
    fn finds_forced_wins_in_small_endgames() {
        plays_the_forced_wins(forced_wins(UtttParams::default(), 10, |_| true));
    }

    #[test]
    fn plays_for_the_codingame_tiebreak_when_it_is_in_force() {
        // Wins that exist only because more small boards win the game.
        let codingame = UtttParams {
            tiebreak: UtttTiebreak::Codingame,
        };
        let no_win_without_the_tiebreak = |twin: &Uttt| !wins_within(twin, 2);
        plays_the_forced_wins(forced_wins(codingame, 4, no_win_without_the_tiebreak));
    }

    #[test]
    fn a_move_that_wins_at_once_proves_its_parent_when_expanded() {
        let mut rng = SeededRng::seed_from_u64(11);
        let (mut winning, mut others) = (0, 0);
        let mut moves = Vec::new();
        let mut brain = UtttMcts::new(1);
        while winning < 20 || others < 20 {
            let mut game = Uttt::new(UtttParams::default());
            while game.outcome().is_none() {
                game.generate_moves(&mut moves);
                let me = game.side_to_move();
                let wins: Vec<Square> = moves
                    .iter()
                    .copied()
                    .filter(|&square| {
                        let mut after = game;
                        after.play_unchecked(square);
                        after
                            .outcome()
                            .is_some_and(|outcome| outcome.winner == Some(me))
                    })
                    .collect();
                brain.nodes.clear();
                brain.nodes.push(Node::default());
                assert!(brain.expand(0, &game));
                let proven: Vec<Square> = brain.nodes[1..]
                    .iter()
                    .filter(|child| child.proven == 1)
                    .map(|child| child.square)
                    .collect();
                assert_eq!(proven.len(), wins.len(), "{}", game.render());
                assert!(proven.iter().all(|square| wins.contains(square)));
                let expected = if wins.is_empty() { 0 } else { -1 };
                assert_eq!(brain.nodes[0].proven, expected, "{}", game.render());
                if wins.is_empty() {
                    others += 1;
                } else {
                    winning += 1;
                }
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn keeps_the_subtree_of_the_opponents_reply() {
        let mut brain = UtttMcts::new(3);
        let mut game = Uttt::new(UtttParams::default());
        let mine = brain.choose(&game, &Budget::nodes(5_000));
        assert_eq!(
            brain.nodes[0].visits, 5_000,
            "one visit of the root a playout"
        );
        game.play_unchecked(mine);
        // The reply the search looked at most.
        let node = brain.child(0, mine).unwrap();
        let Node {
            first_child,
            children,
            ..
        } = brain.nodes[node as usize];
        let reply = (first_child..first_child + children as u32)
            .max_by_key(|&child| brain.nodes[child as usize].visits)
            .unwrap();
        let Node { square, visits, .. } = brain.nodes[reply as usize];
        assert!(visits > 1, "{visits}");
        game.play_unchecked(square);
        brain.set_root(&game);
        assert_eq!(brain.nodes[0].visits, visits);
        // Another reply than the one expected starts afresh.
        let mut elsewhere = Uttt::new(UtttParams::default());
        elsewhere.play_unchecked(mine);
        elsewhere.play_unchecked(if square == 0 { 1 } else { 0 });
        brain.root = Some((Uttt::new(UtttParams::default()), mine));
        brain.set_root(&elsewhere);
        assert_eq!(brain.nodes[0].visits, 0);
    }

    #[test]
    fn answers_in_time_even_with_almost_no_time() {
        let mut brain = UtttMcts::new(4);
        let mut game = Uttt::new(UtttParams::default());
        while game.outcome().is_none() {
            let budget = Budget::fixed(Instant::now(), Duration::from_millis(1));
            let square = brain.choose(&game, &budget);
            assert!(game.check_move(square).is_ok());
            game.play_unchecked(square);
        }
    }
}
