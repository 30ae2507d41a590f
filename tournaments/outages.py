"""Outages of the services beside PostgreSQL (the Redis cache, the Celery broker): the
errors that mean "unreachable", a log that records an outage once, when it starts, and
once when it ends, instead of one traceback per request, and the cache backend that turns
an unreachable Redis into cache misses.

Callers degrade instead of failing: public pages render from PostgreSQL (every cache user,
``public_cache`` and the templates' ``{% cache %}`` alike, goes through
:class:`TolerantRedisCache`), background runs stay on their row until the sweep re-sends
them (``services.runs``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

# What the cache client and Celery's publisher raise when Redis cannot be reached (refused,
# reset, timed out). Anything else is a bug and propagates.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)
BROKER_ERRORS: tuple[type[Exception], ...] = (BrokerError, RedisError, OSError)
T = TypeVar("T")


class Outage:
    """The state of one service as this process last saw it (a flag per process: good
    enough to log once, not a lock)."""

    def __init__(self, service: str, consequence: str) -> None:
        self.service, self.consequence = service, consequence
        self.down = False
        self.logger = logging.getLogger(__name__)

    def failed(self, error: Exception) -> None:
        """Record a failed call: logged (with the error) only when the outage starts."""
        if not self.down:
            self.logger.warning("%s unreachable (%s): %s", self.service, error, self.consequence)
        self.down = True

    def worked(self) -> None:
        """Record a successful call: logged only when it ends an outage."""
        if self.down:
            self.logger.warning("%s reachable again", self.service)
        self.down = False


cache_outage = Outage("Cache (Redis)", "public pages are rendered from the database.")
broker_outage = Outage(
    "Celery broker (Redis)", "background runs stay queued until the sweep re-sends them."
)


class TolerantRedisCache(RedisCache):
    """Django's Redis cache, where an unreachable Redis is a miss: reads return their
    default, writes and deletes do nothing (logged once per outage, ``cache_outage``).
    ``incr``/``decr`` and ``clear`` still raise: their callers need an answer. Configured
    in ``CACHES`` when ``REDIS_URL`` is set."""

    def _tolerant(self, fallback: T, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            result = call(*args, **kwargs)
        except CACHE_ERRORS as e:
            cache_outage.failed(e)
            return fallback
        cache_outage.worked()
        return result

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._tolerant(default, super().get, key, default, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._tolerant({}, super().get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._tolerant(False, super().has_key, key, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._tolerant(None, super().set, key, value, timeout, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._tolerant(list(data), super().set_many, data, timeout, version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._tolerant(False, super().add, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._tolerant(False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._tolerant(False, super().delete, key, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._tolerant(None, super().delete_many, keys, version)
