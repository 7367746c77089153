//! The rules: the games (pure, no I/O), the text protocol's messages, time controls and verdicts.

pub mod clock;
pub mod games;
pub mod protocol;
pub mod quote;
pub mod seeded;
pub mod verdict;
