"""The instructor's course workflow on local defaults (no server needed).

One module per step, each usable from Python and from ``solitaire course``:

==================  ==========================================================
module              step
==================  ==========================================================
``config``          ``course init``: the course file (``course.toml``)
``late``            the late policy's arithmetic (grace, penalty per day, cut-off)
``points``          variations and points per rule category (from ``grader.catalog``)
``roster``          reading and checking the roster and other CSV files
``assign``          ``course assign``: a balanced, seeded, stable variation per student
``publish``         ``course publish``: one git repo per student, pushed to its remote
``ledger``          first-seen times of every commit the grader fetched
``collect``         ``course collect``: the submission each student's remote held at the deadline
``graders``         the graders by name: ``sandbox`` (grader/grade.py), ``static``
``worker``          one submission graded in a pool process
``results``         the results store, keyed by (student, assignment, SHA, grader version)
``scores``          a grader's results.json to the course's points; the final grade (``final_grade``)
``grade_class``     ``course grade``: every collected submission, in parallel
``grade_outputs``   after the gradebook: results.json with the final grade, nbgrader's folders
``dry_run``         ``course grade --dry-run``: the same run into ``.work/dry-run/<run>/``
``gradebook``       nbgrader's Gradebook: an assignment per variation, a grade cell per rule
``nbgrader_files``  the folders nbgrader's formgrader reads beside the gradebook
``export``          ``course export``: grades CSV and the gradebook table
``gradescope``      ``course export --gradescope``: the autograder zip
``gradescope_run``  what the zip's ``run_autograder`` runs
``simulate``        simulated students (demo and tests): edits, commits, pushes at a given time
``demo``            ``solitaire demo``: a whole course end to end
``gitutil``         small git helpers (bare repos with reflogs, commits, pushes)
==================  ==========================================================
"""
