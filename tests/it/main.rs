//! The integration tests, in one binary: each module drives the real `referee` binary (or the
//! library) for one area; `common` holds what they share.

mod adapters;
mod cage;
mod check;
mod common;
mod console;
mod hostile;
mod lazy_schedule;
mod match_verdicts;
mod parsers_never_panic;
mod snapshots;
mod starter_bots;
mod tournament;
