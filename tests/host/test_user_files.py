"""`parlance._user_files`: configuration files read bounded, never blocking, only when regular."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
import tomllib
from pathlib import Path

import pytest

from parlance._user_files import PARSER_LIMITS, FileTooLarge, NotARegularFile, read_user_file

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices and sockets as POSIX has them")


def test_a_regular_file_is_read_whole_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 100)
    assert read_user_file(path, max_bytes=100) == b"x" * 100
    with pytest.raises(FileTooLarge, match="larger than the 99 bytes"):
        read_user_file(path, max_bytes=99)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    started = time.monotonic()
    with pytest.raises(NotARegularFile, match=r"a named pipe \(FIFO\), not a regular file"):
        read_user_file(path)
    assert time.monotonic() - started < 1


def test_a_link_to_a_device_is_refused_before_a_byte_is_read(tmp_path: Path) -> None:
    path = tmp_path / "zero"
    path.symlink_to("/dev/zero")
    with pytest.raises(NotARegularFile, match="a character device"):
        read_user_file(path)


def test_a_folder_and_a_socket_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NotARegularFile, match="a folder"):
        read_user_file(tmp_path)
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        with pytest.raises(NotARegularFile, match="not a regular file"):
            read_user_file(path)


def test_links_are_followed_unless_refused(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert read_user_file(link) == b"{}"
    with pytest.raises(NotARegularFile, match="a symbolic link"):
        read_user_file(link, follow_links=False)
    with pytest.raises(FileNotFoundError):
        read_user_file(tmp_path / "missing.json")


def test_parser_limits_name_what_json_and_tomllib_raise_past_their_depth_and_digits() -> None:
    for parse, text in ((json.loads, "[" * 100_000 + "]" * 100_000), (json.loads, "1" * 5000),
                        (tomllib.loads, "a = " + "[" * 100_000 + "]" * 100_000)):
        with pytest.raises(PARSER_LIMITS):
            parse(text)
