"""Views: ``staff`` (the dashboard, pairing a pod's next round, a pairing run's progress)."""
