"""Downloading card lists: timeouts, retries with backoff, a size limit, conditional GET."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import ConnectTimeoutError, ReadTimeoutError
from urllib3.util.retry import Retry

from cardpool.errors import FetchError

USER_AGENT = "deckcheck/0.1 (Digimon deck-legality service; card pool importer)"
MAX_BYTES = 64 * 1024 * 1024
TIMEOUT = (5.0, 30.0)


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
) -> Fetched:
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    try:
        with session(retries, backoff) as http:
            response = http.get(url, headers=headers, timeout=timeout, stream=True)
            with response:
                return _read(url, response, max_bytes, progress)
    except requests.RequestException as err:
        if _timed_out(err):
            raise FetchError(f"{url}: no answer in time (timeout {timeout} s)") from err
        raise FetchError(f"{url}: download failed: {err}") from err


def _timed_out(err: requests.RequestException) -> bool:
    """requests reports a timeout that outlasted the retries as a ConnectionError."""
    if isinstance(err, requests.Timeout):
        return True
    reason = getattr(err.args[0], "reason", None) if err.args else None
    return isinstance(reason, ReadTimeoutError | ConnectTimeoutError)


def _read(url, response, max_bytes, progress) -> Fetched:
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
    chunks, size = [], 0
    for chunk in response.iter_content(chunk_size=64 * 1024):
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(f"{url}: more than the {max_bytes}-byte limit")
        chunks.append(chunk)
        if progress:
            progress(len(chunk), total)
    if total and size < total:
        raise FetchError(f"{url}: connection closed after {size} of {total} bytes")
    return Fetched(
        b"".join(chunks), response.headers.get("ETag"), response.headers.get("Last-Modified")
    )
