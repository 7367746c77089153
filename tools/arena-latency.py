#!/usr/bin/env python3
"""How long a person's move takes to reach the opponent's board and the spectators', in an
arena on this machine, and how many spectators one game holds before that delay doubles.

    cargo build --release
    python3 tools/arena-latency.py --referee target/release/referee --spectators 1,10,50,100

Two people (signed up over the API, as their pages do) play tic-tac-toe by invitation, each
move sent as a click sends it; the opponent's page hears of it by its server-sent events and
fetches its state (the delay counts until that state shows the move), and each spectator
follows the live page's events and fetches the game's live view (until it shows the move).
For each number of spectators, a new game: the median and worst delay over its moves.
"""

import argparse
import http.cookiejar
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


class Person:
    def __init__(self, url, name):
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self.get("/api/session")["page_token"]
        self.post("/api/signup", {"name": name, "password": "a long password"})

    def get(self, path):
        with self.opener.open(self.url + path, timeout=30) as answer:
            return json.loads(answer.read())

    def post(self, path, body, raw=False):
        data = body.encode() if raw else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="POST")
        request.add_header("x-referee-page", self.token)
        if not raw:
            request.add_header("content-type", "application/json")
        with self.opener.open(request, timeout=30) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def events(self, path):
        return self.opener.open(self.url + path, timeout=600)


def follow(stream, on_event, stop):
    """Calls on_event at each `changed` event of an event stream, until stop is set."""
    for line in stream:
        if stop.is_set():
            return
        if line.startswith(b"event: changed"):
            on_event()


def play_one(url, spectators):
    ann, bob = Person(url, "ann%d" % spectators), Person(url, "bob%d" % spectators)
    ann.post("/api/invitations", {"ladder": "tictactoe", "to": "bob%d" % spectators})
    invitation = [i for i in bob.get("/api/invitations") if i["state"] == "waiting"][0]
    game = bob.post("/api/invitations/%d/accept" % invitation["id"], {})["game"]
    stop = threading.Event()
    seen = {}  # who -> moves seen, with when

    def watcher(who, fetch):
        def on_event():
            try:
                moves = fetch()
            except OSError as error:  # said, and the next event fetches again
                print("%s: %s" % (who, error), file=sys.stderr)
                return
            seen.setdefault(who, {}).setdefault(moves, time.perf_counter())
        return on_event

    people = {"ann": ann, "bob": bob}
    for who, person in people.items():
        stream = person.events("/api/people/%d/events" % game)
        fetch = (lambda p: lambda: len(p.get("/api/people/%d/state" % game)["moves"]))(person)
        threading.Thread(target=follow, args=(stream, watcher(who, fetch), stop), daemon=True).start()
    for n in range(spectators):
        opener = urllib.request.build_opener()
        stream = opener.open(url + "/api/events", timeout=600)

        def fetch(opener=opener):
            with opener.open(url + "/api/game/live%%2Ftictactoe/%d" % game, timeout=30) as answer:
                return len(json.loads(answer.read())["record"]["moves"])
        threading.Thread(target=follow, args=(stream, watcher("s%d" % n, fetch), stop), daemon=True).start()
    time.sleep(1)
    to_opponent, to_spectators = [], []
    moves = 0
    while True:
        states = {who: person.get("/api/people/%d/state" % game) for who, person in people.items()}
        if any(state["over"] for state in states.values()):
            break
        mover = [who for who, state in states.items() if state["your_turn"]]
        if not mover:
            time.sleep(0.01)
            continue
        who = mover[0]
        other = "bob" if who == "ann" else "ann"
        sent = time.perf_counter()
        people[who].post("/api/people/%d/move" % game, states[who]["legal"][0], raw=True)
        moves += 1
        deadline = sent + 10
        watchers = [other] + ["s%d" % n for n in range(spectators)]
        while time.perf_counter() < deadline and not all(moves in seen.get(w, {}) for w in watchers):
            time.sleep(0.002)
        to_opponent.append(seen.get(other, {}).get(moves, deadline) - sent)
        if spectators:
            to_spectators.append(max(seen.get("s%d" % n, {}).get(moves, deadline) for n in range(spectators)) - sent)
    stop.set()
    return to_opponent, to_spectators


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", default="target/release/referee")
    parser.add_argument("--spectators", default="1,10,50,100")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        arena = os.path.join(tmp, "arena")
        subprocess.run([args.referee, "arena", "init", arena], check=True, stdout=subprocess.DEVNULL)
        server = subprocess.Popen([args.referee, "arena", "serve", arena, "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = server.stdout.readline()
            url = line[line.index("http://"):].split()[0].rstrip("/")
            print("%-11s %18s %18s" % ("spectators", "to opponent ms", "to spectators ms"))
            print("%-11s %9s %8s %9s %8s" % ("", "median", "worst", "median", "worst"))
            for count in [int(n) for n in args.spectators.split(",")]:
                opponent, spectators = play_one(url, count)
                ms = lambda values, f: "%.0f" % (f(values) * 1000) if values else "-"
                print("%-11d %9s %8s %9s %8s" % (count, ms(opponent, statistics.median), ms(opponent, max),
                                                 ms(spectators, statistics.median), ms(spectators, max)))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main())
