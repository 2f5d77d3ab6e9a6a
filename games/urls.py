from django.urls import path

from games.views import home, rules, tables

urlpatterns = [
    path("", home.home, name="home"),
    path("rules/<slug:game>/", rules.rules, name="rules"),
    path("rules/<slug:game>/clarifications/", rules.clarifications, name="clarifications"),
    path("play/", tables.lobby, name="lobby"),
    path("join/", tables.join_by_code, name="join_by_code"),
    path("join/<str:code>/", tables.join, name="join"),
    path("t/<str:code>/", tables.table_page, name="table"),
    path("t/<str:code>/act/", tables.table_act, name="table_act"),
    path("t/<str:code>/start/", tables.table_start, name="table_start"),
    path("t/<str:code>/free/", tables.table_free_seat, name="table_free_seat"),
    path("t/<str:code>/close/", tables.table_close, name="table_close"),
    path("t/<str:code>/bot/", tables.table_bot, name="table_bot"),
    path("t/<str:code>/rematch/", tables.table_rematch, name="table_rematch"),
    path("t/<str:code>/handover/", tables.table_handover, name="table_handover"),
    path("h/<str:code>/<str:token>/", tables.handover, name="handover"),
]
