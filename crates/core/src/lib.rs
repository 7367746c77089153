//! The referee core: the judge and the table, matches, tournaments, standings and the check.

pub mod arbiter;
pub mod check;
pub mod console_game;
pub mod matches;
pub mod players;
pub mod report;
pub mod settings;
pub mod standings;
pub mod table;
pub mod tournament;
