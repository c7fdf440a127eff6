"""The scoring calculator's request handling (spec §12, K2-K3) and its CLI.

`score_request` / `best_request` take the decoded JSON body of
`POST /api/realms/score` / `POST /api/realms/best` and return the response body,
or raise `RequestError` (a 422) with the player's sentence. The web endpoints and
the CLI share them.

CLI: `python -m app.games.realms.calculator [--best]` reads one request per line on
stdin and writes one JSON line per input line, in order: the response, or
{"error": sentence} for a line the endpoint would refuse.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import IO, Any

from pydantic import ValidationError

from app.games.base import N_
from app.games.realms.cards import BY_NO, BY_SLUG, Card
from app.games.realms.options import RealmsOptions
from app.games.realms.scoring import (
    CHOICE_KEYS,
    NECROMANCER,
    ChoiceError,
    best_choices,
    score_hand,
)

_CHOICE_CARD_NAME = {
    "necromancer": 28,
    "doppelganger": 53,
    "mirage": 52,
    "shapeshifter": 51,
    "book_of_changes": 49,
    "island": 9,
}


class RequestError(ValueError):
    """A request the calculator refuses (HTTP 422); str() is the sentence."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


def _card(ref: Any) -> Card:
    if isinstance(ref, bool) or not isinstance(ref, (str, int)):
        raise RequestError(N_("Unknown card '%(card)s'."), card=json.dumps(ref, ensure_ascii=False))
    if isinstance(ref, int):
        card = BY_NO.get(ref)
    else:
        card = BY_SLUG.get(ref) or (BY_NO.get(int(ref)) if ref.isdigit() else None)
    if card is None:
        raise RequestError(N_("Unknown card '%(card)s'."), card=str(ref))
    return card


def _cards(data: Mapping[str, Any], key: str, low: int, high: int) -> list[Card]:
    raw = data.get(key)
    if not isinstance(raw, list):
        raise RequestError(N_("'%(key)s' must be a list of card slugs or numbers."), key=key)
    if not low <= len(raw) <= high:
        if key == "cards":
            raise RequestError(N_("A hand has 1 to 8 cards."))
        raise RequestError(N_("'%(key)s' has too many cards."), key=key)
    out: list[Card] = []
    for ref in raw:
        card = _card(ref)
        if card in out:
            raise RequestError(N_("%(card)s is listed twice."), card=card.name_en)
        out.append(card)
    return out


def _options(data: Mapping[str, Any]) -> RealmsOptions:
    raw = data.get("options")
    if raw is None:
        return RealmsOptions()
    if not isinstance(raw, dict):
        raise RequestError(N_("'options' must be an object."))
    try:
        return RealmsOptions.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "options"
        raise RequestError(
            N_("Invalid option '%(option)s': %(problem)s."),
            option=where,
            problem=err.get("msg", "invalid value"),
        ) from None


def _parse(data: Any) -> tuple[list[Card], dict[str, Any], RealmsOptions]:
    if not isinstance(data, dict):
        raise RequestError(N_("The request must be a JSON object."))
    unknown = sorted(set(data) - {"cards", "choices", "options", "discard_area", "pinned"})
    if unknown:
        raise RequestError(N_("Unknown field '%(field)s'."), field=unknown[0])
    cards = _cards(data, "cards", 1, 8)
    choices = data.get("choices") or {}
    if not isinstance(choices, dict):
        raise RequestError(N_("'choices' must be an object."))
    nos = {c.no for c in cards}
    for key, value in choices.items():
        if key not in CHOICE_KEYS:
            raise RequestError(N_("Unknown choice '%(key)s'."), key=str(key))
        owner = _CHOICE_CARD_NAME[key]
        if value is not None and owner not in nos:
            raise RequestError(
                N_("Choice '%(key)s' given but %(card)s is not in the hand."),
                key=key,
                card=BY_NO[owner].name_en,
            )
    options = _options(data)
    if len(cards) == 8:
        taken = choices.get("necromancer")
        named = None
        if taken is not None:
            try:
                named = _card(taken)
            except RequestError:
                named = None
        if NECROMANCER not in nos or named is None or named.no not in nos or named.no == NECROMANCER:
            raise RequestError(
                N_(
                    "With 8 cards, the Necromancer must be in the hand and "
                    "choices.necromancer must name which of the other seven it took."
                )
            )
    return cards, choices, options


def score_request(data: Any) -> dict[str, Any]:
    """K2: the response body for one `POST /api/realms/score` request body."""
    cards, choices, options = _parse(data)
    try:
        return score_hand([c.slug for c in cards], choices, options).to_dict()
    except ChoiceError as exc:
        raise RequestError(exc.message, **exc.params) from None


def best_request(data: Any, *, max_evaluations: int | None = None, should_stop: Any = None) -> dict[str, Any]:
    """K3: the K2 response for the best choice set, plus "search"."""
    cards, choices, options = _parse(data)
    discard: list[Card] | None = None
    if data.get("discard_area") is not None:
        discard = _cards(data, "discard_area", 0, 53)
    pinned_keys = data.get("pinned") or []
    if not isinstance(pinned_keys, list) or not all(isinstance(k, str) for k in pinned_keys):
        raise RequestError(N_("'pinned' must be a list of choice keys."))
    for k in pinned_keys:
        if k not in CHOICE_KEYS:
            raise RequestError(N_("Unknown choice '%(key)s'."), key=k)
    pinned = {k: choices.get(k) for k in pinned_keys}
    if len(cards) == 8:
        pinned["necromancer"] = choices["necromancer"]
    try:
        found = best_choices(
            [c.slug for c in cards],
            options,
            discard_area=[c.slug for c in discard] if discard is not None else None,
            pinned=pinned,
            max_evaluations=max_evaluations,
            should_stop=should_stop,
        )
    except ChoiceError as exc:
        raise RequestError(exc.message, **exc.params) from None
    body = found.score.to_dict()
    body["search"] = {"evaluated": found.evaluated, "exhaustive": found.exhaustive}
    return body


def run(lines: Iterable[str], out: IO[str], *, best: bool = False) -> int:
    """Answer every line; returns the number of lines answered."""
    handle = best_request if best else score_request
    count = 0
    for line in lines:
        try:
            try:
                data = json.loads(line)
            except ValueError:
                raise RequestError(N_("The request is not valid JSON.")) from None
            answer: dict[str, Any] = handle(data)
        except RequestError as exc:
            answer = {"error": str(exc)}
        except Exception as exc:  # a bug must not stop the stream; say so on that line
            answer = {"error": f"internal error: {type(exc).__name__}"}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        count += 1
    out.flush()
    return count


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    run(sys.stdin, sys.stdout, best="--best" in args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
