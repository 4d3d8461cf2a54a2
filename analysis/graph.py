"""Small inline SVG graphs drawn on the server (no chart library, nothing for the strict
Content Security Policy to block): each seat's win chance through a game, and a person's
accuracy through their last games. The numbers come with a text alternative."""

from __future__ import annotations

from django.utils.translation import gettext as _

WIDTH, HEIGHT = 600, 160  # the viewBox; the CSS scales it to the column


def _x(index: int, count: int) -> float:
    return round(WIDTH * index / max(count - 1, 1), 1)


def _y(value: float) -> float:
    """``value`` 0..1, 1 at the top."""
    return round(HEIGHT * (1 - value), 1)


def chance_graph(plays: list[dict], names: list[str], here: tuple) -> dict:
    """One polyline per seat: after each of its cards, the win chance that card left it."""
    count = len(plays)
    seats = []
    for seat in range(3):
        points = [
            (i, play["values"][play["card"]])
            for i, play in enumerate(plays)
            if play["seat"] == seat
        ]
        chances = [round(100 * value) for _i, value in points]
        seats.append(
            {
                "seat": seat,
                "name": names[seat],
                "points": " ".join(f"{_x(i, count)},{_y(value)}" for i, value in points),
                "text": _(
                    "%(name)s: %(first)s%% after the first card, %(last)s%% after the last, "
                    "between %(low)s%% and %(high)s%%."
                )
                % {
                    "name": names[seat],
                    "first": chances[0],
                    "last": chances[-1],
                    "low": min(chances),
                    "high": max(chances),
                }
                if chances
                else "",
            }
        )
    hands = [
        _x(i, count) for i, play in enumerate(plays) if i and plays[i - 1]["hand"] != play["hand"]
    ]
    current = next((i for i, p in enumerate(plays) if (p["hand"], p["trick"]) == here), None)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "half": HEIGHT / 2,
        "seats": seats,
        "hands": hands,
        "current": _x(current, count) if current is not None else None,
    }


def trend_graph(values: list[float]) -> dict:
    """A person's accuracy (0..100) per game, oldest first."""
    count = len(values)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "half": HEIGHT / 2,
        "points": " ".join(f"{_x(i, count)},{_y(v / 100)}" for i, v in enumerate(values)),
        "dots": [{"x": _x(i, count), "y": _y(v / 100)} for i, v in enumerate(values)],
    }
