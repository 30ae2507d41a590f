"""Importing an event file (TOM ``.tdf``, event JSON, WER, melee.gg) as background work.

The upload page makes an ``ImportJob`` (``services.import_jobs.import_job_create``) and shows the
job's page, which HTMX polls until the job is done (then it goes to the new event's
dashboard) or failed (then it shows the importer's message). Without a broker the job is
finished inside the upload's request: a done job goes straight to the event, a refused
file comes back as a form error. Only logged-in users upload, and a job's page is its
uploader's alone (anyone else gets 404).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.contrib import messages
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from tournaments.errors import InvalidInput, MatchslipError
from tournaments.forms import EventFileForm
from tournaments.models import ImportJob, ImportJobStatus
from tournaments.permissions import login_required_htmx
from tournaments.stored_text import shown
from tournaments.views.common import HtmxRequest, wants_fragment

from ..formats.checks import MAX_FILE_BYTES
from ..services import import_jobs
from ..services.import_jobs import import_format_guess
from ..services.imports import file_too_large

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

UPLOAD_TEMPLATE = "interchange/import.html"
JOB_TEMPLATE = "interchange/import_job.html"
NO_FORMAT = gettext_noop("Choose the file's format: it could not be told from the file.")


@login_required_htmx
def event_file_import(request: HttpRequest, format: str = "") -> HttpResponse:
    """Upload an event file and import it in the background; the uploader becomes the
    event's organiser. ``format`` pre-selects one (the TOM upload's old address) and is
    used when the form gives none and the file does not tell. A file over
    ``MAX_FILE_BYTES`` is refused before it is read."""
    form = EventFileForm(request.POST or None, request.FILES or None, initial={"format": format})
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > MAX_FILE_BYTES:
                raise InvalidInput(file_too_large(upload.size))
            content = upload.read()
            chosen = form.cleaned_data["format"]
            kind = chosen or import_format_guess(upload.name, content) or format
            if not kind:
                raise InvalidInput(gettext(NO_FORMAT))
            job = import_jobs.import_job_create(
                filename=upload.name, content=content, format=kind, by=request.user
            )
        except MatchslipError as e:
            form.add_error("file", gettext("Nothing was imported. %(error)s") % {"error": e})
        else:
            job = _job_for(request, job.pk)
            if not (job.status == ImportJobStatus.FAILED and not job.has_file):
                return _after_queued(request, job)
            form.add_error(  # refused, eager
                "file", gettext("Nothing was imported. %(error)s") % {"error": shown(job.error)}
            )
    return render(request, UPLOAD_TEMPLATE, {"form": form})


@login_required_htmx
def import_job(request: HtmxRequest, job_id: int) -> HttpResponse:
    """An import job's progress; HTMX polls the ``job`` partial every second while it is
    queued or running. Once done, a poll sends the browser to the event's dashboard."""
    job = _job_for(request, job_id)
    if wants_fragment(request):
        if job.status == ImportJobStatus.DONE and job.event is not None:
            return HttpResponseClientRedirect(reverse("staff:dashboard", args=[job.event.slug]))
        return render(request, f"{JOB_TEMPLATE}#job", {"job": job})
    return render(request, JOB_TEMPLATE, {"job": job})


@require_POST
@login_required_htmx
def import_job_retry(request: HttpRequest, job_id: int) -> HttpResponse:
    """ "Try again" on a job whose worker stopped: queue it anew with the file it kept."""
    job = _job_for(request, job_id)
    try:
        import_jobs.import_job_retry(job=job, by=request.user)
    except MatchslipError as e:
        messages.error(request, str(e))
        return redirect("staff:import_job", job.pk)
    return _after_queued(request, _job_for(request, job.pk))


class _HasFile(TypedDict):
    has_file: bool  # the job kept its file's bytes: "Try again" can import them


def _job_for(request: HttpRequest, job_id: int) -> WithAnnotations[ImportJob, _HasFile]:
    """The request's user's job ``job_id`` (404 for anyone else's), without its file's
    bytes; ``has_file`` tells whether it kept them (a retry is possible)."""
    jobs = (
        ImportJob.objects.defer("content")
        .select_related("event")
        .annotate(has_file=ExpressionWrapper(Q(content__isnull=False), BooleanField()))
    )
    return get_object_or_404(jobs, pk=job_id, requested_by=request.user)


def _after_queued(request: HttpRequest, job: ImportJob) -> HttpResponse:
    """Where to go once a job is queued: the event when it is already done (eager mode),
    else the job's page."""
    if job.status == ImportJobStatus.DONE and job.event is not None:
        messages.success(request, gettext("Imported %(name)s.") % {"name": job.event.name})
        return redirect("staff:dashboard", job.event.slug)
    return redirect("staff:import_job", job.pk)
