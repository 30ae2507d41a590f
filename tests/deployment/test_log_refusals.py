"""A refused request is one log line, not a traceback."""

from __future__ import annotations

import logging
import logging.config
import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied

from config.log_filters import RefusalsWithoutTraceback


def _record(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "Forbidden: %s", ("/x/",), info
    )


def test_a_permission_refusal_keeps_its_line_without_the_traceback():
    record = _record(PermissionDenied("not staff"))
    assert RefusalsWithoutTraceback().filter(record) is True
    assert logging.Formatter().format(record) == "Forbidden: /x/"


def test_a_fault_keeps_its_traceback():
    record = _record(ValueError("boom"))
    assert RefusalsWithoutTraceback().filter(record) is True
    text = logging.Formatter().format(record)
    assert "Traceback (most recent call last)" in text and "ValueError: boom" in text


def test_the_console_handler_applies_the_filter():
    assert settings.LOGGING["handlers"]["console"]["filters"] == ["refusals"]
    # Configure as Django does at start-up: a test elsewhere in this process (an
    # in-process Celery worker hijacks the root logger) may have replaced the handlers.
    logging.config.dictConfig(settings.LOGGING)
    console = [h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler)]
    assert any(isinstance(f, RefusalsWithoutTraceback) for h in console for f in h.filters), (
        "Django configured the root logger's console handler with the filter"
    )
