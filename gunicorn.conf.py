"""Production settings for `gunicorn -c gunicorn.conf.py wsgi:app` (README, docs/SCALING.md).

Why gthread: a sync worker reads a request on its only thread, so two clients
sending one byte a second held both workers and every health check failed. A
gthread worker reads each connection on one of `threads` threads, so slow clients
hold threads, not the worker; the card pools stay shared by the threads of a
worker (one copy per process). bench/hostile.py measures it with 8 slow clients
beside normal traffic. Async workers (gevent) would need a new dependency and a
monkey-patched sqlite3 for no gain here: validation is CPU work, not waiting.

Every value can be overridden by DECKCHECK_GUNICORN_* variables or the command line.
"""

import contextlib
import ctypes
import importlib
import multiprocessing
import os
import sys
from collections import Counter

# The libraries every worker imports, imported once here in the master: each worker is
# forked with them loaded (and shares their pages), so one started in place of a dead or
# stuck worker imports only deckcheck itself: 0.35 s of CPU where it took 0.9 s. deckcheck
# is not imported here, so `kill -HUP` still starts workers on new deckcheck code; a new
# version of one of these libraries needs a restart of the master.
# Alembic is not among them: a worker imports it only to migrate a database that needs
# it (deckcheck/server/migrate.py).
LIBRARIES = (
    "flask",
    "marshmallow",
    "PIL.Image",
    "rapidfuzz",
    "requests",
    "segno",
    "sqlalchemy",
    "sqlite_utils",
    "webauthn",
)
for _library in LIBRARIES:
    importlib.import_module(_library)

M_ARENA_MAX = -8  # glibc's mallopt parameter number
# A request that moved this many bytes (its body and its answer) leaves behind memory
# that Python freed and glibc keeps: 60 s of mixed attacks grew each worker 54-88 MB,
# with the live objects up 2 MB (tracemalloc). Trimming after such a request (about 2 ms,
# beside the request's own tens of ms) hands it back (docs/PERFORMANCE.md, "Mixed soak").
TRIM_AFTER_BYTES = 256 * 1024


def _env(name: str, default: int) -> int:
    return int(os.environ.get(f"DECKCHECK_GUNICORN_{name}", default))


bind = os.environ.get("DECKCHECK_BIND", "127.0.0.1:8000")
# One worker per core: a worker's requests are CPU-bound Python, so more workers than
# cores only add memory (each holds the card pools).
workers = _env("WORKERS", multiprocessing.cpu_count())
# gthread, with gunicorn's own error answers (a 414 for a too-long address, a 400 for a
# header it cannot read) in the API's JSON shape on /api/ (deckcheck/server_errors.py).
worker_class = "deckcheck.server_errors.Worker"
# Threads mostly wait on sockets (slow clients, keep-alive); 32 per worker leave room
# for 8 one-byte-a-second clients on one worker with 24 threads to spare.
threads = _env("THREADS", 32)
# A request costs at most 2 s of server time (contract, "Limits"; batches grow with their
# lines up to a 6 s budget). `timeout` is also each request's own limit: the watchdog
# (deckcheck.watchdog, started below) interrupts a request still running after it, and
# stops the worker when the request cannot be interrupted (the master starts another).
# gunicorn by itself only notices a worker whose main loop stops, which a gthread
# worker's never does while one of its threads is pinned.
timeout = _env("TIMEOUT", 30)
graceful_timeout = 30
keepalive = 5
# Share links are capped at 4,000 characters (SHARE_LINK_MAX), so they fit this with
# room for the rest of the request line; longer ones become a posted form.
limit_request_line = 8190
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = os.environ.get("DECKCHECK_ACCESS_LOG") or None
errorlog = "-"


# Each worker runs on a core of its own (DECKCHECK_GUNICORN_PIN=0: the kernel chooses).
# A worker's threads take turns under the GIL, so one core is all a worker can use; left
# free, the kernel moves them between cores at every hand-over (the poller thread, a
# request's thread, the next request's), each move on a cold cache. Pinned, two workers
# answered 34 % more health checks and 48 % more structured 55-card validations a second
# (bench/throughput.py --against . --against-env DECKCHECK_GUNICORN_PIN=0).
pin = _env("PIN", 1)


def pre_fork(server, worker):
    """In the master, before a worker is forked: choose its core."""
    worker.cpu = _free_cpu(server) if pin else None


def _free_cpu(server) -> int | None:
    """The usable core that the fewest live workers run on (lowest first), so a worker
    started in place of a dead one takes the core it left; None on a single core or
    where the OS cannot pin (macOS)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    taken = Counter(w.cpu for w in server.WORKERS.values())  # pre_fork set each one's
    return min(cpus, key=lambda cpu: taken[cpu])


def post_fork(server, worker):
    """Per worker process, before it loads the app."""
    if worker.cpu is not None:
        # The worker has one thread yet: every thread it starts later inherits the core.
        try:
            os.sched_setaffinity(0, {worker.cpu})
        except OSError as err:  # a core taken away since (cpuset): serve unpinned
            server.log.warning("worker %s not pinned to core %s: %s", worker.pid, worker.cpu, err)
    # A thread running a costly request (1,000 unknown names: ~0.1 s of CPU) holds the
    # GIL for 5 ms slices by default; every I/O step of a cheap request on another
    # thread then waits for a slice. 1 ms slices cut that wait (bench/hostile.py).
    sys.setswitchinterval(0.001)
    # glibc gives each thread its own malloc arena: 32 threads fragment RSS upwards
    # under large bodies. Two arenas keep a worker's memory flat.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, 2)


def post_worker_init(worker):
    """Per worker process, once the app is loaded: start its request watchdog."""
    from deckcheck.watchdog import Watchdog

    def stop_accepting():
        worker.alive = False  # the main loop stops accepting and winds down

    worker.watchdog = Watchdog(
        seconds=worker.cfg.timeout,
        # Seconds an interrupted request gets to end before its worker is replaced.
        grace=max(1, worker.cfg.timeout // 6),
        drain=min(worker.cfg.graceful_timeout, 10),
        log=worker.log.error,
        stop_accepting=stop_accepting,
    )
    worker.watchdog.start()
    # Its exception is raised only while a request is inside the app (deckcheck.watchdog).
    worker.wsgi = worker.watchdog.guard(worker.wsgi)


def pre_request(worker, req):
    """On the request's own thread, before the app sees it."""
    worker.log.debug("%s %s", req.method, req.path)
    worker.watchdog.begin(f"{req.method} {req.path}")


def post_request(worker, req, environ, resp):
    """On the request's own thread, once its response is written."""
    worker.watchdog.end()
    if _moved(environ, resp) >= TRIM_AFTER_BYTES:
        release_freed_memory()


def _moved(environ, resp) -> int:
    """The request's body and its answer, in bytes (a chunked body was given its
    length when it was read: deckcheck.security)."""
    length = environ.get("CONTENT_LENGTH") or ""
    # ASCII digits, at most 12 (gunicorn checked it; a test may not have): then int().
    body = int(length) if length.isascii() and length.isdigit() and len(length) <= 12 else 0
    return body + (getattr(resp, "sent", 0) or 0)


def release_freed_memory() -> None:
    """glibc's malloc_trim: memory freed but kept by the allocator goes back to the system."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
