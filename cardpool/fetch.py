"""Downloading card lists: timeouts, retries with backoff, a size limit, conditional GET,
at most 5 redirects (http(s) only) and an overall deadline."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError, ReadTimeoutError
from urllib3.util.retry import Retry

from cardpool.errors import FetchError

USER_AGENT = "deckcheck/0.1 (Digimon deck-legality service; card pool importer)"
MAX_BYTES = 64 * 1024 * 1024
TIMEOUT = (5.0, 30.0)
MAX_REDIRECTS = 5
DEFAULT_DEADLINE = 300.0


@dataclass(frozen=True)
class Fetched:
    content: bytes | None  # None: not modified since the ETag / Last-Modified given
    etag: str | None
    last_modified: str | None


def session(retries: int = 3, backoff: float = 0.5) -> requests.Session:
    """Retries connection errors and 5xx answers; 4xx answers are final."""
    retry = Retry(
        total=retries,
        connect=retries,
        read=retries,
        status=retries,
        backoff_factor=backoff,
        status_forcelist=(500, 502, 503, 504),
        allowed_methods=frozenset({"GET"}),
        raise_on_status=False,
    )
    http = requests.Session()
    http.headers["User-Agent"] = USER_AGENT
    adapter = HTTPAdapter(max_retries=retry)
    http.mount("http://", adapter)
    http.mount("https://", adapter)
    return http


def download_deadline() -> float:
    """Seconds a whole download may take: DECKCHECK_DOWNLOAD_DEADLINE, default 300."""
    text = os.environ.get("DECKCHECK_DOWNLOAD_DEADLINE", "").strip()
    if not text:
        return DEFAULT_DEADLINE
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 86400:
        raise FetchError(
            f"DECKCHECK_DOWNLOAD_DEADLINE={text[:40]!r} is not a number of seconds (0 to 86400)"
        )
    return seconds


def fetch(
    url: str,
    *,
    etag: str | None = None,
    last_modified: str | None = None,
    timeout: float | tuple[float, float] = TIMEOUT,
    max_bytes: int = MAX_BYTES,
    retries: int = 3,
    backoff: float = 0.5,
    progress: Callable[[int, int | None], None] | None = None,
    deadline: float | None = None,
) -> Fetched:
    """Download `url`, giving up after `deadline` seconds (default: download_deadline()).

    A read timeout alone cannot end a download that drips one byte a second, nor one
    whose server drips its headers; so the download runs on a thread, this one waits
    at most the deadline, and the reader stops at its next chunk once cancelled.
    """
    limit = download_deadline() if deadline is None else deadline
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified

    def download(cancel: threading.Event) -> Fetched:
        return _download(url, headers, timeout, max_bytes, retries, backoff, progress, cancel)

    return _within(url, limit, download)


def _within(url: str, limit: float, work: Callable[[threading.Event], Fetched]) -> Fetched:
    """`work(cancel)` on a thread of its own, waited for at most `limit` seconds; past
    them `cancel` is set (the reader stops at its next chunk) and the download fails.
    What `work` raises is raised here."""
    cancel = threading.Event()
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work(cancel)
        except Exception as err:  # handed to the waiting thread, which raises it
            outcome["error"] = err

    worker = threading.Thread(target=run, name="cardpool-download", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        cancel.set()
        raise FetchError(
            f"{url}: gave up after {limit:g} s (DECKCHECK_DOWNLOAD_DEADLINE): "
            "the server sends too slowly"
        )
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def _download(
    url: str,
    headers: dict[str, str],
    timeout: float | tuple[float, float],
    max_bytes: int,
    retries: int,
    backoff: float,
    progress: Callable[[int, int | None], None] | None,
    cancel: threading.Event,
) -> Fetched:
    try:
        with session(retries, backoff) as http:
            current = url
            for _ in range(MAX_REDIRECTS + 1):
                response = http.get(
                    current, headers=headers, timeout=timeout, stream=True, allow_redirects=False
                )
                with response:
                    if not response.is_redirect:
                        return _read(url, response, max_bytes, progress, cancel)
                    current = _redirect_target(url, current, response)
            raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects, not followed")
    except requests.RequestException as err:
        if _timed_out(err):
            raise FetchError(f"{url}: no answer in time (timeout {timeout} s)") from err
        raise FetchError(f"{url}: download failed ({_reason(err)})") from err


def _redirect_target(url: str, current: str, response: requests.Response) -> str:
    """Where a redirect points; only http(s) addresses are followed."""
    target = urljoin(current, response.headers.get("Location", ""))
    scheme = urlsplit(target).scheme.lower()
    if scheme not in ("http", "https"):
        raise FetchError(
            f"{url}: redirected to a {scheme or 'schemeless'} address; only http(s) is followed"
        )
    return target


def _reason(err: BaseException) -> str:
    """The innermost cause in a few words ("Connection refused"), on one line."""
    seen: BaseException | None = err
    for _ in range(10):
        if seen is None:
            break
        if isinstance(seen, OSError) and seen.strerror:
            return seen.strerror
        inner = getattr(seen, "reason", None)
        if not isinstance(inner, BaseException):
            inner = seen.args[0] if seen.args and isinstance(seen.args[0], BaseException) else None
        seen = inner or seen.__cause__ or seen.__context__
    return " ".join(str(err).split())[:200] or type(err).__name__


def _timed_out(err: requests.RequestException) -> bool:
    """requests reports a timeout that outlasted the retries as a ConnectionError."""
    if isinstance(err, requests.Timeout):
        return True
    reason = getattr(err.args[0], "reason", None) if err.args else None
    # urllib3 makes a refused connection a subclass of ConnectTimeoutError.
    if isinstance(reason, NewConnectionError):
        return False
    return isinstance(reason, ReadTimeoutError | ConnectTimeoutError)


def _read(
    url: str,
    response: requests.Response,
    max_bytes: int,
    progress: Callable[[int, int | None], None] | None,
    cancel: threading.Event,
) -> Fetched:
    if response.status_code == 304:
        return Fetched(None, response.headers.get("ETag"), response.headers.get("Last-Modified"))
    if response.status_code >= 400:
        raise FetchError(
            f"{url}: the server answered HTTP {response.status_code} {response.reason}"
            + (" (after retries)" if response.status_code >= 500 else "")
            + ("; check the address" if response.status_code == 404 else "")
        )
    total = int(response.headers.get("Content-Length") or 0) or None
    if total and total > max_bytes:
        raise FetchError(f"{url}: {total} bytes is over the {max_bytes}-byte limit")
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in response.iter_content(chunk_size=64 * 1024):
            if cancel.is_set():
                raise FetchError(f"{url}: cancelled at the deadline")
            size += len(chunk)
            if size > max_bytes:
                raise FetchError(f"{url}: more than the {max_bytes}-byte limit")
            chunks.append(chunk)
            if progress:
                progress(len(chunk), total)
    except requests.exceptions.ChunkedEncodingError as err:
        # urllib3 refuses a body shorter than its Content-Length (or a broken chunk);
        # say it in the words of the check below, not as a nested exception repr.
        promised = f"all {total} bytes" if total else "the whole list"
        raise FetchError(f"{url}: connection closed before {promised} arrived") from err
    if total and size < total:
        raise FetchError(f"{url}: connection closed after {size} of {total} bytes")
    return Fetched(
        b"".join(chunks), response.headers.get("ETag"), response.headers.get("Last-Modified")
    )
