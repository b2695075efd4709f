"""web/fetch, web/search, web/config over real HTTP to a server on 127.0.0.1 started by the test."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from effects_support import field, keys
from spell_runtime.data import Keyword, SpellMap, spell_map, vec
from spell_runtime.effects import EffectContext, web
from spell_runtime.effects.web import normalize_url, search_results
from spell_runtime.effects.web_html import html_to_text

K = Keyword

PAGE = """<!doctype html><html><head><title> The  Page </title><style>p{}</style></head>
<body><nav>menu</nav><p>First   para
 text.</p><p></p><p>Second &amp; last.</p><script>var x = "<p>no</p>";</script></body></html>"""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: str, ctype: str = "text/plain; charset=utf-8") -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        path = self.path
        if path == "/page":
            self._send(200, PAGE, "text/html; charset=utf-8")
        elif path == "/plain":
            self._send(200, "just text\n\u00e9")
        elif path == "/missing":
            self._send(404, "no such page")
        elif path == "/slow":
            time.sleep(2)
            self._send(200, "late")
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/plain")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path.startswith("/jina/"):
            target = path[len("/jina/"):]
            if target.endswith("/page"):
                self._send(200, "Title: from jina\n" + target)
            else:
                self._send(502, "reader down")
        else:
            self._send(500, "unexpected " + path)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        if self.headers.get("X-API-KEY") != "test-key":
            self._send(403, "bad key")
            return
        if self.path == "/serper-bad-json":
            self._send(200, "{not json", "application/json")
            return
        organic = [{"title": f"T{i}", "link": f"https://e.com/{i}", "snippet": f"S{i}"} for i in range(12)]
        organic.insert(1, {"title": "no link"})
        self._send(200, json.dumps({"q": body["q"], "num": body["num"], "organic": organic}), "application/json")


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the client of /slow hangs up on purpose


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def member(ctx: EffectContext, name: str) -> Callable[..., Any]:
    fn = ctx.namespace("web").get(K(name))
    assert fn is not None
    return fn  # type: ignore[no-any-return]


RAW = spell_map(K("backend"), K("raw"))
LOOPBACK_OK = spell_map(K("allow-private-network"), True)
"""The test server listens on 127.0.0.1, which web/ refuses unless the run allows the private network."""


def test_fetch_html_as_text_with_status(server: str) -> None:
    with EffectContext(web_config=LOOPBACK_OK) as ctx:
        env = member(ctx, "fetch")(server + "/page", RAW)
    assert keys(env) == [":ok", ":status", ":out", ":err"]
    assert field(env, "ok") is True and field(env, "status") == 200 and field(env, "err") is None
    assert field(env, "out") == f"# The Page\n\nFirst para text.\n\nSecond & last.\n\nSource: {server}/page"


def test_fetch_plain_text_is_returned_as_is_after_redirect(server: str) -> None:
    with EffectContext(web_config=LOOPBACK_OK) as ctx:
        env = member(ctx, "fetch")(server + "/redirect", RAW)
    assert field(env, "out") == "just text\n\u00e9" and field(env, "status") == 200


def test_fetch_http_error_keeps_status_and_body(server: str) -> None:
    with EffectContext(web_config=LOOPBACK_OK) as ctx:
        env = member(ctx, "fetch")(server + "/missing", spell_map(K("backend"), K("raw"),
                                                                    K("fallback-backend"), None))
    assert keys(env) == [":ok", ":status", ":out", ":err"]
    assert field(env, "ok") is False and field(env, "status") == 404
    assert field(env, "out") == "no such page" and field(env, "err") == f"HTTP 404 from {server}/missing"


def test_fetch_transport_failure_and_timeout(server: str) -> None:
    cfg = spell_map(K("fetch"), spell_map(K("timeout-ms"), 300), K("allow-private-network"), True)
    with EffectContext(web_config=cfg) as ctx:
        refused = member(ctx, "fetch")(f"http://127.0.0.1:{closed_port()}/x", RAW)
        slow = member(ctx, "fetch")(server + "/slow", RAW)
    for env in (refused, slow):
        assert keys(env) == [":ok", ":out", ":err"]
        assert field(env, "ok") is False and field(env, "out") is None
        assert field(env, "err").startswith("HTTP request failed: ")


def test_fetch_invalid_url_and_unknown_backend() -> None:
    with EffectContext() as ctx:
        assert field(member(ctx, "fetch")("not a url"), "err") == 'Invalid URL: "not a url"'
        assert field(member(ctx, "fetch")(42), "err") == "Invalid URL: 42"
        env = member(ctx, "fetch")("https://example.com", spell_map(K("backend"), K("carrier-pigeon")))
        assert field(env, "err") == "Unsupported fetch backend: :carrier-pigeon"


def test_normalize_url() -> None:
    assert normalize_url("  https://a.b/c ") == "https://a.b/c"
    assert normalize_url("example.com/path?q=1") == "https://example.com/path?q=1"
    assert normalize_url("localhost") is None and normalize_url("") is None


def test_jina_primary_then_raw_fallback(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "JINA_PREFIX", server + "/jina/")
    with EffectContext(web_config=LOOPBACK_OK) as ctx:
        fetch = member(ctx, "fetch")
        env = fetch(server + "/page")
        assert field(env, "out") == f"Title: from jina\n{server}/page"
        env = fetch(server + "/plain")
        assert field(env, "ok") is True and field(env, "out") == "just text\n\u00e9"
        dead = f"http://127.0.0.1:{closed_port()}/gone"
        env = fetch(dead)
        assert field(env, "status") == 502 and field(env, "out") == "reader down"
        err = field(env, "err")
        assert err.startswith(f"HTTP 502 from {server}/jina/{dead}; fallback: HTTP request failed: ")


def test_config_defaults_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    with EffectContext(web_config=spell_map(K("fetch"), spell_map(K("timeout-ms"), 500))) as ctx:
        env = member(ctx, "config")()
    cfg = field(env, "out")
    assert field(env, "ok") is True
    assert cfg.get(K("fetch")).get(K("timeout-ms")) == 500
    assert cfg.get(K("fetch")).get(K("backend")) is K("jina")
    assert cfg.get(K("search")).get(K("max-results")) == 5
    assert cfg.get(K("search")).get(K("backend")) is K("duckduckgo")
    monkeypatch.setenv("SERPER_API_KEY", "k")
    with EffectContext() as ctx:
        assert field(member(ctx, "config")(), "out").get(K("search")).get(K("backend")) is K("serper")


def test_search_without_backend_is_a_clear_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    with EffectContext() as ctx:
        env = member(ctx, "search")("python")
        assert field(env, "ok") is False and "No search backend is configured" in field(env, "err")
        assert field(member(ctx, "search")("  "), "err") == "web/search query must be non-empty"
        assert field(member(ctx, "search")("q", spell_map(K("backend"), K("bing"))), "err") == (
            "Unsupported search backend: :bing")
        assert field(member(ctx, "search")("q", spell_map(K("backend"), K("serper"))), "err") == web.SERPER_KEY_MESSAGE


def test_search_with_pluggable_backend_clamps_results() -> None:
    seen: list[tuple[str, int]] = []

    def backend(query: str, limit: int, cfg: SpellMap) -> SpellMap:
        seen.append((query, limit))
        return search_results([(f"t{i}", f"u{i}", f"s{i}") for i in range(20)], status=200)

    def broken(query: str, limit: int, cfg: SpellMap) -> SpellMap:
        raise RuntimeError("backend exploded")

    with EffectContext(search_backends={"mine": backend, "broken": broken}) as ctx:
        search = member(ctx, "search")
        env = search(" spell lisp ", spell_map(K("backend"), K("mine"), K("max-results"), 50))
        assert seen == [("spell lisp", 10)]
        assert keys(env) == [":ok", ":status", ":out", ":err"]
        rows = list(field(env, "out"))
        assert len(rows) == 10 and rows[0] == spell_map(K("title"), "t0", K("url"), "u0", K("snippet"), "s0")
        search("q", spell_map(K("backend"), "mine", K("max-results"), 0))
        assert seen[-1] == ("q", 1)
        assert field(search("q", spell_map(K("backend"), K("broken"))), "err") == "Search failed: backend exploded"


def test_serper_backend_over_http(server: str) -> None:
    cfg = spell_map(K("search"), spell_map(K("serper-url"), server + "/serper", K("serper-api-key"), "test-key"),
                    K("allow-private-network"), True)
    with EffectContext(web_config=cfg) as ctx:
        env = member(ctx, "search")("clojure", spell_map(K("max-results"), 3))
        assert field(env, "ok") is True and field(env, "status") == 200
        assert [r.get(K("url")) for r in field(env, "out")] == ["https://e.com/0", "https://e.com/1",
                                                                 "https://e.com/2"]
    bad = spell_map(K("search"), spell_map(K("serper-url"), server + "/serper-bad-json",
                                           K("serper-api-key"), "test-key"), K("allow-private-network"), True)
    with EffectContext(web_config=bad) as ctx:
        assert field(member(ctx, "search")("x"), "err").startswith("Invalid JSON response: ")
    wrong = spell_map(K("search"), spell_map(K("serper-url"), server + "/serper", K("serper-api-key"), "nope"),
                      K("allow-private-network"), True)
    with EffectContext(web_config=wrong) as ctx:
        env = member(ctx, "search")("x")
        assert field(env, "status") == 403 and field(env, "err") == f"HTTP 403 from {server}/serper: bad key"


def test_html_to_text_prefers_article_and_falls_back_to_text() -> None:
    html = "<title>T</title><p>outside</p><article><h1>H</h1><p>in <b>one</b></p><p>two</p></article>"
    assert html_to_text("u", html) == "# T\n\nin one\n\ntwo\n\nSource: u"
    assert html_to_text("u", "<body>  only   words </body>") == "only words\n\nSource: u"


def test_httpx_is_imported_lazily() -> None:
    code = "import sys, spell_runtime.effects as e; e.EffectContext().namespace('web'); print('httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_results_vector_type() -> None:
    env = search_results([("a", "b", "c")])
    assert keys(env) == [":ok", ":out", ":err"]
    assert field(env, "out") == vec([spell_map(K("title"), "a", K("url"), "b", K("snippet"), "c")])
