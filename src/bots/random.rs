//! Level 1: a uniformly random legal move.

use super::Strategy;
use crate::games::AnyGame;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Duration;

pub struct RandomMover {
    rng: StdRng,
}

impl RandomMover {
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Strategy for RandomMover {
    fn choose(&mut self, game: &dyn AnyGame, _time: Duration) -> String {
        game.legal_moves_text()
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_default()
    }
}
