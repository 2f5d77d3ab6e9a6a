from django.urls import path

from games.views import home, rules

urlpatterns = [
    path("", home.home, name="home"),
    path("rules/<slug:game>/", rules.rules, name="rules"),
    path("rules/<slug:game>/clarifications/", rules.clarifications, name="clarifications"),
]
