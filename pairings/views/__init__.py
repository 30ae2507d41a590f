"""Views: ``staff`` (the dashboard, pairing a pod's next round, a pairing run's progress)
and ``repair`` (the minimal re-pair after a correction, P-SW-9)."""
