"""Fantasy Realms scorer benchmark (one core).

    .venv/bin/python bench/realms_bench.py

Prints: plain random 7-card hands scored per second (target >= 50,000/s):
score_hand (total and tie-break at once; its per-card breakdown is built when first
read), score_hand + to_dict() (the full K2 body with every sentence, what the CLI and
the API produce) and score_total (total only); then the best-choice
search time for hands holding all six choice cards (Necromancer, Doppelganger,
Mirage, Shapeshifter, Book of Changes, Island) plus each possible 7th card, with a
game-like 10-card discard area and with none (calculator: every eligible card).
Target for the worst case: < 100 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.realms.cards import CARDS
from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import best_choices, score_hand, score_total

CHOOSERS = ["necromancer", "doppelganger", "mirage", "shapeshifter", "book-of-changes", "island"]


def score_k2(cards: list[str], choices: None, options: RealmsOptions) -> dict:
    return score_hand(cards, choices, options).to_dict()


def hands_per_second(fn, n: int = 20000, seed: int = 1) -> float:
    rng = random.Random(seed)
    slugs = [c.slug for c in CARDS]
    hands = [rng.sample(slugs, 7) for _ in range(n)]
    options = RealmsOptions()
    start = time.perf_counter()
    for h in hands:
        fn(h, None, options)
    return n / (time.perf_counter() - start)


def worst_case(discard_area: list[str] | None, sevenths: list[str]) -> list[tuple[float, str, int]]:
    out = []
    for seventh in sevenths:
        start = time.perf_counter()
        found = best_choices([*CHOOSERS, seventh], RealmsOptions(), discard_area=discard_area)
        out.append((time.perf_counter() - start, seventh, found.evaluated))
        if not found.exhaustive:
            print(f"  BUDGET HIT: 7th card {seventh} stopped after {found.evaluated} evaluations")
    out.sort(reverse=True)
    return out


def main() -> None:
    print(f"score_hand:                  {hands_per_second(score_hand):8.0f} hands/s")
    print(f"score_hand + to_dict() (K2): {hands_per_second(score_k2):8.0f} hands/s")
    print(f"score_total (total only):    {hands_per_second(score_total):8.0f} hands/s")
    sevenths = [c.slug for c in CARDS if c.slug not in CHOOSERS]
    rng = random.Random(7)
    for label, discard in (
        ("10-card discard area", None),
        ("no discard area (calculator: every eligible card)", None),
    ):
        if label.startswith("10"):
            discard = rng.sample([s for s in (c.slug for c in CARDS) if s not in CHOOSERS], 10)
        res = worst_case(discard, sevenths)
        times = [t for t, _, _ in res]
        print(f"best_choices, six choice cards + any 7th card, {label}:")
        median, (worst, card, evaluated) = statistics.median(times) * 1000, res[0]
        print(f"  median {median:.1f} ms, max {worst * 1000:.1f} ms", end="")
        print(f" (7th card {card}, {evaluated} evaluations)")
        print("  slowest five: " + ", ".join(f"{s} {t * 1000:.0f} ms" for t, s, _ in res[:5]))


if __name__ == "__main__":
    main()
