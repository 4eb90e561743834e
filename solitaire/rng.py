"""The engine's own pseudo-random generator and shuffle.

Deals must be the same on every machine and every Python version, forever, so
the engine does not use :mod:`random` (whose algorithms Python does not promise
to keep). It uses:

* **SplitMix64** (Steele, Lea and Flood, 2014): a 64-bit state ``x``; each draw
  adds ``0x9E3779B97F4A7C15`` to ``x`` (mod 2**64), then mixes ``z = x``:
  ``z = (z ^ z>>30) * 0xBF58476D1CE4E5B9``, ``z = (z ^ z>>27) * 0x94D049BB133111EB``,
  ``z = z ^ z>>31`` (all mod 2**64).
* **Unbiased bounded draws**: ``below(n)`` rejects draws ``>= 2**64 - 2**64 % n``
  and returns the draw mod ``n``.
* **Fisher-Yates**: for ``i`` from ``len-1`` down to ``1``, swap item ``i`` with
  item ``below(i + 1)``.

Deal number ``N`` is the deck's base order shuffled by a generator seeded with
``N``. An in-game shuffle (for the games that gather and re-deal) uses a
generator seeded with ``mix_seed(seed, counter)`` so that replays stay exact.
"""

from __future__ import annotations

from typing import TypeVar

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class SplitMix64:
    """SplitMix64 generator; see the module docstring for the exact algorithm."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            draw = self.next64()
            if draw < limit:
                return draw % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle of ``items`` in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def mix_seed(seed: int, counter: int) -> int:
    """The seed of the ``counter``-th in-game shuffle of a game dealt from ``seed``."""
    return (seed * 0x100000001B3 + counter * GOLDEN_GAMMA + 1) & MASK64
