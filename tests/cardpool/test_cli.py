"""`flask --app deckcheck cardpool ...` as a user runs it."""

import subprocess
import sys

from conftest import POOLS, ROOT


def test_import_from_a_url_then_stats(runner, httpserver):
    csv = "number,name,kind,level\nSt-1,Agumon,digimon,III\nSt-2,Greymon,digimon,IV\n"
    httpserver.expect_request("/dmcg.csv").respond_with_data(csv)
    result = runner.invoke(args=["cardpool", "import", "dmcg", httpserver.url_for("/dmcg.csv")])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "imported 2 cards"
    stats = runner.invoke(args=["cardpool", "stats"]).output
    assert "dmcg" in stats and "2 cards" in stats and "dbe" in stats and "no cards" in stats


def test_failed_import_exits_non_zero_and_keeps_the_pool(runner, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("number,name,kind,level\nSt-1,Agumon,digimon,XII\n")
    result = runner.invoke(args=["cardpool", "import", "dmcg", str(bad)])
    assert result.exit_code != 0
    assert "import failed, nothing changed" in result.output and "line 2" in result.output
    assert "60 cards" in runner.invoke(args=["cardpool", "stats"]).output


def test_sync_without_upstream(runner):
    result = runner.invoke(args=["cardpool", "sync", "dbe"])
    assert result.exit_code == 1 and "no upstream URL" in result.output


def test_sync_uses_configured_urls(app, httpserver):
    httpserver.expect_request("/cards.csv").respond_with_data(
        "number,name,kind\nSt-1,Agumon,digimon\n", headers={"ETag": '"1"'}
    )
    app.config["SYNC_URLS"] = {"dmcg": httpserver.url_for("/cards.csv")}
    runner = app.test_cli_runner()
    assert "dmcg: imported 1 cards" in runner.invoke(args=["cardpool", "sync"]).output


def test_real_command_line(tmp_path):
    """The documented command, in a subprocess, as the acceptance check runs it."""
    env = {"DECKCHECK_DATABASE": str(tmp_path / "cards.db"), "PATH": ""}
    source = POOLS["dmcg"] if POOLS["dmcg"].exists() else ROOT / "cardpool/starter/dmcg.csv"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "flask",
            "--app",
            "deckcheck",
            "cardpool",
            "import",
            "dmcg",
            str(source),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("imported ")
