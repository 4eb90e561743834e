"""The autograder: traces, hidden suite, sandbox, scoring, feedback, course workflow."""
