//! What a game leaves behind: records, records packs, transcripts, live files and exports.

pub mod export;
pub mod input_files;
pub mod live;
pub mod record;
pub mod record_pack;
pub mod renumber;
pub mod transcript;
