//! Zobrist hashing of positions, for the transposition tables of searches.

use super::position::Position;
use crate::games::Side;

/// A fixed pseudo-random number for each `n` (SplitMix64, a bijection, so no two are equal).
const fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys, one per square of three bitboards (Black's pieces, White's pieces, the kings),
/// grouped by bytes: `ZOBRIST[board][byte][value]` is the XOR of the keys of the squares set in
/// `value`, the board's `byte`-th group of eight squares. A hash then takes twelve lookups
/// instead of one per piece.
static ZOBRIST: [[[u64; 256]; 4]; 3] = {
    let mut table = [[[0; 256]; 4]; 3];
    let mut board = 0;
    while board < 3 {
        let mut byte = 0;
        while byte < 4 {
            let mut value = 1;
            while value < 256 {
                let square = 8 * byte + (value as u32).trailing_zeros() as usize;
                let key = splitmix((32 * board + square) as u64);
                table[board][byte][value] = table[board][byte][value & (value - 1)] ^ key;
                value += 1;
            }
            byte += 1;
        }
        board += 1;
    }
    table
};

/// Added to the hash when White is to move.
const ZOBRIST_WHITE_TO_MOVE: u64 = splitmix(96);

impl Position {
    /// A Zobrist hash of the pieces and the side to move, for transposition tables: equal
    /// positions hash alike and different ones almost never collide.
    pub fn zobrist(&self) -> u64 {
        let mut hash = match self.to_move {
            Side::First => 0,
            Side::Second => ZOBRIST_WHITE_TO_MOVE,
        };
        for (board, bits) in [self.pieces[0], self.pieces[1], self.kings]
            .into_iter()
            .enumerate()
        {
            for (byte, keys) in ZOBRIST[board].iter().enumerate() {
                hash ^= keys[(bits >> (8 * byte)) as usize & 0xFF];
            }
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::test_games::*;
    use crate::games::Game;
    use crate::seeded::SeededRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn zobrist_hashes_tell_positions_apart() {
        let mut rng = SeededRng::seed_from_u64(5);
        let mut seen: std::collections::HashMap<u64, Position> = Default::default();
        let mut moves = Vec::new();
        for start in [STANDARD_FEN, DIAMOND, TOURS, "W:WK1,K3,20,21:BK30,K32,9,12"] {
            for _ in 0..20 {
                let mut g = game(start);
                while Game::outcome(&g).is_none() {
                    let p = g.position();
                    assert_eq!(*seen.entry(p.zobrist()).or_insert(p), p);
                    g.generate_moves(&mut moves);
                    g.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(seen.len() > 3000, "{} positions", seen.len());
        let black: Position = "B:W18:B14".parse().unwrap();
        let white: Position = "W:W18:B14".parse().unwrap();
        let king: Position = "B:WK18:B14".parse().unwrap();
        assert_ne!(black.zobrist(), white.zobrist());
        assert_ne!(black.zobrist(), king.zobrist());
    }
}
