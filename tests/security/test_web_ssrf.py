"""Issue 16.5: web/ stays off the private network unless a run opts in.

Attacks tried: loopback, private, link-local (cloud metadata), multicast, unspecified
and shared addresses, in IPv4 and IPv6, numeric spellings (``0x7f000001``,
``2130706433``, ``127.1``), IPv4-mapped and 6to4 IPv6, a name resolving there
(``localhost``), a redirect from an allowed host to a private one, DNS rebinding,
and an endless body. Only loopback is ever connected to (a test server on 127.0.0.1,
which the guard is told to treat as public where a test needs a "public" host).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from spell_runtime.data import Keyword, spell_map
from spell_runtime.effects import EffectContext, web_guard

import spellc

K = Keyword
RAW = spell_map(K("backend"), K("raw"))


class Handler(BaseHTTPRequestHandler):
    port = 0

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path == "/to-private":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:%d/secret" % self.port)
            self.end_headers()
            return
        if self.path == "/huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(64):  # 4 MB, past the test's 1 MB cap
                    self.wfile.write(chunk)
            except OSError:
                pass
            return
        body = ("host=%s path=%s" % (self.headers.get("Host"), self.path)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server() -> Iterator[int]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Handler.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield Handler.port
    httpd.shutdown()
    httpd.server_close()


def _fetch(url: str, web: Any = None) -> Any:
    with EffectContext(web_config=web) as ctx:
        fetch = ctx.namespace("web").get(K("fetch"))
        assert fetch is not None
        return fetch(url, RAW)


@pytest.mark.parametrize("url, kind", [
    ("http://127.0.0.1:%d/", "loopback"), ("http://localhost:%d/", "loopback"),
    ("http://0x7f000001:%d/", "loopback"), ("http://2130706433:%d/", "loopback"), ("http://127.1:%d/", "loopback"),
    ("http://[::1]:%d/", "loopback"), ("http://[::ffff:127.0.0.1]:%d/", "loopback"),
    ("http://[2002:7f00:1::]:%d/", "loopback"), ("http://0.0.0.0:%d/", "unspecified"),
    ("http://[::]:%d/", "unspecified"), ("http://169.254.169.254:%d/latest/meta-data", "link-local"),
    ("http://[fe80::1]:%d/", "link-local"), ("http://10.1.2.3:%d/", "private"), ("http://172.16.0.1:%d/", "private"),
    ("http://192.168.0.1:%d/", "private"), ("http://[fd00::1]:%d/", "private"), ("http://224.0.0.1:%d/", "multicast"),
    ("http://[ff02::1]:%d/", "multicast"), ("http://100.64.0.1:%d/", "non-public"),
])
def test_private_destinations_are_refused(server: int, url: str, kind: str) -> None:
    env = _fetch(url % server)
    assert env.get(K("ok")) is False and env.get(K("status")) is None
    err = env.get(K("err"))
    assert err.startswith("Refusing to connect to ") and "(%s address)" % kind in err
    assert err.endswith(":web {:allow-private-network true}")


def test_default_backend_refuses_a_private_page_too(server: int) -> None:
    with EffectContext() as ctx:
        fetch = ctx.namespace("web").get(K("fetch"))
        env = fetch("http://127.0.0.1:%d/" % server)
    assert env.get(K("err")).startswith("Refusing to connect to 127.0.0.1 (loopback address)")


def test_opt_in_reaches_loopback(server: int) -> None:
    env = _fetch("http://127.0.0.1:%d/page" % server, spell_map(K("allow-private-network"), True))
    assert env.get(K("ok")) is True and env.get(K("out")) == "host=127.0.0.1:%d path=/page" % server


def test_opt_in_through_the_run_option(server: int) -> None:
    program = "(def r (eval '(web/fetch \"http://127.0.0.1:%d/run\" {:backend :raw}))))" % server
    allowed = spellc.run(prompt="f", model_profile=spellc.TestProvider(responses=[program]),
                         web={"allow-private-network": True})
    refused = spellc.run(prompt="f", model_profile=spellc.TestProvider(responses=[program]))
    assert allowed["result"].get(K("out")) == "host=127.0.0.1:%d path=/run" % server
    assert refused["result"].get(K("err")).startswith("Refusing to connect to 127.0.0.1")


@pytest.fixture
def public_test_host(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``public.test`` resolves to the loopback server and passes the check; every other name is checked."""
    real = web_guard.resolve_public
    looked_up: list[str] = []

    def resolve(host: str, port: int, allow_private: bool) -> str:
        looked_up.append(host)
        if host == "public.test":
            return "127.0.0.1"
        return real(host, port, allow_private)

    monkeypatch.setattr(web_guard, "resolve_public", resolve)
    return looked_up


def test_redirect_to_a_private_address_is_refused(server: int, public_test_host: list[str]) -> None:
    env = _fetch("http://public.test:%d/to-private" % server)
    assert env.get(K("err")).startswith("Refusing to connect to 127.0.0.1 (loopback address)")
    assert public_test_host == ["public.test", "127.0.0.1"]  # every hop checked


def test_connection_goes_to_the_checked_address(server: int, public_test_host: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # DNS rebinding: a later lookup of the *name* could answer something else; none may happen
    # (connecting to the checked IP literal still goes through getaddrinfo, harmlessly).
    import ipaddress

    real_getaddrinfo = socket.getaddrinfo

    def rebound(host: Any, *args: Any, **kwargs: Any) -> Any:
        ipaddress.ip_address(host)  # raises for a name
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    env = _fetch("http://public.test:%d/pinned" % server)
    assert env.get(K("ok")) is True
    assert env.get(K("out")) == "host=public.test:%d path=/pinned" % server  # the Host header is the name


def test_response_body_is_bounded(server: int, public_test_host: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_guard, "MAX_BODY_BYTES", 1024 * 1024)
    env = _fetch("http://public.test:%d/huge" % server)
    assert env.get(K("ok")) is False
    assert env.get(K("err")) == "HTTP response body from http://public.test:%d/huge is larger than 1048576 bytes" % server


def test_address_kinds() -> None:
    import ipaddress

    assert web_guard.address_kind(ipaddress.ip_address("93.184.216.34")) is None
    assert web_guard.address_kind(ipaddress.ip_address("2606:2800:220:1:248:1893:25c8:1946")) is None
    assert web_guard.address_kind(ipaddress.ip_address("::ffff:10.0.0.1")) == "private"
    assert web_guard.address_kind(ipaddress.ip_address("192.0.2.1")) is not None  # documentation range
