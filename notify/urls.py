from django.urls import path

from notify import views

urlpatterns = [
    path("me/notifications/", views.settings_page, name="notify_settings"),
    path("me/notifications/subscribe/", views.subscribe, name="push_subscribe"),
    path("me/notifications/unsubscribe/", views.unsubscribe, name="push_unsubscribe"),
]
