"""Settings for every environment, read from environment variables.

Local defaults (no variables set) give a development site on SQLite with the
in-memory channel layer. Production-like runs set DATABASE_URL (PostgreSQL),
REDIS_URL (channels-redis), SECRET_KEY, DEBUG=0, ALLOWED_HOSTS and
CSRF_TRUSTED_ORIGINS.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "games",
    "games.triggs",
    "games.triumfdrez",
    "players",
    "procrastinate.contrib.django",
    "notify",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "companion.middleware.ContentSecurityPolicyMiddleware",
    "companion.middleware.PermissionsPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out login before any password is hashed.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "companion.urls"
ASGI_APPLICATION = "companion.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # Django's loaders (cached), wrapped by django-template-partials by itself
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.site",
            ],
        },
    },
]

# No persistent connections (CONN_MAX_AGE=0): under ASGI each request runs on a thread
# of its own, and a persistent connection stays with its thread for good. PostgreSQL
# gets psycopg's pool instead: a process holds at most DB_POOL_MAX connections, and
# a request waits up to DB_POOL_TIMEOUT seconds for a free one.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction starts, so concurrent actions on one
    # table queue up instead of failing (PostgreSQL uses SELECT … FOR UPDATE).
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["OPTIONS"]["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The task queue (companion.queue): Procrastinate's tables on PostgreSQL, its in-memory
# queue and a worker inside the process elsewhere.
PROCRASTINATE_ON_APP_READY = "companion.queue.on_app_ready"
PROCRASTINATE_WORKER_DEFAULTS = {
    # a job scheduled for later is found by polling: a deadline runs at most this late
    "fetch_job_polling_interval": 0.2,
    "delete_jobs": "successful",
    "concurrency": 8,  # its jobs mostly wait for the database
    # a worker killed mid-job is seen as stalled after a few missed beats (games.tasks)
    "update_heartbeat_interval": 2,
    "stalled_worker_timeout": 10,
}
# how much lower a task queue worker process's priority is (companion.queue.behind_people)
WORKER_NICE = int(os.environ.get("WORKER_NICE", "5"))
DATABASE_ROUTERS = ["companion.queue.QueueRouter"]
# The computer players that search think in a pool of processes (games.thinking), in each
# process that asks; a decision that takes longer than THINK_TIMEOUT seconds is given up.
THINKERS = int(os.environ.get("THINKERS", "1"))
THINK_TIMEOUT = float(os.environ.get("THINK_TIMEOUT", "30"))
THINK_NICE = int(os.environ.get("THINK_NICE", "10"))  # how much lower their priority is (and,
# on Linux, the idle scheduling class: games.thinking)

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: a change is one message per process, which hands it to its own
            # phones (games.consumers, which also says what happens if Redis is lost).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # A message told while Redis is frozen waits up to 15 s for it, rather than
            # being lost at once.
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 5,
                        # After Redis restarts, an idle connection of the pool is dead:
                        # a message sent on it connects again once instead of being lost.
                        "retry": Retry(NoBackoff(), 1),
                    }
                ]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Django's cache holds the rate limits' counts (games.ratelimit) and the players' kept
# statistics: with Redis it is shared by every process, so a limit is one limit however
# many processes serve the site; without, each process counts alone (LocMemCache).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "companion.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            # a Redis that is away or frozen holds a request back a second at most: the
            # rate limits then let it through (games.ratelimit)
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The few single pieces of a table's screen cached by Django's {% cache %} tag (a card, a
# contract), in each process: what they show is in their key, so no process needs another's
# ({% cached_each %}'s lists of pieces are in games.regions.rendered).
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
    "OPTIONS": {"MAX_ENTRIES": 20_000},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Interface languages: the four languages of the rulebooks. English exists only as
# the source language of the message catalogues.
LANGUAGE_CODE = "es"
LANGUAGES = [
    ("es", _("Spanish")),
    ("el", _("Greek")),
    ("ru", _("Russian")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "companion.storage.MinifiedManifestStaticFilesStorage"
        )
    },
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A plain-HTTP request (X-Forwarded-Proto not https) is redirected to https.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # HSTS for this host name only: subdomains and the browsers' preload list commit
    # the whole domain to HTTPS, which is the domain owner's decision (both opt-in).
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    # check --deploy warns about both opt-ins when off; off is the choice made above.
    SILENCED_SYSTEM_CHECKS = [
        *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
        *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
    ]


# Content-Security-Policy (django-csp, companion.middleware): our own files only, no
# inline script and no inline style anywhere.
# The QR code is an inline SVG; images may be data: URLs. 'self' covers the table's
# WebSocket on the same host (ws:/wss:) in current browsers.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# The admin (its replay page) sets style attributes: there, and only there, style
# attributes are allowed; scripts stay 'self' (companion.middleware).
CSP_ADMIN_STYLE_ATTRIBUTES = ["'unsafe-inline'"]

# Permissions-Policy (companion.middleware): the site uses none of these.
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

# The admin's login: five failures for one account from one address lock that pair out
# for 15 minutes (django-axes; attempts are kept in the database). The address is
# REMOTE_ADDR, which daphne --proxy-headers takes from the proxy's X-Forwarded-For.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "axes/lockout.html"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # the task queue says a line per job at INFO: a table's every computer move
    "loggers": {"procrastinate": {"level": os.environ.get("QUEUE_LOG_LEVEL", "WARNING")}},
}

# In development WhiteNoise serves straight from the app and project folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Seconds a computer player waits before it moves, so that people can follow its
# moves (games.autoplay); 0 plays its moves at once (tests).
BOT_DELAY = float(os.environ.get("BOT_DELAY", "0.8"))

# Web Push (notify): the VAPID key pair and the contact the push services may write to.
# Without VAPID_PRIVATE_KEY a pair is made once and kept in VAPID_KEY_FILE, beside the
# SQLite database (notify.vapid); set both keys on every process in production.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:webpush@localhost")
_DB_DIR = (
    Path(DATABASES["default"]["NAME"]).resolve().parent
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    and str(DATABASES["default"]["NAME"]) != ":memory:"
    else BASE_DIR
)
VAPID_KEY_FILE = os.environ.get("VAPID_KEY_FILE", str(_DB_DIR / "vapid_private.pem"))

# E-mail (the daily digest, notify.digest): printed on the console unless EMAIL_URL-like
# settings are given.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# The address push and e-mail links point to (no request to take it from)
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# A push endpoint must be https: a browser's always is (tests serve one over http)
PUSH_ALLOW_HTTP = False
