"""Signals other apps listen to, so games need not know about them (ratings, for one)."""

from django.dispatch import Signal

# Sent, with ``game_id`` and ``game`` (its row as the aftermath locked it), inside the
# transaction of a finished game's aftermath (finished, or abandoned after its deal): a
# receiver that fails leaves the game due, to be tried again.
game_over = Signal()


# Sent (no arguments) by each table runner about once a second when no table is due: other
# apps' background work rides on the same runners (ratings' recompute requests, for one).
runner_idle = Signal()

# Sent, with ``game`` and ``seat`` (its ``user`` loaded, with the profile when the table had
# it), inside the transaction of the change that made it a person's turn at a table with a
# slow clock (``options.SLOW_CLOCK`` or longer): notifications tell them.
turn_began = Signal()

# Asked what other apps show on a player's page, with ``player`` and ``viewer``: each
# receiver returns a dict added to the page's context (ratings: ``rating`` and
# ``rating_history``).
player_page = Signal()

# Asked what other apps show on a game's replay, with ``game``, ``viewer``, ``viewer_seat``
# (a number or None), ``names`` (per seat), ``hand`` and ``trick`` (the trick shown, None
# before any) and ``url`` (``url(hand, trick)``: the replay at that trick). Each receiver
# returns a dict added to the page's context; two keys are put in place by the view:
# ``card_notes`` ({place in the trick: note}, as each shown card's ``note``) and
# ``sheet_notes`` ({hand: [note per seat]}, as each score sheet cell's ``note``) (analysis).
replay_page = Signal()

# Asked, with ``game_id``, for the rating each seat of a finished rated game has after it:
# a receiver returns ``{seat: {"after": shown rating, "delta": its change}}``, empty while
# the game is not rated yet (ratings).
rating_changes_of = Signal()


# Asked, with ``game_id`` and ``seat``, what leaving a running rated game now would cost the
# person in ``seat`` (ranked last): a receiver returns ``{"delta": change of the shown
# rating}`` (ratings). ``game`` and ``seats`` (the rows in seat order, or None): as the asker
# has just read them, so that they are not read again.
leaving_cost_of = Signal()


# Asked, with ``game`` (a private table), how other apps want it kept: a receiver returns a
# dict of flags: ``sealed`` (only the people seated there may see it: invite links open
# nothing), ``open`` (everyone may see it, e.g. a daily duplicate's best game once its day has
# closed) and ``no_hints`` (no hints, as in rated games) (duplicate).
table_policy = Signal()


def asked(signal: Signal, **kwargs) -> dict:
    """Every receiver's answer to ``signal``, merged (later receivers win a shared key)."""
    merged: dict = {}
    for _receiver, answer in signal.send(sender=None, **kwargs):
        merged.update(answer or {})
    return merged
