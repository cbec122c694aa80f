"""`[packs.i18n]` settings: locale codes are validated and canonicalised at startup."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from parlance_i18n.settings import I18nSettings


def test_codes_are_canonicalised() -> None:
    settings = I18nSettings(default_locale="en_GB", fallbacks={"pt_br": ["pt_PT"], "default": ["en_us"]})
    assert settings.default_locale == "en-GB"
    assert settings.fallbacks == {"pt-BR": ["pt-PT"], "default": ["en-US"]}


@pytest.mark.parametrize(
    ("settings", "where"),
    [({"default_locale": "english"}, "default_locale"),
     ({"fallbacks": {"pt-BR!": ["pt"]}}, "fallbacks key 'pt-BR!'"),
     ({"fallbacks": {"pt-BR": ["pt/PT"]}}, "fallbacks['pt-BR']")],
)
def test_bad_codes_name_the_setting(settings: dict[str, object], where: str) -> None:
    with pytest.raises(ValidationError) as caught:
        I18nSettings(**settings)  # type: ignore[arg-type]
    assert where in str(caught.value) and "BCP 47" in str(caught.value)


def test_unknown_keys_and_silly_limits_are_rejected() -> None:
    with pytest.raises(ValidationError):
        I18nSettings(default_locael="en")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        I18nSettings(max_output_chars=0)
