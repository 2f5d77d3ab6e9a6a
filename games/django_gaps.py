"""Messages of Django's own admin and auth pages that Django 5.2's Greek catalogue
lacks.

Without them a Greek admin page would fall back to the default language
(Spanish) for these strings. Listing them here puts them in our catalogues,
where es, ru and fr carry Django's own wording and el our translation.
"""

from django.utils.translation import gettext_noop

DJANGO_GAPS = (
    gettext_noop("Select this object for an action - {}"),
    gettext_noop("Breadcrumbs"),
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
    gettext_noop("Error:"),
    gettext_noop("Set password"),
    gettext_noop(
        "This action will <strong>enable</strong> password-based authentication for this user."
    ),
    gettext_noop("Disable password-based authentication"),
    gettext_noop("Enable password-based authentication"),
    gettext_noop("Skip to main content"),
    gettext_noop("Hide counts"),
    gettext_noop("Show counts"),
    gettext_noop("Toggle theme (current theme: auto)"),
    gettext_noop("Toggle theme (current theme: light)"),
    gettext_noop("Toggle theme (current theme: dark)"),
    gettext_noop("Added:"),
    gettext_noop("Changed:"),
    gettext_noop("Deleted:"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("Sidebar"),
    gettext_noop("Start typing to filter…"),
    gettext_noop("Filter navigation items"),
    gettext_noop("View selected %(model)s"),
    gettext_noop("Thanks for spending some quality time with the web site today."),
    gettext_noop("In case you’ve forgotten, you are:"),
    gettext_noop("Select all objects on this page for an action"),
    gettext_noop("Conflicting form data submitted. Please try again."),
    gettext_noop("Password-based authentication was disabled."),
    gettext_noop("Set password: %s"),
    gettext_noop("Reset password"),
    gettext_noop(
        "Whether the user will be able to authenticate using a password or not. If disabled, they may still be able to authenticate using other backends, such as Single Sign-On or LDAP."
    ),
    gettext_noop("Password-based authentication"),
    gettext_noop("Enabled"),
    gettext_noop("Disabled"),
    gettext_noop("Raw passwords are not stored, so there is no way to see the user’s password."),
    gettext_noop("Enable password-based authentication for this user by setting a password."),
    gettext_noop("block size"),
    gettext_noop(
        "Enter a valid username. This value may contain only unaccented lowercase a-z and uppercase A-Z letters, numbers, and @/./+/-/_ characters."
    ),
    gettext_noop("…"),
)
