"""Staff pairing pages (namespace ``staff``, joined in config/urls.py): the dashboard,
pairing a group's next round, a pairing run's progress and the minimal re-pair of a round
after a correction, under ``/e/<event>/staff/``."""

from django.urls import path

from .views import explain, repair, staff

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path(E, staff.dashboard, name="dashboard"),
    path(f"{E}pair/", staff.pair, name="pair"),
    path(f"{E}checkin/close/", staff.checkin_close, name="checkin_close"),
    path(f"{E}flights/", staff.flights, name="flights"),
    path(f"{E}runs/<int:run_id>/", staff.run_status, name="run"),
    path(f"{E}rounds/<int:round_id>/repair/", repair.repair, name="round_repair"),
    path(f"{E}rounds/<int:round_id>/why/", explain.round_why, name="round_why"),
]
