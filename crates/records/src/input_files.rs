//! Reading the organiser's input files (a tournament's configuration, an openings file) with a
//! size bound: a path to `/dev/zero`, `/dev/urandom` or a huge file by mistake ends in an
//! error, not in a referee that hangs or fills its memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most an input file may hold: far more than any configuration or openings deck.
pub const MAX_INPUT_FILE: u64 = 16 << 20;

/// The UTF-8 text of `path`, refused when it is larger than `max` bytes.
pub fn read_text(path: &Path, max: u64) -> io::Result<String> {
    let file = File::open(path)?;
    // A file known to be too large is refused unread; one whose size is unknown (a device, a
    // pipe) is read up to the bound.
    let too_large = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {} MiB", max >> 20),
        )
    };
    if file.metadata()?.len() > max {
        return Err(too_large());
    }
    let mut text = String::new();
    file.take(max + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(too_large());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused() {
        let error = read_text(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(error.to_string(), "larger than 1 MiB");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "7 7\n").unwrap();
        assert_eq!(read_text(&path, 4).unwrap(), "7 7\n");
        assert!(read_text(&path, 3).is_err());
        // A file known to be larger is refused unread (sparse: 1 GiB on paper only).
        let huge = dir.path().join("huge");
        std::fs::File::create(&huge)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        let error = read_text(&huge, 1 << 20).unwrap_err();
        assert!(error.to_string().contains("larger than 1 MiB"), "{error}");
    }
}
