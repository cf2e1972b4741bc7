"""The README's Python tutorial, run as written: its code block (the one that saves
latency_cdf.png) runs in a temporary folder, its table must be the README's flagship
table cell for cell (that table is `airq compare`'s output), and the PNG it draws must
be there.

Skipped, saying why, when matplotlib is absent, unless AIRQ_REQUIRE_PY_EXTRAS is set
(CI sets it: there a missing matplotlib fails).
"""

import os
import pathlib
import re

import pytest

if not os.environ.get("AIRQ_REQUIRE_PY_EXTRAS"):
    pytest.importorskip("matplotlib", reason="matplotlib is absent (pip install "
                        "'matplotlib==3.11.2'); the README tutorial's test skipped")

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def _tutorial(text):
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    found = [b for b in blocks if "latency_cdf.png" in b]
    assert len(found) == 1, "the README has one Python block that draws latency_cdf.png"
    return found[0]


def _flagship_table(text):
    """The table under "What the flagship comparison shows": {row: {design: cell}}."""
    section = text.split("### What the flagship comparison shows", 1)[1]
    lines = [l for l in section.split("\n\n") if l.startswith("| |")][0].splitlines()
    split = lambda l: [c.strip().replace("**", "") for c in l.strip("|").split("|")]
    designs = [c.strip("`") for c in split(lines[0])[1:]]
    return {r[0]: dict(zip(designs, r[1:])) for r in map(split, lines[2:])}


def test_the_readme_tutorial_makes_the_flagship_table_and_the_cdf(tmp_path, monkeypatch,
                                                                 capsys):
    text = README.read_text(encoding="utf-8")
    code = _tutorial(text)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")  # no display
    scope = {"__name__": "readme_tutorial"}
    exec(compile(code, str(README), "exec"), scope)
    table = scope["table"]
    assert capsys.readouterr().out.strip() == table.to_string().strip()
    expected = _flagship_table(text)
    assert list(table.index) == list(expected), "the README table's rows"
    for row, cells in expected.items():
        assert list(table.columns) == list(cells), "the README table's designs"
        for design, cell in cells.items():
            assert table.loc[row, design] == cell, (row, design)
    png = (tmp_path / "latency_cdf.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
