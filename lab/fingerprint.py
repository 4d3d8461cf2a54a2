"""The fingerprint of a generated table's inputs, written into the table by its generator and
recomputed by a test, which fails when the committed table no longer matches its inputs.

A fingerprint hashes the generator's own source, its settings, and a small sample run of
what it reads from the rest of the code (the policies or bots it plays, the features it
fits): a change of behaviour there moves the sample, while moving or renaming code that
plays the same does not (regenerating takes minutes, and must be asked for only when the
table would change).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import ModuleType


def fingerprint(kind: str, generator: ModuleType, settings: dict, sample: object) -> str:
    """``sha256:`` and the hex digest of ``kind``, ``generator``'s source file, ``settings``
    (JSON, unknown values by ``repr``) and ``repr(sample)``."""
    digest = hashlib.sha256()
    for part in (
        kind.encode(),
        Path(generator.__file__).read_bytes(),
        json.dumps(settings, sort_keys=True, default=repr).encode(),
        repr(sample).encode(),
    ):
        digest.update(hashlib.sha256(part).digest())  # each part hashed apart: no run-ons
    return "sha256:" + digest.hexdigest()
