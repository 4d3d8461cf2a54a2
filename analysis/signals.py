"""Signals other apps listen to (puzzles: positions found in an analysis)."""

from django.dispatch import Signal

# Sent, with ``analysis`` (a done ``GameAnalysis``, its ``game`` loaded), inside the
# transaction that saves it.
analysis_done = Signal()
