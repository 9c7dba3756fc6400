"""The wheel is the product: built, installed into a fresh virtual environment and
started from there, it serves its pages (templates, static files and data inside it).

The editable install the tests run from finds templates in the repository; only a
real wheel shows whether they ship.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

import pytest
import requests
import starter
from conftest import ROOT
from production_server import free_port

PAGES = [
    ("/", 200, "deckcheck"),
    ("/cards", 200, "Agumon"),
    ("/formats/dcg", 200, "BT1-"),
    ("/about/data", 200, "MIT License"),
]
# The README's start command checks a real 2026 list: the whole DCG list is in the wheel.
REAL_DECK = "4 EX9-013\n4 BT15-020\n4 EX12-053"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh environment holding the wheel; dependencies come from this one."""
    folder = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = folder.glob("deckcheck-*.whl")
    env = folder / "env"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    # A plain path line: the dependencies become importable, but this environment's own
    # (editable) deckcheck does not, since .pth files in that folder are not run.
    site = subprocess.check_output(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
    ).strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


@pytest.fixture(scope="module")
def served(installed, tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    where = subprocess.check_output(
        [str(installed), "-c", "import deckcheck; print(deckcheck.__file__)"], cwd=folder, text=True
    )
    assert str(ROOT) not in where, f"the test imported the repository, not the wheel: {where}"
    port = free_port()
    # The repository's wsgi.py is not in the wheel; a deployment writes the same two lines.
    (folder / "wsgi_app.py").write_text("from deckcheck import create_app\napp = create_app()\n")
    env = {
        **os.environ,
        "PYTHONPATH": str(folder),
        "DECKCHECK_DATABASE": str(folder / "cards.db"),
        "DECKCHECK_FORMATS_DIR": str(folder / "formats"),
        "DECKCHECK_EVENTS_DATABASE": str(folder / "events.db"),
        **starter.SERVER_ENV,
    }
    log = folder / "server.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [
                str(installed),
                "-m",
                "gunicorn",
                "-w",
                "1",
                "-b",
                f"127.0.0.1:{port}",
                "wsgi_app:app",
            ],
            cwd=folder,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base, server, log)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def _wait(base: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the installed app did not start:\n{log.read_text()}")
        try:
            requests.get(base + "/api/v1/health", timeout=2)
            return
        except (requests.ConnectionError, requests.Timeout):
            # gunicorn's master accepts before its worker has built the app (seconds on a
            # busy machine): a connection that waits is a server still starting.
            time.sleep(0.2)
    pytest.fail("the installed app did not answer within 60 s")


@pytest.mark.parametrize(("path", "status", "text"), PAGES)
def test_the_installed_app_serves_its_pages(served, path, status, text):
    response = requests.get(served + path, timeout=10)
    assert response.status_code == status
    assert "text/html" in response.headers["Content-Type"]
    assert text in response.text


def test_the_installed_app_has_its_error_page_and_static_files(served):
    missing = requests.get(served + "/no-such-page", timeout=10)
    assert missing.status_code == 404
    assert "text/html" in missing.headers["Content-Type"] and "<html" in missing.text.lower()
    assert requests.get(served + "/static/style.css", timeout=10).status_code == 200


def test_the_installed_app_knows_every_dcg_card(served):
    body = {"format": "dcg", "decklist": REAL_DECK}
    report = requests.post(served + "/api/v1/decks/validate", json=body, timeout=10).json()
    assert [v for v in report["violations"] if v["code"] == "unknown-card"] == []
    pools = requests.get(served + "/api/v1/pools", timeout=10).json()["data"]
    assert next(p for p in pools if p["game"] == "dcg")["cards"] == 4391
