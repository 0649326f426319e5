"""Open descriptors: a flood of connections and event streams past descriptor 1023 never takes
the service down (waitress waits with poll(), not select()), the caps keep connections plus
streams within the process's open-file limit, and a configuration that cannot fit is refused
at start with a message saying what to change."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask

from controller.config import ServiceConfig
from tests.serving import free_port, serve, wait_answering
from tests.waiting import wait_until
from web_ui import fanout as fanout_module
from web_ui import server as server_module

from .conftest import report, scale
from .flood import addresses, closed_by_peer, connect, open_stream, state_status

IDLE = 1100  # idle connections from one address: more than 1,024 descriptors
WAVES = scale(1, 8)  # floods one after another: each gives back what it took


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def room_for(sockets: int) -> None:
    """This test process may hold `sockets` more (its soft limit raised, else skip)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = sockets + 200
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this machine allows {hard} open files; the test needs {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@contextmanager
def running(
    tmp_path: Path, service: str = "", files: int | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], int, Callable[[], str]]]:
    """`uno-attack run` with `service` lines in its config (and an open-file limit of
    `files`), answering on a free port: (process, port, its output so far)."""
    port, output = free_port(), tmp_path / "output.txt"
    config = tmp_path / "uno.toml"
    config.write_text(f"[service]\nannounce = false\n{service}\n", encoding="utf-8")

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    with output.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--config", str(config),
             "--launcher", "none", "--host", "127.0.0.1", "--port", str(port),
             "--data-dir", str(tmp_path)],
            stdout=sink, stderr=subprocess.STDOUT, preexec_fn=limit,
        )  # fmt: skip
    said = lambda: output.read_text(errors="replace")  # noqa: E731
    try:
        wait_answering(port, process, said)
        yield process, port, said
    finally:
        process.kill()
        process.wait(30)


def read_snapshot(sock: socket.socket) -> None:
    """Read the stream until its first snapshot: the service holds the stream by then."""
    seen = b""
    while b"event: snapshot" not in seen:
        chunk = sock.recv(65536)
        assert chunk, "the stream was closed before its snapshot"
        seen = seen[-32:] + chunk


def test_descriptors_idle_connections_and_streams_from_one_address(tmp_path: Path) -> None:
    """16 streams and 1,100 idle connections from 127.0.0.1 (it took the service down at
    about 1,010): the service lives, answers, holds no more than its caps allow, and once the
    flood is gone holds what it held before it."""
    room_for(IDLE + 50)
    with running(tmp_path) as (process, port, said):
        before = open_files(process.pid)
        peaks = []
        for _ in range(WAVES):
            peaks.append(flood_from_this_machine(process, port, said))
            wait_until(lambda: open_files(process.pid) <= before, "the flood's descriptors freed")
        report("descriptors_waves", waves=WAVES, open_before=before, peaks=peaks,
               open_after=open_files(process.pid))  # fmt: skip


def flood_from_this_machine(
    process: subprocess.Popen[bytes], port: int, said: Callable[[], str]
) -> int:
    """One flood, its sockets closed at the end: the most descriptors the service held."""
    streams = [open_stream(port, "127.0.0.1") for _ in range(fanout_module.PER_ADDRESS)]
    idle: list[socket.socket] = []
    try:
        for sock in streams:
            read_snapshot(sock)
        idle = [connect(port, "127.0.0.1") for _ in range(IDLE)]
        # the service closes what it accepted past its caps (or everything, dying)
        wait_until(
            lambda: sum(map(closed_by_peer, idle)) >= IDLE - server_module.PER_ADDRESS,
            "every idle connection accepted",
        )
        assert process.poll() is None, f"the service died: {said()}"
        assert state_status(port) == 200
        assert not any(closed_by_peer(sock) for sock in streams)
        held = open_files(process.pid)
        defaults = ServiceConfig()
        assert held <= defaults.connections + defaults.streams + server_module.reserved(32)
        assert process.poll() is None, said()
        return held
    finally:
        for sock in streams + idle:
            sock.close()


def test_descriptors_past_1023_in_the_service_itself(tmp_path: Path) -> None:
    """Caps set high enough that the service holds more than 1,024 descriptors (1,008 streams
    from 63 addresses, within the strangers' share of 1,005, and 100 idle connections):
    waitress's loop still watches them all."""
    room_for(1008 + 100 + 50)
    cap = 1340  # a quarter kept for the table's own tablets: 1,005 for strangers
    service = f"connections = 1000\nstreams = {cap}"
    with running(tmp_path, service) as (process, port, said):
        source = addresses(20_000)
        streams, idle = [], []
        try:
            for _ in range(63):
                address = next(source)
                streams += [open_stream(port, address) for _ in range(16)]
            idle = [connect(port, next(source)) for _ in range(100)]
            wait_until(
                lambda: process.poll() is not None or open_files(process.pid) > 1040,
                "the service holds more than 1,040 descriptors",
            )
            assert process.poll() is None, f"the service died: {said()}"
            assert state_status(port) == 200
            assert open_files(process.pid) <= 1000 + cap + server_module.reserved(32)
            refused = [sock for sock in streams if closed_by_peer(sock)]
            assert len(refused) <= 8  # past the strangers' share: 503, then closed
            assert process.poll() is None, said()
        finally:
            for sock in streams + idle:
                sock.close()


def test_descriptors_a_configuration_that_cannot_fit_stops_the_start(tmp_path: Path) -> None:
    """Under a Pi's unraised limit (1,024): too many connections and streams stop the start
    with what to change, before the database is even opened; the defaults fit."""
    port, config = free_port(), tmp_path / "uno.toml"
    config.write_text("[service]\nconnections = 900\nstreams = 200\n", encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))  # a Pi's, unraised

    ended = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config),
         "--launcher", "none", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, preexec_fn=limit,
    )  # fmt: skip
    assert ended.returncode == 2, ended.stderr  # systemd: RestartPreventExitStatus, no loop
    message = ended.stderr
    assert "service.connections (900) + service.streams (200)" in message, message
    assert "1196 open files" in message and "only 1024" in message, message
    assert "LimitNOFILE" in message and not (tmp_path / "uno-attack.db").exists()

    with running(tmp_path, files=1024) as (process, served_port, said):
        assert state_status(served_port) == 200
        assert process.poll() is None, said()
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0


@pytest.fixture
def served(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, Flask]]:
    monkeypatch.setattr(fanout_module, "MAX_STREAMS", 3)
    url, stop = serve(app)
    yield int(url.rsplit(":", 1)[1]), app
    stop()


def all_closed(sockets: list[socket.socket]) -> Callable[[], bool]:
    return lambda: all(closed_by_peer(sock) for sock in sockets)


def test_descriptors_streams_past_the_cap_hold_nothing(served: tuple[int, Flask]) -> None:
    """Past the cap a stream is refused before the stream loop takes it; a closed stream gives
    its place back, so the cap never fills up with what is gone."""
    port, app = served
    fanout = app.extensions["streams"]
    source = addresses(30_000)
    for _ in range(3):  # two strangers' streams (their share) and this machine's
        streams = [open_stream(port, next(source)) for _ in range(2)]
        streams.append(open_stream(port, "127.0.0.1"))
        for sock in streams:
            read_snapshot(sock)
        extra = [open_stream(port, next(source)) for _ in range(20)]
        wait_until(all_closed(extra), "the extra ones refused")
        assert fanout.held() == 3 and fanout.count() == 3
        for sock in streams + extra:
            sock.close()
        wait_until(lambda: fanout.held() == 0, "every stream's place given back")


def test_descriptors_an_address_keeps_its_newest_connections(port: int) -> None:
    cap = server_module.PER_ADDRESS
    source = next(addresses(40_000))
    idle = [connect(port, source) for _ in range(cap + 8)]
    try:
        wait_until(lambda: all(closed_by_peer(sock) for sock in idle[:8]), "the oldest closed")
        assert not any(closed_by_peer(sock) for sock in idle[8:])
        assert state_status(port, source) == 200  # the address's newest request is served
    finally:
        for sock in idle:
            sock.close()
