"""Bundles: flattening, validation that names every bad key, merging, sessions, and speed."""

from __future__ import annotations

import time

import pytest

from parlance_i18n.model.bundles import Limits, compile_bundle
from parlance_i18n.model.catalog import Catalog
from parlance_i18n.errors import InvalidMessages, NoBundlesLoaded
from parlance_i18n.locales import parse_locale
from parlance_i18n.model.translator import Translator

EN = parse_locale("en")


def test_nested_objects_are_flattened_with_dots() -> None:
    bundle = compile_bundle(EN, {"greeting": {"hello": "Hi", "formal": {"hello": "Good day"}}, "bye": "Bye"})
    assert sorted(bundle.messages) == ["bye", "greeting.formal.hello", "greeting.hello"]


def test_every_bad_key_is_named() -> None:
    with pytest.raises(InvalidMessages) as caught:
        compile_bundle(EN, {"ok": "fine", "n": 1, "list": ["x"], "deep": {"none": None}, "bad": "{x",
                            "a.b": "flat", "a": {"b": "nested"}, "": "empty key"})
    data = caught.value.data
    assert sorted(data["keys"]) == ["", "a.b", "bad", "deep.none", "list", "n"]
    assert data["invalid_count"] == 6
    syntax = next(p for p in data["problems"] if p["key"] == "bad")
    assert syntax["position"] == 2 and "ICU" in syntax["problem"]
    assert "Nothing was added" in caught.value.message


def test_limits_apply() -> None:
    with pytest.raises(InvalidMessages, match="limit is 2"):
        compile_bundle(EN, {"a": "1", "b": "2", "c": "3"}, Limits(max_messages=2))
    with pytest.raises(InvalidMessages, match="max_message_chars"):
        compile_bundle(EN, {"long": "x" * 20}, Limits(max_message_chars=16))


def test_not_an_object() -> None:
    with pytest.raises(InvalidMessages, match="must be an object"):
        compile_bundle(EN, ["a", "b"])


def test_session_bundles_replace_or_merge_without_touching_the_catalog() -> None:
    catalog = Catalog(EN)
    catalog.add_bundle(compile_bundle(EN, {"a": "catalog a", "b": "catalog b"}))
    first, second = Translator(catalog), Translator(catalog)
    first.add_messages("en", {"a": "session a"})
    assert first.translate("a").translation == "session a"
    assert first.translate("b").translation == "b"  # replaced: the catalog's en is hidden for this session
    first.add_messages("en", {"c": "session c"}, merge=True)
    assert [first.translate(k).translation for k in "ac"] == ["session a", "session c"]
    assert [second.translate(k).translation for k in "ab"] == ["catalog a", "catalog b"]
    assert sorted(catalog.bundles["en"].messages) == ["a", "b"]


def test_merge_without_a_bundle_just_adds() -> None:
    t = Translator(Catalog(EN))
    assert len(t.add_messages("de", {"x": "y"}, merge=True).messages) == 1


def test_no_bundles_at_all() -> None:
    with pytest.raises(NoBundlesLoaded):
        Translator(Catalog(EN)).translate("anything")


def test_ten_thousand_keys_add_in_well_under_a_second() -> None:
    messages = {f"section{i // 100}.key{i}": (f"Message {i} for {{name}}" if i % 3 else
                                             f"{{count, plural, one {{# item {i}}} other {{# items {i}}}}}")
                for i in range(10_000)}
    translator = Translator(Catalog(EN))
    started = time.perf_counter()
    bundle = translator.add_messages("en", messages)
    elapsed = time.perf_counter() - started
    print(f"\n10,000-key bundle added in {elapsed * 1000:.1f} ms")
    assert len(bundle.messages) == 10_000
    assert elapsed < 1.0
    assert translator.translate("section0.key3", variables={"count": 2}).translation == "2 items 3"


def test_a_bundle_knows_its_size_in_utf8_before_anything_compiles() -> None:
    from parlance_i18n.model.bundles import BundleBuilder

    messages = {"a": {"b": "é{x}"}, "ja": "語", "bad": "{"}  # a.b 3 + 5 bytes, ja 2 + 3, bad 3 + 1: 17
    builder = BundleBuilder(EN, messages)
    assert (builder.total, builder.size, sorted(builder.keys())) == (3, 17, ["a.b", "bad", "ja"])
    first = compile_bundle(EN, {"a": "xx", "b": "yy"})
    assert first.size == 6
    merged = first.merged_with(compile_bundle(EN, {"b": "zzzz", "c": "w"}))  # b replaced: 6 - 3 + 5 + 2
    assert merged.size == 10 and len(merged.messages) == 3
    assert compile_bundle(EN, {"lone": "\ud800"}).size == 7  # a lone surrogate, as JSON allows, counts 3
