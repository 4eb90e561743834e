"""Constructed scenarios per variation: ``<variation>.py`` defines ``build(kit)``."""
