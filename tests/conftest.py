"""Shared fixtures: the reference variations, loaded through the catalog."""

import pytest

from solitaire import catalog


@pytest.fixture(scope="session")
def scorpion():
    return catalog.load("scorpion")
