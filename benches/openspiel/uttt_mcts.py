#!/usr/bin/env python3
"""OpenSpiel's own MCTS (the C++ `MCTSBot`) as a referee bot for ultimate tic-tac-toe.

Issue 19 sets the strong bot a target against OpenSpiel's MCTS at equal time. This file runs
the real thing through the protocol (protocol.md), as the issue measured it, so that the
benchmark in `benches/uttt_strength` (a rebuild of the same algorithm in Rust) is not the only
figure. It needs OpenSpiel's Python package, which PyPI has as a wheel (2.0.2 or later: 1.5 puts
the wrong player's mark in a board chosen on a free move, OpenSpiel's pull request 1567, and
this bot refuses to start with it):

    python3 -m venv /tmp/openspiel && /tmp/openspiel/bin/pip install open_spiel==2.0.2
    referee tournament benches/openspiel/uttt-100ms.toml -j 2 --out /tmp/openspiel-100

Settings: those of OpenSpiel's MCTS example (`mcts_example.cc`): exploration constant 2,
ten random rollouts per leaf, MCTS-Solver on, 1000 MB of tree at most, a new tree every step.

Time: OpenSpiel's MCTS stops after a number of simulations, not at a time, so this bot measures
how many simulations a second its searches run and asks each search for as many as fit in its
budget. The budget is the built-in bots' for a per-move limit: 0.8 of the limit less 30 ms. A
search cannot be stopped at a time, so one that runs slow (a load spike) may still lose on time.
It prints each search's simulations and time to stderr, which the referee keeps in its records.

OpenSpiel splits a move with a free choice of board in two decisions of the same player (the
board, then the cell), each a search of its own; here the two share the move's budget half and
half, so the move as a whole takes the same time as any other.
"""

import importlib.metadata
import random
import sys
import time

import pyspiel

# The first release whose ultimate tic-tac-toe marks a board chosen on a free move for the
# player who chose it (OpenSpiel's pull request 1567).
FIRST_SOUND_VERSION = (2, 0, 2)

UCT_C = 2.0
ROLLOUTS = 10
MAX_MEMORY_MB = 1000
SOLVE = True
SHARE_OF_MOVE = 0.8
RESERVE_S = 0.030


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def debug(*words):
    print(*words, file=sys.stderr, flush=True)


class Searcher:
    """OpenSpiel's MCTS run for a time, by asking for the simulations that fit in it.

    The rate changes through a game (rollouts get shorter as the board fills) and from one
    game to the next at the same point, by a third either way, so a search takes the rate of
    the game's last search, two marks earlier; a game's first search takes the rate measured
    in earlier games nearest its number of marks."""

    def __init__(self, game, seed):
        self.game = game
        self.rng = random.Random(seed)
        self.rates = {}  # marks on the board -> simulations a second
        self.last_rate = None  # of this game's last search

    def new_game(self):
        self.last_rate = None

    def calibrate(self, state):
        self.search(state, marks=0, simulations=200)

    def search(self, state, marks, seconds=None, simulations=None):
        if simulations is None:
            rate = self.last_rate
            if rate is None:
                rate = self.rates[min(self.rates, key=lambda known: abs(known - marks))]
            simulations = max(10, int(rate * seconds))
        seed = self.rng.randrange(2**31)
        evaluator = pyspiel.RandomRolloutEvaluator(ROLLOUTS, seed)
        bot = pyspiel.MCTSBot(
            self.game, evaluator, UCT_C, simulations, MAX_MEMORY_MB, SOLVE, seed, False
        )
        started = time.perf_counter()
        root = bot.mcts_search(state)
        elapsed = time.perf_counter() - started
        # The root counts the simulations actually run: a solved root stops the search early.
        rate = max(root.explore_count, 1) / max(elapsed, 1e-6)
        self.rates[marks] = rate
        self.last_rate = rate
        return root.best_child().action, root.explore_count, elapsed


def chooses_board(state):
    """Whether the player to move first chooses a small board (a free move, in OpenSpiel)."""
    return state.action_to_string(state.legal_actions()[0]).startswith("Choose local board")


def board_of_cell_action(state, cell):
    """The small board that playing `cell` marks, read from OpenSpiel's name for the action
    ("Local board 4: x(0,1)"): its state does not otherwise say where the player must play."""
    return int(state.action_to_string(cell).removeprefix("Local board ")[0])


def apply_square(state, x, y):
    board, cell = (y // 3) * 3 + x // 3, (y % 3) * 3 + x % 3
    if chooses_board(state):
        state.apply_action(board)
    state.apply_action(cell)


def openspiel_version():
    """The installed OpenSpiel's version, as text and as numbers."""
    text = importlib.metadata.version("open_spiel")
    return text, tuple(int(part) for part in text.split(".")[:3] if part.isdigit())


def main():
    version, numbers = openspiel_version()
    if numbers < FIRST_SOUND_VERSION:
        debug(f"OpenSpiel {version} plays ultimate tic-tac-toe by wrong rules after a free move:",
              "install open_spiel==2.0.2 or later")
        return 1
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    searcher = Searcher(game, int(sys.argv[1]) if len(sys.argv) > 1 else random.randrange(2**31))
    state = None
    marks = 0
    while True:
        raw = sys.stdin.readline()
        if not raw:
            return
        line = raw.strip()
        keyword, _, rest = line.partition(" ")
        if keyword == "game":
            if rest.split()[0] != "uttt" or "tiebreak=codingame" in rest:
                debug("this bot plays uttt without a tie-break, not:", rest)
                return 1
            state = game.new_initial_state()
            marks = 0
            searcher.new_game()
        elif keyword == "start":
            if not searcher.rates:
                searcher.calibrate(game.new_initial_state())
            send(f"ready openspiel-mcts {version} multi")
        elif keyword in ("opponent", "played"):
            x, y = map(int, rest.split())
            apply_square(state, x, y)
            marks += 1
        elif keyword == "turn":
            received = time.perf_counter()
            budget = max(0.001, SHARE_OF_MOVE * int(rest) / 1000 - RESERVE_S)
            if chooses_board(state):
                choice, runs, elapsed = searcher.search(state, marks, seconds=budget / 2)
                debug(f"board {choice}: {runs} simulations in {elapsed * 1000:.0f} ms")
                state.apply_action(choice)
            left = budget - (time.perf_counter() - received)
            cell, runs, elapsed = searcher.search(state, marks, seconds=max(left, 0.001))
            debug(f"cell {cell}: {runs} simulations in {elapsed * 1000:.0f} ms")
            board = board_of_cell_action(state, cell)
            state.apply_action(cell)
            marks += 1
            send(f"{board % 3 * 3 + cell % 3} {board // 3 * 3 + cell // 3}")
        elif keyword == "quit":
            return


if __name__ == "__main__":
    sys.exit(main())
