"""``web/`` stays off the private network (issue 16.5): the SSRF guard every request goes through.

A model-written program must not reach the services of the machine it runs on or its
network (a local admin page, a cloud metadata endpoint at 169.254.169.254, a database
on 10.x). So, unless the web configuration says ``{:allow-private-network true}``:

* every address a host name resolves to must be a *global* unicast address: loopback,
  private, shared (100.64/10), link-local, multicast, unspecified, reserved and
  documentation ranges are refused, for IPv4 and IPv6, and an IPv4-mapped IPv6
  address is judged by the IPv4 address it carries;
* numeric spellings are resolved the way the C library would connect to them
  (``getaddrinfo``): ``0x7f000001``, ``2130706433``, ``127.1`` and ``0177.0.0.1`` are
  all 127.0.0.1 and refused as such;
* the connection goes to the address that was checked (the URL is rewritten to the
  IP, with the original ``Host`` header and TLS server name, so certificates are still
  verified against the host name): a DNS answer that changes between check and
  connect (rebinding) cannot redirect it;
* redirects are followed here, hop by hop, each hop checked like the first.

Response bodies are read up to ``MAX_BODY_BYTES``; a larger one is a failure envelope
(the program gets a clear message instead of the process's memory filling up), and
every wait is bounded by the evaluation's deadline (``spell_runtime.limits``).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any, Final, Optional, Union

from ..limits import bounded_wait

MAX_REDIRECTS: Final = 10
MAX_BODY_BYTES: Final = 10 * 1024 * 1024

REFUSED: Final = ("Refusing to connect to %s (%s address): web/ does not reach the private network; "
                  "a run can allow it with :web {:allow-private-network true}")
TOO_LARGE: Final = "HTTP response body from %s is larger than %d bytes"
TOO_MANY_REDIRECTS: Final = "Too many redirects (more than %d) from %s"

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]


class Refused(Exception):
    """A URL ``web/`` will not connect to; ``str()`` is the envelope's ``:err``."""


def address_kind(ip: IPAddress) -> Optional[str]:
    """Why ``ip`` is not a public destination (None when it is a global unicast address)."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None:
            inner = address_kind(embedded)
            if inner is not None:
                return inner
    if ip.is_loopback:
        return "loopback"
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_link_local:
        return "link-local"
    if ip.is_multicast:
        return "multicast"
    if ip.is_private:
        return "private"
    if ip.is_reserved or not ip.is_global:
        return "non-public"
    return None


def resolve_public(host: str, port: int, allow_private: bool) -> str:
    """The first address ``host`` resolves to, after checking *every* address it resolves to."""
    literal = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        infos = socket.getaddrinfo(literal, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as e:
        raise OSError(f"cannot resolve {host}: {e}") from None
    addresses: list[IPAddress] = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]
        ip = ipaddress.ip_address(text)
        if not allow_private:
            kind = address_kind(ip)
            if kind is not None:
                raise Refused(REFUSED % (host if host == str(ip) else "%s (%s)" % (host, ip), kind))
        addresses.append(ip)
    if not addresses:
        raise OSError(f"cannot resolve {host}")
    return str(addresses[0])


@dataclass
class Response:
    """What a guarded GET/POST received."""

    status: int
    text: str
    content_type: str
    url: str


def request(method: str, url: str, *, headers: dict[str, str], timeout: float, allow_private: bool,
            json_body: Any = None) -> Response:
    """``method url`` with the guard: checked addresses, manual redirects, bounded body and time.

    Raises ``Refused`` for a destination the guard refuses, ``httpx.HTTPError``/``OSError``
    for transport failures, ``ValueError`` for an oversized body or a redirect loop.
    """
    import httpx

    current = httpx.URL(url)
    for _hop in range(MAX_REDIRECTS + 1):
        if current.scheme not in ("http", "https"):
            raise Refused(f"Refusing to follow a redirect to a non-HTTP URL: {current}")
        host = current.host
        port = current.port or (443 if current.scheme == "https" else 80)
        wait = bounded_wait(timeout) or timeout
        ip = resolve_public(host, port, allow_private)
        pinned = current.copy_with(host=ip)
        send_headers = dict(headers)
        send_headers["Host"] = current.netloc.decode("ascii")
        extensions = {"sni_hostname": host} if current.scheme == "https" else {}
        with httpx.Client(timeout=wait, follow_redirects=False) as client:
            req = client.build_request(method, pinned, headers=send_headers, json=json_body,
                                       extensions=extensions)
            response = client.send(req, stream=True)
            try:
                location = response.headers.get("location")
                if response.is_redirect and location:
                    current = current.join(location)
                    if response.status_code in (301, 302, 303) and method != "GET":
                        method, json_body = "GET", None
                    continue
                body = _bounded_body(response, str(current))
                return Response(response.status_code, body, response.headers.get("content-type", ""),
                                str(current))
            finally:
                response.close()
    raise ValueError(TOO_MANY_REDIRECTS % (MAX_REDIRECTS, url))


def _bounded_body(response: Any, url: str) -> str:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ValueError(TOO_LARGE % (url, MAX_BODY_BYTES))
        chunks.append(chunk)
    data = b"".join(chunks)
    encoding = response.encoding or "utf-8"
    try:
        return data.decode(encoding, "replace")
    except LookupError:
        return data.decode("utf-8", "replace")
