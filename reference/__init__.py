"""The instructor's reference implementations of the approved variations.

Each module implements one variation's rules; the bodies of its rule methods
sit between nbgrader's solution markers, so that the student starter can be
generated from it (see ``solitaire starter build``).
"""

VARIATIONS = (
    "napoleons_square",
    "metternich",
    "bismarck",
    "indian",
    "double_fives",
    "scorpion",
    "maria",
    "number_ten",
    "osmosis",
    "peek",
    "midshipman",
    "prince_albert",
    "penguin",
    "perseverance",
    "patriarchs",
    "puss_in_corner",
    "nivernaise",
    "monte_carlo",
    "pyramid",
    "nestor",
    "miss_milligan",
    "mount_olympus",
    "sir_tommy",
    "fortress",
    "eternal_wanderer",
    "demon",
    "trefoil",
    "rainbow",
    "four_roads",
    "triad",
)
