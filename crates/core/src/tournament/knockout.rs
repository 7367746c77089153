//! Knock-out brackets: seeded so that the strongest meet last, byes for the top seeds when the
//! field is not a power of two, and a drawn match decided by tie-break game pairs.
//!
//! Seeds are the players' places in the configuration (list the strongest first). In a bracket
//! of P = 2^k places, round 1 pairs seed 1 with seed P, seed 2 with seed P - 1 and so on, laid
//! out so that seeds 1 and 2 can only meet in the final; a place whose seed is above the field
//! is a bye, and its opponent goes through without playing.

/// The places of a bracket of `size` (a power of two) in playing order: seed numbers from 0,
/// each even place meeting the next odd one in round 1, and each half of the list one half of
/// the bracket.
pub fn bracket(size: usize) -> Vec<usize> {
    debug_assert!(size.is_power_of_two());
    let mut places = vec![0];
    while places.len() < size {
        let next = places.len() * 2;
        places = places
            .iter()
            .flat_map(|&seed| [seed, next - 1 - seed])
            .collect();
    }
    places
}

/// The bracket's size for `players`: the power of two at least as large.
pub fn size(players: usize) -> usize {
    players.next_power_of_two().max(2)
}

/// Rounds to a champion.
pub fn rounds(players: usize) -> u32 {
    size(players).trailing_zeros()
}

/// Who goes through a match: the player with more points; level after every tie-break, the
/// higher seed (the lower index).
pub fn winner(players: [usize; 2], points: [f64; 2]) -> usize {
    if points[0] > points[1] || (points[0] == points[1] && players[0] < players[1]) {
        players[0]
    } else {
        players[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_one_and_two_meet_only_in_the_final() {
        assert_eq!(bracket(2), [0, 1]);
        assert_eq!(bracket(4), [0, 3, 1, 2]);
        assert_eq!(bracket(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        for size in [16, 64, 512] {
            let places = bracket(size);
            let mut sorted = places.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..size).collect::<Vec<_>>());
            let half = size / 2;
            assert!(places[..half].contains(&0) && places[half..].contains(&1));
            // Round 1: seeds adding up to size - 1.
            assert!(places.chunks(2).all(|m| m[0] + m[1] == size - 1));
        }
    }

    #[test]
    fn sizes_rounds_and_winners() {
        assert_eq!((size(2), size(5), size(8), size(300)), (2, 8, 8, 512));
        assert_eq!((rounds(2), rounds(5), rounds(300)), (1, 3, 9));
        assert_eq!(winner([3, 1], [1.5, 0.5]), 3);
        assert_eq!(winner([3, 1], [1.0, 1.0]), 1, "level: the higher seed");
        assert_eq!(winner([1, 3], [0.0, 2.0]), 3);
    }
}
