"""The generated tables match their inputs: each carries the fingerprint of the generator,
settings and sample of inputs that wrote it, recomputed here without regenerating (which
takes minutes). A stale table fails with the command that writes it again."""

import re
from dataclasses import replace

from games.engine.bots.data import distilled_weights, race_table
from lab import distill
from lab import race_table as race_generator
from lab.fingerprint import fingerprint


def test_the_race_table_is_fresh():
    assert race_generator.fingerprint() == race_table.FINGERPRINT, (
        "The race table's inputs changed: run `python manage.py race_table` and commit it."
    )


def test_the_distilled_weights_are_fresh():
    assert distill.fingerprint() == distilled_weights.FINGERPRINT, (
        "The distilled policy's inputs changed: run `python manage.py distill` and commit it."
    )


def test_the_committed_race_table_is_what_its_generator_renders():
    table = race_generator.committed_table()
    assert len(table) == race_table.MAX_DISTANCE**3
    rendered = race_generator.render_module(
        table, race_table.HANDS, race_table.SEED, race_table.MAX_DISTANCE
    )
    assert rendered == race_generator.TABLE_PATH.read_text()


def test_the_committed_weights_are_what_their_generator_renders():
    text = distill.WEIGHTS_PATH.read_text()
    hits = [float(share) / 100 for share in re.findall(r"names the chosen card in ([\d.]+)%", text)]
    weights = (
        list(distilled_weights.LEAD),
        list(distilled_weights.SECOND),
        list(distilled_weights.THIRD) + list(distilled_weights.REACH),
    )
    fitted = dict(zip(("LEAD", "SECOND", "THIRD"), zip(weights, hits, strict=True), strict=True))
    w = distilled_weights
    assert distill.render_module(fitted, w.GAMES, w.SEED, w.CHOICES) == text


def test_the_race_fingerprint_moves_with_its_settings_and_the_policies_it_samples(monkeypatch):
    fresh = race_generator.fingerprint()
    assert race_generator.fingerprint(hands=race_generator.HANDS + 1) != fresh
    assert race_generator.fingerprint(seed="another") != fresh
    strongest_first = replace(race_generator.CAREFUL, lead=max)
    monkeypatch.setattr(race_generator, "CAREFUL", strongest_first)
    assert race_generator.fingerprint() != fresh


def test_the_distill_fingerprint_moves_with_the_bots_it_watches_and_the_features(monkeypatch):
    fresh = distill.fingerprint()
    assert distill.fingerprint(games=distill.GAMES + 1) != fresh
    lead_features = distill.lead_features
    monkeypatch.setattr(distill, "lead_features", lambda card: [*lead_features(card), 0.0])
    assert distill.fingerprint() != fresh
    monkeypatch.undo()
    monkeypatch.setattr(distill, "LINEUP", ("expert-v3", "expert-v2", "expert-v1"))
    assert distill.fingerprint() != fresh


def test_a_fingerprint_moves_with_the_generators_source(tmp_path):
    one, two = tmp_path / "one.py", tmp_path / "two.py"
    one.write_text("HANDS = 10\n")
    two.write_text("HANDS = 11\n")

    class Module:
        def __init__(self, path):
            self.__file__ = str(path)

    same = fingerprint("kind", Module(one), {"a": 1}, [1])
    assert same == fingerprint("kind", Module(one), {"a": 1}, [1])
    assert same != fingerprint("kind", Module(two), {"a": 1}, [1])
    assert same != fingerprint("kind", Module(one), {"a": 2}, [1])
    assert same != fingerprint("kind", Module(one), {"a": 1}, [2])
