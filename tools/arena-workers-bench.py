#!/usr/bin/env python3
"""Arena throughput on SQLite, on PostgreSQL with the server's own slots, and with workers;
and what the queue's coordination (claim, lease renewals, commit) costs a game.

    cargo build --release
    python3 tools/arena-workers-bench.py --referee target/release/referee [--seconds 20]

Needs bubblewrap, gcc and a running PostgreSQL whose socket is /var/run/postgresql and where
this user may create databases (as .ci/run sets up). Two copies of an instant C bot
(tests/bots/first_free.c, built by the arena in its box, and by each worker in its own) at
tic-tac-toe with the three built-in bosses, the ladder's settings as `referee arena init`
writes them: for each set-up, a fresh arena (a fresh database), the games stored a second
over --seconds once the placement games are done. Each player reports its coordination cost
every 100 games it stores (on its stderr: "coordination X ms a game (claim, renew, commit)");
the last report of each is printed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def get(url, path):
    with urllib.request.urlopen(url + path, timeout=30) as answer:
        return json.loads(answer.read())


class Arena:
    def __init__(self, referee, work, database, server_slots):
        self.referee, self.work, self.database = referee, work, database
        self.folder = os.path.join(work, "arena")
        self.children, self.logs = [], {}
        subprocess.run([referee, "arena", "init", self.folder], check=True,
                       stdout=subprocess.DEVNULL)
        extra = ["--database", database] if database else []
        self.server = self.start("server", ["arena", "serve", self.folder, "--port", "0",
                                            "--slots", str(server_slots)] + extra,
                                 stdout=subprocess.PIPE)
        line = self.server.stdout.readline().decode()
        self.url = re.search(r"http://\S+", line).group(0)
        token = subprocess.run([referee, "arena", "token", self.folder, "bench"] + extra,
                               check=True, capture_output=True, text=True).stdout.strip()
        bot = os.path.join(work, "bot")
        os.makedirs(bot, exist_ok=True)
        with open(os.path.join(ROOT, "tests/bots/first_free.c")) as source, \
                open(os.path.join(bot, "main.c"), "w") as copy:
            copy.write(source.read())
        for name in ("ff-a", "ff-b"):
            subprocess.run([referee, "arena", "submit", "--server", self.url, "--token", token,
                            "--ladder", "tictactoe", "--name", name, "--wait", bot],
                           check=True, stdout=subprocess.DEVNULL)

    def start(self, name, args, stdout=subprocess.DEVNULL):
        log = open(os.path.join(self.work, name + ".log"), "w")
        self.logs[name] = log.name
        child = subprocess.Popen([self.referee] + args, stdout=stdout, stderr=log,
                                 stdin=subprocess.DEVNULL)
        self.children.append(child)
        return child

    def worker(self, name, slots):
        self.start(name, ["arena", "worker", "--database", self.database, "--name", name,
                          "--slots", str(slots), "--cache", os.path.join(self.work, name)])

    def games(self):
        return get(self.url, "/api/status")["games"]

    def rate(self, seconds):
        while self.games() < 12:
            time.sleep(0.1)
        start, at = self.games(), time.monotonic()
        time.sleep(seconds)
        return (self.games() - start) / (time.monotonic() - at)

    def costs(self):
        found = {}
        for name, path in self.logs.items():
            reports = re.findall(r"coordination .*", open(path).read())
            if reports:
                found[name] = reports[-1]
        return found

    def stop(self):
        for child in self.children:
            child.kill()
            child.wait()


def database(name):
    subprocess.run(["createdb", name], check=True)
    return "postgres:///%s?host=/var/run/postgresql" % name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--referee", default=os.path.join(ROOT, "target/release/referee"))
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    setups = [
        ("SQLite, the server's 2 slots", False, 2, []),
        ("PostgreSQL, the server's 2 slots", True, 2, []),
        ("PostgreSQL, 1 worker of 1 slot", True, 0, [1]),
        ("PostgreSQL, 2 workers of 1 slot", True, 0, [1, 1]),
        ("PostgreSQL, 1 worker of 2 slots", True, 0, [2]),
    ]
    rates = {}
    for at, (label, postgres, server_slots, workers) in enumerate(setups):
        name = "referee_bench_%d_%d" % (os.getpid(), at)
        url = database(name) if postgres else None
        with tempfile.TemporaryDirectory() as work:
            arena = Arena(args.referee, work, url, server_slots)
            try:
                for number, slots in enumerate(workers):
                    arena.worker("w%d" % number, slots)
                rates[label] = arena.rate(args.seconds)
                costs = arena.costs()
            finally:
                arena.stop()
        if postgres:
            subprocess.run(["dropdb", "--force", name], check=True)
        print("%-36s %6.1f games/s" % (label, rates[label]))
        for player, report in sorted(costs.items()):
            print("    %s: %s" % (player, report))
        sys.stdout.flush()
    first = rates[setups[0][0]]
    for label, rate in rates.items():
        print("%-36s %5.2f of SQLite's" % (label, rate / first))


if __name__ == "__main__":
    main()
