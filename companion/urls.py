from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from games.views import app

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("favicon.ico", app.favicon),
    path("sw.js", app.service_worker, name="service_worker"),
]

# Every page lives under its language prefix (/es/, /el/, /ru/, /fr/): a shared
# link opens in the language of the person who shared it.
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("players.urls")),
    prefix_default_language=True,
)
