"""Errors a service raises, each with an HTTP status, a stable code and a
sentence for the person (marked for translation, filled with params)."""

from __future__ import annotations

from typing import Any

from app.games.base import N_


class ServiceError(Exception):
    status = 400

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.code = code
        self.message = message
        self.params = params


class BadRequest(ServiceError):
    status = 400


class NotAuthenticated(ServiceError):
    status = 401

    def __init__(self) -> None:
        super().__init__("not_logged_in", N_("Please log in first."))


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Invalid(ServiceError):
    status = 422


class TooMany(ServiceError):
    status = 429


class StaleVersion(Conflict):
    """The move was made against an older version: carries the fresh state."""

    def __init__(self, fresh: dict[str, Any]) -> None:
        super().__init__(
            "stale_version",
            N_("The table has changed since you looked at it. Here is the current state; please try again."),
        )
        self.fresh = fresh


class IllegalMoveError(BadRequest):
    pass


def table_not_found() -> NotFound:
    return NotFound("table_not_found", N_("There is no such table."))
