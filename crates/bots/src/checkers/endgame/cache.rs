//! The endgame database on disk, so that only the first bot process builds it.
//!
//! The file is `checkers-endgame-4.bin` in `$XDG_CACHE_HOME/referee` (when that variable is an
//! absolute path), else in `$HOME/.cache/referee`, as the XDG base directory specification
//! says. It holds a header (a magic word, the format version, the number of pieces, the number
//! of values, the SHA-256 of the values) and then one byte per slot. A file that does not match
//! in every point (another version, a truncated or altered file) is rebuilt, never trusted. The
//! new file is written beside the old one and renamed over it, so that processes building at
//! the same time never read a half-written file. Where no cache directory can be written, the
//! database lives in memory only.

use super::build::Stored;
use super::index::Index;
use super::EndgameDb;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"RFCKEGDB";
/// Changed whenever the rules, the index or the encoding of the values change, so that an old
/// file is rebuilt.
const FORMAT: u32 = 1;
/// Magic, format, pieces, count of values, checksum.
const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 32;

#[derive(Debug, thiserror::Error)]
pub(super) enum CacheError {
    #[error("cannot read or write the endgame cache file {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the endgame cache file {} is not a database of this version", path.display())]
    Stale { path: PathBuf },
    #[error("the endgame cache file {} is damaged", path.display())]
    Corrupt { path: PathBuf },
}

/// The directory the database is cached in, if the environment names one.
pub(super) fn cache_dir() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    absolute("XDG_CACHE_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".cache")))
        .map(|dir| dir.join("referee"))
}

fn file_name(pieces: usize) -> String {
    format!("checkers-endgame-{pieces}.bin")
}

/// The database of `pieces` pieces from the cache directory, else built and saved there.
pub(super) fn load_or_build(pieces: usize) -> Option<EndgameDb> {
    match cache_dir() {
        Some(dir) => load_or_build_in(&dir, pieces),
        None => EndgameDb::build(pieces),
    }
}

/// The database of `pieces` pieces from `dir`, else built and saved there (if it can be).
pub(super) fn load_or_build_in(dir: &Path, pieces: usize) -> Option<EndgameDb> {
    let path = dir.join(file_name(pieces));
    let index = Index::new(pieces);
    if let Ok(values) = load(&path, &index) {
        return Some(EndgameDb { index, values });
    }
    let db = EndgameDb::build(pieces)?;
    // Not saved: the next process builds it again.
    let _ = save(dir, &path, &db);
    Some(db)
}

fn checksum(values: &[Stored]) -> [u8; 32] {
    Sha256::digest(values).into()
}

/// The values in the file at `path`, if it is a sound database for `index`.
fn load(path: &Path, index: &Index) -> Result<Vec<Stored>, CacheError> {
    let io = |source| CacheError::Io {
        path: path.to_owned(),
        source,
    };
    let stale = || CacheError::Stale {
        path: path.to_owned(),
    };
    let length = std::fs::metadata(path).map_err(io)?.len();
    if length != (HEADER_LEN + index.len) as u64 {
        return Err(stale());
    }
    let mut bytes = std::fs::read(path).map_err(io)?;
    // Checked again: another process may have replaced the file since.
    if bytes.len() != HEADER_LEN + index.len {
        return Err(stale());
    }
    let values = bytes.split_off(HEADER_LEN);
    let header = bytes;
    let word = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    let count = u64::from_le_bytes(header[16..24].try_into().expect("8 bytes"));
    if &header[..8] != MAGIC
        || word(8) != FORMAT
        || word(12) as usize != index.pieces
        || count != index.len as u64
    {
        return Err(stale());
    }
    if header[24..HEADER_LEN] != checksum(&values) {
        return Err(CacheError::Corrupt {
            path: path.to_owned(),
        });
    }
    Ok(values)
}

/// Writes `db` to `path` in `dir`, through a temporary file renamed into place.
fn save(dir: &Path, path: &Path, db: &EndgameDb) -> Result<(), CacheError> {
    let io = |source| CacheError::Io {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT.to_le_bytes());
    header.extend_from_slice(&(db.index.pieces as u32).to_le_bytes());
    header.extend_from_slice(&(db.values.len() as u64).to_le_bytes());
    header.extend_from_slice(&checksum(&db.values));
    file.write_all(&header).map_err(io)?;
    file.write_all(&db.values).map_err(io)?;
    file.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_database_loads_back_and_a_damaged_one_is_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let built = load_or_build_in(dir.path(), 2).unwrap();
        let path = dir.path().join(file_name(2));
        let index = Index::new(2);
        assert_eq!(load(&path, &index).unwrap(), built.values);
        let loaded = load_or_build_in(dir.path(), 2).unwrap();
        assert_eq!(loaded.values, built.values);

        // One value changed: the checksum tells.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 100] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            load(&path, &index),
            Err(CacheError::Corrupt { .. })
        ));
        // Another version, a truncated file, another number of pieces.
        bytes[HEADER_LEN + 100] ^= 1;
        bytes[8] += 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(load(&path, &index), Err(CacheError::Stale { .. })));
        std::fs::write(&path, &bytes[..HEADER_LEN + 10]).unwrap();
        assert!(matches!(load(&path, &index), Err(CacheError::Stale { .. })));
        std::fs::write(&path, b"short").unwrap();
        assert!(matches!(load(&path, &index), Err(CacheError::Stale { .. })));
        assert!(matches!(
            load(&path, &Index::new(3)),
            Err(CacheError::Stale { .. })
        ));

        // A damaged file is rebuilt, and the sound one saved over it.
        let rebuilt = load_or_build_in(dir.path(), 2).unwrap();
        assert_eq!(rebuilt.values, built.values);
        assert_eq!(load(&path, &index).unwrap(), built.values);
    }

    #[test]
    fn an_unwritable_directory_leaves_the_database_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("a file, not a directory");
        std::fs::write(&blocked, b"").unwrap();
        let db = load_or_build_in(&blocked, 2).unwrap();
        assert_eq!(db.values, EndgameDb::build(2).unwrap().values);
    }
}
