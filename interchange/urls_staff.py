"""Staff pages for files in and out (namespace ``staff``, joined in config/urls.py)."""

from django.urls import path

from .views import csv_views, imports, tdf

E = "e/<slug:slug>/staff/"

urlpatterns = [
    path("staff/import/", imports.event_file_import, name="event_file_import"),
    path(  # the TOM upload's address from before every format had one: TOM pre-selected
        "staff/import-tdf/", imports.event_file_import, {"format": "tdf"}, name="tdf_import"
    ),
    path("staff/imports/<int:job_id>/", imports.import_job, name="import_job"),
    path("staff/imports/<int:job_id>/retry/", imports.import_job_retry, name="import_job_retry"),
    path(f"{E}export.tdf", tdf.tdf_download, name="tdf_download"),
    path(f"{E}standings.csv", csv_views.standings_csv, name="standings_csv"),
    path(f"{E}pairings.csv", csv_views.pairings_csv, name="pairings_csv"),
]
