"""URLs: public pages under /e/<event>/, staff pages under /e/<event>/staff/.

Each app lists its own pages (``<app>/urls_public.py``, ``<app>/urls_staff.py``); they
are joined here into the two namespaces, ``public`` and ``staff``, so ``tournaments``
never imports ``pairings``, ``standings`` or ``interchange`` (docs/style.md, "Dependencies point one way").
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

import interchange.urls_staff
import pairings.urls_staff
import standings.urls_public
import standings.urls_staff
import tournaments.urls_public
import tournaments.urls_staff
from tournaments.views.public import home

staff_patterns = [
    *tournaments.urls_staff.urlpatterns,
    *pairings.urls_staff.urlpatterns,
    *standings.urls_staff.urlpatterns,
    *interchange.urls_staff.urlpatterns,
]
public_patterns = [
    *tournaments.urls_public.urlpatterns,
    *standings.urls_public.urlpatterns,
]

urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's set_language: a POST with `language` sets the language cookie.
    # No CSRF token: the switcher is on prebuilt public pages, whose cached bytes are the
    # same for every visitor; the worst a forged POST does is change a page's language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Password reset by e-mail: Django's views, templates/registration/.
    path(
        "accounts/password-reset/",
        auth_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include((staff_patterns, "staff"))),
    # Un-namespaced: settings.LOGIN_REDIRECT_URL and LOGOUT_REDIRECT_URL name it.
    path("", home, name="home"),
    path("", include((public_patterns, "public"))),
]
