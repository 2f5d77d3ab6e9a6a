"""The site's settings for the browser test of a push reaching a closed browser: as
companion.settings, with push endpoints over plain HTTP allowed (the test's push service
listens on 127.0.0.1; a browser's endpoint is always https)."""

from companion.settings import *  # noqa: F403

PUSH_ALLOW_HTTP = True
