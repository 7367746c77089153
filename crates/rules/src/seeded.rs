//! The random generator behind everything a seed decides: random openings and deck order, the
//! built-in bots' choices, `referee check`'s scenarios, the checkers hash keys.
//!
//! It is ChaCha12 by name rather than rand's `SeededRng`, whose algorithm may change in any rand
//! release: a `--resume` after an upgrade must replay the same openings, and a bot author's
//! `--seed` the same games. (`SeededRng` is ChaCha12 in rand 0.8, so naming it changed no
//! sequence.)

/// ChaCha12, named outright so that a seed gives the same sequence in every rand release.
pub type SeededRng = rand_chacha::ChaCha12Rng;
