"""Views: ``public`` (no login, phone-first) and ``staff`` (organisers and scorekeepers),
with ``common`` helpers that the ``pairings`` and ``standings`` views use as well."""
