"""Trace generation from the reference (see :mod:`grader.traces.build`).

The trace format and its replay live in :mod:`solitaire.traces` (students get
that module with the engine, for their public traces); this package only makes
traces. The hidden traces are under ``data/<variation>/``.
"""
