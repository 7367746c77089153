//! The referee's cost per move against the cost of the pipes themselves, measured in one run.
//!
//! 1. Raw round trip: a line written to `cat` and read back (two processes, two pipes), with two
//!    cats alternating as a game alternates between its two bots, and the reader polling the
//!    pipe, as the referee polls for an answer before it sleeps.
//! 2. Referee move cycle: two instant bots play tic-tac-toe through the real protocol; a cycle
//!    is the time between two consecutive answers read by the referee, which covers checking the
//!    move, writing the next request, the bot waking, answering, and the referee reading the
//!    line. The bots are `instant_bot.c` (compiled here with `cc`), which costs what `cat` costs
//!    (one read and one write per move, no allocation), so that the difference from the raw
//!    round trip is the referee's own; the built-in random bot, whose own work per move (parsing
//!    every line, choosing among the legal moves) is the bot's and not the referee's, is
//!    measured beside it for reference.
//! 3. The referee's own work per move: from reading an answer to starting to write the next
//!    request (from the games' transcripts).
//!
//! On a virtual machine a cross-core wake-up costs either a few microseconds or a few tens,
//! depending on whether the other processor was asleep, and that mode changes over seconds. So
//! the two are measured in alternating batches, each batch's ratio is taken, and the median
//! ratio over the batches is the figure (target: at most 1.2), against the raw round trip whose
//! reader polls and against the one whose reader sleeps in `read` (as c-gomoku-cli does); once
//! on an idle machine and once with a spinning thread per core; then both again with the
//! measuring thread, the cats and the bots pinned to one processor, as a tournament's tables
//! run when there are as many as processors (the referee does not spin there).
//!
//! `cargo bench --bench overhead` prints every batch, the medians and the ratios.

use referee_bots::Level;
use referee_cage::cpus;
use referee_cage::limits::Limits;
use referee_cage::process_options::ProcessOptions;
use referee_cage::supervisor::Supervisor;
use referee_cage::Protocol;
use referee_core::matches::{run_match, MatchConfig};
use referee_core::players::PlayerSpec;
use referee_core::settings::Settings;
use referee_core::table::{Player, TableSettings, Venue};
use referee_records::transcript::Direction;
use referee_rules::clock::TimeControl;
use referee_rules::games::GameSpec;
use std::io::{ErrorKind, Read, Write};
use std::ops::ControlFlow;
use std::os::fd::AsRawFd;
use std::process::{Command, Stdio};
use std::time::Instant;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn summary(name: &str, mut micros: Vec<f64>) -> f64 {
    micros.sort_by(f64::total_cmp);
    let median = percentile(&micros, 0.5);
    println!(
        "{name:<28} n={:<6} median {median:>8.1} us  p10 {:>8.1}  p90 {:>8.1}",
        micros.len(),
        percentile(&micros, 0.1),
        percentile(&micros, 0.9)
    );
    median
}

/// How the raw round trips await the answer.
#[derive(Clone, Copy)]
enum Wait {
    /// Asleep in `read`: both processes are woken on every round trip.
    Sleep,
    /// Polling the pipe without sleeping, as the referee does for an answer's first 200 us
    /// (while that pays).
    Poll,
}

/// Round trips of one line through `cat`, alternating between `echoes` cats as a game
/// alternates between its two bots (so each sleeps while the other answers).
fn raw_round_trips(count: usize, echoes: usize, wait: Wait) -> Vec<f64> {
    let mut cats: Vec<_> = (0..echoes)
        .map(|_| {
            let mut cat = Command::new("cat")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("cat is needed for the raw pipe measurement");
            let input = cat.stdin.take().unwrap();
            let output = cat.stdout.take().unwrap();
            if let Wait::Poll = wait {
                let fd = output.as_raw_fd();
                // SAFETY: F_GETFL/F_SETFL on a descriptor this process owns.
                unsafe {
                    let flags = libc::fcntl(fd, libc::F_GETFL);
                    libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
                }
            }
            (cat, input, output)
        })
        .collect();
    let request = b"turn 1000\n";
    let mut buf = [0u8; 64];
    let mut times = Vec::with_capacity(count);
    for round in 0..count {
        let (_, input, output) = &mut cats[round % echoes];
        let start = Instant::now();
        input.write_all(request).unwrap();
        input.flush().unwrap();
        let mut got = 0;
        while got < request.len() {
            match output.read(&mut buf[got..]) {
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => std::hint::spin_loop(),
                Err(e) => panic!("cat: {e}"),
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e6);
        assert_eq!(&buf[..got], request);
    }
    for (mut cat, input, _) in cats {
        drop(input);
        cat.wait().unwrap();
    }
    times
}

/// Compiles `instant_bot.c` into a temporary folder and returns the program's path.
fn build_instant_bot() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-overhead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let source = dir.join("instant_bot.c");
    std::fs::write(&source, include_str!("instant_bot.c")).expect("the bot's source written");
    let program = dir.join("instant_bot");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&program)
        .arg(&source)
        .status()
        .expect("a C compiler (cc) is needed for the instant bot");
    assert!(status.success(), "instant_bot.c does not compile");
    program
}

/// Move cycles and the referee's own work per move, in microseconds, over `games` games
/// between two copies of `bot`.
fn referee_cycles(games: u32, bot: &PlayerSpec) -> (Vec<f64>, Vec<f64>) {
    let random = |label: &str| Player {
        label: label.to_string(),
        spec: bot.clone(),
        time: TimeControl::default(),
        limits: Limits::default(),
    };
    let config = MatchConfig {
        venue: Venue {
            settings: TableSettings {
                rules: Settings::default().rules(GameSpec::Tictactoe),
                process: ProcessOptions::default(),
                seed: 1,
                replay_stalled: true,
                reuse_processes: true,
            },
            referee_exe: env!("CARGO_BIN_EXE_referee").into(),
            records: None,
        },
        players: [random("A"), random("B")],
        opening: Vec::new(),
        games: Some(games),
    };
    let mut cycles = Vec::new();
    let mut own_work = Vec::new();
    run_match(
        &config,
        &Supervisor::new(),
        |game| {
            let mut lines: Vec<_> = game
                .played
                .logs
                .iter()
                .flat_map(|log| &log.transcript)
                .collect();
            lines.sort_by_key(|line| line.at);
            let is_move = |line: &str| line.len() <= 5 && line.contains(' ');
            // Answers are stamped to the nanosecond when read (the record's `at_us` is rounded
            // to whole microseconds, too coarse for a cycle of a few).
            let answers: Vec<_> = lines
                .iter()
                .filter(|line| line.direction == Direction::FromBot && is_move(&line.line))
                .map(|line| line.at)
                .collect();
            for pair in answers.windows(2) {
                cycles.push((pair[1] - pair[0]).as_secs_f64() * 1e6);
            }
            for pair in lines.windows(2) {
                if pair[0].direction == Direction::FromBot
                    && is_move(&pair[0].line)
                    && pair[1].direction == Direction::ToBot
                {
                    own_work.push((pair[1].at - pair[0].at).as_secs_f64() * 1e6);
                }
            }
            ControlFlow::Continue(())
        },
        |_| {},
    )
    .expect("the match runs");
    (cycles, own_work)
}

fn median(mut micros: Vec<f64>) -> f64 {
    micros.sort_by(f64::total_cmp);
    percentile(&micros, 0.5)
}

fn main() {
    const BATCHES: usize = 8;
    // Warm up every path once so none pays for first-touch costs.
    raw_round_trips(1000, 1, Wait::Sleep);
    raw_round_trips(1000, 2, Wait::Poll);
    let instant = PlayerSpec::Command {
        protocol: Protocol::NATIVE,
        words: vec![build_instant_bot().display().to_string()],
    };
    let random = PlayerSpec::Builtin(Level::Random.into());
    referee_cycles(10, &instant);
    referee_cycles(10, &random);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let everywhere = cpus::mask().expect("the processors this thread may use");
    let one = *cpus::allowed().last().expect("a processor");
    for (busy, pinned) in [(false, false), (true, false), (false, true), (true, true)] {
        // With every core busy, each wake-up waits for a core: what a referee meets when the
        // machine also builds, or runs a game per core.
        let _load = busy.then(|| Load::start(cores));
        // Pinned: the measuring thread, the cats and the bots on one processor, as a
        // tournament's table runs with as many tables as processors.
        if pinned {
            cpus::pin_current_thread(one).expect("pinned");
        } else {
            cpus::restrict_to(&everywhere).expect("unpinned");
        }
        let mode = match (busy, pinned) {
            (false, false) => "idle".to_string(),
            (true, false) => format!("{cores} cores busy"),
            (false, true) => format!("pinned to processor {one}, idle"),
            (true, true) => format!("pinned to processor {one}, {cores} cores busy"),
        };
        println!("--- {mode}");
        let (mut raw, mut sleeping, mut cycles, mut own_work) = (vec![], vec![], vec![], vec![]);
        let mut random_cycles = vec![];
        let (mut ratios, mut sleep_ratios) = (vec![], vec![]);
        for batch in 1..=BATCHES {
            let batch_raw = raw_round_trips(2_000, 2, Wait::Poll);
            let batch_sleeping = raw_round_trips(2_000, 2, Wait::Sleep);
            let (batch_cycles, batch_own) = referee_cycles(250, &instant);
            let (batch_random, _) = referee_cycles(150, &random);
            let cycle = median(batch_cycles.clone());
            let ratio = cycle / median(batch_raw.clone());
            let sleep_ratio = cycle / median(batch_sleeping.clone());
            println!(
                "batch {batch:>2}: raw polling {:>6.1} us  raw sleeping {:>6.1} us  cycle {cycle:>6.1} us (built-in random bots {:>6.1})  ratios {ratio:.2} {sleep_ratio:.2}",
                median(batch_raw.clone()),
                median(batch_sleeping.clone()),
                median(batch_random.clone()),
            );
            raw.extend(batch_raw);
            sleeping.extend(batch_sleeping);
            cycles.extend(batch_cycles);
            random_cycles.extend(batch_random);
            own_work.extend(batch_own);
            ratios.push(ratio);
            sleep_ratios.push(sleep_ratio);
        }
        summary("raw, two cats, reader polls", raw);
        summary("raw, two cats, reader sleeps", sleeping);
        summary("referee move cycle", cycles);
        summary("referee's own work per move", own_work);
        summary("cycle, built-in random bots", random_cycles);
        for (against, mut ratios) in [("polling", ratios), ("sleeping", sleep_ratios)] {
            ratios.sort_by(f64::total_cmp);
            println!(
                "{mode}: move cycle / raw round trip ({against}), per batch: median {:.2}, best {:.2}, worst {:.2} (target: at most 1.2)",
                percentile(&ratios, 0.5),
                ratios[0],
                ratios[BATCHES - 1]
            );
        }
    }
}

/// Threads keeping every core busy until dropped.
struct Load {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(threads: usize) -> Load {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..threads)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
