"""Learn to play: a scripted hand against two bots that explains each trick as it happens.

``script`` is the fixed deal and the bots' cards, ``lesson`` rebuilds the hand from the
learner's stored cards with the engine and says what each trick teaches (both pure Python,
no Django), ``page`` turns that into the page's context in the reader's language, and
``views`` is the thin view of ``/learn/``.
"""
