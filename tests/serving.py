"""A real waitress server in a background thread, for tests that talk HTTP to the app; and
waiting for a `uno-attack run` process to answer."""

from __future__ import annotations

import logging
import subprocess
import threading
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.waiting import wait_until


def serve(
    app: Any, port: int = 0, threads: int = 16, **options: Any
) -> tuple[str, Callable[[], None]]:
    """Serve `app` as `uno-attack run` does (waitress, and the event loop for the streams) in
    a thread, on a free port unless given, with `create_server`'s other `options`; return its
    URL and a stopper."""
    from waitress import wasyncore

    from web_ui.server import create_server

    server = create_server(app, host="127.0.0.1", port=port, threads=threads, **options)
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:  # the loop was polling sockets that stop() just closed
            if not stopping.is_set():
                raise

    threading.Thread(target=run, name="waitress", daemon=True).start()
    port = int(server.effective_port)  # type: ignore[union-attr]

    def stop() -> None:
        """Close the listening socket and every connection (the tablets' streams too)."""
        stopping.set()
        logging.getLogger("waitress").setLevel(logging.CRITICAL)  # open streams are cut
        server.close()
        wasyncore.close_all(server._map)  # type: ignore[union-attr]

    return f"http://127.0.0.1:{port}", stop


def wait_answering(
    port: int, process: subprocess.Popen[Any], output: Callable[[], str] = lambda: ""
) -> None:
    """Wait until the service that `process` runs answers on `port`; fail at once, with its
    `output`, if it ends first."""

    def answering() -> bool:
        assert process.poll() is None, f"the service ended ({process.returncode}): {output()}"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5).close()
        except OSError:  # not listening yet, or too busy to answer: ask again
            return False
        return True

    wait_until(answering, f"the service answers on port {port}")
