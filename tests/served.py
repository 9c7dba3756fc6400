"""A WSGI app served on 127.0.0.1 in a thread, for tests that need a real address (a
browser, an image host): werkzeug's threaded server, stopped as the `with` ends."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from werkzeug.serving import WSGIRequestHandler, make_server

# How often the serving loop looks at its stop flag. shutdown() waits for that look: at
# werkzeug's default of 0.5 s, half a second after each of some 40 browser tests.
STOP_POLL = 0.02


class QuietHandler(WSGIRequestHandler):
    """No log line per request: pytest captured and formatted one for each of the
    browsers' requests (4 s of CPU a run, py-spy); errors are still logged."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@contextmanager
def served(app) -> Iterator[str]:
    """`app` answering at the yielded base address ("http://127.0.0.1:<port>")."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, args=(STOP_POLL,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
