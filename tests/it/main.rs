//! The integration tests, in one binary: each module drives the real `referee` binary (or the
//! library) for one area; `common` holds what they share.

mod adapters;
mod arena;
mod arena_pages;
mod arena_people;
mod arena_workers;
mod browser;
#[path = "../support/browser.rs"]
mod browser_support;
mod builtin_bots;
mod bytes;
mod cage;
mod check;
mod common;
mod console;
mod contest;
mod cores;
mod docs;
mod export;
mod hostile;
mod journals;
mod layers;
mod lazy_schedule;
mod match_report;
mod match_verdicts;
mod new_user;
mod parsers_never_panic;
mod perft;
mod platforms;
mod records_file;
mod renju;
mod slurm;
mod snapshots;
mod starter_bots;
mod starter_kits;
mod swap;
mod swiss;
mod systems;
mod tournament;
#[path = "../support/workload.rs"]
mod workload;
