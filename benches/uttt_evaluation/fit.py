"""Fits the weights of the strong ultimate tic-tac-toe bot's static evaluation.

Reads the files written by the ignored test `write_training_data` in
`src/bots/uttt/evaluation.rs` (one line per position: game number, the side to move's result
1, 0.5 or 0, then the features), fits a logistic regression by Newton's method with a little
L2, and prints the weights as the Rust array `WEIGHTS`, with the log loss on a fifth of the
games held out (the weights printed are fitted on all of them). Needs numpy.

    python3 benches/uttt_evaluation/fit.py /tmp/training-1.csv /tmp/training-2.csv
"""

import sys

import numpy as np

L2 = 1e-3


def load(paths):
    games, results, features = [], [], []
    for number, path in enumerate(paths):
        data = np.loadtxt(path, delimiter=",", ndmin=2)
        # Game numbers restart in each file.
        games.append(data[:, 0] + number * 1e9)
        results.append(data[:, 1])
        features.append(data[:, 2:])
    return np.concatenate(games), np.concatenate(results), np.vstack(features)


def fit(x, y):
    w = np.zeros(x.shape[1])
    for _ in range(30):
        q = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (q - y) / len(y) + L2 * w
        hessian = (x * (q * (1 - q))[:, None]).T @ x / len(y) + L2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hessian, gradient)
    return w


def log_loss(y, q):
    q = np.clip(q, 1e-6, 1 - 1e-6)
    return -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    games, results, features = load(sys.argv[1:])
    x = np.hstack([features, np.ones((len(features), 1))])
    numbers = np.unique(games)
    held_games = np.random.default_rng(0).choice(numbers, len(numbers) // 5, replace=False)
    held = np.isin(games, held_games)
    w = fit(x[~held], results[~held])
    q = 1 / (1 + np.exp(-x[held] @ w))
    constant = np.full(held.sum(), results[~held].mean())
    print(f"{len(results)} positions of {len(numbers)} games")
    print(
        f"held-out log loss {log_loss(results[held], q):.4f},"
        f" a constant's {log_loss(results[held], constant):.4f}"
    )
    w = fit(x, results)
    print("const WEIGHTS: [f32; FEATURES + 1] = [" + ", ".join(f"{v:.3f}" for v in w) + "];")


if __name__ == "__main__":
    main()
