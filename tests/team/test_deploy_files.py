"""deploy/: the files a team deploys are valid for the tools that read them, and agree with each other.

HAProxy checks haproxy.cfg with the addresses of each deployment (systemd's defaults, compose's host
names); `parlance config check --strict` reads parlance.toml in a checkout that has its catalog;
compose.yaml and the systemd unit give each replica longer to stop than it takes, and name the
addresses haproxy.cfg reads. (tests/team/test_acceptance.py runs haproxy.cfg for real.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HAPROXY_ENV = set(re.findall(r"\$\{(PARLANCE_[A-Z0-9_]+)", (DEPLOY / "haproxy.cfg").read_text()))


def _shutdown_grace_s() -> float:
    return float(tomllib.loads((DEPLOY / "parlance.toml").read_text())["host"]["shutdown_grace_s"])


def _unit() -> dict[str, str]:
    entries = {}
    for line in (DEPLOY / "parlance@.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            name, _, value = line.partition("=")
            entries[name.strip()] = value.strip()
    return entries


@pytest.mark.parametrize("addresses", [{}, {"PARLANCE_REPLICA_1": "parlance1:8000", "PARLANCE_REPLICA_2":
                                            "parlance2:8000", "PARLANCE_REPLICA_3": "parlance3:8000"}],
                         ids=["systemd-defaults", "compose-names"])
def test_haproxy_accepts_the_config(addresses: dict[str, str], tmp_path: Path) -> None:
    if shutil.which("haproxy") is None:
        if os.environ.get("CI"):
            pytest.fail("HAProxy is not installed (.ci/run installs it)")
        pytest.skip("HAProxy is not installed")
    env = {**os.environ, **addresses, "PARLANCE_LB_ADMIN_SOCKET": str(tmp_path / "admin.sock")}
    done = subprocess.run(["haproxy", "-c", "-f", str(DEPLOY / "haproxy.cfg")], env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    # a warning is a mistake, except a compose name that does not resolve here (it is looked up again later)
    warnings = [line for line in (done.stdout + done.stderr).splitlines()
                if "WARNING" in line and "could not resolve address" not in line]
    assert warnings == []


def test_the_replica_config_passes_a_strict_check(tmp_path: Path) -> None:
    shutil.copy(DEPLOY / "parlance.toml", tmp_path / "parlance.toml")
    catalog = tmp_path / "web" / "public" / "locales" / "en" / "translation.json"
    catalog.parent.mkdir(parents=True)
    catalog.write_text('{"hello": "Hello"}')
    done = subprocess.run([sys.executable, "-m", "parlance", "config", "check", "--strict", "--config",
                           str(tmp_path / "parlance.toml")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PARLANCE_DATABASE_URL": "postgresql://parlance@db.internal/parlance"})
    assert done.returncode == 0, done.stdout + done.stderr
    config = tomllib.loads((DEPLOY / "parlance.toml").read_text())
    assert config["state"]["url"] == "${env:PARLANCE_DATABASE_URL}" and config["packs"]["i18n"]["write"] is True
    assert config["host"]["public_url"].removeprefix("https://").split("/")[0] in config["host"]["allowed_hosts"]


def test_the_systemd_unit_waits_longer_than_a_replica_drains(tmp_path: Path) -> None:
    unit = _unit()
    assert (unit["KillSignal"], unit["Restart"]) == ("SIGTERM", "always")
    assert "--port %i" in unit["ExecStart"] and "EnvironmentFile" in unit
    assert float(unit["TimeoutStopSec"]) > _shutdown_grace_s() + 1
    if shutil.which("systemd-analyze") is None:
        return
    # systemd's own reading of it, with a program that exists here (the unit names the install's)
    copy = tmp_path / "parlance@.service"
    copy.write_text((DEPLOY / "parlance@.service").read_text().replace("/opt/parlance/bin/parlance", "/bin/true"))
    done = subprocess.run(["systemd-analyze", "verify", f"{copy}"], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()
                  and "EnvironmentFile" not in line and "/srv/l10n" not in line]  # paths of the target machine
    assert complaints == []


def test_compose_runs_postgres_three_replicas_and_haproxy_with_healthchecks() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "parlance1", "parlance2", "parlance3", "haproxy"}
    assert all("healthcheck" in service for service in services.values())
    assert services["postgres"]["image"].startswith("postgres:15")
    haproxy = services["haproxy"]
    assert set(haproxy["environment"]) == HAPROXY_ENV
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in haproxy["volumes"]
    grace = float(re.fullmatch(r"(\d+)s", services["parlance1"]["stop_grace_period"]).group(1))  # type: ignore[union-attr]
    assert grace > _shutdown_grace_s() + 1
    for n in (1, 2, 3):
        replica = services[f"parlance{n}"]
        command = replica["command"]
        port = command[command.index("--port") + 1]
        assert haproxy["environment"][f"PARLANCE_REPLICA_{n}"] == f"parlance{n}:{port}"
        assert "PARLANCE_DATABASE_URL" in replica["environment"]
        assert replica["build"]["args"]["PARLANCE_EXTRAS"] == "postgres"
