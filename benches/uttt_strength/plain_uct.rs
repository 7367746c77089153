//! Plain UCT for the strength benchmark, in two settings: OpenSpiel's `MCTSBot` as its MCTS
//! example runs it (exploration constant 2 for results in -1..1, that is 1 for results in
//! 0..1, ten random rollouts per leaf, a new tree every move), and the strong bot before issue
//! 19 (one rollout per leaf, the tree kept between moves). Only the benchmark uses it.
//!
//! The tree lives in a preallocated arena of small nodes (the children of a node are contiguous,
//! so a node stores only where they start and how many there are), and playouts run on the
//! rules engine's own `Copy` bitboard position without touching the heap. Playout results come
//! from the rules' own outcome, so the tie-break in force (`tiebreak=codingame`: more small
//! boards wins) counts exactly as the referee will count it. After a move, the subtree of the
//! position the opponent chose is kept for the next search.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng as SeededRng;
use referee_bots::{Brain, Budget};
use referee_rules::games::uttt::{Square, Uttt};
use referee_rules::games::{Game, Side};
use std::time::Instant;

/// Nodes in an arena (16 bytes each). When it is full the tree stops growing and the search
/// goes on with playouts from its leaves.
const ARENA_NODES: usize = 1 << 21;
/// The exploration constant of UCB1, for results in 0..=1.
const EXPLORATION: f32 = 1.0;
/// Iterations between two looks at the clock: a playout takes a few microseconds.
const CLOCK_EVERY: u32 = 16;
/// The longest path from the root: one node per mark, plus the root.
const MAX_DEPTH: usize = 82;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Index of the first child in the arena; meaningful once `children > 0`.
    first_child: u32,
    visits: u32,
    /// Sum of the results for the player who made the move leading here (win 1, draw 1/2).
    score: f32,
    /// The move leading here (unused at the root).
    square: Square,
    /// Number of children; 0 until the node is expanded.
    children: u8,
}

pub(crate) struct PlainUct {
    /// Random playouts from each new leaf, their results averaged.
    rollouts: u32,
    /// Whether the subtree of the position reached is kept for the next move.
    reuse: bool,
    rng: SeededRng,
    nodes: Vec<Node>,
    /// The other arena, that the kept subtree is copied into between moves.
    spare: Vec<Node>,
    /// The position at the root of the tree (node 0), and the move chosen there.
    root: Option<(Uttt, Square)>,
    moves: Vec<Square>,
}

impl PlainUct {
    /// OpenSpiel's `MCTSBot` with its example's settings.
    pub(crate) fn openspiel(seed: u64) -> PlainUct {
        PlainUct::new(seed, 10, false)
    }

    /// The strong bot before issue 19.
    pub(crate) fn previous_strong(seed: u64) -> PlainUct {
        PlainUct::new(seed, 1, true)
    }

    fn new(seed: u64, rollouts: u32, reuse: bool) -> PlainUct {
        PlainUct {
            rollouts,
            reuse,
            rng: SeededRng::seed_from_u64(seed),
            nodes: Vec::with_capacity(ARENA_NODES),
            spare: Vec::with_capacity(ARENA_NODES),
            root: None,
            moves: Vec::with_capacity(81),
        }
    }

    /// Makes node 0 the position `game`: the subtree grown under it during the last search if
    /// there is one (the opponent's reply to our move), else a fresh root.
    fn set_root(&mut self, game: &Uttt) {
        let reuse = self.reuse;
        let kept = self
            .root
            .take()
            .filter(|_| reuse)
            .and_then(|(position, ours)| {
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
    /// without bias. Returns false when the arena has no room for them.
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
            ..Node::default()
        }));
        true
    }

    /// The UCB1 choice among the children of `node`: an unvisited child first.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let first = parent.first_child as usize;
        let children = &self.nodes[first..first + parent.children as usize];
        let log_visits = (parent.visits.max(1) as f32).ln();
        let mut best = (f32::MIN, first);
        for (index, child) in children.iter().enumerate() {
            if child.visits == 0 {
                return first + index;
            }
            let visits = child.visits as f32;
            let value = child.score / visits + EXPLORATION * (log_visits / visits).sqrt();
            if value > best.0 {
                best = (value, first + index);
            }
        }
        best.1
    }

    /// Random moves to the end of the game; the result for the first player.
    fn playout(&mut self, mut position: Uttt) -> f32 {
        loop {
            if let Some(outcome) = position.outcome() {
                return result_for_first(outcome.winner);
            }
            let index = self.rng.gen_range(0..position.move_count());
            position.play_unchecked(position.nth_move(index));
        }
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
                break result_for_first(outcome.winner);
            }
            if self.nodes[node].children == 0 {
                let fresh = node != 0 && self.nodes[node].visits == 0;
                if fresh || !self.expand(node, &position) {
                    let total: f32 = (0..self.rollouts).map(|_| self.playout(position)).sum();
                    break total / self.rollouts as f32;
                }
            }
            node = self.select(node);
            mover = position.side_to_move();
            position.play_unchecked(self.nodes[node].square);
        };
        for &(node, mover) in &path[..depth] {
            let node = &mut self.nodes[node];
            node.visits += 1;
            node.score += match mover {
                Side::First => result,
                Side::Second => 1.0 - result,
            };
        }
    }
}

fn result_for_first(winner: Option<Side>) -> f32 {
    match winner {
        Some(Side::First) => 1.0,
        Some(Side::Second) => 0.0,
        None => 0.5,
    }
}

impl Brain<Uttt> for PlainUct {
    fn new_game(&mut self, _start: &Uttt, _side: Side) {
        self.root = None;
    }

    fn choose(&mut self, game: &Uttt, budget: &Budget) -> Square {
        let me = game.side_to_move();
        game.generate_moves(&mut self.moves);
        let winning = self.moves.iter().copied().find(|&square| {
            let mut after = *game;
            after.play_unchecked(square);
            after
                .outcome()
                .is_some_and(|outcome| outcome.winner == Some(me))
        });
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
        loop {
            if u64::from(iterations) >= most
                || (iterations % CLOCK_EVERY == 0 && Instant::now() >= deadline)
            {
                break;
            }
            self.iterate(game);
            iterations += 1;
        }
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let best = (first..first + root.children as usize)
            .max_by_key(|&child| self.nodes[child].visits)
            .expect("the game is not over, so the root has children");
        let square = self.nodes[best].square;
        self.root = Some((*game, square));
        square
    }
}
