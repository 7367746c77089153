//! The strong checkers bot's transposition table: what earlier searches learnt about a position
//! (a score or a bound on it, how deep, and the best move), found again by its Zobrist hash when
//! the same position is reached by another move order or in a later search.
//!
//! Slots come in pairs: the first keeps the deeper result, the second the most recent one, so
//! deep results survive a flood of shallow ones without the table filling with stale entries.

use referee_rules::games::checkers::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    /// At least this much (the search stopped at a move that was good enough).
    Lower,
    /// At most this much (no move reached the lower end of the window).
    Upper,
}

/// A move as the table keeps it: its start and end squares. That tells the legal moves apart
/// except for captures by one piece that end on the same square; the table's move is only tried
/// first, so then both are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MoveKey {
    from: u8,
    to: u8,
}

impl MoveKey {
    fn of(mv: &Move) -> MoveKey {
        MoveKey {
            from: mv.from(),
            to: mv.to(),
        }
    }
}

/// 16 bytes: the hash, the result and the search it came from.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    hash: u64,
    score: i16,
    best: MoveKey,
    depth: i8,
    /// 0 for an empty slot, else 1 + the bound.
    bound: u8,
    generation: u8,
}

/// The two slots a hash may use, in one cache line: the deeper result, then the newer one.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(32))]
struct Pair {
    deep: Slot,
    recent: Slot,
}

/// A stored result.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    best: MoveKey,
}

impl Hit {
    /// Whether `mv` is the best move the earlier search found.
    pub(super) fn is_best(&self, mv: &Move) -> bool {
        self.best == MoveKey::of(mv)
    }
}

pub(super) struct TranspositionTable {
    pairs: Vec<Pair>,
    generation: u8,
}

const BOUNDS: [Bound; 3] = [Bound::Exact, Bound::Lower, Bound::Upper];

impl TranspositionTable {
    /// A table of 2^`bits` slots of 16 bytes.
    pub(super) fn new(bits: u32) -> TranspositionTable {
        let count = 1 << bits.max(1) >> 1;
        let mut pairs = Vec::with_capacity(count);
        // Written now rather than zeroed lazily by the system, so the page faults happen
        // before the clock runs (the table is made during the start-up allowance).
        pairs.resize_with(count, Pair::default);
        TranspositionTable {
            pairs,
            generation: 0,
        }
    }

    /// Marks the results stored from now on as the newest, so older ones give way first.
    pub(super) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn pair(&mut self, hash: u64) -> &mut Pair {
        let index = (hash as usize) & (self.pairs.len() - 1);
        &mut self.pairs[index]
    }

    pub(super) fn probe(&mut self, hash: u64) -> Option<Hit> {
        let pair = self.pair(hash);
        [pair.deep, pair.recent]
            .into_iter()
            .find(|slot| slot.bound != 0 && slot.hash == hash)
            .map(|slot| Hit {
                score: slot.score.into(),
                depth: slot.depth.into(),
                bound: BOUNDS[usize::from(slot.bound - 1)],
                best: slot.best,
            })
    }

    /// Keeps a result: `score` must fit an `i16` and `depth` an `i8`.
    pub(super) fn store(&mut self, hash: u64, depth: i32, score: i32, bound: Bound, best: &Move) {
        let slot = Slot {
            hash,
            score: score as i16,
            best: MoveKey::of(best),
            depth: depth as i8,
            bound: 1 + BOUNDS.iter().position(|&b| b == bound).unwrap_or(0) as u8,
            generation: self.generation,
        };
        let generation = self.generation;
        let Pair { deep, recent } = self.pair(hash);
        if recent.hash == hash && deep.hash != hash {
            *recent = slot;
        } else if deep.hash == hash
            || deep.bound == 0
            || deep.generation != generation
            || slot.depth >= deep.depth
        {
            if deep.hash != hash {
                *recent = *deep;
            }
            *deep = slot;
        } else {
            *recent = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::checkers::Checkers;
    use referee_rules::games::Game;

    #[test]
    fn keeps_the_deeper_and_the_newer_result() {
        let mut moves = Vec::new();
        Checkers::default().generate_moves(&mut moves);
        let (a, b) = (moves[0], moves[1]);
        let mut table = TranspositionTable::new(4);
        let first = 0xABCD << 32 | 3;
        assert!(table.probe(first).is_none());
        table.store(first, 5, 120, Bound::Lower, &a);
        let hit = table.probe(first).unwrap();
        assert_eq!((hit.score, hit.depth, hit.bound), (120, 5, Bound::Lower));
        assert!(hit.is_best(&a) && !hit.is_best(&b));
        // Another position on the same pair, shallower: it goes to the second slot.
        let other = first + (1 << 40);
        assert_eq!(other & 7, first & 7, "the same pair");
        table.store(other, 2, -30, Bound::Upper, &b);
        assert_eq!(table.probe(first).unwrap().depth, 5);
        assert_eq!(table.probe(other).unwrap().score, -30);
        // A third one pushes the shallow one out, not the deep one.
        let third = first + (2 << 40);
        table.store(third, 1, 0, Bound::Exact, &a);
        assert!(table.probe(other).is_none());
        assert_eq!(table.probe(first).unwrap().depth, 5);
        assert_eq!(table.probe(third).unwrap().bound, Bound::Exact);
        // A new search's result replaces an old deep one.
        table.new_search();
        table.store(other, 1, 10, Bound::Exact, &b);
        assert_eq!(table.probe(other).unwrap().score, 10);
        assert_eq!(
            table.probe(first).unwrap().depth,
            5,
            "moved to the second slot"
        );
        assert!(table.probe(third).is_none());
    }
}
