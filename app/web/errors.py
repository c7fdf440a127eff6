"""Every error becomes a clear 4xx with a sentence; never a 500 for bad input."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.i18n import _, render
from app.services.errors import ServiceError, StaleVersion

log = logging.getLogger("feytable.web")


def _wants_html(request: Request) -> bool:
    if request.url.path.startswith(("/api/", "/healthz")):
        return False
    return "text/html" in request.headers.get("accept", "") or request.headers.get("hx-request") == "true"


def _describe_validation(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return _("The request is not valid.")
    err = errors[0]
    if err.get("type") == "json_invalid":
        return _("The request body is not valid JSON.")
    loc = [str(p) for p in err.get("loc", ()) if p not in ("body",)]
    where = ".".join(loc)
    msg = err.get("msg", "")
    if where:
        return _("Field '%(field)s': %(problem)s") % {"field": where, "problem": msg}
    return _("The request is not valid: %(problem)s") % {"problem": msg}


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        message = render(exc.message, exc.params)
        if _wants_html(request):
            from app.web.render import error_response

            return error_response(request, exc.status, message, exc.code)
        body: dict[str, object] = {"code": exc.code, "message": message}
        if isinstance(exc, StaleVersion):
            body["state"] = exc.fresh
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        message = _describe_validation(exc)
        if _wants_html(request):
            from app.web.render import error_response

            return error_response(request, 422, message, "invalid_request")
        return JSONResponse({"code": "invalid_request", "message": message}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        messages = {
            404: _("There is nothing at this address."),
            405: _("That method is not allowed here."),
            413: _("The request is too large."),
        }
        message = messages.get(exc.status_code) or (exc.detail if isinstance(exc.detail, str) else "")
        if _wants_html(request):
            from app.web.render import error_response

            return error_response(request, exc.status_code, message, "http_error")
        return JSONResponse({"code": "http_error", "message": message}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {
                "code": "server_error",
                "message": _("Something went wrong on the server. Nothing was changed."),
            },
            status_code=500,
        )
