#!/usr/bin/env bash
# Brings up (or stops) a one-node Slurm cluster on this machine from Debian's packages
# (slurm-wlm, munge), as root and without systemd: munged, slurmctld and slurmd started
# directly with a slurm.conf naming this host as the controller and the only node. Enough to
# run `sbatch --array` for real, as tests/it/slurm.rs and tools/slurm-contest.sh do.
#
#     tools/slurm-local.sh start     # idempotent: does nothing if the cluster answers already
#     tools/slurm-local.sh stop      # stops the daemons this script started (munged too, if it did)
set -euo pipefail

host=$(hostname -s)
cpus=$(nproc)
conf=/etc/slurm/slurm.conf
state=/var/lib/referee-slurm

start() {
  if sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then
    echo "slurm: already up on $host"
    return
  fi
  mkdir -p /etc/slurm "$state"/{ctld,d} /run/munge /var/log/munge /var/lib/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chmod 0400 /etc/munge/munge.key
  # Root runs everything here: munged refuses that unless forced.
  chown -R root:root /etc/munge /run/munge /var/log/munge /var/lib/munge
  if ! pgrep -x munged >/dev/null; then
    munged --force
    # Stopped by `stop` only if started here.
    touch "$state/munged.started"
  fi
  cat > "$conf" <<CONF
# Written by tools/slurm-local.sh: one node, this host, everything as root.
ClusterName=referee
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  for daemon in slurmctld slurmd; do
    if ! pgrep -x "$daemon" >/dev/null && ! "$daemon"; then
      echo "slurm: $daemon did not start; see $state/$daemon.log" >&2
      exit 1
    fi
  done
  for _ in $(seq 1 30); do
    if sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then
      echo "slurm: up on $host ($cpus CPUs)"
      return
    fi
    sleep 1
  done
  echo "slurm: the node did not come up; see $state/slurmctld.log and $state/slurmd.log" >&2
  exit 1
}

stop() {
  for daemon in slurmd slurmctld; do
    if [ -s "$state/$daemon.pid" ]; then
      kill "$(cat "$state/$daemon.pid")" 2>/dev/null || true
    fi
  done
  if [ -e "$state/munged.started" ] && [ -s /run/munge/munged.pid ]; then
    kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    rm -f "$state/munged.started"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
