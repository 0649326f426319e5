"""The waitress internals `web_ui/server.py` relies on (its docstring lists them), checked in
the installed waitress: an upgrade that renames, removes or changes one fails here, by name,
instead of at a table. pyproject.toml pins waitress's minor version: widen it once this file
passes on the new one."""

from __future__ import annotations

import inspect
import logging
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from web_ui.server import Channel, ScoreboardServer, create_server

SERVER_METHODS = {  # what ScoreboardServer overrides or calls: name -> parameters
    "readable": ["self"],
    "handle_accept": ["self"],
    "accept": ["self"],
    "set_socket_options": ["self", "conn"],
    "fix_addr": ["self", "addr"],
    "add_task": ["self", "task"],
    "maintenance": ["self", "now"],
    "close": ["self"],
    "run": ["self"],
}
SERVER_ATTRIBUTES = ("channel_class", "next_channel_cleanup", "in_connection_overflow")

CHANNEL_METHODS = {  # what Channel overrides or calls: name -> parameters
    "__init__": ["self", "server", "sock", "addr", "adj", "map"],
    "received": ["self", "data"],
    "del_channel": ["self", "map"],
    "handle_close": ["self"],
}
CHANNEL_ATTRIBUTES = ("request", "will_close", "total_outbufs_len")

ADDRESS = ("127.0.0.1", 40000)


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


@pytest.mark.parametrize(("name", "expected"), SERVER_METHODS.items())
def test_the_server_method(name: str, expected: list[str]) -> None:
    assert parameters(getattr(TcpWSGIServer, name)) == expected


@pytest.mark.parametrize(("name", "expected"), CHANNEL_METHODS.items())
def test_the_channel_method(name: str, expected: list[str]) -> None:
    assert parameters(getattr(HTTPChannel, name)) == expected


def test_the_server_is_built_from_an_application_and_adjustments() -> None:
    found = parameters(TcpWSGIServer.__init__)
    assert found[:2] == ["self", "application"]
    assert inspect.signature(TcpWSGIServer.__init__).parameters["adj"].default is None


@pytest.mark.parametrize(
    ("theirs", "names"), [(TcpWSGIServer, SERVER_ATTRIBUTES), (HTTPChannel, CHANNEL_ATTRIBUTES)]
)
def test_the_class_attributes(theirs: type, names: tuple[str, ...]) -> None:
    missing = [name for name in names if not hasattr(theirs, name)]
    assert not missing, f"{theirs.__name__} has no {missing}"


@pytest.mark.parametrize(
    ("ours", "theirs", "contract"),
    [
        (ScoreboardServer, TcpWSGIServer, {"__init__", *SERVER_METHODS, *SERVER_ATTRIBUTES}),
        (Channel, HTTPChannel, {*CHANNEL_METHODS, *CHANNEL_ATTRIBUTES}),
    ],
)
def test_every_override_is_in_the_contract(ours: type, theirs: type, contract: set[str]) -> None:
    """A name of ours that waitress also has (a new override, or a new waitress method our own
    one now shadows) must be in the contract above and the docstring of web_ui/server.py."""
    shadowing = {
        name
        for name in vars(ours)
        if hasattr(theirs, name) and (name == "__init__" or not name.startswith("__"))
    }
    assert shadowing <= contract, f"not in the contract: {sorted(shadowing - contract)}"


@pytest.fixture
def server() -> Iterator[TcpWSGIServer]:
    made = TcpWSGIServer(lambda environ, start: [], adj=Adjustments(host="127.0.0.1", port=0))
    yield made
    for dispatcher in list(made._map.values()):
        dispatcher.close()


@pytest.fixture
def channel(server: TcpWSGIServer) -> Iterator[HTTPChannel]:
    mine, peer = socket.socketpair()
    made = HTTPChannel(server, mine, ADDRESS, server.adj, map=server._map)
    yield made
    peer.close()


def test_the_server_has_what_the_scoreboard_server_reads(server: TcpWSGIServer) -> None:
    assert isinstance(server._map, dict)
    assert server.active_channels == {}
    assert server.accepting is True
    assert isinstance(server.logger, logging.Logger)
    for name in ("connection_limit", "cleanup_interval", "log_socket_errors"):
        assert hasattr(server.adj, name), name


def test_accept_gives_a_socket_and_address_then_none(server: TcpWSGIServer) -> None:
    with socket.create_connection(("127.0.0.1", int(server.effective_port)), timeout=10):
        assert select.select([server.socket], [], [], 10)[0], "the connection never arrived"
        pair = server.accept()
        assert pair is not None
        conn, addr = pair
        with conn:
            assert isinstance(conn, socket.socket)
            assert server.fix_addr(addr)[0] == "127.0.0.1"
            assert server.accept() is None  # nothing else waits


def test_a_new_channel_is_registered(server: TcpWSGIServer, channel: HTTPChannel) -> None:
    assert channel.server is server
    assert channel.addr == ADDRESS
    assert channel.requests == []
    assert channel.request is None
    assert channel.total_outbufs_len == 0
    assert channel in server.active_channels.values()
    assert channel in server._map.values()


def test_received_hands_a_complete_request_to_the_server(
    server: TcpWSGIServer, channel: HTTPChannel, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[HTTPChannel] = []
    monkeypatch.setattr(server, "add_task", handed.append)
    assert channel.received(b"GET /api/events?last=3 HTTP/1.1\r\nHost: pi\r\n") is True
    assert channel.request is not None and not channel.request.headers_finished
    assert handed == []
    assert channel.received(b"Cookie: a=b\r\nLast-Event-ID: 5\r\n\r\n") is True
    assert handed == [channel]
    assert channel.request is None
    (request,) = channel.requests
    assert (request.command, request.path, request.query) == ("GET", "/api/events", "last=3")
    assert request.error is None
    assert (request.headers["COOKIE"], request.headers["LAST_EVENT_ID"]) == ("a=b", "5")


def test_a_request_owing_its_body_has_its_head_finished(channel: HTTPChannel) -> None:
    assert channel.received(b"POST /api/x HTTP/1.1\r\nContent-Length: 5\r\n\r\nab") is True
    assert channel.request is not None and channel.request.headers_finished
    assert channel.requests == []


def test_maintenance_marks_an_idle_channel(server: TcpWSGIServer, channel: HTTPChannel) -> None:
    assert not channel.will_close
    server.maintenance(time.time() + server.adj.channel_timeout + 1)
    assert channel.will_close


def test_del_channel_leaves_the_socket_open(server: TcpWSGIServer, channel: HTTPChannel) -> None:
    """A stream's socket leaves waitress's map this way, still open for the stream loop."""
    sock = channel.socket
    channel.del_channel()
    assert channel not in server.active_channels.values()
    assert channel not in server._map.values()
    assert sock.fileno() >= 0
    sock.close()


def test_handle_close_closes_at_once(server: TcpWSGIServer, channel: HTTPChannel) -> None:
    sock = channel.socket
    channel.handle_close()
    assert not channel.connected
    assert sock.fileno() == -1
    assert channel not in server.active_channels.values()


def test_create_server_settings_are_waitress_adjustments(app: Flask) -> None:
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    try:
        assert isinstance(server, TcpWSGIServer)
        assert server.adj.channel_request_lookahead == 1
        assert server.adj.asyncore_use_poll is True
    finally:
        server.close()
        for dispatcher in list(server._map.values()):
            dispatcher.close()
