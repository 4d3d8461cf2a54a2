"""expert-v4: expert-v3 (race value, exact last three tricks) whose play-outs know how strong
players play.

expert-v3 plays its own later cards as a careful beginner and its opponents as careful or
look-ahead players, models that name barely a quarter of a search bot's cards. expert-v4
adds the distilled policy (`distilled.py`), fitted to the search bots' own choices, as a
third opponent model with half of the prior, and plays its own later cards by it. Inference
still weighs each deal by how well the models explain the opponents' plays this hand, so a
careful beginner is still recognised and played out as one.
"""

from __future__ import annotations

from .expert_v3 import ExpertV3Bot
from .playouts import CAREFUL, DISTILLED, LOOKAHEAD


class ExpertV4Bot(ExpertV3Bot):
    name = "expert-v4"
    label = "Expert v4"  # expert-v3's budget: 100 deals, the 0.5 s cap a safety net only
    opponent_models = ((CAREFUL, 0.25), (LOOKAHEAD, 0.25), (DISTILLED, 0.5))
    own_model = DISTILLED
