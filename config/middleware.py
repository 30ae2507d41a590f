"""Project middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render


class GZipExceptStreams(GZipMiddleware):
    """Django's GZipMiddleware, except for server-sent events (``text/event-stream``):
    a compressor holds small messages back until it has a block to write, which would
    stop a live page's notices (``tournaments.live``) on their way."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class UploadLimitMiddleware:
    """Refuse a request whose ``Content-Length`` is over ``settings.UPLOAD_MAX_BYTES`` with
    the "Upload too large" page (HTTP 413), before anything reads its body (
    item 9): an oversized upload costs neither the time to receive it nor disk space.

    A request without a usable ``Content-Length`` passes: Django reads no more than the
    length it declares, and the proxy (deploy/nginx.conf, ``client_max_body_size``) holds
    the same limit for chunked bodies."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.UPLOAD_MAX_BYTES
        if length > limit:
            context = {"size_mb": _mb(length), "limit_mb": _mb(limit)}
            return render(request, "errors/413.html", context, status=413)
        return self.get_response(request)


def _mb(size: int) -> str:
    """Bytes as megabytes (MiB) with one decimal, as the upload pages count them."""
    return f"{size / 2**20:.1f}"
