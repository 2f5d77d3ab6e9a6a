from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from games.views import app
from players import views as players_views

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("favicon.ico", app.favicon),
    path("sw.js", app.service_worker, name="service_worker"),
]

# Every page lives under its language prefix (/es/, /el/, /ru/, /fr/): a shared
# link opens in the language of the person who shared it.
urlpatterns += i18n_patterns(
    # the admin's login behind the limit of failed sign-ins per address (players.throttle)
    path("admin/login/", players_views.admin_login),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("players.urls")),
    path("", include("notify.urls")),
    prefix_default_language=True,
)
