//! referee: a text-protocol referee and bot harness for turn-based board games.
//!
//! The layout follows the architecture: [`games`] holds the rules (pure, no I/O), [`protocol`]
//! the messages exchanged with bots (pure), [`seats`] the processes and the console, [`arbiter`]
//! the match loop that joins them, [`record`] the game records, and [`cli`] the command line,
//! whose commands share the [`settings`] of how bots are refereed with tournament files.

pub mod arbiter;
pub mod bots;
pub mod build;
pub(crate) mod check;
pub mod cli;
pub mod clock;
pub mod console_game;
pub mod contest;
pub(crate) mod export;
pub mod games;
pub(crate) mod host;
pub(crate) mod input_files;
pub mod matches;
pub mod protocol;
pub(crate) mod quote;
pub(crate) mod record;
pub(crate) mod record_pack;
pub(crate) mod report;
pub mod seats;
pub(crate) mod seeded;
pub mod settings;
mod stall;
pub mod standings;
pub mod table;
pub mod tournament;
pub mod verdict;
pub mod web;
