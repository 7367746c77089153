//! Perft: counting the positions reachable in exactly `depth` moves, the standard check that a
//! move generator agrees with published tables (see `shared/reference/rules-tables.md`).

use super::Game;

/// Counts the move sequences of length `depth` from `game` (a finished game has no moves, so
/// lines that end early are not counted). The last ply is counted in bulk.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    count(game, depth, &mut buffers)
}

fn count<G: Game>(game: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = game.clone();
        child.play_unchecked(mv);
        total += count(&child, depth - 1, rest);
    }
    total
}
