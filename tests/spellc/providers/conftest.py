"""Provides ``fake_server``: a scripted model server on 127.0.0.1, stopped after each test."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer

import pytest
from provider_wire import FakeServer, make_handler


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    server = FakeServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(server))
    httpd.daemon_threads = True
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
