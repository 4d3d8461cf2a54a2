"""The lab: offline tools around the engine, never imported by the site at runtime.

Bot-only games and their tallies (`simulation.py`), the strength ladder (`ladder.py`), the
generators of the bots' tables (`race_table.py`, `distill.py`) and the fingerprints of their
inputs (`fingerprint.py`). The lab may import ``games.engine``; the engine never imports the
lab (tests/engine/test_lab.py).
"""
