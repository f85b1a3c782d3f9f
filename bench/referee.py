"""How fast the referee plays: full random 4-player games per second and legal-option queries per second.

One process, one core; rates are per second of this process's CPU time (the machine is shared, so wall
time would also count other people's work). Every decision goes through the public API a web page uses: `legal_options` for
each player, a uniformly random choice among them (the pass included), `apply`. Prints medians over rounds.

    python bench/referee.py [--seconds 3] [--rounds 5] [--players 4]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee import Game  # noqa: E402


def random_game(rng: random.Random, players: tuple[str, ...], queries: list | None = None) -> Game:
    """Play one game with random legal decisions; optionally collect (position, player) pairs to query later:
    every player at each white sum, and the roller at each coloured-die action."""
    game = Game(players)
    while not game.is_over:
        game.apply(game.random_roll(rng))
        if queries is not None:
            position = game.copy()
            queries.extend((position, player) for player in players)
        for player in players:
            game.apply(rng.choice(game.legal_options(player)))
        if not game.is_over:
            if queries is not None:
                queries.append((game.copy(), game.roller))
            game.apply(rng.choice(game.legal_options(game.roller)))
    return game


def games_per_second(seconds: float, players: tuple[str, ...], seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    games = turns = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        turns += random_game(rng, players).turn + 1
        games += 1
    return games / elapsed, turns / games


def queries_per_second(seconds: float, queries: list[tuple[Game, str]]) -> float:
    done = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for game, player in queries:
            game.legal_options(player)
        done += len(queries)
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    players = tuple(f"P{index + 1}" for index in range(args.players))

    game_rates, lengths = [], []
    for round_ in range(args.rounds):
        rate, length = games_per_second(args.seconds, players, seed=round_)
        game_rates.append(rate)
        lengths.append(length)

    queries: list[tuple[Game, str]] = []
    rng = random.Random(12345)
    while len(queries) < 10_000:
        random_game(rng, players, queries)
    query_rates = [queries_per_second(args.seconds, queries) for _ in range(args.rounds)]

    print(f"random {args.players}-player games: {statistics.median(game_rates):,.0f} games/s "
          f"(median of {args.rounds} rounds of {args.seconds:g} s CPU; range {min(game_rates):,.0f}-"
          f"{max(game_rates):,.0f}; {statistics.mean(lengths):.1f} turns per game)")
    print(f"legal_options: {statistics.median(query_rates):,.0f} queries/s (median of {args.rounds} rounds over "
          f"{len(queries):,} positions from random games: every player's white sum, the roller's colour action)")


if __name__ == "__main__":
    main()
