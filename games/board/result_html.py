"""A finished game's result panel, built in Python like the rest of the board
(``games/board/board_html.py``): the winner, the standings with their rating changes, the
analysis summary's slot, the rematch and the ways on. It is the board every seat and watcher
is sent for a game's last card, together, where the template engine took four times an
ordinary board's time to walk it.

``tests/games/test_board_html.py`` checks it against the template it replaced
(``tests/games/board_reference.html``) for won and abandoned games, every rematch state, for
players, watchers and signed-out people, in every language. Translated words go in as they
are, as ``{% translate %}`` put them; values are escaped.
"""

from __future__ import annotations

from common.urls import reverse_kept
from games.board.felt import escape
from games.board.words import gettext, ngettext


def result_html(context, signed_in: bool) -> str:
    """The ``<section id="game-result">`` of a board whose game has a result; ``signed_in``:
    whether the viewer may start another game from it."""
    result, game = context["result"], context["game"]
    if result["abandoned"]:
        said = f"<h2>{gettext('Game abandoned')}</h2>\n"
        if result["leaver_name"]:
            left = gettext("%(name)s left the game.") % {"name": escape(result["leaver_name"])}
            said += f"<p>{left}</p>\n"
    else:
        name = escape(result["winner_name"])
        if result["you_won"]:
            title = gettext("You won!")
        else:
            title = gettext("%(name)s wins") % {"name": name}
        winner = gettext("Winner: %(name)s") % {"name": name}
        said = f'<h2>{title}</h2>\n<p class="winner-name">{winner}</p>\n'
    parts = ['<section id="game-result" class="game-result">\n', said]
    if result["your_place"]:
        parts.append(f'<p class="your-place" data-your-place>{escape(result["your_place"])}</p>\n')
    parts.append(f'<ol class="standings">{"".join(map(_standing, result["standings"]))}</ol>\n')
    if context.get("viewer_seat") is not None:
        parts.append(
            '<div id="analysis-summary" class="analysis-summary"'
            f' hx-get="{escape(reverse_kept("analysis_summary", game.pk))}" hx-trigger="load"'
            ' hx-swap="innerHTML"></div>\n'
        )
    rematch = context.get("rematch")
    if rematch:
        parts.append(rematch_html(rematch, context))
    if result.get("rating_pending"):
        parts.append(
            f'<p class="hint" data-rating-pending>{gettext("Updating the ratings…")}</p>\n'
        )
    parts.append(_ways_on(context, signed_in))
    parts.append("</section>")
    return "".join(parts)


def _standing(row: dict) -> str:
    place = escape(row["place"])
    parts = [
        f'<li value="{place}" data-standing-seat="{escape(row["seat"])}" data-place="{place}">'
        f"{escape(row['name'])}: {escape(row['score'])}"
    ]
    if row.get("left"):
        parts.append(f' <span class="badge">{gettext("left the game")}</span>')
    rating = row.get("rating")
    if rating:
        change = gettext("rating %(rating)s (%(delta)s)") % {
            "rating": escape(rating["after"]),
            "delta": escape(f"{rating['delta']:+d}"),
        }
        parts.append(
            f' · <span class="rating-change" data-rating-delta="{escape(rating["delta"])}">'
            f"{change}</span>"
        )
    parts.append("</li>")
    return "".join(parts)


def rematch_html(rematch: dict, context) -> str:
    """The rematch's part of the panel, in each of its states (``rematch_panel``)."""
    state = rematch["state"]
    watcher = context.get("viewer_seat") is None
    csrf_input = context.get("csrf_input", "")
    action = escape(reverse_kept("game_rematch", context["game"].pk))
    parts = [f'<div id="rematch" class="rematch" data-rematch="{escape(state)}">\n']
    if state == "started":
        go = gettext("Watch the rematch") if watcher else gettext("Go to the new table")
        follow = "" if watcher else " data-follow"
        parts.append(
            f'<p>{gettext("The rematch has started.")} <a class="button"'
            f' href="{escape(rematch["url"])}" data-action="go-rematch"{follow}>{go}</a></p>\n'
        )
    elif state == "open":
        offers = gettext("%(name)s offers a rematch.") % {"name": escape(rematch["by"])}
        waiting = ""
        if rematch["waiting"]:
            names = ", ".join(escape(name) for name in rematch["waiting"])
            waiting = gettext("Waiting for %(names)s.") % {"names": names}
        seconds = rematch["seconds_left"]
        left = ngettext("%(seconds)s second left", "%(seconds)s seconds left", seconds) % {
            "seconds": escape(seconds)
        }
        parts.append(
            f'<p>{offers} {waiting} <span class="countdown"'
            f' data-expires-at="{escape(rematch["expires_at"])}"'
            f' data-expired="{gettext("The offer expired.")}">{left}</span></p>\n'
        )
        if rematch["can_offer"]:
            accept = ""
            if not rematch["you_accepted"]:
                accept = (
                    '<button type="submit" name="answer" value="accept"'
                    f' data-action="rematch-accept">{gettext("Accept")}</button> '
                )
            no = gettext("Withdraw") if rematch["you_accepted"] else gettext("Decline")
            parts.append(
                f'<form method="post" action="{action}" class="inline">{csrf_input}{accept}'
                '<button type="submit" name="answer" value="decline" class="secondary"'
                f' data-action="rematch-decline">{no}</button></form>\n'
            )
    else:
        if state == "declined":
            declined = gettext("%(name)s declined the rematch.") % {"name": escape(rematch["by"])}
            parts.append(f"<p>{declined}</p>\n")
        elif state == "expired":
            parts.append(f"<p>{gettext('The rematch offer expired.')}</p>\n")
        if rematch["can_offer"]:
            again = gettext("Rematch: play again with the same people")
            parts.append(
                f'<form method="post" action="{action}" class="inline">{csrf_input}'
                '<button type="submit" name="answer" value="accept" data-action="rematch">'
                f"{again}</button></form>\n"
            )
    parts.append("</div>\n")
    return "".join(parts)


def _ways_on(context, signed_in: bool) -> str:
    """The replay, the record, another game against bots and the lobby."""
    game, result = context["game"], context["result"]
    play_again = ""
    if signed_in:
        level = ""
        if result.get("again_level"):
            level = f'<input type="hidden" name="level" value="{escape(result["again_level"])}">'
        play_again = (
            f'<form method="post" action="{escape(reverse_kept("quick_play"))}" class="inline">'
            f'{context.get("csrf_input", "")}<input type="hidden" name="target"'
            f' value="{escape(game.target)}">{level}<button type="submit"'
            f' data-action="quick-play">{gettext("Play again against two bots")}</button>'
            "</form>\n"
        )
    return (
        "<p>\n"
        f'<a class="button" href="{escape(reverse_kept("game_replay", game.pk))}"'
        f' data-action="replay">{gettext("Replay the game trick by trick")}</a>\n'
        f'<a href="{escape(reverse_kept("game_record", game.pk))}">'
        f"{gettext('Download the game record')}</a>\n"
        f"{play_again}"
        f'<a class="button secondary" href="{escape(reverse_kept("lobby"))}">'
        f"{gettext('Back to the lobby')}</a>\n"
        "</p>\n"
    )
