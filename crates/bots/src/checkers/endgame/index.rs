//! Where each position of the endgame database is stored: one slot per placement of the pieces
//! of each material (men and kings of each side), Black to move.
//!
//! A position with White to move is stored as its [`Position::rotated`] twin, Black to move,
//! which halves the database. Within a material, each group of pieces (Black's men, Black's
//! kings, White's men, White's kings) is a set of squares, ranked in the combinatorial number
//! system; the ranks combine in mixed radix. Groups may overlap in a slot's placement: such
//! slots are not positions and are never read. Black's men cannot stand on 29-32 and White's on
//! 1-4 (they would be kings), so men rank among 28 squares.

use referee_rules::games::checkers::Position;
use referee_rules::games::Side;

/// The most pieces, both sides together, that an index covers.
pub(crate) const MAX_PIECES: usize = 4;

/// The squares a man may stand on, the squares a king may.
const MAN_SQUARES: usize = 28;
const KING_SQUARES: usize = 32;
/// White's men stand on 5-32, bit indices 4..32: shifted down to rank among 28.
const WHITE_MAN_SHIFT: u32 = 4;

/// `BINOMIAL[n][k]` = n choose k, for n up to 32 and k up to [`MAX_PIECES`].
const BINOMIAL: [[u64; MAX_PIECES + 1]; KING_SQUARES + 1] = {
    let mut table = [[0; MAX_PIECES + 1]; KING_SQUARES + 1];
    let mut n = 0;
    while n <= KING_SQUARES {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES && k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// How many men and kings each side has: Black's men, Black's kings, White's men, White's kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Material(pub [u8; 4]);

impl Material {
    pub(super) fn pieces(self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    pub(super) fn men(self) -> usize {
        usize::from(self.0[0] + self.0[2])
    }

    /// How many slots a material takes: the placements of each group, multiplied.
    fn slots(self) -> u64 {
        let [bm, bk, wm, wk] = self.0.map(usize::from);
        BINOMIAL[MAN_SQUARES][bm]
            * BINOMIAL[KING_SQUARES][bk]
            * BINOMIAL[MAN_SQUARES][wm]
            * BINOMIAL[KING_SQUARES][wk]
    }
}

/// One material's slots.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub material: Material,
    /// Its first slot in the database.
    pub start: usize,
    pub len: usize,
}

/// The slots of every material with both sides on the board and at most `pieces` pieces in
/// all, in the order the build values them: fewer pieces first (a capture leads to fewer),
/// then fewer men (a crowning leads to one man fewer, the same number of pieces).
pub(super) struct Index {
    pub pieces: usize,
    pub blocks: Vec<Block>,
    /// The block of each material, by `[bm][bk][wm][wk]`.
    block_of: [[[[Option<u16>; MAX_PIECES + 1]; MAX_PIECES + 1]; MAX_PIECES + 1]; MAX_PIECES + 1],
    pub len: usize,
}

impl Index {
    /// The index of every position of at most `pieces` pieces (at most [`MAX_PIECES`]).
    pub(super) fn new(pieces: usize) -> Index {
        assert!(pieces <= MAX_PIECES, "at most {MAX_PIECES} pieces");
        let mut materials = Vec::new();
        for total in 2..=pieces as u8 {
            for men in 0..=total {
                for bm in 0..=men {
                    let wm = men - bm;
                    for bk in 0..=total - men {
                        let wk = total - men - bk;
                        if bm + bk > 0 && wm + wk > 0 {
                            materials.push(Material([bm, bk, wm, wk]));
                        }
                    }
                }
            }
        }
        let mut index = Index {
            pieces,
            blocks: Vec::with_capacity(materials.len()),
            block_of: [[[[None; MAX_PIECES + 1]; MAX_PIECES + 1]; MAX_PIECES + 1]; MAX_PIECES + 1],
            len: 0,
        };
        for material in materials {
            let [bm, bk, wm, wk] = material.0.map(usize::from);
            index.block_of[bm][bk][wm][wk] = Some(index.blocks.len() as u16);
            let len = material.slots() as usize;
            index.blocks.push(Block {
                material,
                start: index.len,
                len,
            });
            index.len += len;
        }
        index
    }

    /// The slot of a position with Black to move, both sides on the board and at most
    /// `self.pieces` pieces; `None` for any other.
    pub(super) fn slot(&self, position: &Position) -> Option<usize> {
        if position.side_to_move() != Side::First {
            return None;
        }
        let kings = position.kings();
        let [black, white] = [Side::First, Side::Second].map(|side| position.pieces(side));
        let groups = [
            black & !kings,
            black & kings,
            (white & !kings) >> WHITE_MAN_SHIFT,
            white & kings,
        ];
        let counts = groups.map(|bits| bits.count_ones() as usize);
        if counts.iter().sum::<usize>() > self.pieces {
            return None;
        }
        let [bm, bk, wm, wk] = counts;
        let block = self.blocks[usize::from(self.block_of[bm][bk][wm][wk]?)];
        let radices = [MAN_SQUARES, KING_SQUARES, MAN_SQUARES, KING_SQUARES];
        let mut offset = 0;
        for ((bits, count), squares) in groups.into_iter().zip(counts).zip(radices) {
            offset = offset * BINOMIAL[squares][count] + rank(bits);
        }
        Some(block.start + offset as usize)
    }

    /// The position in slot `offset` of `block` (Black to move); `None` where its groups
    /// overlap.
    pub(super) fn position(&self, block: &Block, mut offset: u64) -> Option<Position> {
        let [bm, bk, wm, wk] = block.material.0.map(usize::from);
        let mut groups = [0u32; 4];
        for (group, (count, squares)) in [
            (wk, KING_SQUARES),
            (wm, MAN_SQUARES),
            (bk, KING_SQUARES),
            (bm, MAN_SQUARES),
        ]
        .into_iter()
        .enumerate()
        {
            let radix = BINOMIAL[squares][count];
            groups[3 - group] = unrank(offset % radix, count);
            offset /= radix;
        }
        let [black_men, black_kings, white_men, white_kings] = groups;
        let white_men = white_men << WHITE_MAN_SHIFT;
        let all = [black_men, black_kings, white_men, white_kings];
        if all.iter().map(|bits| bits.count_ones()).sum::<u32>()
            != (black_men | black_kings | white_men | white_kings).count_ones()
        {
            return None;
        }
        Position::from_bitboards(
            [black_men | black_kings, white_men | white_kings],
            black_kings | white_kings,
            Side::First,
        )
    }
}

/// The rank of a set of squares among the sets of its size (colexicographic order).
fn rank(mut bits: u32) -> u64 {
    let mut rank = 0;
    let mut k = 1;
    while bits != 0 {
        let square = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        rank += BINOMIAL[square][k];
        k += 1;
    }
    rank
}

/// The set of `count` squares of rank `rank`.
fn unrank(mut rank: u64, count: usize) -> u32 {
    let mut bits = 0;
    let mut square = KING_SQUARES;
    for k in (1..=count).rev() {
        square -= 1;
        while BINOMIAL[square][k] > rank {
            square -= 1;
        }
        rank -= BINOMIAL[square][k];
        bits |= 1 << square;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_of_a_position_gives_it_back() {
        let index = Index::new(3);
        let mut positions = 0;
        for block in &index.blocks {
            for offset in 0..block.len as u64 {
                if let Some(position) = index.position(block, offset) {
                    assert_eq!(index.slot(&position), Some(block.start + offset as usize));
                    positions += 1;
                }
            }
        }
        // Two kings against one alone: 32 * 31 * 30 / 2 placements.
        assert!(positions > 14_880, "{positions}");
        assert_eq!(index.len, 216_000);
    }

    #[test]
    fn ranks_count_the_sets_in_order() {
        for (count, &sets) in BINOMIAL[KING_SQUARES].iter().enumerate() {
            let mut previous = None;
            for r in 0..sets.min(5000) {
                let bits = unrank(r, count);
                assert_eq!(bits.count_ones() as usize, count);
                assert_eq!(rank(bits), r);
                assert_ne!(Some(bits), previous);
                previous = Some(bits);
            }
        }
    }
}
