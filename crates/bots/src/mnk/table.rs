//! The transposition table of the m,n,k search: what a search already learnt about a position
//! reached again by another move order (in m,n,k games, very many orders lead to one position).
//! What it holds is true of the position whatever game it came from, so it is kept from one
//! game to the next, and only forgotten when the board changes.

use referee_rules::games::mnk::Square;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum Bound {
    /// The exact value (at the stored depth).
    #[default]
    Exact,
    /// At least the stored score (the search failed high).
    Lower,
    /// At most the stored score (the search failed low).
    Upper,
}

/// 16 bytes: the low bits of the hash pick the slot, the high 32 bits check it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    key: u32,
    pub score: i32,
    pub depth: i16,
    best: Square,
    pub bound: Bound,
    /// Which board the entry belongs to (see [`TranspositionTable::forget`]); 0 marks an empty slot.
    generation: u8,
}

const NO_MOVE: Square = Square::MAX;

impl Entry {
    /// The best move found, if the search got as far as one.
    pub(super) fn best(&self) -> Option<Square> {
        (self.best != NO_MOVE).then_some(self.best)
    }
}

/// A fixed-size table indexed by the low bits of the position hash; a new entry replaces the
/// old one in its slot.
pub(super) struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `2^bits` entries (16 bytes each).
    pub(super) fn new(bits: u32) -> TranspositionTable {
        TranspositionTable {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
            generation: 1,
        }
    }

    /// Forgets everything, for a board with other parameters (whose positions would hash
    /// alike): at once, by moving to a new generation; the memory is wiped only when the
    /// generations wrap around.
    pub(super) fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    pub(super) fn probe(&self, hash: u64) -> Option<Entry> {
        let entry = self.entries[hash as usize & self.mask];
        (entry.generation == self.generation && entry.key == (hash >> 32) as u32).then_some(entry)
    }

    pub(super) fn store(
        &mut self,
        hash: u64,
        depth: i16,
        score: i32,
        bound: Bound,
        best: Option<Square>,
    ) {
        self.entries[hash as usize & self.mask] = Entry {
            key: (hash >> 32) as u32,
            score,
            depth,
            best: best.unwrap_or(NO_MOVE),
            bound,
            generation: self.generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_hash_and_forgets_for_good() {
        let mut table = TranspositionTable::new(4);
        let hash = 0x1234_5678_0000_0003;
        assert!(table.probe(hash).is_none());
        table.store(hash, 3, -7, Bound::Upper, Some(9));
        let entry = table.probe(hash).unwrap();
        assert_eq!(
            (entry.score, entry.depth, entry.bound),
            (-7, 3, Bound::Upper)
        );
        assert_eq!(entry.best(), Some(9));
        // Another position in the same slot is not mistaken for it.
        assert!(table.probe(hash + (1 << 32)).is_none());
        table.store(0, 1, 0, Bound::Exact, None);
        assert_eq!(table.probe(0).unwrap().best(), None);
        // Forgotten, also when the generations wrap around to the one it was stored in.
        for _ in 0..256 {
            table.forget();
            assert!(table.probe(hash).is_none());
        }
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }
}
