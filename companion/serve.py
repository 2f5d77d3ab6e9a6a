"""The production server: daphne, with every WebSocket's incoming frames counted as they
arrive, before anything is queued for the application.

    python -m companion.serve [daphne's options] companion.asgi:application

Daphne parses each frame and queues it for the application, without limit; the consumer's
own rate limit (games.consumers) runs only when it takes the frame from that queue. A
client sending tiny frames as fast as it can (tens of thousands a second) keeps the event
loop busy parsing and queueing them, and every table of the process waits: the consumer
would close the socket, but it reaches the frames that should close it seconds later.
Here a socket that sends more than FRAMES_BURST frames at once, or more than
FRAMES_PER_SECOND over time (pings included), is closed (4008, the consumers' "policy
violation": the page does not reconnect) and its TCP connection let go at once: the
frames already read are dropped unparsed, and nothing more is read from it.

The limits are far above what the consumer accepts from a phone (a burst of 10, then 4 a
second), so a phone is never cut off here before the consumer has told it to slow down.
"""

import time

from daphne import server, ws_protocol
from daphne.cli import CommandLineInterface

FRAMES_BURST = 60
FRAMES_PER_SECOND = 8.0
POLICY_VIOLATION = 4008


class GuardedWebSocket(ws_protocol.WebSocketProtocol):
    """Daphne's WebSocket protocol with a token bucket on the frames a client sends."""

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
        """Close with the policy code and drop the connection without reading on."""
        self.flooded = True
        self.sendClose(code=POLICY_VIOLATION)
        self.dropConnection(abort=False)  # the close frame is flushed, then the socket shut

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


if __name__ == "__main__":
    GuardedCommandLine.entrypoint()
