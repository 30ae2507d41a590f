"""Venue mode: the event served from a laptop to the phones of the local network
(``manage.py venue``; docs/operations.md, "Venue mode").

This module holds what the web pages and the command share: the address phones reach
(:func:`absolute_url`, from ``settings.VENUE_URL``), the laptop's LAN address
(:func:`lan_address`) and the host names the server answers to (:func:`venue_hosts`).
"""

from __future__ import annotations

import ipaddress
import socket

from django.conf import settings
from django.http import HttpRequest

#: Addresses a UDP ``connect`` is aimed at to learn which local address routes to them
#: (no packet is sent): the default route first (TEST-NET-1, never a real host), then
#: the three private ranges, for a laptop whose network has no router to the internet
#: (the laptop's own hotspot, a switch).
PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")


def absolute_url(request: HttpRequest, path: str) -> str:
    """The full address of ``path`` (a site path, ``/e/cup/``) as a phone at the venue
    opens it: ``settings.VENUE_URL`` + ``path`` in venue mode, whatever address the
    staff's own browser used (``127.0.0.1`` on the laptop); otherwise the request's own
    (``request.build_absolute_uri``). For QR codes and printed links."""
    if settings.VENUE_URL:
        return settings.VENUE_URL + path
    return request.build_absolute_uri(path)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_address() -> str:
    """The laptop's IPv4 address on the local network, e.g. ``"192.168.1.20"``: the
    address of the interface that routes to the internet, else to a private range, else
    one the host name resolves to; ``"127.0.0.1"`` when there is no network at all (then
    only this computer reaches the server: pass ``--address``). Sends nothing."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                address = str(s.getsockname()[0])
            except OSError:
                continue
        if _usable(address):
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if _usable(address):
            return address
    return "127.0.0.1"


def venue_hosts(address: str, extra: list[str] | None = None) -> list[str]:
    """The host names the venue server answers to (``ALLOWED_HOSTS``): the LAN
    ``address`` (an IP or a name), the computer's host name and its ``.local`` mDNS name
    (phones that resolve it), this computer's own addresses, then ``extra`` (the
    ``ALLOWED_HOSTS`` already set); each once, in that order."""
    name = socket.gethostname()
    hosts = [address, name, f"{name}.local", "127.0.0.1", "localhost", "[::1]", *(extra or [])]
    seen: list[str] = []
    for host in hosts:
        host = host.strip()
        if ":" in host and not host.startswith("["):  # an IPv6 address, bracketed
            host = f"[{host}]"
        if host and host not in seen:
            seen.append(host)
    return seen


def venue_url(address: str, port: int) -> str:
    """``http://address:port``, the address phones open (an IPv6 address bracketed)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"
