//! A transposition table for dots-and-boxes searches: bounds of a position's value, keyed by a
//! 64-bit key of its drawn lines (the set itself when it fits in 64 bits, a hash of it
//! otherwise), in a fixed number of slots allocated once, so that searching never allocates.

use super::coins::WideBits;

/// What is known of a position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    /// Bounds of the value: equal when it is exact.
    pub lower: i8,
    pub upper: i8,
    /// The line that was best or caused a cut-off, to try first next time (a hint only).
    pub best: u8,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// The table's generation when written; 0 for a slot never written.
    generation: u32,
    lower: i8,
    upper: i8,
    best: u8,
}

/// One entry per slot, the newest result replacing the old. Entries of an earlier generation
/// are ignored rather than cleared, so forgetting everything costs nothing.
pub(super) struct TranspositionTable {
    entries: Vec<Entry>,
    shift: u32,
    generation: u32,
}

impl TranspositionTable {
    /// A table of 2^`bits` slots of 16 bytes.
    pub(super) fn new(bits: u32) -> TranspositionTable {
        TranspositionTable {
            entries: vec![Entry::default(); 1 << bits],
            shift: 64 - bits,
            generation: 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    pub(super) fn get(&self, key: u64) -> Option<Bounds> {
        let entry = self.entries[self.slot(key)];
        (entry.key == key && entry.generation == self.generation).then_some(Bounds {
            lower: entry.lower,
            upper: entry.upper,
            best: entry.best,
        })
    }

    pub(super) fn put(&mut self, key: u64, bounds: Bounds) {
        let slot = self.slot(key);
        self.entries[slot] = Entry {
            key,
            generation: self.generation,
            lower: bounds.lower,
            upper: bounds.upper,
            best: bounds.best,
        };
    }

    /// Forgets every entry.
    pub(super) fn invalidate(&mut self) {
        self.generation += 1;
    }
}

/// A 64-bit key for a set of up to 256 lines: a hash, so two sets may share a key, with odds
/// of the order of (entries / 2^64) per look-up.
pub(super) fn wide_key(bits: &WideBits) -> u64 {
    bits.iter()
        .fold(0, |hash, &word| mix(hash ^ mix(word)).rotate_left(1))
}

/// The finaliser of SplitMix64: every bit of the input affects every bit of the output.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ x >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ x >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ x >> 31
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bounds_until_invalidated_or_replaced() {
        let mut table = TranspositionTable::new(4);
        let bounds = Bounds {
            lower: -2,
            upper: 3,
            best: 7,
        };
        assert_eq!(table.get(0), None, "an empty slot is no entry for key 0");
        table.put(42, bounds);
        assert_eq!(table.get(42), Some(bounds));
        assert_eq!(table.get(43), None);
        table.invalidate();
        assert_eq!(table.get(42), None);
        table.put(42, bounds);
        // Enough other keys to land in the same slot replace it.
        for key in 0..1000 {
            table.put(key + 100, Bounds { best: 0, ..bounds });
        }
        assert_ne!(table.get(42), Some(bounds));
    }

    #[test]
    fn wide_keys_tell_sets_apart() {
        // The empty set, every set of one line and every set of two.
        let mut keys = std::collections::HashSet::new();
        assert!(keys.insert(wide_key(&[0; 4])));
        let with = |bits: WideBits, line: usize| {
            let mut bits = bits;
            bits[line / 64] |= 1 << (line % 64);
            bits
        };
        for first in 0..256 {
            assert!(keys.insert(wide_key(&with([0; 4], first))));
            for second in first + 1..256 {
                assert!(keys.insert(wide_key(&with(with([0; 4], first), second))));
            }
        }
    }
}
