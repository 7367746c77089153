//! Tournaments: many bots, many games, played fairly and fast, with results that survive a
//! crash and split over machines.
//!
//! A [`config::Tournament`] (read from TOML) names the players, the game, the format and the
//! openings; its [`schedule::Schedule`] orders the games without building them (a Swiss or a
//! knock-out is paired a round at a time from the results, by [`rounds`]); the
//! [`runner`] plays them on `-j` worker threads, each game at a [`crate::table::Table`] as
//! `referee match` does, and appends each finished game to the [`journal`]; [`merge`] turns
//! journals (a run's, or every shard's) back into standings.

pub mod carry;
pub mod config;
pub mod journal;
pub mod knockout;
pub mod merge;
pub(crate) mod openings;
pub mod progress;
pub mod rounds;
pub mod runner;
pub mod schedule;
pub mod slot;
pub mod swiss;
