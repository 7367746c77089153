//! The cluster path for real: a one-node Slurm from Debian's packages (tools/slurm-local.sh),
//! a contest prepared once and played as a job array of 4 shards (tools/slurm-contest.sh), the
//! shards' journals merged by `referee standings`, and the result equal to the same contest
//! played on one machine. Needs root and the packages slurm-wlm and munge (.ci/run installs
//! them); it is ignored by a plain `cargo test` and run by `.ci/run` with `--include-ignored`.

use crate::common::{repo_file, succeeded};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// A deterministic field: two copies of tests/bots/first_free.py from sources and the seeded built-in
/// random and greedy bots, in a round robin of 6 games per pairing. A contest plays each game
/// in fresh processes unless its file says otherwise (a reused built-in bot would draw on from
/// where its last game left its generator, which depends on the games a shard gave it): the
/// file leaves that to the default.
fn write_contest(dir: &Path) -> std::path::PathBuf {
    let bot = std::fs::read_to_string(repo_file("tests/bots/first_free.py")).unwrap();
    for name in ["ada", "bea"] {
        let folder = dir.join("subs").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("main.py"), &bot).unwrap();
    }
    let config = dir.join("cluster-cup.toml");
    std::fs::write(
        &config,
        format!(
            "game = \"tictactoe\"\ngames = 6\nopenings = {{ plies = 2 }}\nsources = \"{}\"\n[[players]]\nname = \"rnd\"\nbuiltin = \"random\"\n[[players]]\nname = \"grd\"\nbuiltin = \"greedy\"\n",
            dir.join("subs").display()
        ),
    )
    .unwrap();
    config
}

fn run(command: &mut Command) -> String {
    succeeded(&command.output().unwrap())
}

#[test]
#[ignore = "needs root, slurm-wlm and munge; .ci/run runs it"]
fn a_contest_sharded_over_a_slurm_job_array_equals_the_single_machine_run() {
    let root = nix::unistd::geteuid().is_root();
    let installed = [
        "/usr/sbin/slurmctld",
        "/usr/sbin/slurmd",
        "/usr/sbin/munged",
        "/usr/bin/sbatch",
    ]
    .iter()
    .all(|path| Path::new(path).exists());
    assert!(
        root && installed,
        "the Slurm test needs root and Debian's slurm-wlm and munge (apt-get install slurm-wlm munge)"
    );
    let started = run(Command::new(repo_file("tools/slurm-local.sh")).arg("start"));
    let dir = tempfile::tempdir().unwrap();
    let config = write_contest(dir.path());
    let referee = env!("CARGO_BIN_EXE_referee");

    let single = dir.path().join("single");
    let clock = Instant::now();
    run(Command::new(referee)
        .args(["contest", config.to_str().unwrap(), "-j", "2", "--out"])
        .arg(&single));
    let single_time = clock.elapsed();

    let cluster = dir.path().join("cluster");
    let clock = Instant::now();
    let shown = run(Command::new(repo_file("tools/slurm-contest.sh"))
        .arg(&config)
        .arg(&cluster)
        .arg("4")
        .env("REFEREE", referee));
    let cluster_time = clock.elapsed();
    println!(
        "contest on one machine (-j 2): {:.1} s; as a Slurm job array of 4 shards: {:.1} s",
        single_time.as_secs_f64(),
        cluster_time.as_secs_f64()
    );
    if !started.contains("already up") {
        run(Command::new(repo_file("tools/slurm-local.sh")).arg("stop"));
    }

    for k in 1..=4 {
        assert!(
            cluster.join(format!("journal-{k}-of-4.jsonl")).is_file(),
            "{shown}"
        );
    }
    let read = |path: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let merged = read(&cluster.join("standings.json"));
    assert_eq!(merged["games"], 36, "{merged}");
    assert_eq!(merged, read(&single.join("standings.json")));
    // The same results page, its contest's standings merged from the shards.
    let contest_data = |out: &Path| {
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        let opening = "<script type=\"application/json\" id=\"referee-data\">";
        let start = html.find(opening).unwrap() + opening.len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        data["contest"].clone()
    };
    let (paged, single_page) = (contest_data(&cluster), contest_data(&single));
    assert_eq!(paged["standings"]["standings"]["games"], 36, "{paged}");
    assert_eq!(
        paged["standings"]["standings"]["players"],
        single_page["standings"]["standings"]["players"]
    );
    assert_eq!(paged["entrants"].as_array().unwrap().len(), 4, "{paged}");
}
