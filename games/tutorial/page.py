"""What ``/learn/`` shows at a step of the lesson, in the reader's language: the table as the
learner sees it (their ``SeatView``) and each explanation, worded from the engine's verdict
on the trick's actual cards (``lesson``), with the table's and the rules page's card
pictures, names and sentences."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board.card_names import OF_SUIT, SUIT_NAMES, card_label, trick_why
from games.board.presenters import card_info, hand_order, played_cards, trick_verdict
from games.board.rules_page import case_name
from games.engine.tricks import PAIR, THREE_SUITS
from games.tutorial.lesson import LAST, LEAD, RESULT, STEPS, TURN, Lesson, TrickLesson, TurnLesson
from games.tutorial.script import ANA, LEARNER, LEO, TRICKS

BOT_NAMES = {ANA: "Ana", LEO: "Leo"}  # names, the same in every language


def seat_names() -> list[str]:
    return [_("You"), BOT_NAMES[ANA], BOT_NAMES[LEO]]


def learn_context(lesson: Lesson) -> dict:
    """The context of ``games/learn.html`` at ``lesson``'s step."""
    progress, view = lesson.progress, lesson.view
    names = seat_names()
    context = {
        "phase": progress.phase,
        "step": progress.step,
        "steps": STEPS,
        "lesson_tricks": TRICKS,
        "at": progress.version,
        "learn_url": reverse("learn"),
    }
    if not progress.started:
        return context
    context["seats"] = [
        {
            "number": seat,
            "name": names[seat],
            "is_you": seat == LEARNER,
            "position": ("bottom", "left", "right")[seat],
            "score": view.scores[seat],
            "cards_left": view.hand_sizes[seat],
            "is_turn": progress.phase == TURN and seat == LEARNER,
        }
        for seat in range(3)
    ]
    context["tricks"] = [trick_explained(trick, names) for trick in lesson.tricks]
    if progress.phase == RESULT:
        context["result"] = context["tricks"][-1]
        context["is_last_trick"] = len(lesson.tricks) == TRICKS
    if progress.phase == TURN:
        context["turn"] = turn_explained(lesson.turn, view, names)
        context["table"] = played_cards(view.leader, view.trick, None, names, LEARNER)
    elif lesson.tricks:
        last = lesson.tricks[-1]
        context["table"] = played_cards(last.leader, last.cards, last.winner, names, LEARNER)
    context["hand"] = hand_cards(lesson, progress.phase == TURN)
    context["can_play"] = progress.phase == TURN
    return context


def hand_cards(lesson: Lesson, playable: bool) -> list[dict]:
    """The learner's hand, each card marked (on their turn) with what it would do: decided
    when they play last, "can still win" or not when second (from the cards they have not
    seen, never from where those are)."""
    view, turn = lesson.view, lesson.turn
    unseen = view.unseen_cards() if playable and len(view.trick) == 1 else ()
    cards = []
    for card in hand_order(view.hand):
        suggested = playable and turn is not None and card == turn.suggested
        label = _("Play the %(name)s (suggested)") if suggested else _("Play the %(name)s")
        cards.append(
            {
                **card_info(card),
                "play_label": label % {"name": card_label(card)},
                "verdict": trick_verdict(view.trick, card, unseen) if playable else "",
                "suggested": suggested,
            }
        )
    return cards


def turn_explained(turn: TurnLesson, view, names: list[str]) -> dict:
    """Before the learner's card: what is on the table and what their card can do there."""
    lines = []
    for i, card in enumerate(view.trick):
        sentence = _("%(name)s led the %(card)s.") if i == 0 else _("%(name)s played the %(card)s.")
        lines.append(sentence % {"name": names[(view.leader + i) % 3], "card": card_label(card)})
    if turn.position == LEAD:
        lines.append(_("You lead: any card can win; the next two cards decide."))
    elif turn.position == LAST:
        lines.append(_("You play last, so your card decides: ✓ takes the trick, ✗ cannot."))
    else:
        lines.append(_("You play second, so the last card decides: ? can still win, ✗ cannot win."))
    for suit, case in turn.third_suits:
        lines.append(
            _(
                "A card %(of_suit)s would make three different suits, with %(missing)s "
                "missing: %(winner)s would win."
            )
            % {
                "of_suit": OF_SUIT[suit],
                "missing": SUIT_NAMES[case.missing_suit],
                "winner": SUIT_NAMES[case.suit],
            }
        )
    if turn.pair_with:
        first, second = (OF_SUIT[card // 12] for card in turn.pair_with)
        lines.append(
            _(
                "A card %(of_first)s or %(of_second)s would make a pair: the higher card of "
                "the pair would win."
            )
            % {"of_first": first, "of_second": second}
        )
    if turn.same_suit_best is not None:
        best = turn.same_suit_best
        lines.append(
            _(
                "Both cards are %(suit)s: only a higher card %(of_suit)s than the %(card)s "
                "takes the trick; a card of another suit is the odd card, and it never wins."
            )
            % {
                "suit": SUIT_NAMES[best // 12],
                "of_suit": OF_SUIT[best // 12],
                "card": card_label(best),
            }
        )
    suggested = ""
    if turn.suggested is not None:
        suggested = _("Suggested: the %(card)s. You may play any card.") % {
            "card": card_label(turn.suggested)
        }
    return {"number": turn.number, "lines": lines, "suggested": suggested}


def trick_explained(trick: TrickLesson, names: list[str]) -> dict:
    """A completed trick: its cards, the rule case that decided it and why, in its own
    cards, who took it and for how many points, and what the learner's other cards would
    have done against the same two cards."""
    return {
        "number": trick.number,
        "case": case_name(trick.cards),
        "cards": played_cards(trick.leader, trick.cards, trick.winner, names, LEARNER),
        "why": trick_why(trick.cards),
        "reasons": reasons(trick),
        "result": result_sentence(trick, names),
        "points_rule": _("Each Coins card in a trick is worth one point to whoever takes it.")
        if trick.points
        else "",
        "also": also_sentence(trick),
        "also_cards": [card_info(card) for card in hand_order(trick.also_winning)],
        "learner_won": trick.learner_won,
    }


def reasons(trick: TrickLesson) -> list[str]:
    """Why the trick went as it did, in its own cards (after the rules page's one-line why:
    the cycle behind three suits, the odd card of a pair, the order of ranks)."""
    cards, case = trick.cards, trick.case
    if case.kind == THREE_SUITS:
        winner = card_label(cards[case.winner])
        others = [
            cards[i]
            for i in sorted(range(3), key=lambda i: trick.chain.index(cards[i] // 12))
            if i != case.winner
        ]
        return [
            _(
                "%(missing)s beat %(top)s, so with %(missing)s missing %(top)s come first: "
                "%(chain)s."
            )
            % {
                "missing": SUIT_NAMES[case.missing_suit],
                "top": SUIT_NAMES[case.suit],
                "chain": " > ".join(str(SUIT_NAMES[suit]) for suit in trick.chain),
            },
            _("The %(winner)s beats the %(second)s and the %(third)s, whatever their ranks.")
            % {"winner": winner, "second": card_label(others[0]), "third": card_label(others[1])},
        ]
    found = []
    if case.kind == PAIR:
        odd = cards[trick.odd]
        if trick.odd_suit_beats_pair:
            found.append(
                _(
                    "The %(odd)s is the odd card: it never wins, even though %(odd_suit)s "
                    "beat %(suit)s."
                )
                % {
                    "odd": card_label(odd),
                    "odd_suit": SUIT_NAMES[odd // 12],
                    "suit": SUIT_NAMES[case.suit],
                }
            )
        else:
            found.append(
                _("The %(odd)s is the odd card, and the odd card never wins.")
                % {"odd": card_label(odd)}
            )
    found.append(
        _("In a suit, from highest to lowest: Ace, King, Knight, Knave, 9, 8, 7, 6, 5, 4, 3, 2.")
    )
    return found


def result_sentence(trick: TrickLesson, names: list[str]) -> str:
    points = trick.points
    if trick.learner_won:
        return ngettext(
            "You take the trick and %(points)s point.",
            "You take the trick and %(points)s points.",
            points,
        ) % {"points": points}
    return ngettext(  # the table's own sentence
        "%(name)s takes the trick and %(points)s point.",
        "%(name)s takes the trick and %(points)s points.",
        points,
    ) % {"name": names[trick.winner], "points": points}


def also_sentence(trick: TrickLesson) -> str:
    """Where the learner had a choice: which of their other cards would have taken the
    trick against the same two cards (the bots' cards do not depend on theirs)."""
    if trick.learner_won:
        if trick.also_winning:
            return _("Against these two cards, these cards of yours would have taken it too:")
        return _("Against these two cards, no other card of yours would have taken it.")
    if trick.also_winning:
        return _("Against these two cards, you could have taken it with:")
    return _("Against these two cards, no card of yours could have taken it.")
