"""The container set-up, read as Docker would read it (no engine runs here): the compose
file parsed with PyYAML, the Caddyfile and the Dockerfile read line by line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web-1", "web-2", "worker")
WEB = ("web-1", "web-2")
REQUIRED = re.compile(r"^\$\{([A-Z_]+):\?[^}]+\}$")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def _services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return dict(compose["services"])


def test_every_service_has_an_image_a_restart_policy_and_a_health_check(
    compose: dict[str, Any],
) -> None:
    services = _services(compose)
    assert set(services) == {"proxy", *APP_SERVICES, "db", "redis"}
    for name, service in services.items():
        assert service.get("image") or service.get("build"), name
        assert service.get("restart") in ("unless-stopped", "always"), name
        check = service.get("healthcheck", {})
        assert check.get("test") and not check.get("disable"), name
    for name in APP_SERVICES:
        assert services[name]["build"] == "."
    assert services["worker"]["command"] == ["checkers", "worker"]


def test_one_published_port_on_the_proxy(compose: dict[str, Any]) -> None:
    services = _services(compose)
    published = {name: s["ports"] for name, s in services.items() if s.get("ports")}
    assert list(published) == ["proxy"]
    assert len(published["proxy"]) == 1
    assert published["proxy"][0].endswith(":80")


def test_app_services_get_every_setting_they_need(compose: dict[str, Any]) -> None:
    services = _services(compose)
    known = {name.upper() for name in Settings.model_fields}
    proxy_address = services["proxy"]["networks"]["backend"]["ipv4_address"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert set(env) <= known, set(env) - known  # no misspelt setting
        assert "@db:5432/" in env["DATABASE_URL"]
        assert "${POSTGRES_PASSWORD:?" in env["DATABASE_URL"]
        assert REQUIRED.match(env["PUBLIC_URL"])
        assert env["RATE_LIMIT_STORAGE"].startswith("async+redis://redis:6379")
        # The app believes forwarded addresses from the proxy, and only from it.
        assert env["TRUSTED_PROXIES"] == proxy_address
        assert env["SCHEDULER_ENABLED"] == "false"
        depends = services[name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
    for name in WEB:
        assert "PORT" in services[name]["healthcheck"]["test"][-1]
    proxy_depends = services["proxy"]["depends_on"]
    assert {n: d["condition"] for n, d in proxy_depends.items()} == dict.fromkeys(
        WEB, "service_healthy"
    )


def test_every_secret_comes_from_the_environment(compose: dict[str, Any]) -> None:
    for name, service in _services(compose).items():
        for key, value in (service.get("environment") or {}).items():
            if re.search(r"PASSWORD|SECRET|KEY|TOKEN", key) or key == "DATABASE_URL":
                assert "${" in str(value), (name, key, value)
    db_password = _services(compose)["db"]["environment"]["POSTGRES_PASSWORD"]
    assert REQUIRED.match(db_password)


def test_the_proxy_spreads_over_every_web_instance_and_holds_no_stream() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    lines = [line.split("#")[0].strip() for line in caddyfile.splitlines()]
    proxy = next(line for line in lines if line.startswith("reverse_proxy "))
    assert proxy.split()[1:-1] == [f"{name}:8000" for name in WEB]
    assert "flush_interval -1" in lines
    assert "health_uri /healthz" in lines


def test_dockerfile_is_multi_stage_from_the_lock() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM ")]
    assert len(stages) == 2
    build, runtime = lines[stages[0] : stages[1]], lines[stages[1] :]
    assert any("gcc" in line for line in build)
    assert any("pip wheel --no-deps" in line for line in build)
    assert any("--require-hashes" in line and "requirements-build.txt" in line for line in build)
    # The final image: no compiler; the locked dependencies before the code.
    assert not any(re.search(r"\b(gcc|cc|build-essential|apt-get)\b", line) for line in runtime)
    install = next(
        i for i, line in enumerate(runtime) if "requirements.txt" in line and "RUN" in line
    )
    code = min(i for i, line in enumerate(runtime) if line.startswith("COPY --from=build"))
    assert install < code
    assert "--require-hashes" in runtime[install]
    at = next(i for i, line in enumerate(runtime) if line.startswith("HEALTHCHECK"))
    health = next(line for line in runtime[at:] if "/healthz" in line)
    assert "os.environ.get('PORT'" in health
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests"} <= set(ignored)
