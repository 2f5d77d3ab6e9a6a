"""The production server, the one way the site is served: the README's deployment, its
systemd unit (deploy/companion@.service) and the tests all start it as

    python -m companion.serve --port 8001

It is daphne serving companion.asgi, with the project's options in code, not on a command
line that could drift:

- It listens on 127.0.0.1 (`--bind` to change it) behind a proxy on the same host, and
  takes the client's address from X-Forwarded-For and the scheme from X-Forwarded-Proto.
  The proxy must set X-Forwarded-For to the address it saw ($remote_addr), replacing
  whatever the client sent, as deploy/nginx.conf does: daphne believes the left-most
  address of the header.
- What a phone may send is limited, what it is sent is not: a WebSocket message from a
  client is at most INCOMING_MAX bytes, while a table's first screen is 9-18 KB.
  (daphne's --websocket-max-message-size limits both ways: a seated phone's first screen
  could not be sent.) A larger message closes the socket (1009, "message too big")
  before it is read. A phone's messages are a few hundred bytes: the consumer refuses
  one over 8 KiB with a translated message (games.consumers.MAX_FRAME), and this cap,
  well above that, keeps a client from making the server read megabytes.
- WebSocket handshakes are counted before anything else is done for them, per client
  address and per phone (its address and cookies): one over is refused (HTTP 429) before
  daphne makes the application a scope, so a refusal costs the process next to nothing.
  A page whose connection drops comes back after a growing pause (static/js/table.js); a
  client reconnecting in a loop took a process's CPU (bench/load.py --reconnecters). The
  settings WS_HANDSHAKES_PER_ADDRESS and WS_HANDSHAKES_PER_PHONE, (burst, per second),
  override HANDSHAKES_PER_ADDRESS and HANDSHAKES_PER_PHONE.
- Each WebSocket's frames are counted as they arrive. Daphne parses each frame and queues
  it for the application without limit; the consumer's own rate limit (games.consumers)
  runs only when it takes the frame from that queue, so a client sending tiny frames as
  fast as it can would keep the event loop busy and every table of the process waiting.
  A socket that sends more than FRAMES_BURST frames at once, or more than
  FRAMES_PER_SECOND over time (pings included), is closed (4008, the consumers' "policy
  violation": the page does not reconnect) and what it sends on is dropped unread. The
  limits are far above what the consumer accepts from a phone (a burst of 10, then 4 a
  second).
"""

import argparse
import hashlib
import time

from autobahn.websocket.types import ConnectionDeny
from daphne import server, ws_protocol
from daphne.cli import CommandLineInterface

APPLICATION = "companion.asgi:application"
INCOMING_MAX = 64 * 1024
FRAMES_BURST = 60
FRAMES_PER_SECOND = 8.0
POLICY_VIOLATION = 4008
# (at once, then per second): an address's sockets (every phone at a café or a club comes
# through one public address: 20 tables of 4 phones coming back together after a blip,
# with room to spare), and one phone's (a page reconnecting after a drop: this is what
# holds one client reconnecting in a loop; its burst lets a host seat three computer
# players and deal, a new page and socket each, without waiting)
HANDSHAKES_PER_ADDRESS = (200, 4.0)
HANDSHAKES_PER_PHONE = (8, 0.25)


class Buckets:
    """Token buckets by key (a client address): `burst` at once, then `rate` a second. A
    bucket filled up again is forgotten, so the dict holds only the recently busy."""

    def __init__(self, burst: float, rate: float):
        self.burst, self.rate = burst, rate
        self.levels: dict[str, tuple[float, float]] = {}  # key → (level, when)
        self.taken = 0

    def take(self, key: str) -> bool:
        """One from `key`'s bucket; False if it is empty."""
        now = time.monotonic()
        level, at = self.levels.get(key, (self.burst, now))
        level = min(self.burst, level + (now - at) * self.rate)
        self.taken += 1
        if self.taken % 1000 == 0:  # forget the full ones
            full = now - self.burst / self.rate
            self.levels = {k: v for k, v in self.levels.items() if v[1] > full}
        if level < 1:
            self.levels[key] = (level, now)
            return False
        self.levels[key] = (level - 1, now)
        return True


def handshake_buckets() -> tuple[Buckets, Buckets]:
    """Per address and per phone, as the settings say (read once, at the first handshake,
    when the application has loaded them)."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    def setting(name, default):
        try:
            return getattr(settings, name, default)
        except ImproperlyConfigured:  # an application of no Django (the tests' own)
            return default

    return (
        Buckets(*setting("WS_HANDSHAKES_PER_ADDRESS", HANDSHAKES_PER_ADDRESS)),
        Buckets(*setting("WS_HANDSHAKES_PER_PHONE", HANDSHAKES_PER_PHONE)),
    )


class GuardedWebSocket(ws_protocol.WebSocketProtocol):
    """Daphne's WebSocket protocol with a cap on what a client sends: its messages' size
    and a token bucket on its frames."""

    frames_level = float(FRAMES_BURST)
    frames_at = None  # when the bucket was last filled; None before the first frame
    flooded = False

    def over_rate(self) -> bool:
        now = time.monotonic()
        if self.frames_at is None:
            self.frames_at = now
        level = self.frames_level + (now - self.frames_at) * FRAMES_PER_SECOND
        self.frames_level, self.frames_at = min(FRAMES_BURST, level) - 1, now
        return self.frames_level < 0

    def cut_off(self) -> None:
        """Close with the policy code and shut the connection for writing. What the client
        still sends is read and dropped unparsed (dataReceived) until it closes or autobahn's
        close handshake times out (1 s): a socket shut with frames unread would be reset,
        and a reset loses the close frame on its way, so the page would reconnect."""
        self.flooded = True
        self.sendClose(code=POLICY_VIOLATION)
        self.transport.loseWriteConnection()  # the close frame is flushed, then a FIN

    def dataReceived(self, data):
        if self.flooded:
            return
        super().dataReceived(data)

    handshakes = None  # (per address, per phone), made at the first handshake

    def onConnect(self, request):
        cls = GuardedWebSocket
        if cls.handshakes is None:
            cls.handshakes = handshake_buckets()
        per_address, per_phone = cls.handshakes
        address = self.client_address(request)
        phone = hashlib.sha256(request.headers.get("cookie", "").encode()).hexdigest()
        if not per_address.take(address) or not per_phone.take(f"{address} {phone}"):
            raise ConnectionDeny(429, "Too many handshakes")
        return super().onConnect(request)

    def client_address(self, request) -> str:
        """The client's address as daphne will take it: the proxy's X-Forwarded-For when
        the server reads proxy headers (the left-most address), else the peer's."""
        header = self.factory.server_class.proxy_forwarded_address_header
        forwarded = request.headers.get(header.lower()) if header else None
        if forwarded:
            return forwarded.split(",")[0].strip()
        return str(getattr(self.transport.getPeer(), "host", ""))

    def onMessageFrameBegin(self, length):
        super().onMessageFrameBegin(length)
        # known from the frame's header, before its payload is read
        if not self.failedByMe and self.message_data_total_length > INCOMING_MAX:
            self._max_message_size_exceeded(
                self.message_data_total_length, INCOMING_MAX, "a client's message is too large"
            )

    def onMessage(self, payload, isBinary):
        if self.flooded:
            return
        if self.over_rate():
            self.cut_off()
            return
        super().onMessage(payload, isBinary)

    def onPing(self, payload):
        if self.flooded:
            return
        if self.over_rate():
            self.cut_off()
            return
        super().onPing(payload)


class GuardedServer(server.Server):
    """Daphne's server, its WebSocket factory building GuardedWebSocket."""

    @property
    def ws_factory(self):
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory):
        factory.protocol = GuardedWebSocket
        self._ws_factory = factory


class GuardedCommandLine(CommandLineInterface):
    server_class = GuardedServer


def daphne_arguments(argv=None) -> list[str]:
    """Daphne's command line for ours."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.serve", description="Serve the site behind a local proxy."
    )
    parser.add_argument("-p", "--port", type=int, required=True)
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("-v", "--verbosity", type=int, default=1, choices=range(4))
    parser.add_argument("application", nargs="?", default=APPLICATION, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return [
        *("--bind", args.bind, "--port", str(args.port), "--verbosity", str(args.verbosity)),
        "--proxy-headers",
        # no limit in autobahn, which would apply it to what is sent as well: the limit on
        # what a client sends is GuardedWebSocket's
        *("--websocket-max-message-size", "0", "--websocket-max-frame-size", "0"),
        args.application,
    ]


def main(argv=None) -> None:
    GuardedCommandLine().run(daphne_arguments(argv))


if __name__ == "__main__":
    main()
