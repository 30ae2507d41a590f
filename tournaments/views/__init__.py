"""Views: ``public`` (no login, phone-first) and ``staff`` (organisers and scorekeepers)."""
