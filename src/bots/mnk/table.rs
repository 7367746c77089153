//! The transposition table of the m,n,k search: what a search already learnt about a position
//! reached again by another move order (in m,n,k games, very many orders lead to one position).

use crate::games::mnk::Square;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// The exact value (at the stored depth).
    #[default]
    Exact,
    /// At least the stored score (the search failed high).
    Lower,
    /// At most the stored score (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    best: Square,
}

const NO_MOVE: Square = Square::MAX;

impl Entry {
    /// The best move found, if the search got as far as one.
    pub fn best(&self) -> Option<Square> {
        (self.best != NO_MOVE).then_some(self.best)
    }
}

/// A fixed-size table indexed by the low bits of the position hash; a new entry replaces the
/// old one in its slot.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// Forgets everything (a new game, or a board of another size: the hashes would collide).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let entry = self.entries[hash as usize & self.mask];
        // Key 0 marks an empty slot; the empty board hashes to 0 and is never stored.
        (entry.key == hash && hash != 0).then_some(entry)
    }

    pub fn store(&mut self, hash: u64, depth: i16, score: i32, bound: Bound, best: Option<Square>) {
        self.entries[hash as usize & self.mask] = Entry {
            key: hash,
            score,
            depth,
            bound,
            best: best.unwrap_or(NO_MOVE),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_hash_and_forgets_on_clear() {
        let mut table = Table::new(4);
        assert!(table.probe(0x1234).is_none());
        table.store(0x1234, 3, -7, Bound::Upper, Some(9));
        let entry = table.probe(0x1234).unwrap();
        assert_eq!(
            (entry.score, entry.depth, entry.bound),
            (-7, 3, Bound::Upper)
        );
        assert_eq!(entry.best(), Some(9));
        // Another position in the same slot is not mistaken for it.
        assert!(table.probe(0x1234 + 16).is_none());
        table.clear();
        assert!(table.probe(0x1234).is_none());
    }
}
