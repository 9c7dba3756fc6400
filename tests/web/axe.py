"""axe-core (vendored in tests/vendor, test-only) put into a page under test.

The script is loaded from an address of its own, with a cache lifetime, rather than
sent as a 650 KB inline script each time: Chromium then keeps it (and the code it
compiled) between pages. Inline, it cost 100-150 ms of CPU a page (Playwright carrying
it over and Chromium compiling it); by address, 40 ms (measured on the 62 pages of
test_every_page.py). The service's CSP forbids both: only a test context made with
`bypass_csp=True` may load it.
"""

from __future__ import annotations

import functools
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from conftest import ROOT

AXE = ROOT / "tests" / "vendor" / "axe.min.js"


class _Handler(BaseHTTPRequestHandler):
    body = AXE.read_bytes()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path != "/axe.min.js":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(self.body)))
        self.send_header("Cache-Control", "max-age=86400, immutable")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass


@functools.cache
def _address() -> str:
    """The script's address, from a server started once per process (a daemon thread:
    it ends with the test run)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/axe.min.js"


def load(page) -> None:
    """axe-core, ready in `page` as `window.axe`."""
    page.add_script_tag(url=_address())
