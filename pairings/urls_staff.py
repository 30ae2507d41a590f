"""Staff pairing pages (namespace ``staff``, joined in config/urls.py): the dashboard,
pairing a pod's next round and a pairing run's progress, under ``/e/<event>/staff/``."""

from django.urls import path

from .views import staff

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path(E, staff.dashboard, name="dashboard"),
    path(f"{E}pair/", staff.pair, name="pair"),
    path(f"{E}runs/<int:run_id>/", staff.run_status, name="run"),
]
