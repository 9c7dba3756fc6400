"""Mixed soak: normal traffic beside every attack of issue 22, against the production server.

    .venv/bin/python bench/soak.py                 # 60 s, as in docs/PERFORMANCE.md ("Soak")
    .venv/bin/python bench/soak.py --seconds 20    # a quick look
    .venv/bin/python bench/soak.py --plain         # the old memory soak: wrk on validate only

Starts `gunicorn -c gunicorn.conf.py wsgi:app` on 127.0.0.1 (a temporary database
holding the shared pools, or `--database`), with an organizer formats folder holding
the broken files of issue 22 (nested 1,000 deep, a date-time `date`, 70 KB, 5,001
numbers) beside a format of 2,000 banned numbers. Then, for the given time:

  - normal traffic (its own process, 4 keep-alive connections): validate a real
    55-card deck, the formats list, a format page, a card search, an event's page;
  - attackers (another process, one thread each, each bounded in count): a batch of
    1,000 decks of 20 unknown names; a batch of 2,000 real decks; 1 MB lists of
    DigimonMeta `dg=` and Egman link lines; a TTS export of 1,000,000 cards; 15 MB form
    and JSON posts (17 MB to the batch); the format pages and formats list over the
    broken files; floods of event creation (a deadline in year 9999 among them); floods
    of submissions (100 KB and 1 MB lists, names in other cases and with invisible
    characters, spreadsheet formulas); the organizer's table and CSV of the flooded
    event; searches `cost<=²` and unique misspellings; form posts to the JSON API.

Prints the normal traffic's count, errors (must be 0), p50 and p99; per attack its
answers by status (a 5xx anywhere is a failure: no input gives one); worker restarts;
each worker's memory at the start and the end, in all and by where it lives (the main
malloc heap, other anonymous memory: CPython's arenas and the other threads' malloc
arenas, stacks, files). Only loopback addresses; every loop ends at the deadline or its
count, whichever comes first.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    DECK_55,
    free_port,
    full_database,
    rss_mb,
    start_server,
    worker_pids,
)

HOST = "127.0.0.1"
NORMAL_CONNECTIONS = 4
ATTACK_COUNT = 400  # requests per attack at most, whatever the time
MB = 1024 * 1024
JSON, FORM = "application/json", "application/x-www-form-urlencoded"
DEADLINE = "2099-12-31T23:00:00+00:00"

BANNED_2000 = ", ".join(f'"BT{i // 100 + 1}-{i % 100:03d}"' for i in range(2000))
FORMAT_FILES = {
    "deep.toml": 'id = "deep"\nextends = "dcg"\ndescription = ' + "[" * 1000 + "]" * 1000,
    "datetime.toml": 'id = "datetime"\nextends = "dcg"\ndate = 2024-03-01T10:00:00\n',
    "huge.toml": 'id = "huge"\nextends = "dcg"\ndescription = "' + "x" * 70_000 + '"\n',
    "long.toml": 'id = "long"\nextends = "dcg"\nbanned = [' + '"BT1-010", ' * 5001 + "]\n",
    "good.toml": 'id = "good"\nextends = "dcg"\ndate = 2024-03-01\n',
    "banned-2000.toml": f'id = "banned-2000"\nextends = "dcg"\nbanned = [{BANNED_2000}]\n',
}


def start_soak_server(database: str, port: int, folder: Path) -> subprocess.Popen:
    """The README's command, with the organizer formats and an events database."""
    formats = folder / "formats"
    formats.mkdir()
    for name, text in FORMAT_FILES.items():
        (formats / name).write_text(text)
    env = {
        "DECKCHECK_FORMATS_DIR": str(formats),
        "DECKCHECK_EVENTS_DATABASE": str(folder / "events.db"),
        "DECKCHECK_SECRET_KEY": "soak",
    }
    workers = multiprocessing.cpu_count()
    return start_server(database, port, workers, production=True, env=env, log_level="error")


def call(conn, method: str, path: str, body: bytes | None = None, headers=None) -> int:
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    response.read()
    return response.status


def call_json(port: int, method: str, path: str, data=None, headers=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        body = json.dumps(data).encode() if data is not None else None
        conn.request(method, path, body=body, headers={"Content-Type": JSON, **(headers or {})})
        response = conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw.startswith(b"{") else {}
    finally:
        conn.close()


def new_event(port: int, name: str) -> dict:
    status, data = call_json(
        port, "POST", "/api/v1/events", {"name": name, "format": "dcg", "deadline": DEADLINE}
    )
    if status != 201:
        sys.exit(f"could not create the soak's event {name!r}: HTTP {status} {data}")
    return data


# -- normal traffic --------------------------------------------------------------


def normal_requests(event_id: str) -> list[tuple[str, str, bytes | None, dict]]:
    validate = json.dumps({"format": "dcg", "decklist": DECK_55}).encode()
    post = ("POST", "/api/v1/decks/validate", validate, {"Content-Type": JSON})
    return [
        *[post] * 6,
        ("GET", "/api/v1/formats", None, {}),
        ("GET", "/formats/dcg", None, {}),
        ("GET", "/api/v1/cards?game=dcg&q=greymon", None, {}),
        ("GET", f"/api/v1/events/{event_id}", None, {}),
    ]


def normal_client(port, deadline, plan, latencies, errors, offset) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    sent = offset
    while time.monotonic() < deadline:
        method, path, body, headers = plan[sent % len(plan)]
        sent += 1
        started = time.perf_counter()
        try:
            status = call(conn, method, path, body, headers)
        except (OSError, http.client.HTTPException) as err:
            errors.append(f"{path}: {err!r}")
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            continue
        latencies.append(time.perf_counter() - started)
        if status != 200:
            errors.append(f"{path}: HTTP {status}")
    conn.close()


def normal_traffic(port: int, seconds: float, event_id: str, out) -> None:
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors: list[str] = []
    plan = normal_requests(event_id)
    threads = [
        threading.Thread(
            target=normal_client, args=(port, deadline, plan, latencies, errors, i * 3)
        )
        for i in range(NORMAL_CONNECTIONS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(("normal", latencies, errors))


# -- attackers -------------------------------------------------------------------


def unknown_batch() -> bytes:
    decks = [
        {"id": i, "decklist": "\n".join(f"4 Zq{i}x{j}vormon" for j in range(20))}
        for i in range(1000)
    ]
    return json.dumps({"format": "dcg", "decks": decks}).encode()


def real_batch() -> bytes:
    decks = [{"id": i, "decklist": DECK_55} for i in range(2000)]
    return json.dumps({"format": "dcg", "decks": decks}).encode()


def link_lists() -> list[bytes]:
    entry = "4nBT24-005a4nBT14-056a"
    meta = "\n".join("https://digimonmeta.com/deckinfo2?dn=x&dg=" + entry * 40 for _ in range(1000))
    egman_deck = ",".join(f"BT{i % 20 + 1}-{i % 99 + 1:03d}:4" for i in range(80))
    egman = "\n".join(
        f"https://deckbuilder.egmanevents.com/?deck={egman_deck}&type=digimon" for _ in range(1000)
    )
    return [
        json.dumps({"format": "dcg", "decklist": text[: MB - 200]}).encode()
        for text in (meta, egman)
    ]


def plans(port: int) -> dict[str, list[tuple[str, str, bytes | None, dict]]]:
    """Each attack: the requests it cycles through."""
    flood_event = new_event(port, "Soak flood")
    token = {"Authorization": f"Bearer {flood_event['admin_token']}"}
    event = flood_event["id"]
    json_type, form_type = {"Content-Type": JSON}, {"Content-Type": FORM}

    def submission(player: str, decklist: str, player_id: str = "") -> tuple:
        body = json.dumps({"player": player, "player_id": player_id, "decklist": decklist})
        return ("POST", f"/api/v1/events/{event}/submissions", body.encode(), json_type)

    big_list = "4 ST1-03\n" + "// " + "x" * 100_000
    huge_list = "4 ST1-03\n" + "// " + "x" * (MB - 200)
    tts = json.dumps(
        {
            "format": "dcg",
            "style": "tts",
            "decklist": "\n".join(f"1000 ST1-{i % 16 + 1:02d}" for i in range(1000)),
        }
    ).encode()
    over_15 = b"format=dcg&decklist=" + b"a" * (15 * MB)
    return {
        "heavy-batch": [("POST", "/api/v1/decks/validate-batch", unknown_batch(), json_type)],
        "real-batch-2000": [("POST", "/api/v1/decks/validate-batch", real_batch(), json_type)],
        "link-floods": [
            ("POST", "/api/v1/decks/validate", body, json_type) for body in link_lists()
        ],
        "tts-export": [("POST", "/api/v1/decks/export", tts, json_type)],
        "15-mb-posts": [
            ("POST", "/report", over_15, form_type),
            ("POST", "/api/v1/decks/validate", over_15, json_type),
            ("POST", "/api/v1/decks/validate-batch", b"x" * (17 * MB), json_type),
        ],
        "organizer-toml": [
            ("GET", "/api/v1/formats", None, {}),
            ("GET", "/formats", None, {}),
            ("GET", "/formats/banned-2000", None, {}),
            ("GET", "/api/v1/formats/deep", None, {}),
            (
                "POST",
                "/api/v1/decks/validate",
                json.dumps({"format": "good", "decklist": DECK_55}).encode(),
                json_type,
            ),
        ],
        "event-creation": [
            (
                "POST",
                "/api/v1/events",
                json.dumps({"name": "Flood", "format": "dcg", "deadline": deadline}).encode(),
                json_type,
            )
            for deadline in (DEADLINE, "9999-12-31T23:59:59-05:00")
        ],
        "submissions": [
            submission("Carol", DECK_55),
            submission("  CAROL ", DECK_55),
            submission("Car\u200bol", DECK_55),
            submission("\u200b \u2063", DECK_55),
            submission("Bob;=cmd|' /C calc'!A0", DECK_55),
            submission("Big", big_list),
            submission("Huge", huge_list),
            submission("Stranger", DECK_55, player_id="someone-else"),
        ],
        "organizer-table": [
            ("GET", f"/api/v1/events/{event}/submissions", None, token),
            ("GET", f"/api/v1/events/{event}/submissions.csv", None, token),
        ],
        "search": [
            ("GET", "/api/v1/cards?game=dcg&q=cost%3C%3D%C2%B2", None, {}),
            *[("GET", f"/api/v1/cards?game=dcg&q=zq{i}grymon", None, {}) for i in range(200)],
        ],
        "form-to-json-api": [
            ("POST", "/api/v1/decks/validate", b"format=dcg&decklist=4+ST1-03", form_type),
            ("POST", "/api/v1/events", b"name=x&format=dcg", form_type),
        ],
    }


def attacker(port: int, deadline: float, plan: list, counts: dict) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    for sent in range(ATTACK_COUNT):
        if time.monotonic() >= deadline:
            break
        method, path, body, headers = plan[sent % len(plan)]
        try:
            status = call(conn, method, path, body, headers)
        except (OSError, http.client.HTTPException):
            status = "closed"
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=120)
        counts[status] = counts.get(status, 0) + 1
    conn.close()


def attacks(port: int, seconds: float, skip: list[str], out) -> None:
    by_kind = {kind: plan for kind, plan in plans(port).items() if kind not in skip}
    deadline = time.monotonic() + seconds
    counts: dict[str, dict] = {kind: {} for kind in by_kind}
    threads = [
        threading.Thread(target=attacker, args=(port, deadline, plan, counts[kind]))
        for kind, plan in by_kind.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(("attacks", counts))


# -- the run ---------------------------------------------------------------------


def warm_up(port: int) -> None:
    """Every worker builds its pools, and its DCG search table (about 15 MB, made once on
    a worker's first search), before the clock starts and its memory is first read: what
    a worker builds once is not growth."""
    body = json.dumps({"format": "dcg", "decklist": DECK_55}).encode()
    for _ in range(20):
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        call(conn, "POST", "/api/v1/decks/validate", body, {"Content-Type": JSON})
        call(conn, "GET", "/api/v1/cards?game=dcg&q=agumon", None, {})
        conn.close()


# Anonymous mappings by size (kB). CPython's 1 MiB object arenas and glibc's arenas for
# other threads merge with their neighbours, so they are "other anon" together.
ANON_KINDS = {8192: "thread stacks"}  # 8 MiB each; other anonymous mappings merge


def memory_parts(pid: int) -> dict[str, float]:
    """A process's resident memory (MB) by where it lives (/proc/PID/smaps): the main
    malloc heap, thread stacks, other anonymous memory (CPython's object arenas, other
    threads' malloc arenas, large blocks mapped on their own), and files."""
    parts: dict[str, float] = {}
    kind, size = "files", 0
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if "-" in head[0] and not head[0].endswith(":"):
            start, end = (int(x, 16) for x in head[0].split("-"))
            size = (end - start) // 1024
            name = head[5] if len(head) > 5 else ""
            if name == "[heap]":
                kind = "main heap"
            elif name:
                kind = "files"
            else:
                kind = next((k for s, k in ANON_KINDS.items() if s <= size <= s + 8), "other anon")
        elif head[0] == "Rss:":
            parts[kind] = parts.get(kind, 0.0) + int(head[1]) / 1024
    return parts


def parts_words(parts: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.0f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def mixed(seconds: float, database: str, skip: list[str]) -> bool:
    port = free_port()
    server = start_soak_server(database, port, Path(tempfile.mkdtemp(prefix="deckcheck-soak-")))
    try:
        warm_up(port)
        event_id = new_event(port, "Soak normal")["id"]
        workers = worker_pids(server)
        before = {pid: rss_mb(pid) for pid in workers}
        parts_before = {pid: memory_parts(pid) for pid in workers}
        results: multiprocessing.Queue = multiprocessing.Queue()
        runs = [
            multiprocessing.Process(target=normal_traffic, args=(port, seconds, event_id, results)),
            multiprocessing.Process(target=attacks, args=(port, seconds, skip, results)),
        ]
        for run in runs:
            run.start()
        outcomes = dict((o[0], o[1:]) for o in (results.get(timeout=seconds + 300) for _ in runs))
        for run in runs:
            run.join(30)
        now = worker_pids(server)
        after = {pid: rss_mb(pid) for pid in now}
        parts_after = {pid: memory_parts(pid) for pid in now}
    finally:
        server.terminate()
        server.wait(30)
    latencies, errors = outcomes["normal"]
    (counts,) = outcomes["attacks"]
    ok = report(seconds, latencies, errors, counts, before, after)
    for pid in sorted(set(parts_before) & set(parts_after)):
        print(f"worker {pid} at the start (MB): {parts_words(parts_before[pid])}")
        print(f"worker {pid} at the end (MB):   {parts_words(parts_after[pid])}")
    return ok


def report(seconds, latencies, errors, counts, before, after) -> bool:
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = percentile(latencies, 0.99) * 1000 if latencies else float("nan")
    print(f"soak {seconds:g} s: gunicorn -c gunicorn.conf.py wsgi:app on {HOST}")
    print(
        f"normal traffic: {len(latencies)} requests ({len(latencies) / seconds:.0f}/s), "
        f"{len(errors)} errors, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(latencies) * 1000 if latencies else 0:.0f} ms"
    )
    if errors:
        print("  errors:", sorted(set(errors))[:5])
    server_errors = 0
    for kind, statuses in counts.items():
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))
        print(f"  attack {kind}: {shown}")
        server_errors += sum(v for k, v in statuses.items() if isinstance(k, int) and k >= 500)
    replaced = sorted(set(before) - set(after))
    print(f"workers replaced: {len(replaced)}")
    for pid in sorted(set(before) & set(after)):
        print(f"worker {pid}: RSS {before[pid]:.0f} MB -> {after[pid]:.0f} MB")
    ok = not errors and not server_errors and bool(latencies)
    print(f"must (normal traffic 0 errors, no 5xx to any attack): {'PASS' if ok else 'FAIL'}")
    return ok


def plain(seconds: int, database: str) -> None:
    """The first soak: wrk on validate only, memory sampled every 5 s."""
    from common import start_server as start_plain
    from throughput import parse_wrk

    port = free_port()
    server = start_plain(database, port)
    base = f"http://{HOST}:{port}/api/v1/decks/validate"
    try:
        warm_up(port)
        pids = worker_pids(server)
        before = {pid: rss_mb(pid) for pid in pids}
        script = Path(tempfile.mkdtemp()) / "post.lua"
        body = json.dumps({"format": "dcg", "decklist": DECK_55})
        script.write_text(
            'wrk.method = "POST"\n'
            f'wrk.headers["Content-Type"] = "{JSON}"\n'
            f"wrk.body = {json.dumps(body)}\n"
        )
        wrk = ["wrk", "-t", "2", "-c", "8", "-d", f"{seconds}s", "--latency"]
        load = subprocess.Popen(
            [*wrk, "-s", str(script), base],
            stdout=subprocess.PIPE,
            text=True,
        )
        samples = []
        while load.poll() is None:
            time.sleep(5)
            samples.append([rss_mb(pid) for pid in pids])
        result = parse_wrk(load.stdout.read())
        after = {pid: rss_mb(pid) for pid in pids}
    finally:
        server.terminate()
        server.wait()
    print(
        f"soak {seconds} s: {result['rate']:.0f} req/s, p50 {result['p50']:.2f} ms, "
        f"p99 {result['p99']:.2f} ms, errors {result['errors']}"
    )
    for pid in pids:
        print(f"worker {pid}: {before[pid]:.1f} MB -> {after[pid]:.1f} MB")
    print("RSS samples (MB): " + " | ".join("/".join(f"{v:.0f}" for v in s) for s in samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--database", help="a card database to serve (default: a new one)")
    parser.add_argument("--plain", action="store_true", help="wrk on validate only")
    parser.add_argument(
        "--skip", action="append", default=[], metavar="ATTACK", help="leave an attack out"
    )
    args = parser.parse_args()
    database = args.database or full_database()
    if args.plain:
        plain(args.seconds, database)
    elif not mixed(args.seconds, database, args.skip):
        sys.exit(1)


if __name__ == "__main__":
    main()
