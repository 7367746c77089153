//! What a build held when the referee made it: every folder and file of the built tree, each
//! file with its executable bit and the SHA-256 of its bytes. The referee writes it beside the
//! tree at build time and checks the tree against it whenever the cached build is used: a
//! build rewritten in the cache since (by a saboteur, a full disk, a stray `rm`) is built again
//! rather than run.

use referee_rules::quote;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A built tree's folders and files, in path order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    entries: Vec<Entry>,
}

/// One folder or file: its path (relative, as the hex of its bytes: names need not be UTF-8)
/// and, for a file, its executable bit and the SHA-256 of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
struct Entry {
    path: String,
    file: Option<(bool, String)>,
}

/// The most a manifest file may hold: a build's files are bounded by its output cap.
const MAX_MANIFEST_BYTES: u64 = 64 << 20;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len() / 2)
        .filter_map(|at| u8::from_str_radix(text.get(2 * at..2 * at + 2)?, 16).ok())
        .collect()
}

impl Manifest {
    /// The manifest of the tree at `root`; a symlink or special file in it is an error (the
    /// referee unpacks none into a build).
    pub(crate) fn of_tree(root: &Path) -> io::Result<Manifest> {
        let mut entries = Vec::new();
        let mut pending = vec![PathBuf::new()];
        while let Some(relative) = pending.pop() {
            let dir = root.join(&relative);
            for entry in std::fs::read_dir(&dir)? {
                let entry = entry?;
                let kind = entry.file_type()?;
                let path = relative.join(entry.file_name());
                let file = if kind.is_dir() {
                    pending.push(path.clone());
                    None
                } else if kind.is_file() {
                    let executable = entry.metadata()?.permissions().mode() & 0o111 != 0;
                    Some((executable, file_hash(&entry.path())?))
                } else {
                    return Err(io::Error::other(format!(
                        "{} is neither a folder nor a file",
                        quote::shorten(&path.to_string_lossy(), 80)
                    )));
                };
                entries.push(Entry {
                    path: hex(path.as_os_str().as_bytes()),
                    file,
                });
            }
        }
        entries.sort();
        Ok(Manifest { entries })
    }

    /// Writes the manifest into the file `to`.
    pub(crate) fn write(&self, to: &Path) -> io::Result<()> {
        std::fs::write(to, serde_json::to_vec(self).map_err(io::Error::other)?)
    }

    /// Checks the tree at `root` against the manifest in the file `manifest`: `None` when they
    /// agree, else what differs first (escaped), or that there is no manifest to check by.
    pub(crate) fn check(root: &Path, manifest: &Path) -> Option<String> {
        let mut bytes = Vec::new();
        let read = std::fs::File::open(manifest)
            .and_then(|file| file.take(MAX_MANIFEST_BYTES).read_to_end(&mut bytes));
        let Some(kept) = read
            .ok()
            .and_then(|_| serde_json::from_slice::<Manifest>(&bytes).ok())
        else {
            return Some("it has no manifest the referee wrote".into());
        };
        let now = match Manifest::of_tree(root) {
            Ok(now) => now,
            Err(error) => return Some(format!("it cannot be read whole: {error}")),
        };
        kept.first_difference(&now)
    }

    /// What differs first between the manifest kept and the tree's now, in path order.
    fn first_difference(&self, now: &Manifest) -> Option<String> {
        let name = |entry: &Entry| {
            let bytes = unhex(&entry.path);
            quote::shorten(&String::from_utf8_lossy(&bytes), 80)
        };
        let (mut kept, mut found) = (self.entries.iter(), now.entries.iter());
        loop {
            match (kept.next(), found.next()) {
                (None, None) => return None,
                (Some(k), Some(f)) if k == f => {}
                (Some(k), Some(f)) if k.path == f.path => {
                    return Some(format!("{} was changed", name(k)));
                }
                (Some(k), Some(f)) if k.path < f.path => {
                    return Some(format!("{} was removed", name(k)));
                }
                (Some(k), None) => return Some(format!("{} was removed", name(k))),
                (_, Some(f)) => return Some(format!("{} was added", name(f))),
            }
        }
    }
}

/// The SHA-256 of a file's bytes, in hex.
fn file_hash(path: &Path) -> io::Result<String> {
    let mut hash = Sha256::new();
    let mut file = std::fs::File::open(path)?;
    io::copy(&mut file, &mut hash)?;
    Ok(hex(&hash.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_changed_since_its_manifest_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("bot");
        std::fs::create_dir_all(root.join("lib")).unwrap();
        std::fs::write(root.join("main"), "run me").unwrap();
        std::fs::write(root.join("lib/data"), "weights").unwrap();
        let manifest = dir.path().join("manifest.json");
        assert_eq!(
            Manifest::check(&root, &manifest).as_deref(),
            Some("it has no manifest the referee wrote")
        );
        Manifest::of_tree(&root).unwrap().write(&manifest).unwrap();
        assert_eq!(Manifest::check(&root, &manifest), None);
        let expect = |what: &str| {
            assert_eq!(Manifest::check(&root, &manifest).as_deref(), Some(what));
        };
        std::fs::write(root.join("main"), "run ME").unwrap();
        expect("main was changed");
        std::fs::write(root.join("main"), "run me").unwrap();
        std::fs::set_permissions(root.join("main"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        expect("main was changed");
        std::fs::set_permissions(root.join("main"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        std::fs::write(root.join("evil\x1b"), "").unwrap();
        expect("evil\\x1b was added");
        std::fs::remove_file(root.join("evil\x1b")).unwrap();
        std::fs::remove_file(root.join("lib/data")).unwrap();
        expect("lib/data was removed");
        std::fs::write(root.join("lib/data"), "weights").unwrap();
        assert_eq!(Manifest::check(&root, &manifest), None);
        std::os::unix::fs::symlink("/etc/passwd", root.join("lib/link")).unwrap();
        let said = Manifest::check(&root, &manifest).unwrap();
        assert!(said.contains("neither a folder nor a file"), "{said}");
        std::fs::write(&manifest, "{not json").unwrap();
        expect("it has no manifest the referee wrote");
    }
}
