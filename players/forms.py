from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from games.forms import NameField


class SignUpForm(UserCreationForm):
    """A username and a password, twice: no e-mail address is asked for. A username that
    cannot be used gets one refusal, whether it is taken, malformed or too long, so that
    a taken one does not stand out (without e-mail, a sign-up can only bound, not hide,
    which names exist: players.views.sign_up counts every attempt)."""

    UNUSABLE = _("This username cannot be used: choose another.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        # (a field's message for a code replaces its validators' own)
        field.error_messages = {
            **field.error_messages,
            "invalid": self.UNUSABLE,
            "max_length": self.UNUSABLE,
        }

    def clean_username(self):
        """Taken, in any case (as UserCreationForm refuses it)."""
        username = self.cleaned_data.get("username")
        if username and User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(self.UNUSABLE, code="unusable")
        return username


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Group name"), max_length=40)
    # asked only of a phone that has not sat down yet (it has no player)
    player_name = NameField("group-player-name", required=False)

    def __init__(self, *args, named=True, **kwargs):
        super().__init__(*args, **kwargs)
        if named:
            del self.fields["player_name"]
        else:
            self.fields["player_name"].required = True

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the group a name."))
        return name


class JoinGroupForm(forms.Form):
    player_name = NameField("join-group-name")

    def __init__(self, *args, named=True, **kwargs):
        super().__init__(*args, **kwargs)
        if named:
            del self.fields["player_name"]


class TagForm(forms.Form):
    """One of the member's own tables, counted in the group's league."""

    table = forms.ChoiceField(label=_("One of your tables"))

    def __init__(self, tables, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [
            (entry["code"], f"{entry['game']} · {entry['code']} · {', '.join(entry['names'])}")
            for entry in tables
        ]


class ForgetForm(forms.Form):
    """Deleting one's data: the password again for an account, a tick for a guest."""

    sure = forms.BooleanField(label=_("Yes, delete my player and all that is kept about me"))
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, required=False)

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.is_authenticated:
            del self.fields["password"]

    def clean_password(self):
        password = self.cleaned_data.get("password", "")
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
