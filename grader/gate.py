"""The thresholds of ``solitaire check-suite``'s gate (docs/grading.md, "The quality gate").

A module of its own, importing nothing, so that the command's ``--help`` states the same
figures :mod:`grader.check_suite` enforces without importing it.
"""

MIN_LOSS = 0.20  # every detected mutant loses at least this share of its own method's points
MEDIAN_LOSS = 0.40  # and the median over a family at least this
CONSTANT_MAX = 10.0  # points constant answers may earn, summed over the methods
