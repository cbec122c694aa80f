"""`[packs.i18n] git_commit = true`: each write call that changed files is one commit on the checkout's
current branch, of exactly the files it wrote, authored by the token's subject, committed by git's
configured user; what a user had staged stays staged; a commit that cannot be made is a note, not a
failed write.

Real git repositories in temporary folders; real MCP clients (in process, and over HTTP with a real
authorization server issuing the token whose subject authors the commit).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import parlance_i18n.pack
from parlance.testing import connect
from parlance_i18n.loop.commits import author_of, commit_message
from tests.auth.authorization_server import running_authorization_server
from tests.support import free_port, git, stop_process, wait_listening, write_tree

pytestmark = pytest.mark.anyio

EN = '{\n  "cart.title": "Cart",\n  "cart.empty": "Your cart is empty",\n  "old.key": "Old"\n}\n'
DE = '{\n  "cart.title": "Einkaufswagen",\n  "old.key": "Alt"\n}\n'


def _repository(root: Path) -> Path:
    """A project committed on `main`, with a user's own work in progress: a staged change and an untracked file."""
    write_tree(root, {"locales/en.json": EN, "locales/de.json": DE, "README.md": "# Shop\n"})
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Parlance Server")
    git(root, "config", "user.email", "server@l10n.example.org")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "project")
    (root / "README.md").write_text("# Shop\n\nWork in progress.\n", encoding="utf-8")
    git(root, "add", "README.md")
    (root / "notes.txt").write_text("mine\n", encoding="utf-8")
    return root


def _settings(root: Path, **more: Any) -> dict[str, Any]:
    return {"source_locale": "en", "write": True, "git_commit": True, "project_root": str(root),
            "lock_file": str(root / "parlance-i18n.lock"),
            "catalogs": [{"path": str(root / "locales/{locale}.json"), "name": "app"}], **more}


async def _call(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return result.structured_content  # type: ignore[no-any-return]


def _commits(root: Path) -> list[str]:
    return git(root, "log", "--format=%H").split()


def _files_of(root: Path, commit: str) -> list[str]:
    return sorted(git(root, "show", "--format=", "--name-only", commit).split())


async def test_each_write_is_one_commit_of_exactly_its_files(tmp_path: Path) -> None:
    root = _repository(tmp_path / "shop")
    base = _commits(root)
    config = {"packs": {"i18n": _settings(root)}}
    async with connect({"i18n": parlance_i18n.pack}, config=config, mode="legacy") as client:
        dry = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"},
                                                         "dry_run": True})
        assert _commits(root) == base and dry["commit"] is None
        written = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}})
        unchanged = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}})
        renamed = await _call(client, "i18n_rename_key", {"old": "old.key", "new": "new.key"})
    commits = _commits(root)
    assert len(commits) == len(base) + 2 and unchanged["commit"] is None  # nothing written, nothing committed
    assert [written["commit"], renamed["commit"]] == commits[1::-1] and not written["notes"]
    assert _files_of(root, written["commit"]) == ["locales/de.json", "parlance-i18n.lock"]
    assert _files_of(root, renamed["commit"]) == ["locales/de.json", "locales/en.json"]
    assert git(root, "log", "-1", "--format=%B", written["commit"]).strip() == (
        "i18n: i18n_set_messages de: 1 written\n\nParlance-Tool: i18n_set_messages")
    assert git(root, "log", "-1", "--format=%s", renamed["commit"]).strip() == "i18n: i18n_rename_key: 2 written"
    # no token, no subject: the author is git's configured user, as the committer is
    assert git(root, "log", "-1", "--format=%an <%ae>|%cn <%ce>", written["commit"]).strip() == (
        "Parlance Server <server@l10n.example.org>|Parlance Server <server@l10n.example.org>")
    # the user's staged change is still staged, not committed; their untracked file untouched
    assert git(root, "diff", "--cached", "--name-only").split() == ["README.md"]
    assert git(root, "status", "--porcelain").splitlines() == ["M  README.md", "?? notes.txt"]
    assert git(root, "branch", "--show-current").strip() == "main"


async def test_a_commit_that_cannot_be_made_is_a_note_and_the_files_are_written(tmp_path: Path) -> None:
    plain = write_tree(tmp_path / "plain", {"locales/en.json": EN, "locales/de.json": DE})
    detached = _repository(tmp_path / "detached")
    git(detached, "checkout", "-q", "--detach")
    for root, why in ((plain, "is not in a git checkout"), (detached, "on no branch (a detached HEAD)")):
        config = {"packs": {"i18n": _settings(root)}}
        async with connect({"i18n": parlance_i18n.pack}, config=config) as client:
            done = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}})
        assert done["written"] == 1 and done["commit"] is None, root
        [note] = done["notes"]
        assert note.startswith("the files are written, but not committed: ") and why in note, note
        assert json.loads((root / "locales/de.json").read_text(encoding="utf-8"))["cart.empty"] == "Leer"
    assert len(_commits(detached)) == 1


async def test_a_commit_git_refuses_leaves_the_index_as_the_user_left_it(tmp_path: Path) -> None:
    root = _repository(tmp_path / "shop")
    # A merge in progress: git refuses a commit of some paths only, after the files were staged for it.
    (root / ".git" / "MERGE_HEAD").write_text(git(root, "rev-parse", "HEAD"), encoding="utf-8")
    async with connect({"i18n": parlance_i18n.pack}, config={"packs": {"i18n": _settings(root)}}) as client:
        done = await _call(client, "i18n_set_messages", {"locale": "de", "messages": {"cart.empty": "Leer"}})
    assert done["written"] == 1 and done["commit"] is None and "git commit refused" in done["notes"][0]
    assert git(root, "diff", "--cached", "--name-only").split() == ["README.md"]  # the user's own, and only it
    assert len(_commits(root)) == 1


async def test_writes_at_once_commit_in_turn_each_with_its_own_files(tmp_path: Path) -> None:
    keys = {f"k{n}": f"Key {n}" for n in range(6)}
    root = write_tree(tmp_path / "two", {f"{catalog}/{locale}.json": json.dumps(keys, indent=2)
                                         for catalog in ("web", "app") for locale in ("en", "de")})
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Parlance Server")
    git(root, "config", "user.email", "server@l10n.example.org")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "project")
    settings = {**_settings(root), "catalogs": [{"path": str(root / "web/{locale}.json"), "name": "web"},
                                                {"path": str(root / "app/{locale}.json"), "name": "app"}]}
    done: list[dict[str, Any]] = []
    async with connect({"i18n": parlance_i18n.pack}, config={"packs": {"i18n": settings}}) as client:

        async def delete(catalog: str, key: str) -> None:
            done.append(await _call(client, "i18n_delete_keys", {"keys": [key], "catalog": catalog}))

        for key in keys:  # two writes at once, into files of their own: only `.git` is theirs to share
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(delete, "web", key)
                tasks.start_soon(delete, "app", key)
    assert [output["notes"] for output in done] == [[]] * 12
    commits = _commits(root)[:-1]
    assert sorted(output["commit"] for output in done) == sorted(commits)
    assert sorted(tuple(_files_of(root, commit)) for commit in commits) == sorted(
        [("web/de.json", "web/en.json"), ("app/de.json", "app/en.json")] * 6)


def test_the_author_is_the_subject_as_an_address_can_hold_it() -> None:
    assert author_of("ada", "{subject}@users.noreply.parlance") == ("ada", "ada@users.noreply.parlance")
    assert author_of("auth0|5f2c <x>", "{subject}@l10n.example.org") == ("auth0|5f2c  x", "auth0-5f2c-x@l10n.example.org")
    assert author_of(None, "{subject}@x.org") is None and author_of("", "{subject}@x.org") is None
    assert commit_message("i18n_delete_keys", None, 3, "bot\nInjected: yes") == (
        "i18n: i18n_delete_keys: 3 written\n\nParlance-Tool: i18n_delete_keys\nParlance-Subject: bot Injected: yes\n")


def test_the_author_email_template_is_checked() -> None:
    from pydantic import ValidationError

    from parlance_i18n.settings import I18nSettings

    assert I18nSettings(git_author_email="{subject}@l10n.example.org").git_author_email == "{subject}@l10n.example.org"
    for bad in ("no-at-sign", "a <b>@x.org", "{user}@x.org"):
        with pytest.raises(ValidationError, match="git_author_email"):
            I18nSettings(git_author_email=bad)


async def test_over_http_the_token_subject_authors_the_commit(tmp_path: Path) -> None:
    root = _repository(tmp_path / "shop")
    port = free_port()
    mcp_url = f"http://127.0.0.1:{port}/mcp"
    with running_authorization_server() as issuer:
        (root / "parlance.toml").write_text(
            f'[host]\npublic_url = "{mcp_url}"\n\n[auth]\nissuer = "{issuer.url}"\n\n'
            '[packs]\nenabled = ["i18n"]\n\n[packs.i18n]\nsource_locale = "en"\nwrite = true\ngit_commit = true\n'
            'git_author_email = "{subject}@l10n.example.org"\n\n'
            '[[packs.i18n.catalogs]]\npath = "locales/{locale}.json"\nname = "app"\n\n'
            "[language_packs]\npaths = []\nautoload = false\n", encoding="utf-8")
        git(root, "add", "parlance.toml")  # staged by the user too: not the server's to commit
        proc = subprocess.Popen([sys.executable, "-m", "parlance", "serve", "--transport", "http", "--port", str(port),
                                 "--config", str(root / "parlance.toml")], cwd=root, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env={k: v for k, v in os.environ.items()
                                                                if not k.startswith("GIT_")})
        try:
            wait_listening(port, proc)
            token = issuer.token(client_id="agent-7", resource=mcp_url, scope="parlance:read parlance:write",
                                 subject="ada.lovelace")
            with anyio.fail_after(30):
                async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
                    async with Client(streamable_http_client(mcp_url, http_client=http), mode="legacy") as client:
                        done = await _call(client, "i18n_set_messages",
                                           {"locale": "de", "messages": {"cart.empty": "Leer"}})
        finally:
            stop_process(proc)
    assert done["commit"] == _commits(root)[0] and not done["notes"]
    assert git(root, "log", "-1", "--format=%an <%ae>|%cn <%ce>").strip() == (
        "ada.lovelace <ada.lovelace@l10n.example.org>|Parlance Server <server@l10n.example.org>")
    assert "Parlance-Subject: ada.lovelace" in git(root, "log", "-1", "--format=%B")
    assert _files_of(root, done["commit"]) == ["locales/de.json", "parlance-i18n.lock"]
    assert sorted(git(root, "diff", "--cached", "--name-only").split()) == ["README.md", "parlance.toml"]
