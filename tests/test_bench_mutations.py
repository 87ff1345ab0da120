"""bench/mutations.yaml stays usable as the sources change: it loads, every
mutation names a file of the repository whose text holds its `find`
exactly once, and its replacement differs.  (The mutations themselves run
in `make mutation`, a bench.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from bench.mutation import load_mutations

ROOT = Path(__file__).resolve().parents[1]
MUTATIONS = load_mutations()


def test_there_is_a_documented_set():
    assert len(MUTATIONS) >= 20
    assert all(m.why.strip() and m.test.strip() for m in MUTATIONS)


@pytest.mark.parametrize("m", MUTATIONS, ids=[m.id for m in MUTATIONS])
def test_each_mutation_applies_once(m):
    text = (ROOT / m.file).read_text()
    assert text.count(m.find) == 1, f"{m.file}: '{m.find}' occurs {text.count(m.find)} times"
    assert m.replace != m.find
