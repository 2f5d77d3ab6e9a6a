from django.urls import path
from django.views.decorators.cache import never_cache

from players import views

urlpatterns = [
    path("me/", never_cache(views.my_games), name="my_games"),
    path("account/sign-up/", views.sign_up, name="sign_up"),
    path("account/sign-in/", views.sign_in, name="sign_in"),
    path("account/sign-out/", views.sign_out, name="sign_out"),
    path("me/data.json", never_cache(views.my_data), name="my_data"),
    path("me/delete/", never_cache(views.forget_me), name="forget_me"),
    path("groups/new/", views.new_group, name="new_group"),
    path("g/<str:code>/", never_cache(views.group_page), name="group"),
    path("g/<str:code>/new-invite/", views.new_invite, name="new_invite"),
    path("g/<str:code>/join/<str:token>/", never_cache(views.join_group), name="join_group"),
]
