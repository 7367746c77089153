//! The `referee` command: the command line over the workspace's crates (see
//! docs/development.md for what each crate owns).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
