"""Views: ``public`` (the latest standings) and ``staff`` (every computed version)."""
