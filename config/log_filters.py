"""Logging filters: an expected refusal is one line in the log, not a
traceback.

Django logs every 403 (a ``PermissionDenied`` from a view: a scorekeeper on a judge's
page, a player's stale link) as ``Forbidden (Permission denied): /path`` with the
exception attached, so the console showed a full traceback for what is an answer, not a
fault. :class:`RefusalsWithoutTraceback` keeps the line and drops the traceback for
those records; every other record (a 500 above all) keeps its traceback.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied


class RefusalsWithoutTraceback(logging.Filter):
    """Drop ``exc_info`` from records about a ``PermissionDenied`` (always keeps the record:
    returns True)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True
