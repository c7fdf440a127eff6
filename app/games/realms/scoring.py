"""Fantasy Realms scoring (spec §5, §7.2-7.4): one pure scorer for the game, the
calculator page, the API and the CLI.

Public interface:

- `CHOICE_KEYS`, `choice_keys`, `validate_choices`, `update_choices`, `choice_values`,
  `ChoiceError`: the end-of-game choices (C54, E7);
- `score_hand` -> `HandScore` (E12-E19), `HandScore.to_dict()` is the K2 response;
- `best_choices` -> `BestChoices` (E4-E6);
- `rank` / `ranking` (E20) and `breakdown_lines` (E21).

The hot path works on plain lists of ints (card numbers, suit indices): `_eval`
(bitmasks, one bonus closure per card) gives a hand's total and tie-break value for
`score_total`, `score_hand` and every evaluation of the search. The breakdown comes
from the readable reference scorer `_score`, and only when a `HandScore`'s `cards`
are first read (`to_dict()`, `breakdown_lines`); tests hold `_eval` to `_score`.
`to_dict()` of a hand with no choice made skips the breakdown: its card dicts come
from the state `_eval` kept (`_plain_k2_cards`), and tests hold both to one output.
Every sentence is an `N_()` template with `%(name)s` parameters; `Msg` keeps
template and parameters apart so the web layer can translate before formatting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from app.games.base import N_, ScoreLine
from app.games.realms.cards import (
    BY_NO,
    BY_SLUG,
    CARDS,
    SUIT_NAMES,
    SUIT_WITH_ARTICLE,
    SUITS,
    Card,
    lookup,
)
from app.games.realms.options import SCORING_OPTION_KEYS, RealmsOptions

# --------------------------------------------------------------------------- constants

#: The choice keys in C54 order.
CHOICE_KEYS: tuple[str, ...] = (
    "necromancer",
    "doppelganger",
    "mirage",
    "shapeshifter",
    "book_of_changes",
    "island",
)

LAND, FLOOD, WEATHER, FLAME, ARMY, WIZARD, LEADER, BEAST, WEAPON, ARTIFACT = range(10)
WILD = 10  # the suit "Wild" of an unused wild card with unused_wild_suit = wild (C0.12)
NONE = 11  # no suit
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_KEY = (*SUITS, "wild", None)

# Card numbers the rules refer to (stable ids, §2.2).
MOUNTAIN, CAVERN, BELL_TOWER, FOREST, EARTH_ELEMENTAL = 1, 2, 3, 4, 5
FOUNTAIN, SWAMP, GREAT_FLOOD, ISLAND, WATER_ELEMENTAL = 6, 7, 8, 9, 10
RAINSTORM, BLIZZARD, SMOKE, WHIRLWIND, AIR_ELEMENTAL = 11, 12, 13, 14, 15
WILDFIRE, CANDLE, FORGE, LIGHTNING, FIRE_ELEMENTAL = 16, 17, 18, 19, 20
KNIGHTS, ELVEN_ARCHERS, LIGHT_CAVALRY, DWARVISH_INFANTRY, RANGERS = 21, 22, 23, 24, 25
COLLECTOR, BEASTMASTER, NECROMANCER, WARLOCK_LORD, ENCHANTRESS = 26, 27, 28, 29, 30
KING, QUEEN, PRINCESS, WARLORD, EMPRESS = 31, 32, 33, 34, 35
UNICORN, BASILISK, WARHORSE, DRAGON, HYDRA = 36, 37, 38, 39, 40
WARSHIP, MAGIC_WAND, SWORD_OF_KETH, ELVEN_LONGBOW, WAR_DIRIGIBLE = 41, 42, 43, 44, 45
SHIELD_OF_KETH, GEM_OF_ORDER, WORLD_TREE, BOOK_OF_CHANGES, PROTECTION_RUNE = 46, 47, 48, 49, 50
SHAPESHIFTER, MIRAGE, DOPPELGANGER = 51, 52, 53
WILDS = (SHAPESHIFTER, MIRAGE, DOPPELGANGER)

_CHOICE_CARD = {
    "necromancer": NECROMANCER,
    "doppelganger": DOPPELGANGER,
    "mirage": MIRAGE,
    "shapeshifter": SHAPESHIFTER,
    "book_of_changes": BOOK_OF_CHANGES,
    "island": ISLAND,
}

BLANKERS = frozenset({GREAT_FLOOD, RAINSTORM, BLIZZARD, WILDFIRE, BASILISK})
SELF_BLANKERS = frozenset({SMOKE, WARSHIP, WAR_DIRIGIBLE})
_NECRO_SUITS = frozenset({ARMY, LEADER, WIZARD, BEAST})
_MIRAGE_SUITS = frozenset({ARMY, LAND, WEATHER, FLOOD, FLAME})
_SHAPE_SUITS = frozenset({ARTIFACT, LEADER, WIZARD, WEAPON, BEAST})
_WILDFIRE_SPARED_SUITS = frozenset({FLAME, WIZARD, WEATHER, WEAPON, ARTIFACT})
_WILDFIRE_SPARED_NAMES = frozenset({MOUNTAIN, GREAT_FLOOD, ISLAND, UNICORN, DRAGON})
_FOUNTAIN_SUITS = frozenset({WEAPON, FLOOD, FLAME, LAND, WEATHER})
_GEM_WORTH = (0, 0, 0, 10, 30, 60, 100, 150)
_COLLECTOR_WORTH = (0, 0, 0, 10, 40, 100)

# Printed data, indexed by card number (index 0 unused).
_PSUIT = [NONE] * 54
_PBASE = [0] * 54
_HAS_PEN = [False] * 54
_HAS_BONUS = [False] * 54
for _c in CARDS:
    _PSUIT[_c.no] = NONE if _c.suit is None else _SUIT_INDEX[_c.suit]
    _PBASE[_c.no] = _c.base
    _HAS_PEN[_c.no] = _c.has_penalty
    _HAS_BONUS[_c.no] = _c.has_bonus
# The penalty effects are code: a card "has" the penalty its rule describes.
for _no in (
    SWAMP,
    GREAT_FLOOD,
    RAINSTORM,
    BLIZZARD,
    SMOKE,
    WILDFIRE,
    KNIGHTS,
    LIGHT_CAVALRY,
    DWARVISH_INFANTRY,
    WARLOCK_LORD,
    EMPRESS,
    BASILISK,
    DRAGON,
    WARSHIP,
    WAR_DIRIGIBLE,
):
    _HAS_PEN[_no] = True
_ARMY_WORD = frozenset({SWAMP, GREAT_FLOOD, BLIZZARD, DWARVISH_INFANTRY, BASILISK, WAR_DIRIGIBLE})


_NAMES: list[str] = ["", *(BY_NO[no].name_en for no in range(1, 54))]
_SLUGS: list[str] = ["", *(BY_NO[no].slug for no in range(1, 54))]


def _name(no: int) -> str:
    return _NAMES[no]


def _suit_name(s: int) -> str:
    key = _SUIT_KEY[s]
    return SUIT_NAMES[key] if key else N_("no suit")


# --------------------------------------------------------------------------- messages

Msg = tuple[str, Mapping[str, Any]]


def render(msg: Msg) -> str:
    """The English sentence of a message (template % params)."""
    text, params = msg
    return text % params if params else text


def _m(text: str, **params: Any) -> Msg:
    return (text, params)


class ChoiceError(ValueError):
    """An end-of-game choice that C54 refuses; str() is the player's sentence.

    `message` is the N_ template and `params` its values, for translation."""

    code = "illegal_choice"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class _Opts:
    collector_best: bool
    gem_longest: bool
    wildfire_spares_wild: bool
    wild_suit: int  # WILD or NONE
    reference: bool
    book_may_target_wild: bool
    tie_lowest: bool
    tie_blanked: bool
    tie_rule: str
    option_items: tuple[tuple[str, Any], ...]  # the scoring options (K2 "options")


_OPTS_CACHE: dict[Any, _Opts] = {}
# (options, _Opts) of the last call, swapped as one tuple (safe across threads)
_OPTS_LAST: list[tuple[RealmsOptions | None, _Opts | None]] = [(None, None)]


def _opts(options: RealmsOptions | None) -> _Opts:
    options = options or _DEFAULT_OPTIONS
    last_options, last = _OPTS_LAST[0]
    if last is not None and last_options is options:  # RealmsOptions is frozen: same object, same values
        return last
    key = tuple(getattr(options, k) for k in SCORING_OPTION_KEYS)
    o = _OPTS_CACHE.get(key)
    if o is None:
        o = _Opts(
            collector_best=options.collector_mode == "best_suit",
            gem_longest=options.gem_mode == "longest_run",
            wildfire_spares_wild=options.wildfire_spares_unused_wild,
            wild_suit=WILD if options.unused_wild_suit == "wild" else NONE,
            reference=options.blanking_resolution == "reference_scorer",
            book_may_target_wild=options.book_may_target_wild,
            tie_lowest=options.tie_break == "lowest_base_total",
            tie_blanked=options.tie_break_base_counts_blanked,
            tie_rule=options.tie_break,
            option_items=tuple(zip(SCORING_OPTION_KEYS, key, strict=True)),
        )
        _OPTS_CACHE[key] = o
    _OPTS_LAST[0] = (options, o)
    return o


_DEFAULT_OPTIONS = RealmsOptions()


# --------------------------------------------------------------------------- bonus rules
#
# A bonus rule is a tuple of parts, summed. ("per", mult, terms): mult x the number
# of active cards whose current suit is in the terms, a term being (suit, other).
# ("with", points, all_names, any_names, any_suits): points if every name of
# all_names, one of any_names (if any) and one card of any_suits (if any) are active.
# Cards whose bonus is not of these shapes have a function in _CUSTOM.

_PER, _WITH = "per", "with"
_RULES: dict[int, tuple[tuple[Any, ...], ...]] = {
    MOUNTAIN: ((_WITH, 50, (SMOKE, WILDFIRE), (), ()),),
    CAVERN: ((_WITH, 25, (), (DWARVISH_INFANTRY, DRAGON), ()),),
    BELL_TOWER: ((_WITH, 15, (), (), (WIZARD,)),),
    FOREST: ((_PER, 12, ((BEAST, False),)), (_WITH, 12, (ELVEN_ARCHERS,), (), ())),
    EARTH_ELEMENTAL: ((_PER, 15, ((LAND, True),)),),
    WATER_ELEMENTAL: ((_PER, 15, ((FLOOD, True),)),),
    RAINSTORM: ((_PER, 10, ((FLOOD, False),)),),
    WHIRLWIND: ((_WITH, 40, (RAINSTORM,), (BLIZZARD, GREAT_FLOOD), ()),),
    AIR_ELEMENTAL: ((_PER, 15, ((WEATHER, True),)),),
    CANDLE: ((_WITH, 100, (BOOK_OF_CHANGES, BELL_TOWER), (), (WIZARD,)),),
    FORGE: ((_PER, 9, ((WEAPON, False), (ARTIFACT, False))),),
    LIGHTNING: ((_WITH, 30, (RAINSTORM,), (), ()),),
    FIRE_ELEMENTAL: ((_PER, 15, ((FLAME, True),)),),
    RANGERS: ((_PER, 10, ((LAND, False),)),),
    BEASTMASTER: ((_PER, 9, ((BEAST, False),)),),
    ENCHANTRESS: ((_PER, 5, ((LAND, False), (WEATHER, False), (FLOOD, False), (FLAME, False))),),
    PRINCESS: ((_PER, 8, ((ARMY, False), (WIZARD, False), (LEADER, True))),),
    EMPRESS: ((_PER, 10, ((ARMY, False),)),),
    WARHORSE: ((_WITH, 14, (), (), (LEADER, WIZARD)),),
    HYDRA: ((_WITH, 28, (SWAMP,), (), ()),),
    MAGIC_WAND: ((_WITH, 25, (), (), (WIZARD,)),),
    ELVEN_LONGBOW: ((_WITH, 30, (), (ELVEN_ARCHERS, WARLORD, BEASTMASTER), ()),),
}

# Penalty point rules: (mult, terms, kind) with terms (suit, other, army_word);
# kind "per" counts, kind "unless" pays mult once when no term suit is active.
_PEN_RULES: dict[int, tuple[int, tuple[tuple[int, bool, bool], ...], str]] = {
    SWAMP: (-3, ((ARMY, False, True), (FLAME, False, False)), "per"),
    BLIZZARD: (
        -5,
        ((LEADER, False, False), (BEAST, False, False), (FLAME, False, False), (ARMY, False, True)),
        "per",
    ),
    KNIGHTS: (-8, ((LEADER, False, False),), "unless"),
    LIGHT_CAVALRY: (-2, ((LAND, False, False),), "per"),
    DWARVISH_INFANTRY: (-2, ((ARMY, True, True),), "per"),
    WARLOCK_LORD: (-10, ((LEADER, False, False), (WIZARD, True, False)), "per"),
    EMPRESS: (-5, ((LEADER, True, False),), "per"),
    DRAGON: (-40, ((WIZARD, False, False),), "unless"),
}


class _Hand:
    """A resolved hand (after steps 1-5): parallel lists indexed by position."""

    __slots__ = ("active", "armyless", "base", "cleared", "cnt", "n", "name", "names", "pen", "real", "suit")

    def __init__(
        self, real: list[int], name: list[int], suit: list[int], base: list[int], pen: list[int]
    ) -> None:
        self.real = real
        self.name = name
        self.suit = suit
        self.base = base
        self.pen = pen
        self.n = len(real)
        self.cleared: list[bool] = []
        self.armyless: list[bool] = []
        self.active: list[bool] = []
        self.cnt: list[int] = []
        self.names: set[int] = set()


def _collector(h: _Hand, o: _Opts) -> int:
    groups: dict[int, set[int]] = {}
    for j in range(h.n):
        if h.active[j] and h.suit[j] < NONE:
            groups.setdefault(h.suit[j], set()).add(h.name[j])
    values = [_COLLECTOR_WORTH[min(len(g), 5)] for g in groups.values()]
    if not values:
        return 0
    return max(values) if o.collector_best else sum(values)


def _gem_value(values: Iterable[int], longest: bool) -> int:
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    total = 0
    while True:
        ds = sorted(k for k, c in counts.items() if c > 0)
        runs: list[list[int]] = []
        for v in ds:
            if runs and runs[-1][-1] == v - 1:
                runs[-1].append(v)
            else:
                runs.append([v])
        if longest:
            best = max((len(r) for r in runs), default=0)
            return _GEM_WORTH[min(best, 7)] if best >= 3 else 0
        run = next((r for r in runs if len(r) >= 3), None)
        if run is None:
            return total
        total += _GEM_WORTH[min(len(run), 7)]
        for v in run:
            counts[v] -= 1


def _gem(h: _Hand, o: _Opts) -> int:
    return _gem_value((h.base[j] for j in range(h.n) if h.active[j]), o.gem_longest)


def _world_tree(h: _Hand, o: _Opts) -> int:
    seen: set[int] = set()
    for j in range(h.n):
        if h.active[j]:
            s = h.suit[j]
            if s == NONE:
                continue
            if s in seen:
                return 0
            seen.add(s)
    return 50


def _fountain(h: _Hand, o: _Opts) -> int:
    return max((h.base[j] for j in range(h.n) if h.active[j] and h.suit[j] in _FOUNTAIN_SUITS), default=0)


def _warlord(h: _Hand, o: _Opts) -> int:
    return sum(h.base[j] for j in range(h.n) if h.active[j] and h.suit[j] == ARMY)


def _elven_archers(h: _Hand, o: _Opts) -> int:
    return 0 if h.cnt[WEATHER] else 5


def _royal(partner: int) -> Callable[[_Hand, _Opts], int]:
    def bonus(h: _Hand, o: _Opts) -> int:
        return (20 if partner in h.names else 5) * h.cnt[ARMY]

    return bonus


def _unicorn(h: _Hand, o: _Opts) -> int:
    nm = h.names
    if PRINCESS in nm:
        return 30
    return 15 if (EMPRESS in nm or QUEEN in nm or ENCHANTRESS in nm) else 0


def _keth(partner: int, alone: int) -> Callable[[_Hand, _Opts], int]:
    def bonus(h: _Hand, o: _Opts) -> int:
        if not h.cnt[LEADER]:
            return 0
        return 40 if partner in h.names else alone

    return bonus


_CUSTOM: dict[int, Callable[[_Hand, _Opts], int]] = {
    FOUNTAIN: _fountain,
    ELVEN_ARCHERS: _elven_archers,
    COLLECTOR: _collector,
    KING: _royal(QUEEN),
    QUEEN: _royal(KING),
    WARLORD: _warlord,
    UNICORN: _unicorn,
    SWORD_OF_KETH: _keth(SHIELD_OF_KETH, 10),
    SHIELD_OF_KETH: _keth(SWORD_OF_KETH, 15),
    GEM_OF_ORDER: _gem,
    WORLD_TREE: _world_tree,
}


def _rule_points(rule: tuple[tuple[Any, ...], ...], h: _Hand, i: int) -> int:
    pts = 0
    cnt = h.cnt
    for part in rule:
        if part[0] == _PER:
            own = h.suit[i]
            c = 0
            for s, other in part[2]:
                c += cnt[s] - (1 if other and own == s else 0)
            pts += part[1] * c
        else:
            _, points, all_names, any_names, any_suits = part
            nm = h.names
            if (
                all(x in nm for x in all_names)
                and (not any_names or any(x in nm for x in any_names))
                and (not any_suits or any(cnt[s] for s in any_suits))
            ):
                pts += points
    return pts


def _bonus(no: int, h: _Hand, i: int, o: _Opts) -> int:
    rule = _RULES.get(no)
    if rule is not None:
        return _rule_points(rule, h, i)
    fn = _CUSTOM.get(no)
    return fn(h, o) if fn is not None else 0


def _penalty(p: int, h: _Hand, i: int) -> int:
    rule = _PEN_RULES.get(p)
    if rule is None:
        return 0
    mult, terms, kind = rule
    own = h.suit[i]
    cnt = h.cnt
    armyless = h.armyless[i]
    if kind == "unless":
        return 0 if any(cnt[s] for s, _, _ in terms) else mult
    c = 0
    for s, other, army_word in terms:
        if army_word and armyless:
            continue
        c += cnt[s] - (1 if other and own == s else 0)
    return mult * c


# --------------------------------------------------------------------------- blanking


def _hits(h: _Hand, b: int, x: int, spare_wild: bool) -> bool:
    """Does the blanking rule held by position b match position x (E16.2)?"""
    p = h.pen[b]
    s = h.suit[x]
    if p == GREAT_FLOOD:
        return (
            (s == ARMY and not h.armyless[b])
            or (s == LAND and h.name[x] != MOUNTAIN)
            or (s == FLAME and h.name[x] != LIGHTNING)
        )
    if p == RAINSTORM:
        return s == FLAME and h.name[x] != LIGHTNING
    if p == BLIZZARD:
        return s == FLOOD
    if p == WILDFIRE:
        if s in _WILDFIRE_SPARED_SUITS or h.name[x] in _WILDFIRE_SPARED_NAMES:
            return False
        return not (spare_wild and s >= WILD)
    if p == BASILISK:
        return (s == ARMY and not h.armyless[b]) or s == LEADER or (s == BEAST and x != b)
    return False


@dataclass
class _Why:
    """Why each position ended as it did (only built for the breakdown)."""

    blank: dict[int, Msg] = field(default_factory=dict)
    bonus: dict[int, int] = field(default_factory=dict)  # position -> bonus points (active cards)
    penalty: dict[int, int] = field(default_factory=dict)  # position -> penalty points (active cards)


def _reaches(inc_out: list[list[int]], undecided: set[int], x: int) -> bool:
    seen: set[int] = set()
    stack = [y for y in inc_out[x] if y in undecided]
    while stack:
        y = stack.pop()
        if y == x:
            return True
        if y in seen:
            continue
        seen.add(y)
        stack.extend(z for z in inc_out[y] if z in undecided)
    return False


def _label(h: _Hand, j: int) -> str:
    real = h.real[j]
    if h.name[j] != real:
        return f"{_name(real)} (as {_name(h.name[j])})"
    return _name(real)


def _blank_others(h: _Hand, o: _Opts, why: _Why | None) -> None:
    """Step 8 (E16 or E17): sets h.active for the cards blanked by others."""
    n = h.n
    blankers = [b for b in range(n) if h.pen[b] in BLANKERS and not h.cleared[b]]
    if not blankers:
        return
    spare = o.wildfire_spares_wild
    inc = [[b for b in blankers if _hits(h, b, x, spare)] for x in range(n)]
    if not any(inc):
        return
    active = h.active
    if why is None and not any(inc[b] for b in blankers):
        # no blanker is hit: in both modes every card a blanker hits is blanked
        for x in range(n):
            if inc[x]:
                active[x] = False
        return
    if o.reference:

        def rule_of(x: int, b: int) -> bool:
            return h.pen[x] in BLANKERS and _hits(h, x, b, spare)

        def r(x: int, path: list[int]) -> bool:
            bs = inc[x]
            if not bs:
                return False
            if any(b in path or rule_of(x, b) for b in bs):
                return True
            return any(not r(b, [*path, b]) for b in bs)

        for x in [x for x in range(n) if r(x, [x])]:
            active[x] = False
            if why is not None:
                why.blank[x] = _m(
                    N_("blanked by %(cards)s (reference scorer)"),
                    cards=", ".join(_label(h, b) for b in inc[x]),
                )
        return
    # layered resolution (E16)
    undecided, kept, blanked = 0, 1, 2
    status = [undecided] * n
    out: list[list[int]] = [[] for _ in range(n)]
    for x in range(n):
        for b in inc[x]:
            out[b].append(x)
    while True:
        changed = True
        while changed:
            changed = False
            for x in range(n):
                if status[x] != undecided:
                    continue
                ins = inc[x]
                if all(status[b] == blanked for b in ins):
                    status[x] = kept
                    changed = True
                else:
                    by = [b for b in ins if status[b] == kept]
                    if by:
                        status[x] = blanked
                        changed = True
                        if why is not None:
                            why.blank[x] = _m(
                                N_("blanked by %(cards)s"), cards=", ".join(_label(h, b) for b in by)
                            )
        und = {x for x in range(n) if status[x] == undecided}
        if not und:
            break
        short: dict[int, Msg] = {}
        for x in sorted(und):
            if x in inc[x]:
                short[x] = _m(N_("blanks itself"))
                continue
            for y in inc[x]:
                if y != x and y in und and x in inc[y]:
                    short[x] = _m(
                        N_("blanked: %(a)s and %(b)s blank each other"), a=_label(h, x), b=_label(h, y)
                    )
                    break
        if not short:
            cyc = [x for x in sorted(und) if _reaches(out, und, x)]
            for x in cyc:
                members = [y for y in cyc if _reaches_to(out, und, x, y) and _reaches_to(out, und, y, x)]
                short[x] = _m(
                    N_("blanked: blanking cycle %(cycle)s"), cycle=" → ".join(_label(h, y) for y in members)
                )
        for x, msg in short.items():
            status[x] = blanked
            if why is not None:
                why.blank[x] = msg
    for x in range(n):
        if status[x] == blanked:
            active[x] = False


def _reaches_to(out: list[list[int]], und: set[int], x: int, y: int) -> bool:
    if x == y:
        return True
    seen = {x}
    stack = [x]
    while stack:
        z = stack.pop()
        for w in out[z]:
            if w == y:
                return True
            if w in und and w not in seen:
                seen.add(w)
                stack.append(w)
    return False


def _self_blanking(h: _Hand, why: _Why | None) -> None:
    """Step 9 (E18)."""
    cands = [i for i in range(h.n) if h.pen[i] in SELF_BLANKERS and h.active[i] and not h.cleared[i]]
    if not cands:
        return
    cands.sort(key=lambda i: h.real[i])
    active, suit = h.active, h.suit
    changed = True
    while changed:
        changed = False
        for i in cands:
            if not active[i]:
                continue
            p = h.pen[i]
            msg: Msg | None = None
            if p == SMOKE:
                if not any(active[j] and suit[j] == FLAME for j in range(h.n)):
                    msg = _m(N_("blanks itself (no Flame)"))
            elif p == WARSHIP:
                if not any(active[j] and suit[j] == FLOOD for j in range(h.n)):
                    msg = _m(N_("blanks itself (no Flood)"))
            elif any(active[j] and suit[j] == WEATHER for j in range(h.n)):
                msg = _m(N_("blanks itself (Weather present)"))
            elif not h.armyless[i] and not any(active[j] and suit[j] == ARMY for j in range(h.n)):
                msg = _m(N_("blanks itself (no Army)"))
            if msg is not None:
                active[i] = False
                changed = True
                if why is not None:
                    why.blank[i] = msg


# --------------------------------------------------------------------------- core


def _clears(h: _Hand, island_t: int) -> None:
    """Steps 6-7 (E15): clears and the removal of the word "Army"."""
    real = h.real
    n = h.n
    if PROTECTION_RUNE in real:
        h.cleared = [True] * n
    else:
        mountain = MOUNTAIN in real
        cavern = CAVERN in real
        beastmaster = BEASTMASTER in real
        suit = h.suit
        h.cleared = [
            (mountain and suit[i] == FLOOD)
            or (cavern and suit[i] == WEATHER)
            or (beastmaster and suit[i] == BEAST)
            for i in range(n)
        ]
        if island_t >= 0:
            h.cleared[island_t] = True
    rangers = RANGERS in real
    warship = WARSHIP in real
    h.armyless = [rangers or (warship and h.suit[i] == FLOOD) for i in range(n)]


def _score(h: _Hand, island_t: int, o: _Opts, why: _Why | None = None) -> list[int]:
    """Steps 6-11 on a resolved hand: the card totals (h keeps the details)."""
    _clears(h, island_t)
    n = h.n
    h.active = [True] * n
    _blank_others(h, o, why)
    _self_blanking(h, why)
    active, suit, name = h.active, h.suit, h.name
    cnt = [0] * 12
    names: set[int] = set()
    for j in range(n):
        if active[j]:
            cnt[suit[j]] += 1
            names.add(name[j])
    h.cnt = cnt
    h.names = names
    totals = [0] * n
    for i in range(n):
        if not active[i]:
            continue
        no = h.real[i]
        t = h.base[i]
        if _HAS_BONUS[no]:
            b = _bonus(no, h, i, o)
            t += b
            if why is not None:
                why.bonus[i] = b
        p = h.pen[i]
        if p and not h.cleared[i]:
            pp = _penalty(p, h, i)
            t += pp
            if why is not None:
                why.penalty[i] = pp
        totals[i] = t
    return totals


def _resolve(
    real: list[int], dopp_t: int, mirage: int, shape: int, book_t: int, book_s: int, o: _Opts
) -> _Hand:
    """Steps 1-5 (E12-E14): current name, suit, base strength and penalty of each card."""
    ws = o.wild_suit
    suit = [ws if x >= SHAPESHIFTER else _PSUIT[x] for x in real]
    name = list(real)
    base = [_PBASE[x] for x in real]
    pen = [x if _HAS_PEN[x] else 0 for x in real]
    if dopp_t >= 0:
        d = real.index(DOPPELGANGER)
        t = real[dopp_t]
        name[d] = t
        suit[d] = ws if t >= SHAPESHIFTER else _PSUIT[t]
        base[d] = _PBASE[t]
        pen[d] = t if _HAS_PEN[t] else 0
    if mirage:
        m = real.index(MIRAGE)
        name[m] = mirage
        suit[m] = _PSUIT[mirage]
    if shape:
        s = real.index(SHAPESHIFTER)
        name[s] = shape
        suit[s] = _PSUIT[shape]
    if book_t >= 0:
        suit[book_t] = book_s
    return _Hand(real, name, suit, base, pen)


def _tie_value(h: _Hand, totals: list[int], o: _Opts) -> int:
    if o.tie_lowest:
        return sum(
            _PBASE[h.real[j]] if h.real[j] != DOPPELGANGER else 0
            for j in range(h.n)
            if o.tie_blanked or h.active[j]
        )
    return max(totals) if totals else 0


# --------------------------------------------------------------------------- lean evaluation
#
# `_eval` computes what `_score` + `_tie_value` compute, on the same resolved hand,
# without building the breakdown: per-card bonus closures instead of rule lookups,
# bitmasks (bit j = position j) for blanking and activity. `_score` stays the
# readable reference the breakdown is built from; tests check that both agree.

BonusFn = Callable[[int, list[int], set[int], list[int], list[int], list[int], int, _Opts], int]


def _compile_part(part: tuple[Any, ...]) -> BonusFn:
    if part[0] == _PER:
        mult: int = part[1]
        terms: tuple[tuple[int, bool], ...] = part[2]
        if len(terms) == 1:
            (s0, other0) = terms[0]
            if other0:
                return lambda i, cnt, nm, suit, base, name, act, o: mult * (cnt[s0] - (suit[i] == s0))
            return lambda i, cnt, nm, suit, base, name, act, o: mult * cnt[s0]
        if not any(other for _, other in terms):
            ss = tuple(s for s, _ in terms)
            return lambda i, cnt, nm, suit, base, name, act, o: mult * sum([cnt[s] for s in ss])

        def per(i: int, cnt: list[int], nm: set[int], suit: list[int], *_: Any) -> int:
            own = suit[i]
            return mult * sum([cnt[s] - (other and own == s) for s, other in terms])

        return per
    _, points, all_names, any_names, any_suits = part

    def with_(
        i: int,
        cnt: list[int],
        nm: set[int],
        suit: list[int],
        base: list[int],
        name: list[int],
        act: int,
        o: _Opts,
    ) -> int:
        for x in all_names:
            if x not in nm:
                return 0
        if any_names:
            for x in any_names:
                if x in nm:
                    break
            else:
                return 0
        if any_suits:
            for s in any_suits:
                if cnt[s]:
                    break
            else:
                return 0
        return points

    return with_


def _compile_rule(rule: tuple[tuple[Any, ...], ...]) -> BonusFn:
    fns = [_compile_part(part) for part in rule]
    if len(fns) == 1:
        return fns[0]
    return lambda i, cnt, nm, suit, base, name, act, o: sum(
        [f(i, cnt, nm, suit, base, name, act, o) for f in fns]
    )


def _fast_fountain(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    best = 0
    for j in range(len(suit)):
        if act >> j & 1 and suit[j] in _FOUNTAIN_SUITS and base[j] > best:
            best = base[j]
    return best


def _fast_collector(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    groups: dict[int, set[int]] = {}
    for j in range(len(suit)):
        if act >> j & 1 and suit[j] < NONE:
            groups.setdefault(suit[j], set()).add(name[j])
    values = [_COLLECTOR_WORTH[min(len(g), 5)] for g in groups.values()]
    if not values:
        return 0
    return max(values) if o.collector_best else sum(values)


def _fast_warlord(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    return sum([base[j] for j in range(len(suit)) if act >> j & 1 and suit[j] == ARMY])


def _fast_gem(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    return _gem_value([base[j] for j in range(len(suit)) if act >> j & 1], o.gem_longest)


def _fast_world_tree(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    for s in range(NONE):
        if cnt[s] > 1:
            return 0
    return 50


def _fast_royal(partner: int) -> BonusFn:
    return lambda i, cnt, nm, suit, base, name, act, o: (20 if partner in nm else 5) * cnt[ARMY]


def _fast_keth(partner: int, alone: int) -> BonusFn:
    return lambda i, cnt, nm, suit, base, name, act, o: (
        0 if not cnt[LEADER] else 40 if partner in nm else alone
    )


def _fast_unicorn(
    i: int,
    cnt: list[int],
    nm: set[int],
    suit: list[int],
    base: list[int],
    name: list[int],
    act: int,
    o: _Opts,
) -> int:
    if PRINCESS in nm:
        return 30
    return 15 if (EMPRESS in nm or QUEEN in nm or ENCHANTRESS in nm) else 0


_FAST_CUSTOM: dict[int, BonusFn] = {
    FOUNTAIN: _fast_fountain,
    ELVEN_ARCHERS: lambda i, cnt, nm, suit, base, name, act, o: 0 if cnt[WEATHER] else 5,
    COLLECTOR: _fast_collector,
    KING: _fast_royal(QUEEN),
    QUEEN: _fast_royal(KING),
    WARLORD: _fast_warlord,
    UNICORN: _fast_unicorn,
    SWORD_OF_KETH: _fast_keth(SHIELD_OF_KETH, 10),
    SHIELD_OF_KETH: _fast_keth(SWORD_OF_KETH, 15),
    GEM_OF_ORDER: _fast_gem,
    WORLD_TREE: _fast_world_tree,
}
#: The bonus of each card number as a closure (None: no bonus points).
_BONUS_FN: list[BonusFn | None] = [
    (_compile_rule(_RULES[no]) if no in _RULES else _FAST_CUSTOM.get(no)) if _HAS_BONUS[no] else None
    for no in range(54)
]


class _Ctx:
    """What `_eval` needs of the real cards of a hand (fixed while choices vary)."""

    __slots__ = (
        "beastmaster",
        "bonus",
        "cavern",
        "mountain",
        "n",
        "pbase",
        "rangers",
        "real",
        "rune",
        "warship",
    )

    def __init__(self, real: list[int]) -> None:
        self.real = real
        self.n = len(real)
        self.bonus = [(i, f) for i, x in enumerate(real) if (f := _BONUS_FN[x]) is not None]
        self.rune = PROTECTION_RUNE in real
        self.mountain = MOUNTAIN in real
        self.cavern = CAVERN in real
        self.beastmaster = BEASTMASTER in real
        self.rangers = RANGERS in real
        self.warship = WARSHIP in real
        self.pbase = [_PBASE[x] for x in real]


def _pen_points(p: int, i: int, suit: list[int], cnt: list[int], armyless: bool) -> int:
    mult, terms, kind = _PEN_RULES[p]
    if kind == "unless":
        for s, _, _ in terms:
            if cnt[s]:
                return 0
        return mult
    own = suit[i]
    c = 0
    for s, other, army_word in terms:
        if army_word and armyless:
            continue
        c += cnt[s] - (other and own == s)
    return mult * c


#: What `_eval` keeps of a hand: active mask, suit counts, active names, card totals,
#: mask of the positions step 8 kept, current suits, context.
_LeanState = tuple[int, list[int], set[int], list[int], int, list[int], _Ctx]
_PEN_OF = [x if _HAS_PEN[x] else 0 for x in range(54)]

#: The set bits of every mask of up to `_MAX_FAST` positions, lowest first.
_MAX_FAST = 10
_BITS: list[tuple[int, ...]] = [
    tuple(j for j in range(_MAX_FAST) if m >> j & 1) for m in range(1 << _MAX_FAST)
]


def _name_mask(name: list[int], names: frozenset[int]) -> int:
    m = 0
    for j, x in enumerate(name):
        if x in names:
            m |= 1 << j
    return m


_MOUNTAIN_SET = frozenset({MOUNTAIN})
_LIGHTNING_SET = frozenset({LIGHTNING})


def _hit_mask(
    p: int, b: int, name: list[int], sm: list[int], armyless: bool, spare_wild: bool, full: int
) -> int:
    """The positions the blanking rule `p` held by position b matches (E16.2), as
    `_hits`; `sm[s]` is the mask of the positions whose current suit is s."""
    if p == GREAT_FLOOD:
        m = (sm[LAND] & ~_name_mask(name, _MOUNTAIN_SET)) | (sm[FLAME] & ~_name_mask(name, _LIGHTNING_SET))
        return m if armyless else m | sm[ARMY]
    if p == RAINSTORM:
        return sm[FLAME] & ~_name_mask(name, _LIGHTNING_SET)
    if p == BLIZZARD:
        return sm[FLOOD]
    if p == WILDFIRE:
        spared = sm[FLAME] | sm[WIZARD] | sm[WEATHER] | sm[WEAPON] | sm[ARTIFACT]
        spared |= _name_mask(name, _WILDFIRE_SPARED_NAMES)
        if spare_wild:
            spared |= sm[WILD] | sm[NONE]
        return full & ~spared
    if p == BASILISK:
        m = sm[LEADER] | (sm[BEAST] & ~(1 << b))
        return m if armyless else m | sm[ARMY]
    return 0


def _sure_blanks(
    c: _Ctx, name: list[int], suit: list[int], pen: list[int], island: bool, o: _Opts
) -> list[int]:
    """For each position t: a mask of the other positions that step 8 blanks whatever
    suit t is given (by the Book) and whatever card Island clears, every other current
    name and suit being as given.

    A blanker b (not t) that no blanking rule of the hand can match, whatever its
    clears, is kept in both E16 and E17, so every card it matches is blanked, provided
    b's own penalty is not cleared: Mountain, Cavern, Beastmaster and the Protection
    Rune are fixed by the suits, and Island clears at most one Flood or Flame. So a card
    is surely blanked when a blanker Island cannot clear matches it, or two that
    Island could clear do."""
    n = c.n
    sources = [y for y in range(n) if pen[y] in BLANKERS]
    if not sources:
        return [0] * n
    full = (1 << n) - 1
    sm = [0] * 12
    for j in range(n):
        sm[suit[j]] |= 1 << j
    spare = o.wildfire_spares_wild
    # every arrow any blanker could draw, "Army" removal ignored (it only removes arrows)
    hit_any = 0
    for y in sources:
        hit_any |= _hit_mask(pen[y], y, name, sm, False, spare, full)
    sure: list[tuple[int, int, bool]] = []
    for b in sources:
        if hit_any >> b & 1:
            continue
        s = suit[b]
        if (
            c.rune
            or (s == FLOOD and c.mountain)
            or (s == WEATHER and c.cavern)
            or (s == BEAST and c.beastmaster)
        ):
            continue
        armyless = c.rangers or (c.warship and s == FLOOD)
        sure.append(
            (b, _hit_mask(pen[b], b, name, sm, armyless, spare, full), island and s in (FLOOD, FLAME))
        )
    out = []
    for t in range(n):
        strong = once = twice = 0
        for b, m, clearable in sure:
            if b == t:
                continue
            if clearable:
                twice |= once & m
                once |= m
            else:
                strong |= m
        out.append((strong | twice) & ~(1 << t))
    return out


def _blank_mask(
    c: _Ctx, name: list[int], suit: list[int], pen: list[int], blankers: list[int], isl: int, o: _Opts
) -> int:
    """Step 8 (E16 / E17) on bitmasks: the positions blanked by others."""
    n = c.n
    full = (1 << n) - 1
    sm = [0] * 12
    for j in range(n):
        sm[suit[j]] |= 1 << j
    hit = [0] * n
    union = bm = 0
    rangers, warship = c.rangers, c.warship
    for b in blankers:
        armyless = rangers or (warship and suit[b] == FLOOD)
        hit[b] = m = _hit_mask(pen[b], b, name, sm, armyless, o.wildfire_spares_wild, full)
        union |= m
        bm |= 1 << b
    if not union & bm:
        # no blanker is hit: in both modes every card a blanker hits is blanked
        return union
    if o.reference:
        h = _Hand(c.real, name, suit, [0] * n, pen)
        _clears(h, isl)
        h.active = [True] * n
        _blank_others(h, o, None)
        return sum(1 << j for j in range(n) if not h.active[j])
    inc = [0] * n
    for b in blankers:
        for x in _BITS[hit[b]]:
            inc[x] |= 1 << b
    kept = blanked = 0
    und = full
    while True:
        changed = True
        while changed:
            changed = False
            for x in _BITS[und]:
                bit = 1 << x
                ix = inc[x]
                if not ix & ~blanked:
                    kept |= bit
                    und ^= bit
                    changed = True
                elif ix & kept:
                    blanked |= bit
                    und ^= bit
                    changed = True
        if not und:
            return blanked
        short = 0
        for x in _BITS[und]:
            ix = inc[x]
            if ix >> x & 1:
                short |= 1 << x
                continue
            for y in _BITS[ix & und]:
                if inc[y] >> x & 1:
                    short |= 1 << x
                    break
        if not short:
            for x in _BITS[und]:
                reach = hit[x] & und
                while True:
                    more = reach
                    for y in _BITS[reach]:
                        more |= hit[y] & und
                    if more == reach:
                        break
                    reach = more
                if reach >> x & 1:
                    short |= 1 << x
        blanked |= short
        und &= ~short


def _eval(
    c: _Ctx,
    name: list[int],
    suit: list[int],
    base: list[int],
    pen: list[int],
    isl: int,
    o: _Opts,
    keep: list[Any] | None = None,
) -> tuple[int, int]:
    """Steps 6-11 on a resolved hand: (total, tie-break value), as `_score` and
    `_tie_value` would give them. With `keep` (hands of up to `_MAX_FAST` cards), the
    final state is appended to it: the mask of the active positions, the counts of
    their suits, their names, the card totals, the mask of the positions step 8 kept,
    and the current suits and `c` as given."""
    n = c.n
    if n > _MAX_FAST:  # longer than any hand: the reference scorer
        h = _Hand(c.real, name, suit, base, pen)
        totals = _score(h, isl, o)
        return sum(totals), _tie_value(h, totals, o)
    blankers: list[int] = []
    selfb: list[int] = []
    pens: list[int] = []
    rune, mountain, cavern, beastmaster = c.rune, c.mountain, c.cavern, c.beastmaster
    for i in range(n):
        p = pen[i]
        if not p or rune or i == isl:
            continue
        s = suit[i]
        if (s == FLOOD and mountain) or (s == WEATHER and cavern) or (s == BEAST and beastmaster):
            continue
        if p in BLANKERS:
            blankers.append(i)
        elif p in SELF_BLANKERS:
            selfb.append(i)
        if p in _PEN_RULES:
            pens.append(i)
    full = act = (1 << n) - 1
    if blankers:
        act &= ~_blank_mask(c, name, suit, pen, blankers, isl, o)
    kept = act  # after step 8
    cnt = [0] * 12
    for j in _BITS[act]:
        cnt[suit[j]] += 1
    if selfb:
        if len(selfb) > 1:
            selfb.sort(key=c.real.__getitem__)
        changed = True
        while changed:
            changed = False
            for i in selfb:
                if not act >> i & 1:
                    continue
                p = pen[i]
                if p == SMOKE:
                    gone = not cnt[FLAME]
                elif p == WARSHIP:
                    gone = not cnt[FLOOD]
                else:
                    gone = bool(cnt[WEATHER]) or (
                        not cnt[ARMY] and not (c.rangers or (c.warship and suit[i] == FLOOD))
                    )
                if gone:
                    act &= ~(1 << i)
                    cnt[suit[i]] -= 1
                    changed = True
    if act == full:
        names = set(name)
        totals = list(base)
    else:
        names = {name[j] for j in _BITS[act]}
        totals = [base[j] if act >> j & 1 else 0 for j in range(n)]
    for i, f in c.bonus:
        if act >> i & 1:
            totals[i] += f(i, cnt, names, suit, base, name, act, o)
    for i in pens:
        if act >> i & 1:
            totals[i] += _pen_points(pen[i], i, suit, cnt, c.rangers or (c.warship and suit[i] == FLOOD))
    if keep is not None:
        keep += (act, cnt, names, totals, kept, suit, c)
    total = sum(totals)
    if o.tie_lowest:
        pb = c.pbase
        if o.tie_blanked:
            return total, sum(pb)
        return total, sum([pb[j] for j in range(n) if act >> j & 1])
    return total, max(totals) if totals else 0


# --------------------------------------------------------------------------- choices


_card = lookup  # a Card, a slug, a number or a number as a string


def _choice_card(value: Any) -> Card:
    try:
        return _card(value)
    except (KeyError, TypeError):
        raise ChoiceError(N_("Unknown card '%(card)s'."), card=str(value)) from None


#: Card number by slug, and by its number written as a string ("7"): the fast lookup.
_SLUG_NO: dict[str, int] = {**{c.slug: c.no for c in CARDS}, **{str(c.no): c.no for c in CARDS}}


def _nos(cards: Iterable[Any]) -> list[int]:
    try:
        return [_SLUG_NO[c] for c in cards]
    except (KeyError, TypeError):  # numbers, Cards, "007", or an unknown card (KeyError below)
        return [_card(c).no for c in cards]


def choice_keys(cards: Iterable[Any]) -> list[str]:
    """The C54 choice keys the hand holds, in C54 order."""
    return _held_keys(_nos(cards))


_CHOICE_NOS = frozenset(_CHOICE_CARD.values())


def _held_keys(nos: Iterable[int]) -> list[str]:
    held = set(nos)
    return [k for k in CHOICE_KEYS if _CHOICE_CARD[k] in held]


def _a_suit(no: int) -> str:
    s = _PSUIT[no]
    return SUIT_WITH_ARTICLE[SUITS[s]] if s < WILD else N_("a wild card")


class _Choices(NamedTuple):
    """Normalised choices as card numbers / positions of the assembled hand."""

    real: tuple[int, ...]  # the assembled hand (necromancer's card appended)
    necro: int  # card number or 0
    dopp_t: int  # position or -1
    mirage: int  # card number or 0
    shape: int
    book_t: int  # position or -1
    book_s: int  # suit index or -1
    island_t: int  # position or -1
    extra_given: bool  # the necromancer's card was part of `cards`

    @property
    def plain(self) -> bool:
        """No choice made: every card is itself, nothing copied, moved or cleared by Island."""
        return (
            not self.necro
            and self.dopp_t < 0
            and not self.mirage
            and not self.shape
            and self.book_t < 0
            and self.island_t < 0
        )

    def as_json(self, keys: Sequence[str]) -> dict[str, Any]:
        slug = lambda no: BY_NO[no].slug  # noqa: E731
        out: dict[str, Any] = {}
        for k in keys:
            if k == "necromancer":
                out[k] = slug(self.necro) if self.necro else None
            elif k == "doppelganger":
                out[k] = slug(self.real[self.dopp_t]) if self.dopp_t >= 0 else None
            elif k == "mirage":
                out[k] = slug(self.mirage) if self.mirage else None
            elif k == "shapeshifter":
                out[k] = slug(self.shape) if self.shape else None
            elif k == "book_of_changes":
                out[k] = (
                    {"target": slug(self.real[self.book_t]), "suit": SUITS[self.book_s]}
                    if self.book_t >= 0
                    else None
                )
            elif k == "island":
                out[k] = slug(self.real[self.island_t]) if self.island_t >= 0 else None
        return out


def _pos_of(real: Sequence[int], no: int) -> int:
    try:
        return real.index(no)
    except ValueError:
        return -1


def _check(
    cards: Sequence[Any],
    choices: Mapping[str, Any] | None,
    o: _Opts,
    discard_area: Iterable[Any] | None,
    warnings: list[Msg] | None,
) -> _Choices:
    """E7 checks in C54 order. Island's post-Book reset goes to `warnings` when given
    (K2), and is an error otherwise."""
    nos = _nos(cards)
    if not choices:
        return _Choices(tuple(nos), 0, -1, 0, 0, -1, -1, -1, False)
    choices = dict(choices)
    held = set(nos)
    for key, value in choices.items():
        if key not in _CHOICE_CARD:
            raise ChoiceError(N_("Unknown choice '%(key)s'."), key=str(key))
        if value is not None and _CHOICE_CARD[key] not in held:
            raise ChoiceError(N_("You do not hold %(card)s."), card=_name(_CHOICE_CARD[key]))

    def val(key: str) -> Any:
        v = choices.get(key)
        return None if v == "" else v

    # 1. Necromancer
    necro = 0
    real = list(nos)
    extra_given = False
    v = val("necromancer")
    if v is not None:
        c = _choice_card(v)
        if _PSUIT[c.no] not in _NECRO_SUITS:
            raise ChoiceError(
                N_("The Necromancer can only take an Army, Leader, Wizard or Beast; %(card)s is %(suit)s."),
                card=c.name_en,
                suit=_a_suit(c.no),
            )
        if c.no == NECROMANCER:
            raise ChoiceError(N_("The Necromancer cannot take itself."))
        if discard_area is not None and c.no not in set(_nos(discard_area)):
            raise ChoiceError(N_("%(card)s is not in the discard area."), card=c.name_en)
        if c.no in held:
            if len(nos) != 8 or discard_area is not None:
                raise ChoiceError(N_("%(card)s is already in your hand."), card=c.name_en)
            extra_given = True
        else:
            real.append(c.no)
        necro = c.no
    in_hand = set(real)
    # 2. Doppelganger
    dopp_t = -1
    v = val("doppelganger")
    if v is not None:
        c = _choice_card(v)
        if c.no == DOPPELGANGER:
            raise ChoiceError(N_("The Doppelgänger cannot copy itself."))
        if c.no not in in_hand:
            raise ChoiceError(N_("The Doppelgänger can only copy a card in your hand."))
        dopp_t = real.index(c.no)
    # 3. Mirage
    mirage = 0
    v = val("mirage")
    if v is not None:
        c = _choice_card(v)
        if _PSUIT[c.no] not in _MIRAGE_SUITS:
            raise ChoiceError(
                N_("Mirage can only become an Army, Land, Weather, Flood or Flame; %(card)s is %(suit)s."),
                card=c.name_en,
                suit=_a_suit(c.no),
            )
        mirage = c.no
    # 4. Shapeshifter
    shape = 0
    v = val("shapeshifter")
    if v is not None:
        c = _choice_card(v)
        if _PSUIT[c.no] not in _SHAPE_SUITS:
            raise ChoiceError(
                N_(
                    "The Shapeshifter can only become an Artifact, Leader, Wizard, Weapon or Beast; "
                    "%(card)s is %(suit)s."
                ),
                card=c.name_en,
                suit=_a_suit(c.no),
            )
        shape = c.no
    # 5. Book of Changes
    book_t, book_s = -1, -1
    v = val("book_of_changes")
    if v is not None:
        if not isinstance(v, Mapping) or "target" not in v or "suit" not in v:
            raise ChoiceError(N_("Choose a target card and a suit for the Book of Changes."))
        c = _choice_card(v["target"])
        if c.no == BOOK_OF_CHANGES:
            raise ChoiceError(N_("The Book of Changes must target another card."))
        if c.no not in in_hand:
            raise ChoiceError(N_("The Book of Changes can only target a card in your hand."))
        if c.no in WILDS and not o.book_may_target_wild:
            raise ChoiceError(N_("House rule: the Book of Changes cannot target a wild card."))
        if v["suit"] not in _SUIT_INDEX:
            raise ChoiceError(N_("Choose one of the ten suits."))
        book_t, book_s = real.index(c.no), _SUIT_INDEX[v["suit"]]
    # 6. Island
    island_t = -1
    v = val("island")
    if v is not None:
        c = _choice_card(v)
        if c.no not in in_hand:
            raise ChoiceError(N_("Island can only target a card in your hand."))
        pos = real.index(c.no)
        h = _resolve(real, dopp_t, mirage, shape, -1, -1, o)
        before = h.suit[pos]
        after = book_s if pos == book_t else before
        if after in (FLOOD, FLAME):
            island_t = pos
        elif before in (FLOOD, FLAME) and warnings is not None:
            warnings.append(_m(N_("Island's target is no longer a Flood or Flame; Island choice cleared.")))
        elif after < WILD:
            raise ChoiceError(
                N_("Island must target a Flood or Flame; %(card)s is %(suit)s."),
                card=c.name_en,
                suit=SUIT_WITH_ARTICLE[SUITS[after]],
            )
        else:
            raise ChoiceError(
                N_("Island must target a Flood or Flame; %(card)s has no suit."), card=c.name_en
            )
    return _Choices(tuple(real), necro, dopp_t, mirage, shape, book_t, book_s, island_t, extra_given)


def validate_choices(
    cards: Sequence[Any],
    choices: Mapping[str, Any] | None,
    options: RealmsOptions | None = None,
    *,
    discard_area: Iterable[Any] | None = None,
) -> dict[str, Any]:
    """Check `choices` against C54 in order (E7) and return them normalised: every key
    the hand holds, in C54 order, with a slug / {"target", "suit"} / None.

    Raises ChoiceError with the player's sentence. With `discard_area`, the
    Necromancer's card must be in it. An Island target that is a Flood or Flame only
    before the Book of Changes is reset to empty (K2), not refused."""
    ch = _check(cards, choices, _opts(options), discard_area, [])
    return ch.as_json(choice_keys(ch.real))


def update_choices(
    cards: Sequence[Any],
    draft: Mapping[str, Any] | None,
    changes: Mapping[str, Any],
    options: RealmsOptions | None = None,
    *,
    discard_area: Iterable[Any] | None = None,
) -> tuple[dict[str, Any], list[Msg]]:
    """E7 editing: apply `changes` (C54 keys, None = empty) to `draft` in C54 order.

    An illegal new value raises ChoiceError (the draft stays as it was). A change that
    makes a later, unchanged choice illegal resets that choice to empty; the returned
    messages say so. Returns (new draft, messages)."""
    o = _opts(options)
    nos = _nos(cards)
    keys = choice_keys(nos)
    for k in changes:
        if k not in _CHOICE_CARD:
            raise ChoiceError(N_("Unknown choice '%(key)s'."), key=str(k))
        if k not in keys:
            raise ChoiceError(N_("You do not hold %(card)s."), card=_name(_CHOICE_CARD[k]))
    current = {k: (draft or {}).get(k) for k in keys}
    messages: list[Msg] = []
    for k in keys:
        if k in changes:
            trial = {kk: current[kk] for kk in keys[: keys.index(k)]}
            trial[k] = changes[k]
            _check(nos, trial, o, discard_area, None)  # raises for an illegal new value
            current[k] = changes[k]
            continue
        if current[k] is None:
            continue
        trial = {kk: current[kk] for kk in keys[: keys.index(k) + 1]}
        try:
            _check(nos, trial, o, discard_area, None)
        except ChoiceError:
            current[k] = None
            messages.append(_reset_message(k))
    ch = _check(nos, current, o, discard_area, None)
    return ch.as_json(keys), messages


def _reset_message(key: str) -> Msg:
    if key == "island":
        return _m(N_("Island's target is no longer a Flood or Flame; Island choice cleared."))
    return _m(
        N_("%(card)s's choice is no longer possible; %(card)s choice cleared."), card=_name(_CHOICE_CARD[key])
    )


def choice_values(
    key: str,
    cards: Sequence[Any],
    draft_choices: Mapping[str, Any] | None,
    options: RealmsOptions | None = None,
    discard_area: Iterable[Any] | None = None,
) -> list[Any]:
    """Every value `key` accepts with the current draft (None = empty first), in the
    canonical order of E5. Book values are {"target", "suit"} dicts. Without a
    discard area the Necromancer may name any eligible card outside the hand."""
    o = _opts(options)
    nos = _nos(cards)
    keys = choice_keys(nos)
    if key not in keys:
        return []
    draft = {k: (draft_choices or {}).get(k) for k in keys[: keys.index(key)]}
    ch = _check(nos, draft, o, discard_area, None)
    real = list(ch.real)
    out: list[Any] = [None]
    slug = lambda no: BY_NO[no].slug  # noqa: E731
    if key == "necromancer":
        pool = _nos(discard_area) if discard_area is not None else [c.no for c in CARDS]
        out += [
            slug(x)
            for x in sorted(set(pool))
            if _PSUIT[x] in _NECRO_SUITS and x not in nos and x != NECROMANCER
        ]
    elif key == "doppelganger":
        out += [slug(x) for x in sorted(real) if x != DOPPELGANGER]
    elif key == "mirage":
        out += [c.slug for c in CARDS if _PSUIT[c.no] in _MIRAGE_SUITS]
    elif key == "shapeshifter":
        out += [c.slug for c in CARDS if _PSUIT[c.no] in _SHAPE_SUITS]
    elif key == "book_of_changes":
        for x in sorted(real):
            if x == BOOK_OF_CHANGES or (x in WILDS and not o.book_may_target_wild):
                continue
            out += [{"target": slug(x), "suit": s} for s in SUITS]
    elif key == "island":
        h = _resolve(real, ch.dopp_t, ch.mirage, ch.shape, ch.book_t, ch.book_s, o)
        out += [
            slug(real[i])
            for i in sorted(range(len(real)), key=lambda i: real[i])
            if h.suit[i] in (FLOOD, FLAME)
        ]
    return out


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CardScore:
    card: str  # slug of the real card
    acts_as_name: str  # current name
    suit: str | None  # current suit key, "wild", or None
    status: str  # "active" | "blanked"
    reason: str | None  # E21 status sentence(s)
    base: int
    bonus: int
    penalty: int
    total: int
    notes: tuple[str, ...]
    reason_msgs: tuple[Msg, ...] = ()
    note_msgs: tuple[Msg, ...] = ()
    acts_as: str | None = None  # "Rainstorm (Weather)" etc. when a copy or the Book changed it
    from_necromancer: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "acts_as_name": self.acts_as_name,
            "suit": self.suit,
            "status": self.status,
            "reason": self.reason,
            "base": self.base,
            "bonus": self.bonus,
            "penalty": self.penalty,
            "total": self.total,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class TieBreak:
    rule: str
    value: int


class HandScore:
    """One scored hand (E12-E20). `total`, `tie_break`, `legal_hand` and `key` are
    computed at once by the lean evaluation; the per-card breakdown (`cards`), the
    normalised `choices` and the `warnings` sentences are built on first access, so
    bulk scoring that reads only totals never pays for the sentences."""

    __slots__ = (
        "_cards",
        "_ch",
        "_choices",
        "_lean",
        "_o",
        "legal_hand",
        "options",
        "tie_break",
        "total",
        "warning_msgs",
    )

    def __init__(
        self,
        ch: _Choices,
        o: _Opts,
        options: RealmsOptions,
        total: int,
        tie_value: int,
        legal_hand: bool,
        warning_msgs: tuple[Msg, ...],
    ) -> None:
        self._ch = ch
        self._o = o
        self.options = options
        self.total = total
        self.tie_break = TieBreak(o.tie_rule, tie_value)
        self.legal_hand = legal_hand
        self.warning_msgs = warning_msgs
        self._cards: tuple[CardScore, ...] | None = None
        self._choices: dict[str, Any] | None = None
        # the lean evaluation's final state of a plain hand, for `_plain_k2_cards`
        self._lean: _LeanState | None = None

    @property
    def cards(self) -> tuple[CardScore, ...]:
        """One CardScore per card of the assembled hand, in hand order (E21)."""
        if self._cards is None:
            self._cards = _card_scores(self._ch, self._o, self.total)
        return self._cards

    @property
    def choices(self) -> Mapping[str, Any]:
        """Every choice key the hand holds, in C54 order, normalised (slugs / None)."""
        if self._choices is None:
            real = self._ch.real
            self._choices = {} if _CHOICE_NOS.isdisjoint(real) else self._ch.as_json(_held_keys(real))
        return self._choices

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(render(w) for w in self.warning_msgs)

    @property
    def key(self) -> tuple[int, int]:
        """The E4 comparison key: bigger is better."""
        v = self.tie_break.value
        return (self.total, -v if self.tie_break.rule == "lowest_base_total" else v)

    def __repr__(self) -> str:
        return f"HandScore(total={self.total}, tie_break={self.tie_break}, choices={dict(self.choices)})"

    def to_dict(self) -> dict[str, Any]:
        """Exactly the K2 response body."""
        tie_break = self.tie_break
        return {
            "total": self.total,
            "legal_hand": self.legal_hand,
            "warnings": [render(w) for w in self.warning_msgs],
            "options": dict(self._o.option_items),
            "choices": dict(self.choices),
            "tie_break": {"rule": tie_break.rule, "value": tie_break.value},
            "cards": self._card_dicts(),
        }

    def _card_dicts(self) -> list[dict[str, Any]]:
        """The K2 "cards": straight from the lean evaluation's state when no choice was
        made (`_plain_k2_cards`), else from the breakdown."""
        if self._cards is None and self._lean is not None:
            return _plain_k2_cards(list(self._ch.real), self._o, self._lean)
        return [c.to_dict() for c in self.cards]


def _fast_total(
    ch: _Choices, o: _Opts, keep: list[Any] | None = None, plain: bool | None = None
) -> tuple[int, int]:
    real = list(ch.real)
    if ch.plain if plain is None else plain:  # steps 1-5 change nothing: every card is itself
        c = _Ctx(real)
        suit = _PLAIN_SUIT[o.wild_suit]
        return _eval(c, real, [suit[x] for x in real], c.pbase, [_PEN_OF[x] for x in real], -1, o, keep)
    h = _resolve(real, ch.dopp_t, ch.mirage, ch.shape, ch.book_t, ch.book_s, o)
    return _eval(_Ctx(real), h.name, h.suit, h.base, h.pen, ch.island_t, o, keep)


def score_total(
    cards: Sequence[Any], choices: Mapping[str, Any] | None = None, options: RealmsOptions | None = None
) -> int:
    """Only the hand total (no breakdown): for bulk scoring."""
    o = _opts(options)
    return _fast_total(_check(cards, choices, o, None, []), o)[0]


def score_hand(
    cards: Sequence[Any],
    choices: Mapping[str, Any] | None = None,
    options: RealmsOptions | None = None,
    *,
    discard_area: Iterable[Any] | None = None,
) -> HandScore:
    """Score one hand (E12-E19). `cards` are slugs, numbers or Cards: the hand, plus
    optionally the Necromancer's card (then named by choices["necromancer"]).
    Raises ChoiceError for choices C54 refuses."""
    options = options or _DEFAULT_OPTIONS
    o = _opts(options)
    warn: list[Msg] = []
    ch = _check(cards, choices, o, discard_area, warn)
    return _build(ch, o, options, warn)


def _build(ch: _Choices, o: _Opts, options: RealmsOptions, warn: list[Msg]) -> HandScore:
    n = len(ch.real)
    plain = ch.plain
    lean: list[Any] = []
    total, tie = _fast_total(ch, o, lean if plain and n <= _MAX_FAST else None, plain)
    legal = (n == 7 and not ch.necro) or (n == 8 and bool(ch.necro))
    if not legal:
        warn = [*warn, _m(N_("not a legal final hand"))]
    score = HandScore(ch, o, options, total, tie, legal, tuple(warn))
    if lean:
        score._lean = (lean[0], lean[1], lean[2], lean[3], lean[4], lean[5], lean[6])
    return score


def _card_scores(ch: _Choices, o: _Opts, total: int) -> tuple[CardScore, ...]:
    """The breakdown of a hand (E21), from the reference scorer `_score`."""
    real = list(ch.real)
    h = _resolve(real, ch.dopp_t, ch.mirage, ch.shape, ch.book_t, ch.book_s, o)
    why = _Why()
    totals = _score(h, ch.island_t, o, why)
    assert sum(totals) == total, "the lean evaluation and the breakdown disagree"
    return tuple([_card_score(h, i, ch, totals[i], why) for i in range(len(real))])


def _clearers(h: _Hand, ch: _Choices, i: int) -> list[str]:
    """The names of the cards that clear position i's penalty (E15)."""
    real = h.real
    out: list[str] = []
    s = h.suit[i]
    if MOUNTAIN in real and s == FLOOD:
        out.append(_NAMES[MOUNTAIN])
    if CAVERN in real and s == WEATHER:
        out.append(_NAMES[CAVERN])
    if ch.island_t == i:
        out.append(_NAMES[ISLAND])
    if BEASTMASTER in real and s == BEAST:
        out.append(_NAMES[BEASTMASTER])
    if PROTECTION_RUNE in real:
        out.append(_NAMES[PROTECTION_RUNE])
    return out


def _and(items: Sequence[str]) -> str:
    return " and ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " and " + items[-1]


def _counted(h: _Hand, i: int, terms: Iterable[tuple[int, bool]]) -> list[str]:
    """The labels of the active cards a count's terms count (position i is left out of
    the "other" terms)."""
    ts = list(terms)
    suits = {s for s, _ in ts}
    own = {s for s, other in ts if not other}
    active, suit = h.active, h.suit
    return [_label(h, j) for j in range(h.n) if active[j] and suit[j] in (own if j == i else suits)]


def _bonus_notes(no: int, h: _Hand, i: int, pts: int) -> list[Msg]:
    notes: list[Msg] = []
    rule = _RULES.get(no)
    if rule is not None and pts:
        for part in rule:
            if part[0] == _PER:
                terms = part[2]
                names = _counted(h, i, terms)
                if names:
                    what = "/".join(_suit_name(s) for s, _ in terms)
                    other = N_("other ") if all(o for _, o in terms) else ""
                    notes.append(
                        _m(
                            N_("+%(points)s = %(mult)s × %(count)s %(other)s%(what)s: %(cards)s"),
                            points=part[1] * len(names),
                            mult=part[1],
                            count=len(names),
                            other=other,
                            what=what,
                            cards=", ".join(names),
                        )
                    )
            else:
                _, points, all_names, any_names, any_suits = part
                if _rule_points((part,), h, i):
                    got = [_name(x) for x in all_names]
                    got += [_name(x) for x in any_names if x in h.names][:1]
                    for s in any_suits:
                        holders = [_label(h, j) for j in range(h.n) if h.active[j] and h.suit[j] == s]
                        if holders:
                            got.append(f"{_suit_name(s)} ({holders[0]})")
                            break
                    notes.append(_m(N_("+%(points)s with %(what)s"), points=points, what=_and(got)))
    elif pts:
        notes.append(_m(N_("+%(points)s (%(effect)s)"), points=pts, effect=BY_NO[no].effect))
    extra = _EXTRA_NOTES.get(no)
    if extra:
        notes.append(extra)
    return notes


_EXTRA_NOTES: dict[int, Msg] = {
    MOUNTAIN: _m(N_("clears the penalty of every Flood")),
    CAVERN: _m(N_("clears the penalty of every Weather")),
    BEASTMASTER: _m(N_("clears the penalty of every Beast")),
    PROTECTION_RUNE: _m(N_("clears the penalty of every card")),
    RANGERS: _m(N_("removes the word Army from every penalty")),
    WARSHIP: _m(N_("removes the word Army from the penalty of every Flood")),
}


def _penalty_note(p: int, h: _Hand, i: int, pts: int) -> Msg | None:
    if not pts:
        return None
    mult, terms, kind = _PEN_RULES[p]
    if kind == "unless":
        return _m(N_("%(points)s: no %(what)s"), points=pts, what=_suit_name(terms[0][0]))
    used = [(s, o) for s, o, army in terms if not (army and h.armyless[i])]
    names = _counted(h, i, used)
    return _m(
        N_("%(points)s = %(mult)s × %(count)s %(what)s: %(cards)s"),
        points=pts,
        mult=mult,
        count=len(names),
        what="/".join(_suit_name(s) for s, _ in used),
        cards=", ".join(names),
    )


def _card_score(h: _Hand, i: int, ch: _Choices, total: int, why: _Why) -> CardScore:
    no = h.real[i]
    active = h.active[i]
    reasons: list[Msg] = []
    notes: list[Msg] = []
    acts_as: str | None = None
    s = h.suit[i]
    if no == DOPPELGANGER and ch.dopp_t >= 0:
        t = h.real[ch.dopp_t]
        notes.append(_m(N_("Doppelgänger copies %(card)s (name, strength, suit and penalty)"), card=_name(t)))
        acts_as = f"{_name(h.name[i])} ({_suit_name(s)})"
    elif no == MIRAGE and ch.mirage:
        notes.append(_m(N_("Mirage copies %(card)s (name and suit only)"), card=_name(ch.mirage)))
        acts_as = f"{_name(h.name[i])} ({_suit_name(s)})"
    elif no == SHAPESHIFTER and ch.shape:
        notes.append(_m(N_("Shapeshifter copies %(card)s (name and suit only)"), card=_name(ch.shape)))
        acts_as = f"{_name(h.name[i])} ({_suit_name(s)})"
    if i == ch.book_t:
        notes.append(_m(N_("suit changed to %(suit)s by the Book of Changes"), suit=_suit_name(s)))
        if acts_as is None:
            acts_as = f"{_suit_name(s)} ({_name(BOOK_OF_CHANGES)})"
    from_necro = bool(ch.necro) and no == ch.necro
    if from_necro:
        notes.append(_m(N_("taken from the discard area by the Necromancer")))
    if no == NECROMANCER and ch.necro:
        notes.append(_m(N_("takes %(card)s from the discard area"), card=_name(ch.necro)))
    if no == BOOK_OF_CHANGES and ch.book_t >= 0:
        notes.append(
            _m(
                N_("makes %(card)s %(suit)s"),
                card=_name(h.real[ch.book_t]),
                suit=SUIT_WITH_ARTICLE[SUITS[ch.book_s]],
            )
        )
    if no == ISLAND and ch.island_t >= 0:
        notes.append(_m(N_("clears the penalty of %(card)s"), card=_label(h, ch.island_t)))
    if not active:
        reasons.append(why.blank.get(i, _BLANKED))
    p = h.pen[i]
    if p and h.cleared[i]:
        clearers = _clearers(h, ch, i)
        if clearers:
            reasons.append(_m(N_("penalty cleared by %(cards)s"), cards=_and(clearers)))
    if p in _ARMY_WORD and h.armyless[i] and not h.cleared[i]:
        by = [_name(x) for x in (RANGERS, WARSHIP) if x in h.real and (x == RANGERS or h.suit[i] == FLOOD)][
            :1
        ]
        reasons.append(_m(N_("word Army removed by %(card)s"), card=by[0]))
    base = bonus = penalty = 0
    if active:
        base = h.base[i]
        bonus = why.bonus.get(i, 0)  # the points `_score` computed
        penalty = why.penalty.get(i, 0)
        if penalty:
            pn = _penalty_note(p, h, i, penalty)
            if pn:
                notes.append(pn)
    if _HAS_BONUS[no]:
        notes[:0] = _bonus_notes(no, h, i, bonus)  # clears and "Army" removal hold even when blanked
    assert base + bonus + penalty == total
    return CardScore(
        _SLUGS[no],
        _NAMES[h.name[i]],
        _SUIT_KEY[s],
        "active" if active else "blanked",
        "; ".join([render(r) for r in reasons]) if reasons else None,
        base,
        bonus,
        penalty,
        total,
        tuple([render(m) for m in notes]) if notes else (),
        tuple(reasons),
        tuple(notes),
        acts_as,
        from_necro,
    )


_BLANKED: Msg = _m(N_("blanked"))


# --------------------------------------------------------------------------- K2 cards of plain hands
#
# `HandScore.to_dict()` of a hand with no choice made (random hands, most final hands)
# builds its card dicts here, straight from the lean data: steps 6-11 on bitmasks as
# in `_eval`, keeping each card's points and sentences. The sentences are the same
# N_ templates as the breakdown's, pre-filled at import with what is fixed per card
# (multiplier, suits, effect) and formatted positionally with the rest. Blanking
# among blankers (a blanker matched by a blanker) takes the readable resolution for
# its words. tests/games/realms/test_k2_plain_cards.py holds both paths to the same
# output.


def _prefill(text: str, fields: tuple[str, ...], **params: Any) -> str:
    """`text` with `params` filled in and its `fields` (given in the order they appear)
    left as positional `%s`: `_prefill(t, ("b",), a=1) % (2,) == t % {"a": 1, "b": 2}`."""
    assert sorted(fields, key=lambda k: text.index(f"%({k})s")) == list(fields)
    return text % {**{k: "%s" for k in fields}, **{k: str(v).replace("%", "%%") for k, v in params.items()}}


#: A "per" part of a bonus rule: (True, mult, suits, suits counting the card itself,
#: sentence % (points, count, cards)); a "with" part: (False, points, all_names,
#: any_names, any_suits, the names of all_names, sentence % what; with neither
#: any_names nor any_suits: no names and the whole sentence).
_NotePart = tuple[Any, ...]


def _plain_note_parts(no: int) -> tuple[_NotePart, ...]:
    out: list[_NotePart] = []
    for part in _RULES.get(no, ()):
        if part[0] == _PER:
            terms = part[2]
            text = _prefill(
                N_("+%(points)s = %(mult)s × %(count)s %(other)s%(what)s: %(cards)s"),
                ("points", "count", "cards"),
                mult=part[1],
                other=N_("other ") if all(o for _, o in terms) else "",
                what="/".join(_suit_name(s) for s, _ in terms),
            )
            own = frozenset(s for s, other in terms if not other)
            out.append((True, part[1], tuple(s for s, _ in terms), own, text))
        else:
            _, points, all_names, any_names, any_suits = part
            text = _prefill(N_("+%(points)s with %(what)s"), ("what",), points=points)
            got = tuple(_name(x) for x in all_names)
            if not any_names and not any_suits:  # the whole sentence is fixed
                text, got = text % _and(got), ()
            out.append((False, points, all_names, any_names, any_suits, got, text))
    return tuple(out)


_PLAIN_NOTE_PARTS: list[tuple[_NotePart, ...]] = [_plain_note_parts(no) for no in range(54)]
#: The sentence of a bonus that is no rule part (% points).
_EFFECT_TEXT: list[str] = [
    "" if no == 0 else _prefill(N_("+%(points)s (%(effect)s)"), ("points",), effect=BY_NO[no].effect)
    for no in range(54)
]
#: The note every card with a bonus keeps, even blanked (a clear, the word Army).
_EXTRA_TEXT: list[str | None] = [
    render(_EXTRA_NOTES[no]) if _HAS_BONUS[no] and no in _EXTRA_NOTES else None for no in range(54)
]


def _penalty_note_part(p: int, armyless: bool) -> tuple[bool, tuple[int, ...], frozenset[int], str]:
    """(kind is "unless", counted suits, those counting the card itself, sentence:
    % points for "unless", else % (points, count, cards))."""
    if p not in _PEN_RULES:
        return (False, (), frozenset(), "")
    mult, terms, kind = _PEN_RULES[p]
    if kind == "unless":
        return (
            True,
            (),
            frozenset(),
            _prefill(N_("%(points)s: no %(what)s"), ("points",), what=_suit_name(terms[0][0])),
        )
    used = [(s, o) for s, o, army in terms if not (army and armyless)]
    text = _prefill(
        N_("%(points)s = %(mult)s × %(count)s %(what)s: %(cards)s"),
        ("points", "count", "cards"),
        mult=mult,
        what="/".join(_suit_name(s) for s, _ in used),
    )
    return (False, tuple(s for s, _ in used), frozenset(s for s, o in used if not o), text)


#: Per penalty card, without and with the word Army removed.
_PEN_NOTE = [(_penalty_note_part(p, False), _penalty_note_part(p, True)) for p in range(54)]
_CLEARED_TEXT = _prefill(N_("penalty cleared by %(cards)s"), ("cards",))
_ARMY_TEXT = _prefill(N_("word Army removed by %(card)s"), ("card",))
_SELF_BLANK_TEXT = {
    SMOKE: render(_m(N_("blanks itself (no Flame)"))),
    WARSHIP: render(_m(N_("blanks itself (no Flood)"))),
}
_DIRIGIBLE_WEATHER = render(_m(N_("blanks itself (Weather present)")))
_DIRIGIBLE_ARMY = render(_m(N_("blanks itself (no Army)")))
_BLANKED_BY = _prefill(N_("blanked by %(cards)s"), ("cards",))
_BLANKED_BY_REF = _prefill(N_("blanked by %(cards)s (reference scorer)"), ("cards",))
#: The current suit of each card number in a plain hand, by the suit of unused wilds.
_PLAIN_SUIT = {ws: [ws if x >= SHAPESHIFTER else _PSUIT[x] for x in range(54)] for ws in (WILD, NONE)}
#: Penalty kind by card number: 0 none, 1 blanks others, 2 may blank itself, 3 points only.
_PEN_KIND = [
    0 if not _HAS_PEN[x] else 1 if x in BLANKERS else 2 if x in SELF_BLANKERS else 3 for x in range(54)
]
#: By the suit of unused wilds and card number: the K2 dict of the card in a plain
#: hand, active with no bonus, penalty or reason ("notes" to be given).
_PLAIN_DICT: dict[int, list[dict[str, Any]]] = {
    ws: [
        {
            "card": _SLUGS[x],
            "acts_as_name": _NAMES[x],
            "suit": _SUIT_KEY[suits[x]],
            "status": "active",
            "reason": None,
            "base": _PBASE[x],
            "bonus": 0,
            "penalty": 0,
            "total": _PBASE[x],
            "notes": None,
        }
        for x in range(54)
    ]
    for ws, suits in _PLAIN_SUIT.items()
}
#: Card numbers whose bonus or penalty may score (or leave a note).
_PLAIN_POINTS = [_HAS_BONUS[x] or x in _PEN_RULES for x in range(54)]


def _plain_bonus_notes(
    real: list[int], i: int, pts: int, names: set[int], suit: list[int], sm: list[int]
) -> list[str]:
    """The notes of the bonus of an active card of a plain hand (name = real card),
    rendered, as `_bonus_notes` gives them; `pts` is its bonus (from `_eval`). A rule's
    parts are counted again here, on the same active cards (`sm`: the positions of
    each suit): every "per" rule has positive multipliers and distinct suits, so a part
    scores iff it has a note, and the parts add up to `pts`."""
    no = real[i]
    notes: list[str] = []
    parts = _PLAIN_NOTE_PARTS[no]
    if not pts:
        pass
    elif parts:
        check = 0
        for part in parts:
            if part[0]:
                _, mult, suits, own, text = part
                m = 0
                for s in suits:
                    m |= sm[s]
                if suit[i] not in own:
                    m &= ~(1 << i)
                if m:
                    counted = _BITS[m]
                    points = mult * len(counted)
                    check += points
                    notes.append(text % (points, len(counted), ", ".join([_NAMES[real[j]] for j in counted])))
            else:
                _, points, all_names, any_names, any_suits, got, text = part
                if all_names and not names.issuperset(all_names):
                    continue
                if any_names:  # the first one held
                    for x in any_names:
                        if x in names:
                            got = (*got, _NAMES[x])
                            break
                    else:
                        continue
                if any_suits:  # the first suit held, and its first card
                    for s in any_suits:
                        if sm[s]:
                            got = (*got, f"{_suit_name(s)} ({_NAMES[real[_BITS[sm[s]][0]]]})")
                            break
                    else:
                        continue
                check += points
                notes.append(text % _and(got) if got else text)
        assert check == pts, "a bonus rule and its notes disagree"
    else:
        notes.append(_EFFECT_TEXT[no] % pts)
    extra = _EXTRA_TEXT[no]
    if extra is not None:
        notes.append(extra)
    return notes


def _plain_penalty_note(
    real: list[int], i: int, pts: int, sm: list[int], suit: list[int], armyless: bool
) -> str:
    """The note of the penalty points `pts` (not 0) of an active card of a plain hand,
    rendered, as `_penalty_note` gives it."""
    unless, suits, own, text = _PEN_NOTE[real[i]][armyless]
    if unless:
        return text % pts
    m = 0
    for s in suits:
        m |= sm[s]
    if suit[i] not in own:
        m &= ~(1 << i)
    counted = _BITS[m]
    return text % (pts, len(counted), ", ".join([_NAMES[real[j]] for j in counted]))


def _plain_cleared(s: int, c: _Ctx) -> bool:
    """Is the penalty of a card of current suit `s` cleared in a plain hand (E15)?"""
    return (
        c.rune or (s == FLOOD and c.mountain) or (s == WEATHER and c.cavern) or (s == BEAST and c.beastmaster)
    )


def _plain_cleared_text(s: int, c: _Ctx) -> str:
    """The sentence of the clear of a card of current suit `s` in a plain hand."""
    clearers = [
        _NAMES[x]
        for x, on in (
            (MOUNTAIN, c.mountain and s == FLOOD),
            (CAVERN, c.cavern and s == WEATHER),
            (BEASTMASTER, c.beastmaster and s == BEAST),
            (PROTECTION_RUNE, c.rune),
        )
        if on
    ]
    return _CLEARED_TEXT % _and(clearers)


def _plain_k2_cards(real: list[int], o: _Opts, lean: _LeanState) -> list[dict[str, Any]]:
    """The K2 card dicts of a hand with no choice made, as `_card_scores` gives them,
    from what `_eval` kept of it (`lean`)."""
    act, cnt, names, totals, kept, suit, c = lean
    n = len(real)
    blank_text = _plain_blank_texts(real, suit, o, c, act, kept) if act != (1 << n) - 1 else {}
    sm = [0] * 12
    for j in _BITS[act]:
        sm[suit[j]] |= 1 << j
    out: list[dict[str, Any]] = []
    dicts = _PLAIN_DICT[o.wild_suit]
    clearing = c.rune or c.mountain or c.cavern or c.beastmaster
    rangers, warship = c.rangers, c.warship
    for i in range(n):
        no = real[i]
        card = dicts[no].copy()
        # steps 6-7 (E15): a clear, or the word Army removed
        cleared = False
        reason: str | None = None
        if _PEN_KIND[no]:
            s = suit[i]
            if clearing and _plain_cleared(s, c):
                cleared = True
                reason = _plain_cleared_text(s, c)
            elif (rangers or (warship and s == FLOOD)) and no in _ARMY_WORD:
                reason = _ARMY_TEXT % _NAMES[RANGERS if rangers else WARSHIP]
        if act >> i & 1:
            # steps 10-11 (E19)
            if _PLAIN_POINTS[no]:
                penalty, note = 0, None
                if not cleared and no in _PEN_RULES:
                    armyless = rangers or (warship and suit[i] == FLOOD)
                    # the card total is base + bonus + penalty: without a bonus, no recount
                    penalty = (
                        _pen_points(no, i, suit, cnt, armyless) if _HAS_BONUS[no] else totals[i] - _PBASE[no]
                    )
                    if penalty:
                        note = _plain_penalty_note(real, i, penalty, sm, suit, armyless)
                bonus = totals[i] - _PBASE[no] - penalty
                notes = (
                    _plain_bonus_notes(real, i, bonus, names, suit, sm)
                    if bonus or _EXTRA_TEXT[no] is not None
                    else []
                )
                if note is not None:
                    notes.append(note)
                card["bonus"] = bonus
                card["penalty"] = penalty
                card["total"] = totals[i]
                card["notes"] = notes
            else:
                card["notes"] = []
            if reason is not None:
                card["reason"] = reason
        else:
            extra = _EXTRA_TEXT[no]
            blanked = blank_text.get(i, _BLANKED[0])
            card["status"] = "blanked"
            card["reason"] = blanked if reason is None else f"{blanked}; {reason}"
            card["base"] = card["total"] = 0
            card["notes"] = [extra] if extra is not None else []
        out.append(card)
    return out


def _plain_blank_texts(
    real: list[int], suit: list[int], o: _Opts, c: _Ctx, act: int, kept8: int
) -> dict[int, str]:
    """Steps 8-9 of a plain hand again, for the sentence of each blanked position;
    `kept8` and `act` are what `_eval` found after step 8 and after step 9."""
    n = len(real)
    full = (1 << n) - 1
    rangers, warship = c.rangers, c.warship
    # the positions whose blanking penalty is not cleared
    blankers: list[int] = []
    selfb: list[int] = []
    for i, no in enumerate(real):
        kind = _PEN_KIND[no]
        if (kind == 1 or kind == 2) and not _plain_cleared(suit[i], c):
            (blankers if kind == 1 else selfb).append(i)
    kept = full
    blank_text: dict[int, str] = {}
    # step 8 (E16 / E17), when it blanked a card
    if kept8 != full:
        sm = [0] * 12
        for j in range(n):
            sm[suit[j]] |= 1 << j
        hit = [0] * n
        union = bm = 0
        spare = o.wildfire_spares_wild
        for b in blankers:
            hit[b] = _hit_mask(real[b], b, real, sm, rangers or (warship and suit[b] == FLOOD), spare, full)
            union |= hit[b]
            bm |= 1 << b
        if union & bm:
            # a blanker is matched: the readable resolution, for its sentences
            h = _Hand(real, real, suit, [0] * n, [_PEN_OF[x] for x in real])
            _clears(h, -1)
            h.active = [True] * n
            why = _Why()
            _blank_others(h, o, why)
            kept = sum([1 << j for j in range(n) if h.active[j]])
            blank_text = {x: render(msg) for x, msg in why.blank.items()}
        else:
            # every blanker is kept; E16 goes by position, so the blankers before x are
            # kept when x is reached, the others one round later
            kept = full & ~union
            if len(blankers) == 1:  # one sentence for every card it blanks
                sentence = (_BLANKED_BY_REF if o.reference else _BLANKED_BY) % _NAMES[real[blankers[0]]]
                blank_text = dict.fromkeys(_BITS[union], sentence)
            else:
                for x in _BITS[union]:
                    by = [b for b in blankers if hit[b] >> x & 1]
                    if o.reference:
                        blank_text[x] = _BLANKED_BY_REF % ", ".join([_NAMES[real[b]] for b in by])
                    else:
                        by = [b for b in by if b < x] or by
                        blank_text[x] = _BLANKED_BY % ", ".join([_NAMES[real[b]] for b in by])
    assert kept == kept8, "the lean evaluation and the breakdown disagree"
    # step 9 (E18), by card number
    if selfb:
        cnt = [0] * 12
        for j in _BITS[kept]:
            cnt[suit[j]] += 1
        if len(selfb) > 1:
            selfb = sorted(selfb, key=real.__getitem__)
        changed = True
        while changed:
            changed = False
            for i in selfb:
                if not kept >> i & 1:
                    continue
                p = real[i]
                text: str | None = None
                if p in _SELF_BLANK_TEXT:
                    if not cnt[FLAME if p == SMOKE else FLOOD]:
                        text = _SELF_BLANK_TEXT[p]
                elif cnt[WEATHER]:
                    text = _DIRIGIBLE_WEATHER
                elif not cnt[ARMY] and not (rangers or (warship and suit[i] == FLOOD)):
                    text = _DIRIGIBLE_ARMY
                if text is not None:
                    kept &= ~(1 << i)
                    cnt[suit[i]] -= 1
                    blank_text[i] = text
                    changed = True
    assert kept == act, "the lean evaluation and the breakdown disagree"
    return blank_text


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class Ranking:
    ranks: list[int]
    tie_break_decided: bool  # some equal totals were separated by the tie-break
    shared: bool  # some players still share a rank (A3)
    note: str  # a sentence for the result screen ("" if nothing to say)


def _tie_key(h: HandScore, options: RealmsOptions) -> int:
    o = _opts(options)
    if h.tie_break.rule == o.tie_rule and h.options == options:
        v = h.tie_break.value
    else:  # scored with other options: recompute the value the ranking's rule needs
        v = _build(_check([c.card for c in h.cards], h.choices, o, None, []), o, options, []).tie_break.value
    return -v if o.tie_lowest else v


def ranking(hands: Sequence[HandScore], options: RealmsOptions | None = None) -> Ranking:
    """E20: rank by total, then by the tie-break of `options`; equal keys share a rank."""
    options = options or _DEFAULT_OPTIONS
    keys = [(h.total, _tie_key(h, options)) for h in hands]
    ranks = [1 + sum(1 for k in keys if k > key) for key in keys]
    decided = any(a[0] == b[0] and a[1] != b[1] for a in keys for b in keys)
    shared = len(set(keys)) < len(keys)
    parts: list[str] = []
    if decided:
        rule = (
            N_("highest single card")
            if options.tie_break == "highest_card"
            else N_("lowest total base strength")
        )
        parts.append(N_("Equal totals were separated by the tie-break (%(rule)s).") % {"rule": rule})
    if shared:
        parts.append(N_("Players still tied after the tie-break share their rank."))
    return Ranking(ranks, decided, shared, " ".join(parts))


def rank(hands: Sequence[HandScore], options: RealmsOptions | None = None) -> list[int]:
    """E20 ranks (1 = first; equal ranks shared, e.g. 1, 2, 2, 4)."""
    return ranking(hands, options).ranks


# --------------------------------------------------------------------------- breakdown


def breakdown_lines(score: HandScore) -> list[ScoreLine]:
    """E21: one line per card, blanked cards struck, reasons in words."""
    lines: list[ScoreLine] = []
    for c in score.cards:
        label = BY_SLUG[c.card].name_en
        if c.acts_as:
            label = f"{label} → {c.acts_as}"
        if c.from_necromancer:
            label = "{} ({})".format(label, N_("taken from the discard area by the Necromancer"))
        detail = "; ".join([*([c.reason] if c.reason else []), *c.notes])
        lines.append(
            ScoreLine(
                label=label,
                points=c.total,
                detail=detail,
                struck=c.status == "blanked",
                extra={
                    "card": c.card,
                    "status": c.status,
                    "base": c.base,
                    "bonus": c.bonus,
                    "penalty": c.penalty,
                    "messages": [[t, dict(p)] for t, p in (*c.reason_msgs, *c.note_msgs)],
                },
            )
        )
    return lines


# --------------------------------------------------------------------------- best choices (E4-E6)
#
# The search walks the choice sets in the canonical order of E5 and keeps a set only
# when its key is strictly better, so the first best set in canonical order wins, as
# in a full enumeration. It skips only candidates that are provably equivalent, in
# every completion, to an earlier candidate of the same slot (E6 a-c, generalised):
#
# - suits: two suits are interchangeable for this hand when every suit test of every
#   rule present (bonus, penalty, clear, blank, Island, Collector / World Tree: every
#   suit) treats them alike; a Book suit interchangeable with the target's current
#   suit equals "empty";
# - Mirage / Shapeshifter names: a name that no rule of the hand looks for (and that
#   the Collector, if present, does not already count) is interchangeable with any
#   other such name whose suit is interchangeable;
# - Island: a target whose penalty is absent or already cleared equals "empty".
#
# On top, a cheap upper bound of the key (base + the largest bonus each card could
# reach, no penalties; the highest such card for the tie-break) prunes a whole branch
# when it cannot beat the best key found: a lower total, or an equal total without a
# higher tie-break (branches come in canonical order, so an equal key never wins).
# Blanking is left out of the bound, except for the cards a Book target's branch
# surely blanks (`_sure_blanks`): a blanker nothing can blank is kept, so what it
# matches is blanked.

_REF_NAMES: dict[int, frozenset[int]] = {
    MOUNTAIN: frozenset({SMOKE, WILDFIRE}),
    CAVERN: frozenset({DWARVISH_INFANTRY, DRAGON}),
    FOREST: frozenset({ELVEN_ARCHERS}),
    WHIRLWIND: frozenset({RAINSTORM, BLIZZARD, GREAT_FLOOD}),
    CANDLE: frozenset({BOOK_OF_CHANGES, BELL_TOWER}),
    LIGHTNING: frozenset({RAINSTORM}),
    KING: frozenset({QUEEN}),
    QUEEN: frozenset({KING}),
    UNICORN: frozenset({PRINCESS, EMPRESS, QUEEN, ENCHANTRESS}),
    HYDRA: frozenset({SWAMP}),
    SWORD_OF_KETH: frozenset({SHIELD_OF_KETH}),
    SHIELD_OF_KETH: frozenset({SWORD_OF_KETH}),
    ELVEN_LONGBOW: frozenset({ELVEN_ARCHERS, WARLORD, BEASTMASTER}),
}
_REF_NAMES_PEN: dict[int, frozenset[int]] = {
    GREAT_FLOOD: frozenset({MOUNTAIN, LIGHTNING}),
    RAINSTORM: frozenset({LIGHTNING}),
    WILDFIRE: _WILDFIRE_SPARED_NAMES,
}
_ALL_SUITS_FEATS = tuple(frozenset({s}) for s in range(10))


def _bonus_feats(no: int) -> tuple[frozenset[int], ...]:
    if no in (COLLECTOR, WORLD_TREE):
        return _ALL_SUITS_FEATS
    feats: list[frozenset[int]] = []
    for part in _RULES.get(no, ()):
        if part[0] == _PER:
            for flag in (False, True):
                f = frozenset(s for s, other in part[2] if other == flag)
                if f:
                    feats.append(f)
        elif part[4]:
            feats.append(frozenset(part[4]))
    feats += {
        FOUNTAIN: [_FOUNTAIN_SUITS],
        ELVEN_ARCHERS: [frozenset({WEATHER})],
        KING: [frozenset({ARMY})],
        QUEEN: [frozenset({ARMY})],
        WARLORD: [frozenset({ARMY})],
        SWORD_OF_KETH: [frozenset({LEADER})],
        SHIELD_OF_KETH: [frozenset({LEADER})],
        MOUNTAIN: [frozenset({FLOOD})],
        CAVERN: [frozenset({WEATHER})],
        BEASTMASTER: [frozenset({BEAST})],
        WARSHIP: [frozenset({FLOOD})],
        ISLAND: [frozenset({FLOOD, FLAME})],
    }.get(no, [])
    return tuple(feats)


def _pen_feats(p: int) -> tuple[frozenset[int], ...]:
    feats: tuple[frozenset[int], ...] = ()
    if p in _PEN_RULES:
        _, terms, _ = _PEN_RULES[p]
        feats = tuple(frozenset({s}) for s, _, _ in terms)
    # a penalty may both count and blank (Blizzard): both parts look at suits
    return feats + {
        GREAT_FLOOD: (frozenset({ARMY}), frozenset({LAND}), frozenset({FLAME})),
        RAINSTORM: (frozenset({FLAME}),),
        BLIZZARD: (frozenset({FLOOD}),),
        WILDFIRE: (_WILDFIRE_SPARED_SUITS,),
        BASILISK: (frozenset({ARMY}), frozenset({LEADER}), frozenset({BEAST})),
        SMOKE: (frozenset({FLAME}),),
        WARSHIP: (frozenset({FLOOD}),),
        WAR_DIRIGIBLE: (frozenset({WEATHER}), frozenset({ARMY})),
    }.get(p, ())


_BONUS_FEATS = [_bonus_feats(no) for no in range(54)]
_PEN_FEATS = [_pen_feats(p) for p in range(54)]


#: The deterministic E6 budget of `best_choices`, in evaluated choice sets. The
#: search with its bounds needs a few thousand at most for real hands (the six
#: choice cards plus any 7th card, bench/realms_bench.py); a pathological hand stops
#: here after a second or two instead of stalling a move.
DEFAULT_MAX_EVALUATIONS = 60_000


@dataclass(frozen=True)
class BestChoices:
    choices: dict[str, Any]
    score: HandScore
    evaluated: int
    exhaustive: bool


class _Stop(Exception):
    pass


def _suit_sigs(real: Sequence[int], pen: Sequence[int]) -> list[tuple[bool, ...]]:
    feats: set[frozenset[int]] = set()
    for no in real:
        feats.update(_BONUS_FEATS[no])
    for p in pen:
        if p:
            feats.update(_PEN_FEATS[p])
    fl = sorted(feats, key=sorted)
    return [tuple(s in f for f in fl) for s in range(10)]


def _observed_names(real: Sequence[int], pen: Sequence[int]) -> set[int]:
    out: set[int] = set()
    for no in real:
        out |= _REF_NAMES.get(no, frozenset())
    for p in pen:
        if p:
            out |= _REF_NAMES_PEN.get(p, frozenset())
    return out


def _copy_reps(
    range_suits: frozenset[int],
    sigs: list[tuple[bool, ...]],
    observed: set[int],
    held: set[int],
    collector: bool,
) -> list[int]:
    seen: set[Any] = set()
    out: list[int] = []
    for x in range(1, 51):
        s = _PSUIT[x]
        if s not in range_suits:
            continue
        key = (sigs[s], x if (x in observed or (collector and x in held)) else -1)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


@lru_cache(maxsize=4096)
def _max_subset_gem(values: tuple[int, ...], longest: bool) -> int:
    """The best Gem of Order bonus over every sub-multiset of `values` (any cards may
    end up blanked): each distinct value taken 0..count times."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    items = sorted(counts.items())
    best = 0
    for takes in product(*(range(c + 1) for _, c in items)):
        sub = [v for (v, _), k in zip(items, takes, strict=True) for _ in range(k)]
        best = max(best, _gem_value(sub, longest))
    return best


def _collector_bound(
    group_sizes: tuple[int, ...], adders: tuple[frozenset[int], ...], best_suit: bool
) -> int:
    """The largest Collector bonus when each adder may add one new name to one of its
    suits (or nothing): exact for the relaxation, by trying every placement."""
    sizes = list(group_sizes)
    best = 0

    def walk(k: int) -> None:
        nonlocal best
        if k == len(adders):
            vals = [_COLLECTOR_WORTH[min(c, 5)] for c in sizes]
            v = max(vals) if best_suit else sum(vals)
            best = max(best, v)
            return
        walk(k + 1)
        for s in adders[k]:
            sizes[s] += 1
            walk(k + 1)
            sizes[s] -= 1

    walk(0)
    return best


_NAMES_IN: dict[frozenset[int], frozenset[int]] = {}


def _names_in(suits: frozenset[int]) -> frozenset[int]:
    """The printed names of the cards 1-50 whose printed suit is in `suits`."""
    out = _NAMES_IN.get(suits)
    if out is None:
        out = _NAMES_IN[suits] = frozenset(x for x in range(1, 51) if _PSUIT[x] in suits)
    return out


#: The bonus closures `_upper_bound` may call as they are (on favourable counts and
#: names): every "per" / "with" rule, and the custom bonuses that only read counts and
#: names. The others have their own bound there.
_UB_BONUS_FN: list[BonusFn | None] = [
    _BONUS_FN[no] if no in _RULES or no in (KING, QUEEN, UNICORN, SWORD_OF_KETH, SHIELD_OF_KETH) else None
    for no in range(54)
]

_ELEVEN = frozenset(range(11))
_TEN = frozenset(range(10))


def _upper_bound(
    real: list[int],
    name: list[int],
    suit: list[int],
    base: list[int],
    free: list[frozenset[int]],
    book_free: bool,
    o: _Opts,
    cache: dict[Any, int],
    dopp_free: int = -1,
    pen: list[int] | None = None,
    blanked: int = 0,
) -> tuple[int, int]:
    """Upper bounds of the E4 key, (total, tie-break part), over every completion of
    the choices still open.

    `free[i]` is the set of suits position i may still take from a wild choice (empty
    when fixed); the Book, while open, may add one card to any suit; `dopp_free` is the
    Doppelganger's position while its choice is open (it may then copy the name, suit
    and strength of any other card). Penalties and blanking only lower scores (a
    blanked card scores 0, a card's base is never negative, and no bonus but Elven
    Archers' and World Tree's grows when a card is blanked), so they are left out;
    counts and "with" tests take their most favourable value. `blanked` marks positions
    that step 8 blanks in every completion (`_sure_blanks`): they score 0 and count
    for nothing.

    The tie-break part bounds the highest single card (each card's bound is its base
    plus its best bonus, and a blanked card's 0 is below it), or, with
    lowest_base_total, minus the printed strengths (exact when blanked cards count,
    else at most 0)."""
    if pen is None:
        pen = [x if _HAS_PEN[x] else 0 for x in real]
    tie_ub = 0
    if o.tie_lowest and o.tie_blanked:
        tie_ub = -sum([_PBASE[x] for x in real])
    if blanked:
        keep = [j for j in range(len(real)) if not blanked >> j & 1]
        if dopp_free >= 0:
            dopp_free = keep.index(dopp_free)
        real, name, suit, base, free, pen = (
            [seq[j] for j in keep] for seq in (real, name, suit, base, free, pen)
        )
    n = len(real)
    cnt = [0] * 12
    base = list(base)
    free = list(free)
    if dopp_free >= 0:
        others = [j for j in range(n) if j != dopp_free]
        free[dopp_free] = frozenset(_PSUIT[real[j]] for j in others if _PSUIT[real[j]] < WILD)
        base[dopp_free] = max((_PBASE[real[j]] for j in others), default=0)
    for i in range(n):
        if free[i]:
            for s in free[i]:
                cnt[s] += 1
        else:
            cnt[suit[i]] += 1
    if book_free:
        cnt = [c + 1 for c in cnt]
    names: set[int] = set(name)
    for i in range(n):
        if free[i] and i != dopp_free:
            names |= _names_in(free[i])
    no_suits = [NONE] * n
    total = top = 0
    for i in range(n):
        no = real[i]
        card = base[i]
        f = _UB_BONUS_FN[no]
        if not _HAS_BONUS[no]:
            pass
        elif f is not None:
            # counts and names at their most favourable; if its own suit may change, an
            # "other" count loses nothing (the closures read only suit[i])
            card += f(i, cnt, names, no_suits if (free[i] or book_free) else suit, base, name, 0, o)
        elif no == FOUNTAIN:
            card += max(base)
        elif no == ELVEN_ARCHERS:
            card += 5
        elif no == COLLECTOR:
            card += _collector_ub(real, name, suit, free, book_free, o, cache, dopp_free)
        elif no == WARLORD:
            # the Armies' strengths, plus the strongest other card if the Book may move it
            armies = [j for j in range(n) if (ARMY in free[j]) if free[j]] + [
                j for j in range(n) if not free[j] and suit[j] == ARMY
            ]
            rest = [base[j] for j in range(n) if j not in armies]
            card += sum(base[j] for j in armies) + (max(rest, default=0) if book_free else 0)
        elif no == GEM_OF_ORDER:
            if dopp_free >= 0:
                card += _GEM_WORTH[-1] * 2  # two runs of 7+ need more than 8 cards: a safe cap
            else:
                card += _max_subset_gem(tuple(sorted(base)), o.gem_longest)
        elif no == WORLD_TREE:
            card += _world_tree_ub(real, suit, pen, free, book_free, dopp_free)
        total += card
        if card > top:
            top = card
    return total, (tie_ub if o.tie_lowest else top)


def _collector_ub(
    real: list[int],
    name: list[int],
    suit: list[int],
    free: list[frozenset[int]],
    book_free: bool,
    o: _Opts,
    cache: dict[Any, int],
    dopp_free: int,
) -> int:
    """Collector bound: the fixed cards' names per suit, plus one new name per open
    wild choice (in one of its suits, or the suit Wild when unused), plus one for the
    Book (it moves one card anywhere; a Doppelganger's copy only repeats a name unless
    the Book moves it, or it copies an unused wild with the suit Wild)."""
    wild = o.wild_suit == WILD
    groups: list[set[int]] = [set() for _ in range(11)]
    adders: list[frozenset[int]] = []
    for i in range(len(real)):
        if i == dopp_free:
            if wild:
                adders.append(frozenset({WILD}))
        elif free[i]:
            adders.append(free[i] | frozenset({WILD}) if wild else free[i])
        elif suit[i] < NONE:
            groups[suit[i]].add(name[i])
    if book_free:
        adders.append(_ELEVEN if wild else _TEN)
    sizes = tuple(len(g) for g in groups)
    key = ("col", sizes, tuple(adders), o.collector_best)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _collector_bound(sizes, tuple(adders), o.collector_best)
    return v


_BLANK_SUITS: dict[int, frozenset[int]] = {
    GREAT_FLOOD: frozenset({ARMY, LAND, FLAME}),
    RAINSTORM: frozenset({FLAME}),
    BLIZZARD: frozenset({FLOOD}),
    WILDFIRE: frozenset(range(12)) - _WILDFIRE_SPARED_SUITS,
    BASILISK: frozenset({ARMY, LEADER, BEAST}),
}


def _world_tree_ub(
    real: list[int],
    suit: list[int],
    pen: list[int],
    free: list[frozenset[int]],
    book_free: bool,
    dopp_free: int,
) -> int:
    """World Tree bound: 0 when the suit clashes of the fixed cards cannot all be undone,
    a clash being undone by the Book (one card moved) or by blanking a card. A card can
    be blanked only if it blanks itself (Smoke, Warship, War Dirigible) or its suit is
    one some blanker of the hand looks at (clears ignored: they only spare cards)."""
    if dopp_free >= 0:
        return 50
    n = len(real)
    blankable: set[int] = set()
    for i in range(n):
        if pen[i] in _BLANK_SUITS:
            blankable |= _BLANK_SUITS[pen[i]]
    count = [0] * 12
    for i in range(n):
        s = suit[i]
        if free[i] or s == NONE or s in blankable or pen[i] in SELF_BLANKERS:
            continue
        count[s] += 1
    need = sum(c - 1 for c in count if c > 1)
    return 50 if need <= (1 if book_free else 0) else 0


def _seed_total(
    base_hand: list[int],
    necro_cands: list[int],
    pin: _Choices,
    pinned: Mapping[str, Any],
    pinned_island: int,
    o: _Opts,
) -> int | None:
    """A good total reached by a legal choice set, found by coordinate ascent (a few
    hundred evaluations): the branch and bound prunes against it from the start. Only
    the total is used, never the choice set, so the result stays the canonical one."""
    has = set(base_hand) | set(necro_cands)
    slots: list[list[Any]] = []
    cur: list[Any] = []
    slots.append(list(necro_cands))
    cur.append(necro_cands[0] if len(necro_cands) == 1 else 0)
    if "doppelganger" in pinned:
        dv = pin.real[pin.dopp_t] if pin.dopp_t >= 0 else 0
        slots.append([dv])
    else:
        slots.append([0, *sorted(x for x in has if x != DOPPELGANGER)] if DOPPELGANGER in has else [0])
    cur.append(slots[-1][0])
    mir = [pin.mirage] if "mirage" in pinned else [0, *(x for x in range(1, 26))]
    slots.append(mir if MIRAGE in has else [0])
    cur.append(slots[-1][0])
    shp = [pin.shape] if "shapeshifter" in pinned else [0, *(x for x in range(26, 51))]
    slots.append(shp if SHAPESHIFTER in has else [0])
    cur.append(slots[-1][0])
    if "book_of_changes" in pinned:
        slots.append([(pin.real[pin.book_t], pin.book_s) if pin.book_t >= 0 else (0, -1)])
    elif BOOK_OF_CHANGES in has:
        slots.append([(0, -1), *((x, st) for x in sorted(has) if x != BOOK_OF_CHANGES for st in range(10))])
    else:
        slots.append([(0, -1)])
    cur.append(slots[-1][0])
    if pinned_island != -2:
        slots.append([pinned_island])
    else:
        slots.append([0, *sorted(has)] if ISLAND in has else [0])
    cur.append(slots[-1][0])

    def value(c: list[Any]) -> int | None:
        nec, dv, mi, sh, (bx, bs), ix = c
        real = [*base_hand, nec] if nec else list(base_hand)
        if dv and (dv not in real or dv == DOPPELGANGER):
            return None
        if bx and (bx not in real or (bx in WILDS and not o.book_may_target_wild)):
            return None
        if ix and ix not in real:
            return None
        d = real.index(dv) if dv else -1
        bt = real.index(bx) if bx else -1
        h = _resolve(real, d, mi, sh, bt, bs, o)
        it = -1
        if ix:
            it = real.index(ix)
            if h.suit[it] not in (FLOOD, FLAME):
                return None
        return _eval(_Ctx(real), h.name, h.suit, h.base, h.pen, it, o)[0]

    best = value(cur)
    for _ in range(2):
        improved = False
        for k, cands in enumerate(slots):
            if len(cands) < 2:
                continue
            for v in cands:
                if v == cur[k]:
                    continue
                trial = [*cur[:k], v, *cur[k + 1 :]]
                t = value(trial)
                if t is not None and (best is None or t > best):
                    best, cur, improved = t, trial, True
        if not improved:
            break
    return best


def best_choices(
    cards: Sequence[Any],
    options: RealmsOptions | None = None,
    *,
    discard_area: Iterable[Any] | None = None,
    pinned: Mapping[str, Any] | None = None,
    max_evaluations: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> BestChoices:
    """The E4 pre-selection: the choice set with the best (total, tie-break) key, the
    first in canonical order (E5) among equals; identical to a full enumeration.

    `discard_area` lists the Necromancer's candidates (None: every eligible card not in
    the hand). `pinned` maps choice keys to values that must be kept (None = pinned
    empty). The search stops early (exhaustive=False) after `max_evaluations`
    evaluations (None: `DEFAULT_MAX_EVALUATIONS`, so no caller runs unbounded; the
    E6 budget) or when `should_stop()` turns true (checked every 256 evaluations)."""
    budget = DEFAULT_MAX_EVALUATIONS if max_evaluations is None else max_evaluations
    options = options or _DEFAULT_OPTIONS
    o = _opts(options)
    nos = _nos(cards)
    keys = choice_keys(nos)
    pinned = dict(pinned or {})
    for k in pinned:
        if k not in keys:
            raise (
                ChoiceError(N_("You do not hold %(card)s."), card=_name(_CHOICE_CARD.get(k, 0) or 1))
                if k in _CHOICE_CARD
                else ChoiceError(N_("Unknown choice '%(key)s'."), key=str(k))
            )
    pin = _check(nos, {k: v for k, v in pinned.items() if k != "island"}, o, discard_area, None)
    base_hand = list(nos)
    if pin.extra_given:
        base_hand.remove(pin.necro)
    if "necromancer" in pinned:
        necro_cands = [pin.necro]
    elif NECROMANCER in base_hand:
        pool = set(_nos(discard_area)) if discard_area is not None else set(range(1, 54))
        necro_cands = [0, *sorted(x for x in pool if _PSUIT[x] in _NECRO_SUITS and x not in base_hand)]
    else:
        necro_cands = [0]
    pinned_island = -2  # -2: not pinned
    if "island" in pinned:
        v = pinned["island"]
        pinned_island = 0 if v is None else _choice_card(v).no
        if pinned_island and pinned_island not in nos and pinned_island != pin.necro:
            raise ChoiceError(N_("Island can only target a card in your hand."))

    state = {"evaluated": 0, "stopped": False}
    best: dict[str, Any] = {"key": None, "choice": None}
    cache: dict[Any, int] = {}
    has_island = ISLAND in base_hand

    def evaluate(
        ctx: _Ctx,
        name: list[int],
        suit: list[int],
        base: list[int],
        pen: list[int],
        isl: int,
        choice: tuple[int, ...],
    ) -> None:
        if state["evaluated"] >= budget:
            raise _Stop
        if should_stop is not None and state["evaluated"] % 256 == 255 and should_stop():
            raise _Stop
        state["evaluated"] += 1
        total, tie = _eval(ctx, name, suit, base, pen, isl, o)
        key = (total, -tie if o.tie_lowest else tie)
        if best["key"] is None or key > best["key"]:
            best["key"] = key
            best["choice"] = choice

    floor = _seed_total(base_hand, necro_cands, pin, pinned, pinned_island, o)

    def pruned(ub: tuple[int, int]) -> bool:
        """Can no choice set of a branch with these key bounds replace the best one?
        Branches come in canonical order, so an equal key never replaces it."""
        total_ub, tie_ub = ub
        # `floor` is the total of a legal choice set: the best total is at least that
        if floor is not None and total_ub < floor:
            return True
        key = best["key"]
        return key is not None and (total_ub < key[0] or (total_ub == key[0] and tie_ub <= key[1]))

    def book_options(
        ctx: _Ctx, h3: _Hand, targets: list[int], new_suits: list[list[int]]
    ) -> Iterator[tuple[int, int]]:
        """The open Book's (target, suit) candidates in canonical order, "empty" first;
        a target is skipped when the bound of its branch, taken just before it is
        reached, cannot beat the best key found by then."""
        yield (-1, -1)
        real = ctx.real
        n = len(real)
        sure: list[int] | None = None
        for t in targets:
            suits_t = new_suits[h3.suit[t]]
            if not suits_t:
                continue
            if sure is None:
                sure = _sure_blanks(ctx, h3.name, h3.suit, h3.pen, has_island, o)
            free_t = [frozenset()] * n
            free_t[t] = frozenset(suits_t)
            ub_t = _upper_bound(
                real, h3.name, h3.suit, h3.base, free_t, False, o, cache, pen=h3.pen, blanked=sure[t]
            )
            if pruned(ub_t):
                continue
            yield from ((t, s) for s in suits_t)

    try:
        for nec in necro_cands:
            real = [*base_hand, nec] if nec else list(base_hand)
            n = len(real)
            has = set(real)
            ctx = _Ctx(real)
            by_number = sorted(range(n), key=real.__getitem__)
            book_targets = [
                t
                for t in by_number
                if real[t] != BOOK_OF_CHANGES and (real[t] not in WILDS or o.book_may_target_wild)
            ]
            if DOPPELGANGER in has and "doppelganger" not in pinned:
                h0 = _resolve(real, -1, 0, 0, -1, -1, o)
                free0 = [
                    (_MIRAGE_SUITS if x == MIRAGE and "mirage" not in pinned else frozenset())
                    or (_SHAPE_SUITS if x == SHAPESHIFTER and "shapeshifter" not in pinned else frozenset())
                    for x in real
                ]
                if MIRAGE in has and "mirage" in pinned:
                    h0 = _resolve(real, -1, pin.mirage, 0, -1, -1, o)
                if SHAPESHIFTER in has and "shapeshifter" in pinned:
                    h0 = _resolve(real, -1, pin.mirage if "mirage" in pinned else 0, pin.shape, -1, -1, o)
                book0 = BOOK_OF_CHANGES in has and "book_of_changes" not in pinned
                ub0 = _upper_bound(
                    real, h0.name, h0.suit, h0.base, free0, book0, o, cache, real.index(DOPPELGANGER)
                )
                if pruned(ub0):
                    continue
            # Doppelganger candidates (positions, by card number)
            if DOPPELGANGER not in has:
                dopp_cands = [-1]
            elif "doppelganger" in pinned:
                v = pinned["doppelganger"]
                if v is None:
                    dopp_cands = [-1]
                else:
                    t = _choice_card(v).no
                    if t not in has:
                        continue
                    dopp_cands = [real.index(t)]
            else:
                dopp_cands = [
                    -1,
                    *sorted((i for i in range(n) if real[i] != DOPPELGANGER), key=lambda i: real[i]),
                ]
            wild_free = {MIRAGE: _MIRAGE_SUITS, SHAPESHIFTER: _SHAPE_SUITS}
            for d in dopp_cands:
                h1 = _resolve(real, d, 0, 0, -1, -1, o)
                sigs = _suit_sigs(real, h1.pen)
                # the Book's suits for a target of current suit `cur`: one per class of
                # interchangeable suits, none equivalent to `cur` (E6 a, generalised)
                new_suits: list[list[int]] = []
                for cur in range(12):
                    seen = {sigs[cur]} if cur < WILD else set()
                    new_suits.append([])
                    for s in range(10):
                        if sigs[s] not in seen:
                            seen.add(sigs[s])
                            new_suits[-1].append(s)
                observed = _observed_names(real, h1.pen)
                collector = COLLECTOR in has
                book_open = BOOK_OF_CHANGES in has and "book_of_changes" not in pinned
                free = [
                    wild_free.get(x, frozenset()) if x in (MIRAGE, SHAPESHIFTER) else frozenset()
                    for x in real
                ]
                if MIRAGE in has and "mirage" in pinned:
                    free[real.index(MIRAGE)] = frozenset()
                if SHAPESHIFTER in has and "shapeshifter" in pinned:
                    free[real.index(SHAPESHIFTER)] = frozenset()
                if (MIRAGE in has or SHAPESHIFTER in has or book_open) and pruned(
                    _upper_bound(real, h1.name, h1.suit, h1.base, free, book_open, o, cache, pen=h1.pen)
                ):
                    continue
                if MIRAGE not in has:
                    mir_cands = [0]
                elif "mirage" in pinned:
                    mir_cands = [pin.mirage]
                else:
                    mir_cands = [0, *_copy_reps(_MIRAGE_SUITS, sigs, observed, set(h1.name), collector)]
                for mi in mir_cands:
                    h2 = _resolve(real, d, mi, 0, -1, -1, o)
                    if SHAPESHIFTER not in has:
                        shp_cands = [0]
                    elif "shapeshifter" in pinned:
                        shp_cands = [pin.shape]
                    else:
                        shp_cands = [0, *_copy_reps(_SHAPE_SUITS, sigs, observed, set(h2.name), collector)]
                    free2 = list(free)
                    if MIRAGE in has:
                        free2[real.index(MIRAGE)] = frozenset()
                    if (
                        (SHAPESHIFTER in has or book_open)
                        and len(shp_cands) * (2 if book_open else 1) > 2
                        and pruned(
                            _upper_bound(
                                real, h2.name, h2.suit, h2.base, free2, book_open, o, cache, pen=h2.pen
                            )
                        )
                    ):
                        continue
                    for sh in shp_cands:
                        h3 = _resolve(real, d, mi, sh, -1, -1, o)
                        # Book of Changes candidates
                        book_cands: list[tuple[int, int]] = [(-1, -1)]
                        if BOOK_OF_CHANGES in has:
                            if "book_of_changes" in pinned:
                                book_cands = (
                                    [(-1, -1)]
                                    if pin.book_t < 0
                                    else [(real.index(pin.real[pin.book_t]), pin.book_s)]
                                )
                            else:
                                if pruned(
                                    _upper_bound(
                                        real,
                                        h3.name,
                                        h3.suit,
                                        h3.base,
                                        [frozenset()] * n,
                                        True,
                                        o,
                                        cache,
                                        pen=h3.pen,
                                    )
                                ):
                                    continue
                                book_cands = book_options(ctx, h3, book_targets, new_suits)
                        for bt, bs in book_cands:
                            suit = h3.suit
                            if bt >= 0:
                                suit = list(suit)
                                suit[bt] = bs
                            # Island candidates
                            if not has_island:
                                isl_cands = [-1]
                            elif pinned_island != -2:
                                if pinned_island == 0:
                                    isl_cands = [-1]
                                else:
                                    p = real.index(pinned_island)
                                    if suit[p] not in (FLOOD, FLAME):
                                        continue
                                    isl_cands = [p]
                            else:
                                # a Flood or Flame whose penalty no other card clears
                                # (only Mountain and Protection Rune clear these suits)
                                isl_cands = [-1]
                                if not ctx.rune:
                                    isl_cands += [
                                        i
                                        for i in by_number
                                        if h3.pen[i]
                                        and (suit[i] == FLAME or (suit[i] == FLOOD and not ctx.mountain))
                                    ]
                            for isl in isl_cands:
                                evaluate(
                                    ctx, h3.name, suit, h3.base, h3.pen, isl, (nec, d, mi, sh, bt, bs, isl)
                                )
    except _Stop:
        state["stopped"] = True

    nec, d, mi, sh, bt, bs, isl = best["choice"]
    real = [*base_hand, nec] if nec else list(base_hand)
    slug = lambda no: BY_NO[no].slug  # noqa: E731
    chosen: dict[str, Any] = {}
    for k in keys:
        if k == "necromancer":
            chosen[k] = slug(nec) if nec else None
        elif k == "doppelganger":
            chosen[k] = slug(real[d]) if d >= 0 else None
        elif k == "mirage":
            chosen[k] = slug(mi) if mi else None
        elif k == "shapeshifter":
            chosen[k] = slug(sh) if sh else None
        elif k == "book_of_changes":
            chosen[k] = {"target": slug(real[bt]), "suit": SUITS[bs]} if bt >= 0 else None
        elif k == "island":
            chosen[k] = slug(real[isl]) if isl >= 0 else None
    score = score_hand(nos, chosen, options, discard_area=None)
    return BestChoices(dict(score.choices), score, state["evaluated"], not state["stopped"])
