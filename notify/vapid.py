"""The site's VAPID key pair (Web Push's application server key, RFC 8292), from the
environment (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY, VAPID_SUBJECT: companion.settings);
without a private key there, made once with py-vapid and kept in settings.VAPID_KEY_FILE
(beside the SQLite database), so that `make run` needs nothing set. Every process on one
machine reads the same file; processes on several machines need the environment's."""

import functools
import logging
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from py_vapid.utils import b64urlencode

log = logging.getLogger(__name__)


@functools.cache
def key() -> Vapid:
    """The private key (a py-vapid Vapid, as pywebpush takes it)."""
    private = settings.VAPID_PRIVATE_KEY
    if private:
        if private.lstrip().startswith("-----BEGIN"):
            return Vapid.from_pem(private.encode())
        return Vapid.from_string(private)  # base64url: the raw 32 bytes, or DER
    return _from_file(Path(settings.VAPID_KEY_FILE))


def _from_file(path: Path) -> Vapid:
    try:
        return Vapid.from_pem(path.read_bytes())
    except FileNotFoundError:
        pass
    made = Vapid()
    made.generate_keys()
    try:  # created once: a process that loses the race reads the winner's
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return Vapid.from_pem(path.read_bytes())
    with os.fdopen(fd, "wb") as out:
        out.write(made.private_pem())
    log.info("made a VAPID key pair for Web Push in %s", path)
    return made


def public_key() -> str:
    """The application server key the browsers subscribe with: the public key's
    uncompressed point, base64url without padding (VAPID_PUBLIC_KEY if set)."""
    if settings.VAPID_PUBLIC_KEY:
        return settings.VAPID_PUBLIC_KEY
    raw = key().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64urlencode(raw)


def claims() -> dict:
    return {"sub": settings.VAPID_SUBJECT}
