"""One test per hidden trace: replay it against the submission's worker.

The plugin counts every check by category; this test only fails (for the
instructor's log) when a check of its trace failed.
"""


def test_trace(trace, solitaire_worker, solitaire_collector):
    failed = solitaire_collector.run(trace, solitaire_worker)
    assert not failed, f"{len(failed)} checks failed; first: {failed[0].message}"
