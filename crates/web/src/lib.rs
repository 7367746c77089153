//! The referee in a web browser: `referee serve` (an index of the games of record and
//! tournament directories, a viewer for each game, tournament standings, live games), the
//! static report of `referee report`, and the pages' assets, compiled into the binary so that
//! nothing is fetched at run time.

pub mod assets;
pub mod browser;
pub(crate) mod library;
pub(crate) mod replay;
pub mod report;
pub mod server;
pub mod shield;

pub use server::{serve, ServeOptions};
