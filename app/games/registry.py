"""The games this server offers, by id."""

from __future__ import annotations

from app.games.base import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.id] = game
    return game


def get(game_id: str) -> Game | None:
    _load_builtin()
    return _GAMES.get(game_id)


def all_games() -> list[Game]:
    _load_builtin()
    return list(_GAMES.values())


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from app.games.fantasy import GAME as fantasy
    from app.games.realms import GAME as realms

    register(realms)
    register(fantasy)
