"""Translations. English is the source language; Babel catalogues live in
app/locale/<lang>/LC_MESSAGES/messages.po (French, Spanish, Dutch to follow).

Sentences in the rules layer are marked with N_ and translated here, at the
edge, for the reader's language.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en",)
DEFAULT_LANGUAGE = "en"


@lru_cache
def translations(lang: str = DEFAULT_LANGUAGE) -> _gettext.NullTranslations:
    return _gettext.translation("messages", LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations().ngettext(singular, plural, n)


def render(message: str, params: Mapping[str, Any] | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """Translate a sentence marked in the rules layer, then fill in its values."""
    text = translations(lang).gettext(message)
    if params:
        try:
            return text % dict(params)
        except (KeyError, TypeError, ValueError):
            return text
    return text
