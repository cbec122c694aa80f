"""The multi-format shop project the status and work-item tests read (`status_projects/shop`)."""

from __future__ import annotations

from pathlib import Path

from parlance_i18n.locales import parse_locale
from parlance_i18n.model.project import Project
from parlance_i18n.settings import CatalogSource

SHOP = Path(__file__).resolve().parent / "status_projects" / "shop"
EN = parse_locale("en")
CATALOGS = [
    ("web", "web/{locale}.json", "i18next"),
    ("android", "android/values-{locale}/strings.xml", None),
    ("backend", "backend/{locale}/LC_MESSAGES/{domain}.po", None),
    ("xliff", "xliff/messages.{locale}.xlf", None),
    ("icu", "icu/{locale}.json", "icu-json"),
]


def open_project(root: Path = SHOP) -> Project:
    return Project([CatalogSource(name=name, path=root / path, format=fmt) for name, path, fmt in CATALOGS], EN)
