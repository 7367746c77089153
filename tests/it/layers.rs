//! The layers of the workspace, each a crate: the compiler refuses an import of a crate that
//! is not a dependency, and this test refuses a dependency that runs up the layers, so that
//! neither a `use` nor a line in a Cargo.toml can cross them by accident.

use crate::common::repo_file;
use std::collections::BTreeSet;
use std::fs;

/// The crates from the bottom up, each with the crates below it that it may depend on.
const LAYERS: [(&str, &[&str]); 8] = [
    ("rules", &[]),
    ("bots", &["rules"]),
    ("records", &["rules"]),
    ("cage", &["rules", "records"]),
    ("core", &["rules", "bots", "records", "cage"]),
    ("web", &["rules", "records", "cage", "core"]),
    ("contest", &["rules", "records", "cage", "core", "web"]),
    (
        "arena",
        &["rules", "records", "cage", "core", "web", "contest"],
    ),
];

/// The workspace's crates that a manifest depends on, in any dependency table.
fn referee_dependencies(manifest: &toml::Table) -> BTreeSet<String> {
    ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|table| manifest.get(*table).and_then(toml::Value::as_table))
        .flat_map(|table| table.keys())
        .filter_map(|name| name.strip_prefix("referee-"))
        .map(String::from)
        .collect()
}

#[test]
fn no_crate_depends_on_a_crate_above_it() {
    let listed: BTreeSet<String> = fs::read_dir(repo_file("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let layered: BTreeSet<String> = LAYERS.iter().map(|(name, _)| (*name).to_string()).collect();
    assert_eq!(listed, layered, "every crate has its place in LAYERS");
    for (name, below) in LAYERS {
        let text = fs::read_to_string(repo_file(&format!("crates/{name}/Cargo.toml"))).unwrap();
        let manifest: toml::Table = text.parse().unwrap();
        let allowed: BTreeSet<String> = below.iter().map(|name| (*name).to_string()).collect();
        let upward: Vec<String> = referee_dependencies(&manifest)
            .difference(&allowed)
            .cloned()
            .collect();
        assert!(upward.is_empty(), "{name} depends on {upward:?}, above it");
    }
}
