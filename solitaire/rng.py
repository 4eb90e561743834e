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
``N``. In-game shuffles (games that gather cards and shuffle them again) follow
RULINGS-000 G6, a function of the deal's cards alone, so that a deal replays the
same whatever produced it:

* the **shuffle seed** of a deal is the first 8 bytes, big-endian, of the
  SHA-256 of its cards in deck order written as card text joined by single
  spaces (``"7D 9C 4D ..."``, ASCII) (:func:`deal_shuffle_seed`);
* the **k-th shuffle** of a game (k = 1, 2, ...) is the Fisher-Yates shuffle
  below, drawing from SplitMix64 seeded with
  ``(shuffle_seed + k * 0x9E3779B97F4A7C15) mod 2**64`` (:func:`shuffled`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
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


def deal_shuffle_seed(cards: Iterable[object]) -> int:
    """The default shuffle seed of a deal: SHA-256 of its cards' text, first 8 bytes big-endian."""
    text = " ".join(str(card) for card in cards)
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def shuffle_seed_k(shuffle_seed: int, k: int) -> int:
    """The SplitMix64 seed of the ``k``-th in-game shuffle (k = 1, 2, ...)."""
    return (shuffle_seed + k * GOLDEN_GAMMA) & MASK64


def shuffled(items: Sequence[T], shuffle_seed: int, k: int) -> list[T]:
    """A new list: ``items`` after the ``k``-th in-game shuffle of a game seeded ``shuffle_seed``."""
    result = list(items)
    SplitMix64(shuffle_seed_k(shuffle_seed, k)).shuffle(result)
    return result
