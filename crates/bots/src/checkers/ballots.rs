//! Opening variety for the strong bot: while a game follows the start of one of the 3-move
//! ballots (`openings/checkers-3move.txt`, the openings engine matches are played from, the
//! lost ones left out), the bot plays a ballot's next move, chosen at random among the ballots
//! the game still follows. A search from the start finds the same few moves every time; the
//! ballots make games differ from the first move, with openings known to be playable.

use rand::seq::SliceRandom;
use referee_rules::games::checkers::{Checkers, Move, Position};
use referee_rules::games::{opening_moves, Game, GameSpec};
use referee_rules::seeded::SeededRng;

const DECK: &str = include_str!("../../../../openings/checkers-3move.txt");

/// Every ballot's moves, each with the position it is played from.
pub(super) struct Ballots {
    steps: Vec<(Position, Move)>,
}

impl Ballots {
    /// The ballots of the deck, from the standard start.
    pub(super) fn new() -> Ballots {
        let start = Checkers::default();
        let spec = GameSpec::Checkers(Default::default());
        let mut steps = Vec::new();
        for line in DECK.lines().filter(|line| !line.starts_with('#')) {
            let mut game = start.clone();
            for text in opening_moves(&spec, line) {
                let mv = game.parse_move(&text).expect("the ballots are legal");
                steps.push((game.position(), mv));
                game.play_unchecked(mv);
            }
        }
        Ballots { steps }
    }

    /// A ballot's next move for `game` if the game so far follows a ballot (each ballot that
    /// does is equally likely), else `None`.
    pub(super) fn next_move(&self, game: &Checkers, rng: &mut SeededRng) -> Option<Move> {
        let position = game.position();
        let candidates: Vec<Move> = self
            .steps
            .iter()
            .filter(|(from, _)| *from == position)
            .map(|&(_, mv)| mv)
            .collect();
        let mv = *candidates.choose(rng)?;
        let mut legal = Vec::new();
        game.generate_moves(&mut legal);
        legal.contains(&mv).then_some(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use std::collections::BTreeSet;

    #[test]
    fn the_first_three_moves_come_from_the_ballots_and_vary() {
        let ballots = Ballots::new();
        let deck: BTreeSet<Vec<String>> = DECK
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| opening_moves(&GameSpec::Checkers(Default::default()), line))
            .collect();
        let mut openings = BTreeSet::new();
        for seed in 0..40 {
            let mut rng = SeededRng::seed_from_u64(seed);
            let mut game = Checkers::default();
            let mut played = Vec::new();
            while let Some(mv) = ballots.next_move(&game, &mut rng) {
                played.push(game.format_move(mv));
                game.play_unchecked(mv);
            }
            assert!(deck.contains(&played), "{played:?} is a ballot");
            openings.insert(played);
        }
        assert!(
            openings.len() > 20,
            "{} openings in 40 games",
            openings.len()
        );
    }

    #[test]
    fn no_ballot_move_away_from_the_ballots() {
        let game = Checkers::from_fen("W:W32:B1").unwrap();
        let mut rng = SeededRng::seed_from_u64(1);
        assert_eq!(Ballots::new().next_move(&game, &mut rng), None);
    }
}
