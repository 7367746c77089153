//! From an entrant's source folder to a bot command: the language's [`profile`] says how to
//! build and run it, [`compile`] builds it in the sandbox and caches the result.

pub mod compile;
mod manifest;
pub mod profile;
mod staging;
pub mod toolchain;
