"""A TCP relay on loopback in front of a table: cutting it is the table leaving the network
(every connection through it closed, new ones refused) while the table itself goes on."""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
import time

from tests.waiting import wait_until


class Relay:
    """Relays `127.0.0.1:port` to `127.0.0.1:target`; `cut()` and `back()` (same port)."""

    def __init__(self, target: int, port: int = 0) -> None:
        self.target, self.port = target, port
        self._lock = threading.Lock()
        self._up = False
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self.accepted_at: float | None = None  # when the first connection since back() came
        self.back()

    def back(self) -> None:
        """Listen again (as soon as the port is free) and relay new connections."""
        self.accepted_at = None
        wait_until(self._listen, f"listening on port {self.port}")

    def _listen(self) -> bool:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind(("127.0.0.1", self.port))
        except OSError as error:
            listener.close()
            if error.errno != errno.EADDRINUSE:
                raise
            return False
        listener.listen()
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener, self._up = listener, True
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return True

    def cut(self) -> None:
        with self._lock:
            self._up = False
            listener, self._listener = self._listener, None
            sockets, self._open = self._open, set()
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            if self.accepted_at is None:
                self.accepted_at = time.perf_counter()
            try:
                table = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                if not self._up:
                    client.close()
                    table.close()
                    return
                self._open |= {client, table}
            for source, sink in ((client, table), (table, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
