"""Hostile XML is refused, quickly, by every XML format, and nothing is ever fetched or expanded:
entity bombs (billion laughs, quadratic blowup), external entities (file://, http://), parameter
entities, and external DTDs. The one DTD a plist names is accepted and still never fetched."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from parlance_i18n import formats
from parlance_i18n.formats import CatalogFileError
from parlance_i18n.locales import parse_locale

XML_FORMATS = ("android", "xliff", "stringsdict")
FAST = 0.5
"""Seconds a refusal may take: an expansion of these files would take minutes or all memory."""


class _Server:
    def __init__(self) -> None:
        self.requests: list[str] = []
        served = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server hook name
                served.requests.append(self.path)
                body = b'<!ENTITY leak "fetched">'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[_Server]:
    running = _Server()
    yield running
    running.close()


def _billion_laughs() -> bytes:
    entities = ['<!ENTITY l0 "lol">'] + [
        f'<!ENTITY l{level} "{("&l" + str(level - 1) + ";") * 10}">' for level in range(1, 10)]
    return f'<?xml version="1.0"?>\n<!DOCTYPE r [\n{chr(10).join(entities)}\n]>\n<r>&l9;</r>\n'.encode()


def _quadratic() -> bytes:
    return (b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "' + b"x" * 200_000 + b'">]>\n<r>'
            + b"&a;" * 200_000 + b"</r>\n")


def _refuse(name: str, data: bytes) -> CatalogFileError:
    fmt = formats.get(name)
    tag = parse_locale("en")
    started = time.perf_counter()
    with pytest.raises(CatalogFileError) as read:
        fmt.read(data, tag)
    with pytest.raises(CatalogFileError):
        fmt.edit(data, tag)
    assert time.perf_counter() - started < FAST
    return read.value


@pytest.mark.parametrize("name", XML_FORMATS)
def test_billion_laughs_is_refused_where_the_first_entity_is_declared(name: str) -> None:
    refused = _refuse(name, _billion_laughs())
    assert refused.reason.startswith("the DOCTYPE declares the entity 'l0'; entity declarations are refused")
    assert refused.line == 3


@pytest.mark.parametrize("name", XML_FORMATS)
def test_quadratic_blowup_is_refused(name: str) -> None:
    refused = _refuse(name, _quadratic())
    assert "declares the entity 'a'" in refused.reason


@pytest.mark.parametrize("name", XML_FORMATS)
def test_an_external_file_entity_is_never_read(name: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    data = (f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY s SYSTEM "{secret.as_uri()}">]>\n'
            f'<resources><string name="x">&s;</string></resources>\n').encode()
    refused = _refuse(name, data)
    assert "declares the entity 's'" in refused.reason and "TOP-SECRET" not in str(refused)


@pytest.mark.parametrize("name", XML_FORMATS)
def test_an_external_dtd_and_parameter_entities_are_never_fetched(name: str, server: _Server) -> None:
    external_dtd = f'<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "{server.url}/evil.dtd">\n<r>&leak;</r>\n'.encode()
    refused = _refuse(name, external_dtd)
    assert refused.reason == (f"the DOCTYPE names an external DTD ('{server.url}/evil.dtd'), which is never "
                              "fetched; remove the DOCTYPE line")
    parameter = (f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM "{server.url}/p.dtd"> %p;]>\n'
                 f"<r>&leak;</r>\n").encode()
    assert "declares the entity 'p'" in _refuse(name, parameter).reason
    http_entity = f'<!DOCTYPE r [<!ENTITY e SYSTEM "{server.url}/e.xml">]><r>&e;</r>'.encode()
    assert "declares the entity 'e'" in _refuse(name, http_entity).reason
    time.sleep(0.05)
    assert server.requests == []


def test_the_plist_dtd_is_accepted_and_never_fetched(server: _Server) -> None:
    data = (f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            f'"{server.url}/PropertyList-1.0.dtd">\n<plist version="1.0"><dict/></plist>\n').encode()
    messages = formats.get("stringsdict").read(data, parse_locale("en"))
    assert list(messages) == [] and messages.problems == []
    assert formats.get("stringsdict").edit(data, parse_locale("en")).to_bytes() == data
    # ... but an entity a DTD would declare is refused rather than silently dropped
    with pytest.raises(CatalogFileError, match="the entity &nbsp; is not defined"):
        formats.get("stringsdict").read(data.replace(b"<dict/>", b"<dict><key>&nbsp;</key></dict>"),
                                        parse_locale("en"))
    time.sleep(0.05)
    assert server.requests == []


def test_the_xliff_dtd_of_old_files_is_accepted_but_no_other() -> None:
    data = (b'<?xml version="1.0"?>\n<!DOCTYPE xliff PUBLIC "-//XLIFF//DTD XLIFF//EN" '
            b'"http://www.oasis-open.org/committees/xliff/documents/xliff.dtd">\n'
            b'<xliff version="1.1"><file source-language="en" target-language="fr" original="a"><body>'
            b'<trans-unit id="k"><source>Hi</source><target>Salut</target></trans-unit></body></file></xliff>')
    assert formats.get("xliff").read(data, parse_locale("fr")).text("k") == "Salut"
    with pytest.raises(CatalogFileError, match="names an external DTD"):
        formats.get("android").read(data, parse_locale("fr"))


def test_deep_nesting_is_read_without_recursion() -> None:
    depth = 50_000
    data = b"<resources>" + b"<b>" * depth + b"x" + b"</b>" * depth + b'<string name="k">ok</string></resources>'
    messages = formats.get("android").read(data, parse_locale("en"))
    assert messages.text("k") == "ok"
