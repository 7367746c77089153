//! Level 1 for every game: a uniformly random legal move.

use super::{Brain, Budget};
use rand::{Rng, SeedableRng};
use referee_rules::games::Game;
use referee_rules::seeded::SeededRng;

pub(crate) struct RandomBrain<G: Game> {
    rng: SeededRng,
    moves: Vec<G::Move>,
}

impl<G: Game> RandomBrain<G> {
    pub(crate) fn new(seed: u64) -> RandomBrain<G> {
        RandomBrain {
            rng: SeededRng::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Brain<G> for RandomBrain<G> {
    fn choose(&mut self, game: &G, _budget: &Budget) -> G::Move {
        game.generate_moves(&mut self.moves);
        self.moves[self.rng.gen_range(0..self.moves.len())]
    }

    fn instant(&self) -> bool {
        true
    }
}
