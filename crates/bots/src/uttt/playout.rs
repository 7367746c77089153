//! The strong bot's playouts: from a leaf of its tree to the end of the game, random moves but
//! for taking a small board whenever the player is sent to one where it can (at most nine moves
//! to look at), which makes their results much closer to real play than uniformly random moves.
//!
//! Whether a board can be taken is one lookup in [`WINNING_CELLS`] on the player's 9-bit marks
//! there, rather than a test of each empty cell. Heavier policies were measured against
//! OpenSpiel's MCTS and scored no better, or worse (docs/builtin-bots.md, "Ultimate
//! tic-tac-toe against plain MCTS"): also blocking the opponent's immediate win, avoiding
//! sending it to a board it can take or to a decided one, taking a board when play is free.
//!
//! A playout runs on a [`Rollout`], the position cut down to the bits it changes, rather than on
//! the rules' [`Uttt`], which also keeps the last move and the ending for the referee: with twice
//! the search's time the bot scored 93.9% against OpenSpiel's MCTS instead of 88%, so every
//! playout saved counts (docs/builtin-bots.md).

use super::small_board::WINNING_CELLS;
use rand::Rng;
use referee_rules::games::uttt::{BoardStatus, Uttt, UtttTiebreak, HAS_LINE};
use referee_rules::games::{Game, Side};

/// The generator of the search and its playouts: ChaCha with 8 rounds rather than the 12 of
/// [`referee_rules::seeded::SeededRng`], as well seeded and reproducible, and 4% more iterations a
/// second (a playout draws a number for almost every move).
pub(super) type PlayoutRng = rand_chacha::ChaCha8Rng;

/// The nine cells of small board 0, shifted by `board * 9` for the others.
pub(super) const BOARD: u128 = 0x1FF;

/// The position as a playout sees it: each side's marks and the cells still playable (the
/// empty cells of undecided boards) as bits `board * 9 + cell`, both numbered row by row as in
/// [`Uttt::marks_in`], and the boards each side has won.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rollout {
    pub(super) marks: [u128; 2],
    pub(super) playable: u128,
    pub(super) won: [u16; 2],
    /// The board the side to move is sent to; `None` when play is free.
    pub(super) forced: Option<u32>,
    /// The side to move, as [`Side::index`].
    pub(super) to_move: usize,
    /// Whether more small boards win a game that ends without a line (`tiebreak=codingame`).
    more_boards_win: bool,
}

impl Rollout {
    /// `position`, whose game is not over.
    pub(super) fn new(position: &Uttt) -> Rollout {
        let mut rollout = Rollout {
            marks: [0; 2],
            playable: 0,
            won: [0; 2],
            forced: position.forced_board().map(u32::from),
            to_move: position.side_to_move().index(),
            more_boards_win: position.params().tiebreak == UtttTiebreak::Codingame,
        };
        for board in 0..9u8 {
            let shift = u32::from(board) * 9;
            for side in Side::BOTH {
                rollout.marks[side.index()] |= u128::from(position.marks_in(side, board)) << shift;
            }
            rollout.playable |= u128::from(position.playable_in(board)) << shift;
            if let BoardStatus::Won(side) = position.board_status(board) {
                rollout.won[side.index()] |= 1 << board;
            }
        }
        rollout
    }

    /// Plays the game to its end with the policy; the winner, if any.
    ///
    /// The loop keeps the position in locals, the mover's bits and the other side's swapped
    /// after each move, so that it stays in registers: indexing the arrays by the side to move
    /// made each move store a few bytes and reload the whole word, which stalls the processor.
    pub(super) fn play_out(self, rng: &mut PlayoutRng) -> Option<Side> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: this processor has the instruction, as just checked.
            return unsafe { self.play_out_with_popcnt(rng) };
        }
        self.play_out_anywhere(rng)
    }

    /// [`Rollout::play_out`] compiled with the processor's population count: the baseline
    /// x86-64 target has none, and counting bits in software made playouts 5 to 10% slower.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn play_out_with_popcnt(self, rng: &mut PlayoutRng) -> Option<Side> {
        self.play_out_anywhere(rng)
    }

    /// [`Rollout::play_out`] for any processor.
    #[inline(always)]
    fn play_out_anywhere(self, rng: &mut PlayoutRng) -> Option<Side> {
        let me = self.to_move;
        let (mut mine, mut theirs) = (self.marks[me], self.marks[me ^ 1]);
        let (mut won_mine, mut won_theirs) = (self.won[me], self.won[me ^ 1]);
        let mut playable = self.playable;
        let mut forced = self.forced;
        let mut mover = Side::BOTH[me];
        loop {
            let bit = policy_bit(mine, playable, forced, rng);
            let (board, cell) = (bit / 9, bit % 9);
            let shift = board * 9;
            mine |= 1 << bit;
            playable &= !(1 << bit);
            if HAS_LINE[(mine >> shift & BOARD) as usize] {
                playable &= !(BOARD << shift);
                won_mine |= 1 << board;
                if HAS_LINE[won_mine as usize] {
                    return Some(mover);
                }
            }
            if playable == 0 {
                return match won_mine.count_ones().cmp(&won_theirs.count_ones()) {
                    _ if !self.more_boards_win => None,
                    std::cmp::Ordering::Greater => Some(mover),
                    std::cmp::Ordering::Less => Some(mover.opponent()),
                    std::cmp::Ordering::Equal => None,
                };
            }
            forced = (playable >> (cell * 9) & BOARD != 0).then_some(cell);
            std::mem::swap(&mut mine, &mut theirs);
            std::mem::swap(&mut won_mine, &mut won_theirs);
            mover = mover.opponent();
        }
    }
}

/// The policy's move, as its bit, for the side to move with marks `mine`: a cell that takes the
/// board it is sent to (`forced`) if there is one, else any playable cell there (anywhere when
/// play is free), at random.
#[inline(always)]
fn policy_bit(mine: u128, playable: u128, forced: Option<u32>, rng: &mut PlayoutRng) -> u32 {
    match forced {
        Some(board) => {
            let shift = board * 9;
            let open = (playable >> shift & BOARD) as u64;
            let cells = match u64::from(WINNING_CELLS[(mine >> shift & BOARD) as usize]) & open {
                0 => open,
                wins => wins,
            };
            shift + random_bit(cells, rng)
        }
        None => {
            let (low, high) = (playable as u64, (playable >> 64) as u64);
            let rank = rng.gen_range(0..low.count_ones() + high.count_ones());
            match low.count_ones() {
                below if rank < below => nth_bit(low, rank),
                below => 64 + nth_bit(high, rank - below),
            }
        }
    }
}

/// A random one of the set bits of `bits` (not 0).
#[inline(always)]
fn random_bit(bits: u64, rng: &mut PlayoutRng) -> u32 {
    nth_bit(bits, rng.gen_range(0..bits.count_ones()))
}

/// The position of the set bit of rank `rank` (from 0, lowest first) in `word`, which has more
/// than `rank` set bits: whole 16-bit chunks are skipped by their counts, then at most 15 bits
/// are cleared.
#[inline(always)]
fn nth_bit(mut word: u64, mut rank: u32) -> u32 {
    debug_assert!(
        rank < word.count_ones(),
        "no set bit of rank {rank} in {word:#x}"
    );
    let mut base = 0;
    loop {
        let count = (word & 0xFFFF).count_ones();
        if rank < count {
            break;
        }
        rank -= count;
        word >>= 16;
        base += 16;
    }
    for _ in 0..rank {
        word &= word - 1;
    }
    base + word.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use referee_rules::games::uttt::{Square, UtttParams};
    use std::collections::HashSet;

    /// The square of bit `board * 9 + cell`.
    fn square_of(bit: u32) -> Square {
        let (board, cell) = (bit / 9, bit % 9);
        Uttt::square(
            (board % 3 * 3 + cell % 3) as u8,
            (board / 3 * 3 + cell / 3) as u8,
        )
    }

    #[test]
    fn nth_bit_counts_the_set_bits_from_the_lowest() {
        let mut rng = PlayoutRng::seed_from_u64(3);
        for _ in 0..2_000 {
            let word: u64 = rng.gen::<u64>() & rng.gen::<u64>();
            let positions: Vec<u32> = (0..64).filter(|bit| word >> bit & 1 == 1).collect();
            for (rank, &position) in positions.iter().enumerate() {
                assert_eq!(nth_bit(word, rank as u32), position, "{word:064b}");
            }
        }
    }

    /// The policy's move in `game` (not over), as a square.
    fn policy_square(game: &Uttt, rng: &mut PlayoutRng) -> Square {
        let rollout = Rollout::new(game);
        let mine = rollout.marks[rollout.to_move];
        square_of(policy_bit(mine, rollout.playable, rollout.forced, rng))
    }

    #[test]
    fn takes_the_board_it_is_sent_to_when_it_can_else_any_move() {
        let mut rng = PlayoutRng::seed_from_u64(7);
        let mut moves = Vec::new();
        // Positions where the policy must take a board, and where any move may come.
        let (mut taking, mut random) = (0, 0);
        for _ in 0..60 {
            let mut game = Uttt::new(UtttParams::default());
            while game.outcome().is_none() {
                game.generate_moves(&mut moves);
                let me = game.side_to_move();
                // Whether a board can be taken, as the rules see it (cell by cell, no table).
                let can_take = moves.iter().any(|&square| game.completes_board(me, square));
                if game.forced_board().is_some() && can_take {
                    let square = policy_square(&game, &mut rng);
                    assert!(moves.contains(&square), "{}", game.format_move(square));
                    assert!(game.completes_board(me, square), "{}", game.render());
                    taking += 1;
                } else if !can_take {
                    // Every legal move comes up, and nothing else.
                    let chosen: HashSet<Square> = (0..40 * moves.len())
                        .map(|_| policy_square(&game, &mut rng))
                        .collect();
                    assert_eq!(chosen, moves.iter().copied().collect(), "{}", game.render());
                    random += 1;
                }
                // Uniformly random moves reach more kinds of positions than the policy's own.
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(taking > 200 && random > 200, "{taking} {random}");
    }

    #[test]
    fn a_playout_ends_as_the_rules_end_the_same_moves() {
        let mut rng = PlayoutRng::seed_from_u64(5);
        let mut endings = HashSet::new();
        for number in 0..2_000 {
            let tiebreak = [UtttTiebreak::None, UtttTiebreak::Codingame][number % 2];
            let mut game = Uttt::new(UtttParams { tiebreak });
            // Start from a few random moves, so that playouts start anywhere.
            for _ in 0..number % 30 {
                let mut moves = Vec::new();
                game.generate_moves(&mut moves);
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
            if game.outcome().is_some() {
                continue;
            }
            // The same random numbers drive the playout and the policy's moves on the rules.
            let mut twin = rng.clone();
            let winner = Rollout::new(&game).play_out(&mut rng);
            while game.outcome().is_none() {
                let square = policy_square(&game, &mut twin);
                game.play(square).expect("a legal move");
            }
            let outcome = game.outcome().unwrap();
            assert_eq!(winner, outcome.winner, "{}", game.render());
            endings.insert(format!(
                "{tiebreak:?} {:?} {}",
                outcome.ending,
                winner.is_some()
            ));
        }
        // Lines, draws, and more small boards winning a game without a line.
        assert!(endings.len() >= 4, "{endings:?}");
    }
}
