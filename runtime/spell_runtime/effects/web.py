"""``web/fetch``, ``web/search``, ``web/config`` (runtime.md §2.3).

HTTP goes through ``httpx``, imported inside the functions that need it: most
runs never touch the web, and importing httpx costs start-up time every run
would pay. Every outcome is an envelope: a received response keeps its
``:status`` (a non-2xx body stays available in ``:out``), transport failures
(refused connection, timeout, bad TLS) are ``HTTP request failed: <msg>``.
Payloads from other systems live only under ``:out`` (§1.3).

Search is pluggable: ``EffectContext.search_backends`` maps backend names to
callables. spellc ships one real backend, Serper (Google results over a JSON
API, needs a key); it does not scrape DuckDuckGo's HTML, so when the default
backend would be ``:duckduckgo`` and the host installed none, the answer is a
clear failure envelope saying so.

Configuration is the spec's default map deep-merged with
``EffectContext.web_config``; the reference's optional ``config/web.edn`` is not
read (the runtime has no EDN reader of its own — hosts pass the map instead).
Redirects are followed (the reference's Java client stops at a 3xx, which only
ever produced an unhelpful ``HTTP 301`` for the model) — by ``web_guard``, which
checks every hop against the private network (issue 16.5) and bounds the body.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

from ..data.atoms import Keyword
from ..data.fn import is_truthy
from ..data.hashmap import SpellMap
from ..data.vector import vec
from .args import NO_ARG, is_number, items_of, reject, require_map
from .envelope import ABSENT, K_ERR, K_OK, K_OUT, K_STATUS, envelope, fail, ok
from .render import pr, text
from .web_guard import Refused, Response, request, resolve_public

if TYPE_CHECKING:
    from .context import EffectContext

SearchBackend = Callable[[str, int, SpellMap], SpellMap]
"""``backend(query, max_results, effective_config) -> envelope`` whose ``:out`` is ``[{:title :url :snippet} ...]``."""

K_SEARCH = Keyword("search")
K_FETCH = Keyword("fetch")
K_HTTP = Keyword("http")
K_BACKEND = Keyword("backend")
K_FALLBACK = Keyword("fallback-backend")
K_MAX_RESULTS = Keyword("max-results")
K_REGION = Keyword("region")
K_TIMEOUT_MS = Keyword("timeout-ms")
K_USER_AGENT = Keyword("user-agent")
K_SERPER_KEY = Keyword("serper-api-key")
K_SERPER_URL = Keyword("serper-url")
K_TITLE = Keyword("title")
K_URL = Keyword("url")
K_SNIPPET = Keyword("snippet")
K_ALLOW_PRIVATE = Keyword("allow-private-network")

USER_AGENT = "spellc-web/0.1"
JINA_PREFIX = "https://r.jina.ai/"
SERPER_URL = "https://google.serper.dev/search"
SERPER_KEY_MESSAGE = "Serper search requires SERPER_API_KEY environment variable or :serper-api-key in config."

DEFAULT_CONFIG = SpellMap.from_pairs([
    (K_SEARCH, SpellMap.from_pairs([(K_MAX_RESULTS, 5), (K_REGION, "us-en")])),
    (K_FETCH, SpellMap.from_pairs([(K_BACKEND, Keyword("jina")), (K_TIMEOUT_MS, 15000),
                                   (K_FALLBACK, Keyword("raw"))])),
    (K_HTTP, SpellMap.from_pairs([(K_USER_AGENT, USER_AGENT)])),
])


def deep_merge(a: SpellMap, b: SpellMap) -> SpellMap:
    """``b`` over ``a``, merging nested maps instead of replacing them."""
    out = a
    for k, v in b.items():
        old = out.get(k)
        if isinstance(old, SpellMap) and isinstance(v, SpellMap):
            v = deep_merge(old, v)
        out = out.assoc(k, v)
    return out


def _get_in(m: SpellMap, *keys: Keyword, default: Any = None) -> Any:
    cur: Any = m
    for k in keys:
        if not isinstance(cur, SpellMap):
            return default
        cur = cur.get(k)
    return default if cur is None else cur


def serper_key(cfg: SpellMap) -> Optional[str]:
    """The Serper API key: config first, then ``SERPER_API_KEY``."""
    configured = _get_in(cfg, K_SEARCH, K_SERPER_KEY)
    if type(configured) is str and configured.strip():
        return configured
    env = os.environ.get("SERPER_API_KEY")
    return env if env and env.strip() else None


def effective_config(ctx: EffectContext) -> SpellMap:
    """Defaults, the context's overrides, and the search backend the spec's precedence picks."""
    cfg = DEFAULT_CONFIG if ctx.web_config is None else deep_merge(DEFAULT_CONFIG, ctx.web_config)
    if _get_in(cfg, K_SEARCH, K_BACKEND) is None:
        default = Keyword("serper") if serper_key(cfg) else Keyword("duckduckgo")
        search = _get_in(cfg, K_SEARCH, default=SpellMap())
        cfg = cfg.assoc(K_SEARCH, search.assoc(K_BACKEND, default) if isinstance(search, SpellMap) else search)
    return cfg


def config(ctx: EffectContext) -> SpellMap:
    """``(web/config)``."""
    return ok(effective_config(ctx))


def _timeout_seconds(cfg: SpellMap) -> float:
    ms = _get_in(cfg, K_FETCH, K_TIMEOUT_MS, default=15000)
    return float(ms) / 1000.0 if is_number(ms) and ms > 0 else 15.0


def _headers(cfg: SpellMap, accept: str) -> dict[str, str]:
    return {"User-Agent": text(_get_in(cfg, K_HTTP, K_USER_AGENT, default=USER_AGENT)), "Accept": accept}


def _transport_failure(e: BaseException) -> SpellMap:
    message = str(e) or type(e).__name__
    return fail(f"HTTP request failed: {message}")


def allows_private_network(cfg: SpellMap) -> bool:
    """``{:allow-private-network true}`` in the web configuration (the ``:web`` run option)."""
    return is_truthy(cfg.get(K_ALLOW_PRIVATE))


def guarded(method: str, url: str, cfg: SpellMap, headers: dict[str, str],
            json_body: Any = None) -> tuple[Optional[Response], Optional[SpellMap]]:
    """(response, None) or (None, failure envelope): every request goes through ``web_guard``."""
    try:
        return request(method, url, headers=headers, timeout=_timeout_seconds(cfg),
                       allow_private=allows_private_network(cfg), json_body=json_body), None
    except (Refused, ValueError) as e:
        return None, fail(str(e))
    except Exception as e:  # noqa: BLE001 - any transport failure is an envelope
        return None, _transport_failure(e)


def http_get(url: str, cfg: SpellMap, accept: str) -> tuple[SpellMap, str]:
    """GET ``url``: the envelope (body text in ``:out``) and the response's content type."""
    response, failure = guarded("GET", url, cfg, _headers(cfg, accept))
    if response is None:
        return failure or fail("HTTP request failed"), ""
    status = response.status
    if 200 <= status <= 299:
        return ok(response.text, status=status), response.content_type
    return fail(f"HTTP {status} from {url}", out=response.text, status=status), response.content_type


_SCHEME = re.compile(r"https?://.+", re.IGNORECASE | re.DOTALL)
_DOMAIN = re.compile(r"[A-Za-z0-9.-]+\.[A-Za-z]{2,}.*", re.DOTALL)


def normalize_url(url: Any) -> Optional[str]:
    """The URL to fetch: as given with a scheme, ``https://`` added to a bare domain, else None."""
    u = text(url).strip()
    if not u:
        return None
    if _SCHEME.fullmatch(u):
        return u
    if _DOMAIN.fullmatch(u):
        return "https://" + u
    return None


FETCH_BACKENDS = ("jina", "raw")


def _fetch_with(backend: Keyword, url: str, cfg: SpellMap) -> Optional[SpellMap]:
    """One backend's attempt, or None for a backend this runtime does not know."""
    if backend is Keyword("jina"):
        return http_get(JINA_PREFIX + url, cfg, "text/plain")[0]
    if backend is Keyword("raw"):
        from .web_html import html_to_text, looks_like_html

        result, content_type = http_get(url, cfg, "text/html,application/xhtml+xml")
        body = result.get(K_OUT)
        if result.get(K_OK) is True and type(body) is str and looks_like_html(content_type, body):
            return result.assoc(K_OUT, html_to_text(url, body))
        return result
    return None


def _private_target(url: str, cfg: SpellMap) -> Optional[SpellMap]:
    """A refusal when the page itself is on the private network (whichever backend would fetch it:
    the reader service would be asked for a page of this machine's network)."""
    if allows_private_network(cfg):
        return None
    import httpx

    try:
        parsed = httpx.URL(url)
        resolve_public(parsed.host, parsed.port or 443, False)
    except Refused as e:
        return fail(str(e))
    except Exception:  # noqa: BLE001 - unresolvable here: let the backend report it
        return None
    return None


def _backend_name(v: Any) -> Keyword:
    if type(v) is Keyword:
        return v
    return Keyword(text(v).lstrip(":"))


def fetch(ctx: EffectContext, url: Any, opts: Any = NO_ARG) -> SpellMap:
    """``(web/fetch url [{:backend kw :fallback-backend kw}])``: the page's full text."""
    options = require_map("web/fetch", None if opts is NO_ARG else opts)
    target = normalize_url(url)
    if target is None:
        return fail(f"Invalid URL: {pr(url)}")
    cfg = effective_config(ctx)
    backend = _backend_name(options.get(K_BACKEND) or _get_in(cfg, K_FETCH, K_BACKEND, default=Keyword("jina")))
    fb_opt = options.get(K_FALLBACK) if options.contains(K_FALLBACK) else _get_in(cfg, K_FETCH, K_FALLBACK)
    fallback = None if fb_opt is None or fb_opt is False else _backend_name(fb_opt)
    if backend.name not in FETCH_BACKENDS:
        return fail(f"Unsupported fetch backend: {backend}")
    refused = _private_target(target, cfg)
    if refused is not None:
        return refused
    primary = _fetch_with(backend, target, cfg)
    if primary is None:
        return fail(f"Unsupported fetch backend: {backend}")
    if primary.get(K_OK) is True or fallback is None or fallback is backend:
        return primary
    second = _fetch_with(fallback, target, cfg)
    if second is None:
        return fail(f"Unsupported fetch backend: {fallback}")
    if second.get(K_OK) is True or second.contains(K_STATUS) or not primary.contains(K_STATUS):
        return second
    return primary.assoc(K_ERR, f"{primary.get(K_ERR)}; fallback: {second.get(K_ERR)}")


def search_results(items: list[tuple[str, str, str]], status: Any = ABSENT) -> SpellMap:
    """A successful search envelope from ``(title, url, snippet)`` triples (for backend authors)."""
    rows = vec(SpellMap.from_pairs([(K_TITLE, t), (K_URL, u), (K_SNIPPET, s)]) for t, u, s in items)
    return envelope(True, rows, None, status=status)


def serper_backend(query: str, max_results: int, cfg: SpellMap) -> SpellMap:
    """Google results through Serper's JSON API (URL overridable with ``[:search :serper-url]``)."""
    key = serper_key(cfg)
    if key is None:
        return fail(SERPER_KEY_MESSAGE)
    url = text(_get_in(cfg, K_SEARCH, K_SERPER_URL, default=SERPER_URL))
    headers = {**_headers(cfg, "application/json"), "X-API-KEY": key}
    response, failure = guarded("POST", url, cfg, headers, {"q": query, "num": max_results})
    if response is None:
        return failure or fail("HTTP request failed")
    status = response.status
    body = response.text
    if not 200 <= status <= 299:
        return fail(f"HTTP {status} from {url}: {body[:200]}", out=body, status=status)
    try:
        data = json.loads(body)
    except ValueError as e:
        return fail(f"Invalid JSON response: {e}", status=status)
    try:
        organic = data.get("organic", []) if isinstance(data, dict) else []
        triples = [(str(r.get("title") or ""), str(r.get("link") or ""), str(r.get("snippet") or ""))
                   for r in organic if isinstance(r, dict)]
    except Exception as e:  # noqa: BLE001
        return fail(f"Search parsing failed: {e}", status=status)
    return search_results([t for t in triples if t[1]][:max_results], status=status)


BUILTIN_SEARCH_BACKENDS: dict[str, SearchBackend] = {"serper": serper_backend}


def _max_results(options: SpellMap, cfg: SpellMap) -> int:
    raw = options.get(K_MAX_RESULTS)
    if raw is None:
        raw = _get_in(cfg, K_SEARCH, K_MAX_RESULTS, default=5)
    if not is_number(raw) or raw != raw:
        reject(f"web/search: :max-results must be a number, got {pr(raw)}")
    return max(1, min(10, int(raw)))


def search(ctx: EffectContext, query: Any, opts: Any = NO_ARG) -> SpellMap:
    """``(web/search query [{:max-results n :backend kw}])``: ``[{:title :url :snippet} ...]``."""
    options = require_map("web/search", None if opts is NO_ARG else opts)
    q = text(query).strip()
    if not q:
        return fail("web/search query must be non-empty")
    cfg = effective_config(ctx)
    limit = _max_results(options, cfg)
    backend = _backend_name(options.get(K_BACKEND) or _get_in(cfg, K_SEARCH, K_BACKEND))
    impl = ctx.search_backends.get(backend.name) or BUILTIN_SEARCH_BACKENDS.get(backend.name)
    if impl is None:
        if backend.name == "duckduckgo":
            return fail("No search backend is configured for :duckduckgo; set SERPER_API_KEY or install a backend")
        return fail(f"Unsupported search backend: {backend}")
    try:
        result = impl(q, limit, cfg)
    except Exception as e:  # noqa: BLE001 - a broken backend must not break the program
        return fail("Search failed: %s" % (str(e) or type(e).__name__))
    rows = items_of(result.get(K_OUT)) if isinstance(result, SpellMap) else None
    if not isinstance(result, SpellMap):
        return fail(f"Search failed: backend {backend} returned {pr(result)}")
    if result.get(K_OK) is True and rows is not None and len(rows) > limit:
        return result.assoc(K_OUT, vec(rows[:limit]))
    return result
