//! The systems the referee builds for: Linux only, and elsewhere a build that fails with a
//! message saying so (build.rs), rather than with errors from Linux-only calls.

use crate::common::repo_file;
use std::process::Command;

#[test]
fn the_build_refuses_other_systems_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("build-script");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let compiled = Command::new(rustc)
        .args(["--edition", "2021", "-o"])
        .arg(&script)
        .arg(repo_file("build.rs"))
        .output()
        .unwrap();
    assert!(compiled.status.success(), "{compiled:?}");
    let run = |os: &str| {
        Command::new(&script)
            .env("CARGO_CFG_TARGET_OS", os)
            .output()
            .unwrap()
    };
    let linux = run("linux");
    assert!(linux.status.success(), "{linux:?}");
    for os in ["macos", "windows"] {
        let other = run(os);
        let stderr = String::from_utf8_lossy(&other.stderr);
        assert!(!other.status.success(), "{os}");
        assert!(
            stderr.starts_with(&format!(
                "referee runs bots on Linux only, and this build is for {os}:"
            )) && stderr.contains("on Windows in WSL 2, on macOS in a Linux virtual machine"),
            "{stderr}"
        );
    }
}
