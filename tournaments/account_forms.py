"""Forms of staff accounts and event listing: making an account
from an invite, and the typed confirmation that deletes an event. They check input only;
the services decide."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class InviteSignupForm(UserCreationForm):
    """A new account for an invited person: a username (the invite's e-mail is offered)
    and a password twice, checked by Django's password validators
    (``AUTH_PASSWORD_VALIDATORS``). The account's e-mail is the invite's, for password
    resets."""

    # django-stubs declares no Meta on UserCreationForm; Django's has one (its username field).
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username",)

    def __init__(self, *args, email: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.email = email
        self.fields["username"].help_text = _(
            "Letters, digits and @ . + - _ only; your e-mail address works too."
        )

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("That username is taken. If it is yours, sign in to accept the invite.")
            )
        return username

    def save(self, commit: bool = True):
        user = super().save(commit=False)
        user.email = self.email
        if commit:
            user.save()
        return user


class EventDeleteForm(forms.Form):
    """The event's name, typed to confirm deleting it (``services.event_delete``)."""

    confirm = forms.CharField(max_length=200, label=_("Type the event's name to confirm"))
