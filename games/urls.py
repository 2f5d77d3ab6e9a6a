from django.urls import path
from django.views.decorators.cache import never_cache

from games.views import app, home, open_play, replays, reviews, rules, tables

# Pages that show a private hand or a one-time link are never kept by a browser's or a
# proxy's cache (Cache-Control: no-store): the table page and every response that
# renders it again, and the handover pages.
private = never_cache

urlpatterns = [
    path("", home.home, name="home"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("rules/<slug:game>/", rules.rules, name="rules"),
    path("rules/<slug:game>/clarifications/", rules.clarifications, name="clarifications"),
    path("play/", tables.lobby, name="lobby"),
    path("open/", open_play.open_list, name="open_tables"),
    path("open/play/", open_play.play_now, name="play_now"),
    path("join/", tables.join_by_code, name="join_by_code"),
    path("join/<str:code>/", tables.join, name="join"),
    path("join/<str:code>/qr.svg", tables.join_qr, name="join_qr"),
    path("t/<str:code>/", private(tables.table_page), name="table"),
    path("t/<str:code>/centre/", tables.table_centre, name="table_centre"),
    path("t/<str:code>/centre/qr.svg", tables.centre_qr, name="centre_qr"),
    path("t/<str:code>/act/", private(tables.table_act), name="table_act"),
    path("t/<str:code>/start/", private(tables.table_start), name="table_start"),
    path("t/<str:code>/free/", private(tables.table_free_seat), name="table_free_seat"),
    path("t/<str:code>/close/", private(tables.table_close), name="table_close"),
    path("t/<str:code>/phrases/", private(tables.table_phrases), name="table_phrases"),
    path("t/<str:code>/act-for/", private(tables.table_act_for), name="table_act_for"),
    path("t/<str:code>/bot/", private(tables.table_bot), name="table_bot"),
    path("t/<str:code>/rematch/", private(tables.table_rematch), name="table_rematch"),
    path("t/<str:code>/hint/", private(tables.table_hint), name="table_hint"),
    path("t/<str:code>/stand-in/", private(tables.table_stand_in), name="table_stand_in"),
    path("t/<str:code>/leave/", private(tables.table_leave), name="table_leave"),
    path("t/<str:code>/handover/", private(tables.table_handover), name="table_handover"),
    path("t/<str:code>/replay/", private(replays.replay_page), name="replay"),
    path("r/<str:code>/", private(replays.result_page), name="result"),
    path("r/<str:code>/review/", private(reviews.review_ask), name="review_ask"),
    path("r/<str:code>/review/<int:seat>/", private(reviews.review_part), name="review_part"),
    path("h/<str:code>/<str:token>/", private(tables.handover), name="handover"),
]
