"""Floods for the reliability suite and the benchmarks: event streams that never read and
half-open requests that trickle a byte now and then, each from its own loopback address
(127.x.y.z), the way many sleeping phones or an attacker with many addresses would."""

from __future__ import annotations

import http.client
import socket
import threading
from collections.abc import Iterator


def addresses(start: int = 1) -> Iterator[str]:
    """127.0.0.2, 127.0.0.3, ... (Linux answers on all of 127/8)."""
    n = start
    while True:
        n += 1
        yield f"127.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255 or 1}"


def connect(port: int, source: str, receive_buffer: int = 0) -> socket.socket:
    sock = socket.socket()
    if receive_buffer:  # before connecting, or the kernel grows it as it likes
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def open_stream(port: int, source: str, receive_buffer: int = 0) -> socket.socket:
    """A scoreboard stream that is never read (a phone that went to sleep)."""
    sock = connect(port, source, receive_buffer)
    sock.sendall(
        b"GET /api/events HTTP/1.1\r\nHost: scoreboard\r\nAccept: text/event-stream\r\n\r\n"
    )
    return sock


def open_slowloris(port: int, source: str) -> socket.socket:
    """A request head that is never finished."""
    sock = connect(port, source)
    sock.sendall(b"POST /api/actions HTTP/1.1\r\nHost: scoreboard\r\nX-Slow: ")
    return sock


class Flood:
    """`streams` + `slow` connections from distinct addresses; `trickle()` sends one more byte
    on each half-open request (what keeps an idle timer from firing)."""

    def __init__(self, port: int, streams: int, slow: int) -> None:
        self._source = addresses()
        self.port = port
        self.streams = [open_stream(port, next(self._source)) for _ in range(streams)]
        self.slow = [open_slowloris(port, next(self._source)) for _ in range(slow)]
        self.reopened = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def refill(self) -> None:
        """Replace the half-open requests the server cut off (an attacker keeps trying)."""
        for i, sock in enumerate(self.slow):
            if closed_by_peer(sock):
                sock.close()
                try:
                    self.slow[i] = open_slowloris(self.port, next(self._source))
                    self.reopened += 1
                except OSError:
                    pass

    def trickle(self) -> int:
        """Send a byte on every half-open request; how many were still open."""
        alive = 0
        for sock in self.slow:
            try:
                sock.send(b"x")
                alive += 1
            except OSError:
                pass
        return alive

    def trickle_every(self, seconds: float, *, refill: bool = False) -> None:
        def run() -> None:
            while not self._stop.wait(seconds):
                self.trickle()
                if refill:
                    self.refill()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self._threads.append(thread)

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:  # before the sockets it uses are closed
            thread.join()
        for sock in self.streams + self.slow:
            sock.close()


def closed_by_peer(sock: socket.socket) -> bool:
    """True once the server has closed `sock` (reads EOF or a reset, without waiting)."""
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def state_status(port: int, source: str = "127.0.0.1") -> int:
    """A new connection's GET /api/state from `source`: its HTTP status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()
