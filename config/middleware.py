"""Project middleware."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


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
