//! Refuses to build the referee for a system it cannot run bots on, with a message that says
//! why and what to do, rather than a wall of errors from calls only Linux has.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        eprintln!(
            "referee runs bots on Linux only, and this build is for {os}: it needs what only \
             Linux has (prctl's child subreaper, /proc, cgroups for the processes limit, \
             bubblewrap for the sandbox). Build and run it on Linux: on Windows in WSL 2, on \
             macOS in a Linux virtual machine or container (for example `docker run -it -v \
             \"$PWD\":/src -w /src rust cargo build --release`)."
        );
        std::process::exit(1);
    }
}
