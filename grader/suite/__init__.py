"""The hidden suite: pytest tests that replay the hidden traces against a submission.

Run by :mod:`grader.grade` in a subprocess (never in the grading process) with
the plugin :mod:`grader.suite.plugin`, which adds the ``--solitaire-*``
options and writes the per-category counts to a JSON file.
"""
