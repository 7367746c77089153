#!/usr/bin/env python3
"""The arena's figures at scale: an arena holding many stored games, and how fast its pages'
requests are answered, how big its database is and how much memory its server holds.

    cargo build --release
    python3 tools/arena-figures.py --referee target/release/referee --games 100000

It makes an arena (`referee arena init`) in a temporary folder, lets `referee arena serve`
create its database, stops it, then stores BOTS bots (built-in random, owned by one user) and
GAMES games between them in the tic-tac-toe ladder with Python's sqlite3 (results drawn at
random, seeded), as the arena itself stores them but without playing (the figures are about
the database and the pages, not the games). The server is started again with no game slot
playing (the ladder paused) and the ratings recomputed from the games (`/api/admin/rerate`);
each page's request is then timed REPEAT times (the median and the worst are printed), and
the database's bytes per game and the server's resident memory are read.
"""

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def start(referee, arena):
    server = subprocess.Popen(
        [referee, "arena", "serve", arena, "--port", "0", "--slots", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    url = line[line.index("http://"):].split()[0].rstrip("/")
    return server, url


def call(url, path, token=None, method="GET"):
    request = urllib.request.Request(url + path, method=method, data=b"" if method == "POST" else None)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as answer:
        body = answer.read()
    return time.perf_counter() - started, json.loads(body)


def fill(db, bots, games, seed):
    rng = random.Random(seed)
    con = sqlite3.connect(db)
    now = int(time.time())
    con.execute("INSERT INTO users (id, name, password_hash, is_admin, created_at) VALUES (1000, 'owner', NULL, 0, ?)", (now,))
    versions = []
    for i in range(bots):
        bot, version = 1000 + i, 1000 + i
        con.execute("INSERT INTO bots (id, ladder, name, owner_id, builtin, active_version, retired, created_at) "
                    "VALUES (?, 'tictactoe', ?, 1000, NULL, ?, 0, ?)", (bot, "bot%02d" % i, version, now))
        con.execute("INSERT INTO versions (id, bot_id, number, protocol, language, archive_hash, state, command, "
                    "created_at, updated_at) VALUES (?, ?, 1, 'native', 'python', '', 'passed', 'builtin:random', ?, ?)",
                    (version, bot, now, now))
        versions.append(version)
    (last,) = con.execute("SELECT COALESCE(MAX(number), 0) FROM games").fetchone()
    (last_id,) = con.execute("SELECT COALESCE(MAX(scheduled_id), 0) FROM games").fetchone()
    rows = []
    for n in range(1, games + 1):
        first, second = rng.sample(versions, 2)
        winner = rng.choice([0, 1, None])
        rows.append((last + n, last_id + n, first, second, winner,
                     "line" if winner is not None else "draw", "", rng.randint(5, 9),
                     "records/tictactoe/%06d.json" % n, now))
    con.executemany("INSERT INTO games (number, scheduled_id, ladder, first_version, second_version, winner, reason, "
                    "detail, moves, placement, record, finished_at) VALUES (?, ?, 'tictactoe', ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                    rows)
    con.execute("UPDATE ladders SET paused = 1")
    con.commit()
    con.close()


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", default="target/release/referee")
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        arena = os.path.join(tmp, "arena")
        subprocess.run([args.referee, "arena", "init", arena], check=True, stdout=subprocess.DEVNULL)
        server, url = start(args.referee, arena)
        call(url, "/api/status")
        server.kill()
        server.wait()
        db = os.path.join(arena, "arena.db")
        empty = os.path.getsize(db)
        filled_at = time.perf_counter()
        fill(db, args.bots, args.games, args.seed)
        print("stored %d games between %d bots in %.1f s" % (args.games, args.bots, time.perf_counter() - filled_at))
        token = subprocess.run([args.referee, "arena", "token", arena, "admin", "--admin"], check=True,
                               capture_output=True, text=True).stdout.strip()
        server, url = start(args.referee, arena)
        try:
            took, answer = call(url, "/api/admin/rerate", token, "POST")
            print("ratings recomputed from the games: %.0f ms (%d versions)" % (took * 1000, answer["versions"]))
            pages = [
                ("leaderboard", "/api/ladders/tictactoe/leaderboard"),
                ("a bot", "/api/ladders/tictactoe/bots/bot07"),
                ("its rating history", "/api/ladders/tictactoe/bots/bot07/history"),
                ("the last 1000 games", "/api/ladders/tictactoe/games?limit=1000"),
            ]
            print("%-22s %10s %10s" % ("request", "median ms", "worst ms"))
            for name, path in pages:
                times = [call(url, path)[0] * 1000 for _ in range(args.repeat)]
                print("%-22s %10.1f %10.1f" % (name, statistics.median(times), max(times)))
            size = sum(os.path.getsize(os.path.join(arena, f)) for f in os.listdir(arena) if f.startswith("arena.db"))
            print("database: %.1f MiB, %.0f bytes a game" % (size / 2**20, (size - empty) / args.games))
            print("server's resident memory: %.1f MiB" % rss_mib(server.pid))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
