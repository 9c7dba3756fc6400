"""A real TCP server on 127.0.0.1 that answers however a test says, byte by byte.

pytest-httpserver speaks proper HTTP; these tests need a server that does not (a body
shorter than its Content-Length, bytes that drip one at a time).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def raw_server(answer: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """Serve `answer(connection, stop)` on a thread per connection; yields a card-list URL.

    `stop` is set when the test ends, so an answer that waits (dripping) ends too.
    """
    stop = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)

    def handle(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)  # the request: what it asks does not matter here
            answer(conn, stop)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/cards.csv"
    finally:
        stop.set()
        thread.join(5)
        listener.close()
