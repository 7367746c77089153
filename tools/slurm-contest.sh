#!/usr/bin/env bash
# Plays a contest on a Slurm cluster: builds and checks its players once, here; plays its
# tournament as a job array, one shard per task; waits; merges the shards' journals into the
# standings. The output directory must be on a file system every node sees (the builds, the
# tournament file, the journals and records all go there).
#
#     tools/slurm-contest.sh CONTEST.toml OUT SHARDS [SBATCH OPTION...]
#
# e.g. tools/slurm-contest.sh contests/cup.toml /shared/cup 16 --partition=batch --time=2:00:00
#
# REFEREE names the referee executable (default: referee on the PATH); JOBS the games each task
# plays at once (default 1: each task asks Slurm for 2 CPUs, a game's two bots). Every node needs
# the referee's runtime: the language runtimes the players run with (a JVM, python3, node; the
# compiled ones need none) and bubblewrap if the contest sandboxes its bots. Compilers are needed
# only here, where the players are built.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 CONTEST.toml OUT SHARDS [SBATCH OPTION...]" >&2
  exit 2
fi
contest=$1 out=$2 shards=$3
shift 3
referee=$(command -v "${REFEREE:-referee}")
jobs=${JOBS:-1}
mkdir -p "$out"
out=$(cd "$out" && pwd -P)

# --resume: a rerun into the same folder (after a resubmission) reuses the builds and checks,
# and carries the shards' finished games over to the new field, dropping those of a player
# who changed; the shards then play what is left.
"$referee" contest "$contest" --prepare-only --resume --out "$out"

# --resume: a task that Slurm requeues continues its shard's journal.
script="$out/shard.sbatch"
cat > "$script" <<SCRIPT
#!/bin/sh
#SBATCH --job-name=referee-shard
#SBATCH --cpus-per-task=$((2 * jobs))
exec "$referee" tournament "$out/tournament.toml" --shard "\$SLURM_ARRAY_TASK_ID/$shards" --out "$out" -j $jobs --resume
SCRIPT
started=$(date +%s%N)
sbatch --array="1-$shards" --wait --output="$out/slurm-%A-%a.log" "$@" "$script"
ended=$(date +%s%N)
echo "slurm: $shards shards played in $(((ended - started) / 1000000)) ms (logs: $out/slurm-*.log)"

journals=()
for k in $(seq 1 "$shards"); do
  journals+=("$out/journal-$k-of-$shards.jsonl")
done
"$referee" standings "${journals[@]}" --json "$out/standings.json" --csv "$out/standings.csv"
"$referee" contest "$contest" --out "$out" --page-only
