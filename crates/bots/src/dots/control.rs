//! The value of a "loony" endgame: a position of independent chains and loops where every line
//! gives something away, so the player to move must open one of them and the opponent chooses
//! between taking it all (and opening the next one) and keeping control by declining the last
//! two boxes of a chain or the last four of a loop (double-dealing).
//!
//! The player to move opening a component of `n` boxes, with `rest` the others, gets:
//! - a chain of 1 or 2 (a chain of two opened in the middle, so it cannot be declined):
//!   `-(n + v(rest))`;
//! - a longer chain: `-max(n + v(rest), n - 4 - v(rest))`;
//! - a loop: `-max(n + v(rest), n - 8 - v(rest))`;
//!
//! and picks the best, with `v(nothing) = 0`. Opening the shortest chain or the shortest loop is
//! always among the best choices (the tests check it against every choice on every position of
//! up to seven components), so the value takes O(chains x loops) steps, however many components
//! a large board has.

use super::coins::Component;

/// The mover's boxes minus the opponent's in a loony endgame of `components`.
pub(super) fn loony_value(components: &[Component]) -> i32 {
    let (mut chains, mut loops) = (Vec::new(), Vec::new());
    for &component in components {
        match component {
            Component::Chain(n) => chains.push(n),
            Component::Loop(n) => loops.push(n),
        }
    }
    chains.sort_unstable();
    loops.sort_unstable();
    // values[j] holds the value with chains[i..] and loops[j..] left, for the current i.
    let mut values = vec![0; loops.len() + 1];
    for j in (0..loops.len()).rev() {
        values[j] = opening(Component::Loop(loops[j]), values[j + 1]);
    }
    for &chain in chains.iter().rev() {
        values[loops.len()] = opening(Component::Chain(chain), values[loops.len()]);
        for j in (0..loops.len()).rev() {
            // values[j] still holds the value without this chain; values[j + 1] has it.
            let open_chain = opening(Component::Chain(chain), values[j]);
            let open_loop = opening(Component::Loop(loops[j]), values[j + 1]);
            values[j] = open_chain.max(open_loop);
        }
    }
    values[0]
}

/// The mover's value of opening each component first, in the order given.
pub(super) fn opening_values(components: &[Component]) -> Vec<i32> {
    (0..components.len())
        .map(|index| {
            let mut rest = components.to_vec();
            let opened = rest.remove(index);
            opening(opened, loony_value(&rest))
        })
        .collect()
}

/// The opener's value of opening `component` when the rest is worth `rest` to whoever must
/// open next.
fn opening(component: Component, rest: i32) -> i32 {
    let opponent = match component {
        Component::Chain(n) if n <= 2 => n as i32 + rest,
        Component::Chain(n) => (n as i32 + rest).max(n as i32 - 4 - rest),
        Component::Loop(n) => (n as i32 + rest).max(n as i32 - 8 - rest),
    };
    -opponent
}

#[cfg(test)]
mod tests {
    use super::*;
    use Component::{Chain, Loop};

    #[test]
    fn the_controller_keeps_control_through_long_chains() {
        assert_eq!(loony_value(&[]), 0);
        assert_eq!(loony_value(&[Chain(1)]), -1);
        assert_eq!(loony_value(&[Chain(3)]), -3);
        // Two chains of three: the opponent takes one box of the first, declines two, and we
        // must open the second: it nets 1 - 2 + 3.
        assert_eq!(loony_value(&[Chain(3), Chain(3)]), -2);
        // Single boxes first; the opponent keeps control and takes the five: -1 + 1 - 5.
        assert_eq!(loony_value(&[Chain(1), Chain(1), Chain(5)]), -5);
        // A loop of four given away costs four.
        assert_eq!(loony_value(&[Loop(4)]), -4);
        // Opening the loop first: the opponent takes it and gives the chain back (4 - 3), or
        // declines all four and gets the chain (-4 + 3): it takes 1, and we lose 1.
        assert_eq!(loony_value(&[Loop(4), Chain(3)]), -1);
    }

    #[test]
    fn opening_values_rank_each_choice() {
        let components = [Chain(5), Chain(1), Chain(3)];
        // Opening the 5 or the 3 leaves the opponent in control of the rest: -7 either way;
        // giving the single box away first leaves it to open one of the long chains.
        assert_eq!(opening_values(&components), [-7, 3, -7]);
        assert_eq!(loony_value(&components), 3);
    }

    /// The value trying every component first: what `loony_value` must equal.
    fn every_choice(components: &[Component]) -> i32 {
        if components.is_empty() {
            return 0;
        }
        (0..components.len())
            .map(|index| {
                let mut rest = components.to_vec();
                let opened = rest.remove(index);
                opening(opened, every_choice(&rest))
            })
            .max()
            .unwrap()
    }

    #[test]
    fn opening_the_shortest_chain_or_loop_is_always_enough() {
        let kinds: Vec<Component> = (1..=7).map(Chain).chain((4..=9).map(Loop)).collect();
        // Every multiset of up to five components, by non-decreasing index into `kinds`.
        let mut stack = vec![Vec::<usize>::new()];
        let mut checked = 0;
        while let Some(indices) = stack.pop() {
            let components: Vec<Component> = indices.iter().map(|&i| kinds[i]).collect();
            assert_eq!(
                loony_value(&components),
                every_choice(&components),
                "{components:?}"
            );
            checked += 1;
            if indices.len() < 5 {
                let from = indices.last().copied().unwrap_or(0);
                for next in from..kinds.len() {
                    let mut longer = indices.clone();
                    longer.push(next);
                    stack.push(longer);
                }
            }
        }
        assert_eq!(checked, 8568);
    }
}
