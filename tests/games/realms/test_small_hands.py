"""Every 1- and 2-card hand can be searched and scored: the 2-player variants
score growing hands during play (the bot), and the calculator accepts 1 to 8
cards. Found by bot-vs-bot games: a lone Doppelgänger beside one card broke a bound."""

from __future__ import annotations

import itertools

from app.games.realms.cards import CARDS
from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import best_choices, score_hand, score_total

OPTIONS = RealmsOptions()
SLUGS = [c.slug for c in CARDS]


def test_every_one_and_two_card_hand_searches_and_scores_consistently():
    for size in (1, 2):
        for hand in itertools.combinations(SLUGS, size):
            found = best_choices(list(hand), OPTIONS, discard_area=[])
            assert found.score.total == score_hand(list(hand), found.choices, OPTIONS).total, hand
            assert found.score.total >= score_total(list(hand), {}, OPTIONS), hand
