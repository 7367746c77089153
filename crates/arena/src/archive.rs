//! Uploaded sources: a `.tar.gz` unpacked safely (regular files and folders only, relative
//! paths without `..`, bounded in entries and in bytes as the stream is read, so that a gzip
//! bomb stops at the cap), and the archive the command line makes from a folder.

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The bounds an upload is unpacked within.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Bytes the archive may unpack to (the tar stream itself, headers included).
    pub unpacked_bytes: u64,
    /// Entries it may hold.
    pub files: u64,
}

/// Why an archive is refused: said to the user as it is.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ArchiveError {
    /// A path that is absolute or climbs out with `..`.
    #[error("the archive holds a path outside its folder: {0}")]
    Outside(String),
    /// A symbolic or hard link, a device, a FIFO.
    #[error("the archive holds {kind} ({path}): only regular files and folders are taken")]
    NotAFile {
        /// What it is.
        kind: &'static str,
        /// Its path, escaped.
        path: String,
    },
    /// More entries than allowed.
    #[error("the archive holds more than {0} files")]
    TooManyFiles(u64),
    /// It unpacks to more than allowed.
    #[error("the archive unpacks to more than {0} bytes")]
    TooLarge(u64),
    /// Not a gzip-compressed tar archive, or cut short.
    #[error("not a .tar.gz archive: {0}")]
    Malformed(String),
    /// The arena could not write the files (its own failure).
    #[error("cannot unpack: {0}")]
    Io(String),
}

/// A reader that fails once more than `left` bytes were read through it.
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self
            .left
            .checked_sub(n as u64)
            .ok_or_else(|| io::Error::other(CAP_REACHED))?;
        Ok(n)
    }
}

const CAP_REACHED: &str = "the unpacking cap was reached";

/// Unpacks the `.tar.gz` in `bytes` into the folder `into` (which must exist and be empty).
pub fn unpack(bytes: &[u8], into: &Path, bounds: Bounds) -> Result<u64, ArchiveError> {
    let capped = Capped {
        inner: GzDecoder::new(bytes),
        left: bounds.unpacked_bytes,
    };
    let mut archive = tar::Archive::new(capped);
    let malformed = |e: io::Error| {
        if e.to_string().contains(CAP_REACHED) {
            ArchiveError::TooLarge(bounds.unpacked_bytes)
        } else {
            ArchiveError::Malformed(referee_rules::quote::shorten(&e.to_string(), 200))
        }
    };
    let mut count = 0u64;
    for entry in archive.entries().map_err(malformed)? {
        let mut entry = entry.map_err(malformed)?;
        count += 1;
        if count > bounds.files {
            return Err(ArchiveError::TooManyFiles(bounds.files));
        }
        let raw = entry.path_bytes().into_owned();
        let shown = referee_rules::quote::shorten(&String::from_utf8_lossy(&raw), 120);
        let relative = safe_path(&raw).ok_or_else(|| ArchiveError::Outside(shown.clone()))?;
        let kind = entry.header().entry_type();
        let to = into.join(&relative);
        if kind.is_dir() {
            std::fs::create_dir_all(&to).map_err(|e| ArchiveError::Io(e.to_string()))?;
            continue;
        }
        if !kind.is_file() {
            let what = if kind.is_symlink() {
                "a symbolic link"
            } else if kind.is_hard_link() {
                "a hard link"
            } else if kind.is_character_special() || kind.is_block_special() {
                "a device"
            } else if kind.is_fifo() {
                "a FIFO"
            } else if kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
                continue;
            } else {
                "an entry of another kind"
            };
            return Err(ArchiveError::NotAFile {
                kind: what,
                path: shown,
            });
        }
        if relative.as_os_str().is_empty() {
            return Err(ArchiveError::Outside(shown));
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| ArchiveError::Io(e.to_string()))?;
        }
        let executable = entry.header().mode().is_ok_and(|mode| mode & 0o111 != 0);
        let mut file = std::fs::File::create(&to).map_err(|e| ArchiveError::Io(e.to_string()))?;
        io::copy(&mut entry, &mut file).map_err(malformed)?;
        use std::os::unix::fs::PermissionsExt;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(mode))
            .map_err(|e| ArchiveError::Io(e.to_string()))?;
    }
    Ok(count)
}

/// The path as a relative one without `..`, or none.
fn safe_path(raw: &[u8]) -> Option<PathBuf> {
    let text = std::str::from_utf8(raw).ok()?;
    let mut path = PathBuf::new();
    for component in Path::new(text).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(path)
}

/// The `.tar.gz` of the regular files under `dir` (what `referee arena submit` uploads);
/// symbolic links and hidden folders (`.git`) are left out.
pub fn pack(dir: &Path) -> io::Result<Vec<u8>> {
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), flate2::Compression::default()));
    builder.mode(tar::HeaderMode::Deterministic);
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let mut entries: Vec<_> =
            std::fs::read_dir(dir.join(&relative))?.collect::<io::Result<Vec<_>>>()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            let path = relative.join(&name);
            if kind.is_dir() {
                builder.append_dir(&path, entry.path())?;
                pending.push(path);
            } else if kind.is_file() {
                builder.append_path_with_name(entry.path(), &path)?;
            }
        }
    }
    builder.into_inner()?.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const BOUNDS: Bounds = Bounds {
        unpacked_bytes: 1 << 20,
        files: 10,
    };

    /// A .tar.gz of raw headers: each entry (path, kind, bytes, link name).
    fn archive(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut tar_bytes = Vec::new();
        {
            let mut builder = tar::Builder::new(&mut tar_bytes);
            for (path, kind, bytes) in entries {
                let mut header = tar::Header::new_gnu();
                // Written raw, so that the builder's own checks do not refuse a bad path.
                let name = &mut header.as_old_mut().name;
                name[..path.len()].copy_from_slice(path.as_bytes());
                header.set_entry_type(*kind);
                header.set_size(bytes.len() as u64);
                header.set_mode(0o644);
                if kind.is_symlink() || kind.is_hard_link() {
                    header.set_link_name("/etc/passwd").unwrap();
                }
                header.set_cksum();
                builder.append(&header, *bytes).unwrap();
            }
            builder.finish().unwrap();
        }
        gzip(&tar_bytes)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn unpacked(bytes: &[u8]) -> Result<u64, ArchiveError> {
        let dir = tempfile::tempdir().unwrap();
        unpack(bytes, dir.path(), BOUNDS)
    }

    #[test]
    fn a_plain_archive_unpacks_and_packs_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("main.py"), "print(1)\n").unwrap();
        std::fs::write(dir.path().join("lib/x.py"), "").unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let packed = pack(dir.path()).unwrap();
        let out = tempfile::tempdir().unwrap();
        assert_eq!(unpack(&packed, out.path(), BOUNDS), Ok(3));
        assert_eq!(
            std::fs::read_to_string(out.path().join("main.py")).unwrap(),
            "print(1)\n"
        );
        assert!(out.path().join("lib/x.py").is_file() && !out.path().join(".git").exists());
    }

    #[test]
    fn hostile_archives_are_refused_with_their_reason() {
        use tar::EntryType as T;
        let outside = |path: &str| archive(&[(path, T::Regular, b"x")]);
        assert!(matches!(
            unpacked(&outside("/etc/x")),
            Err(ArchiveError::Outside(_))
        ));
        assert!(matches!(
            unpacked(&outside("a/../../x")),
            Err(ArchiveError::Outside(_))
        ));
        for (kind, said) in [
            (T::Symlink, "a symbolic link"),
            (T::Link, "a hard link"),
            (T::Char, "a device"),
            (T::Block, "a device"),
            (T::Fifo, "a FIFO"),
        ] {
            let error = unpacked(&archive(&[("x", kind, b"")])).unwrap_err();
            assert_eq!(
                error,
                ArchiveError::NotAFile {
                    kind: said,
                    path: "x".into()
                }
            );
        }
        let many: Vec<(String, T, &[u8])> = (0..11)
            .map(|i| (format!("f{i}"), T::Regular, &b""[..]))
            .collect();
        let many: Vec<(&str, T, &[u8])> =
            many.iter().map(|(p, k, b)| (p.as_str(), *k, *b)).collect();
        assert_eq!(
            unpacked(&archive(&many)),
            Err(ArchiveError::TooManyFiles(10))
        );
        assert!(matches!(
            unpacked(b"not gzip"),
            Err(ArchiveError::Malformed(_))
        ));
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        // 64 MiB of zeros in one file compress to about 64 KiB; unpacking stops at 1 MiB.
        let zeros = vec![0u8; 64 << 20];
        let bomb = archive(&[("zeros", tar::EntryType::Regular, &zeros)]);
        assert!(bomb.len() < 200 << 10, "{}", bomb.len());
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            unpack(&bomb, dir.path(), BOUNDS),
            Err(ArchiveError::TooLarge(1 << 20))
        );
        let written = std::fs::metadata(dir.path().join("zeros")).map_or(0, |m| m.len());
        assert!(written <= 1 << 20, "{written}");
    }
}
