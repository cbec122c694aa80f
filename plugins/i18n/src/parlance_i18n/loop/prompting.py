"""The prompt a caller's model translates a page of work items from, answering with the JSON object
`i18n_set_messages` takes: `{key: text | {category: text}}`.

The template is `prompts/translate_missing.md` in this pack. A language pack serving the target
locale may override it with `prompts/i18n/translate_missing.md`, as language packs override the
translation pack's templates: the most specific pack's file (`de-AT`, then `de`) whose version header
names the same template and major version, and which uses no placeholder the base does not offer;
any other is skipped with a warning. The first line of a template is its header:
`<!-- template: translate_missing v<major.minor.patch> -->`.

Templates are filled by plain named substitution of `{{name}}`, in one pass (an item's text with
i18next's `{{name}}` in it is not expanded again); nothing runs. Placeholders: `source_language`,
`target_language`, `locale`, `count`, `items` (one JSON object a line: key, source, placeholders,
plural categories, comment, context, max_length, examples, reason), `glossary` (the terms these
items use), `style_notes`, `answer_example` (the expected answer's shape, with these items' keys).
"""

from __future__ import annotations

import functools
import json
import logging
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from parlance import LanguagePacks

from parlance_i18n.locales import LocaleTag, display_name
from parlance_i18n.loop.glossary import StyleNotes, Term
from parlance_i18n.loop.workitems import WorkItem

__all__ = ["TEMPLATE_NAME", "Template", "render_prompt", "resolve_template"]

logger = logging.getLogger(__name__)

TEMPLATE_NAME = "translate_missing"
PACK = "i18n"
_HEADER = re.compile(r"^<!--\s*template:\s*(?P<name>[a-z_]+)\s+v(?P<version>\d+\.\d+\.\d+)\s*-->\s*$")
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
_EXAMPLE_ITEMS = 3


@dataclass(frozen=True)
class Template:
    """A prompt template: its body (header removed), version, and where it came from."""

    name: str
    version: str
    body: str
    origin: str
    """`i18n` for the pack's own file, else the language pack's name."""
    path: str

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(_PLACEHOLDER.findall(self.body))

    def render(self, values: dict[str, str]) -> str:
        missing = self.placeholders - values.keys()
        if missing:
            raise KeyError(f"template {self.name} v{self.version} needs values for {sorted(missing)}")
        return _PLACEHOLDER.sub(lambda match: values[match.group(1)], self.body)


def render_prompt(items: list[WorkItem], tag: LocaleTag, notes: StyleNotes, language_packs: LanguagePacks | None,
                  *, source_tag: LocaleTag | None = None) -> str:
    """The prompt for translating `items` into `tag` (see the module docstring)."""
    template = resolve_template(tag, language_packs)
    return template.render({
        "source_language": _language(source_tag) if source_tag is not None else "the source language",
        "target_language": _language(tag),
        "locale": tag.code,
        "count": str(len(items)),
        "items": "\n".join(json.dumps(_shown(item), ensure_ascii=False) for item in items) or "(none)",
        "glossary": _glossary(items),
        "style_notes": "\n".join(f"- {line}" for line in notes.lines()) or "- (no style notes for this locale)",
        "answer_example": json.dumps({item.key: _example_answer(item) for item in _example_items(items)},
                                     ensure_ascii=False, indent=1),
    })


def resolve_template(tag: LocaleTag, language_packs: LanguagePacks | None) -> Template:
    """The template for `tag`: the most specific fitting language-pack override, else the pack's own."""
    base = _base()
    if language_packs is None:
        return base
    relative = f"prompts/{PACK}/{TEMPLATE_NAME}.md"
    for lp in language_packs.for_language(tag.code):
        found = lp.file(relative)
        if found is None:
            continue
        override = _override(str(found), lp.name, relative)
        if override is not None and _fits(override, base):
            return override
        logger.warning("i18n.template_override_skipped",
                       extra={"language_pack": lp.name, "template": TEMPLATE_NAME,
                              "reason": "its header or placeholders differ from the base template"})
    return base


def _shown(item: WorkItem) -> dict[str, Any]:
    """An item as the model sees it: what it translates from, without where the file lives."""
    found = item.as_dict()
    found.pop("glossary", None)  # listed once for the page, in the glossary section
    return found


def _glossary(items: list[WorkItem]) -> str:
    terms: dict[tuple[str, str | None], Term] = {}
    for item in items:
        for term in item.glossary:
            terms.setdefault((term.source, term.target), term)
    lines = []
    for term in terms.values():
        line = f"- {term.source} -> keep as written" if term.target is None else f"- {term.source} -> {term.target}"
        if term.case_sensitive:
            line += " (case-sensitive)"
        if term.note:
            line += f" ({term.note})"
        lines.append(line)
    return "\n".join(lines) or "- (no glossary terms in these messages)"


def _example_items(items: list[WorkItem]) -> list[WorkItem]:
    """The first items, and the first plural answered as forms when none of them is one: the shapes
    the answer takes, in a few lines."""
    shown = items[:_EXAMPLE_ITEMS]
    if not any(_by_forms(item) for item in shown):
        plural = next((item for item in items if _by_forms(item)), None)
        if plural is not None:
            shown = [*shown[:_EXAMPLE_ITEMS - 1], plural]
    return shown


def _by_forms(item: WorkItem) -> bool:
    return bool(item.plural_categories) and isinstance(item.source, dict)


def _example_answer(item: WorkItem) -> Any:
    if _by_forms(item):
        return {category: f"<{category} form>" for category in item.plural_categories}
    return "<translation>"


def _language(tag: LocaleTag) -> str:
    return display_name(tag) or tag.code


@functools.lru_cache(maxsize=1)
def _base() -> Template:
    path = f"prompts/{TEMPLATE_NAME}.md"
    text = resources.files("parlance_i18n").joinpath(path).read_text(encoding="utf-8")
    template = _parse(text, PACK, path)
    if template is None or template.name != TEMPLATE_NAME:
        raise ValueError(f"{path}: the first line must be '<!-- template: {TEMPLATE_NAME} v<major.minor.patch> -->'")
    return template


@functools.lru_cache(maxsize=64)
def _override(path: str, pack: str, relative: str) -> Template | None:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return _parse(text, pack, relative)


def _parse(text: str, origin: str, path: str) -> Template | None:
    header, _, body = text.partition("\n")
    match = _HEADER.match(header.lstrip("\ufeff"))
    if match is None:
        return None
    return Template(match.group("name"), match.group("version"), body, origin, path)


def _fits(override: Template, base: Template) -> bool:
    same_major = override.version.split(".")[0] == base.version.split(".")[0]
    return override.name == base.name and same_major and override.placeholders <= base.placeholders
