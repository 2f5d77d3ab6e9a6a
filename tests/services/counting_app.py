"""A WebSocket application for tests/services/test_flood_guard.py: it accepts every
socket and answers each text frame with the number of frames that socket has delivered,
so a client can tell how many of its frames reached the application; "big <n>" is
answered with n bytes instead (what a table's first screen is to a phone)."""


async def application(scope, receive, send):
    if scope["type"] != "websocket":
        return
    count = 0
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            count += 1
            text = message.get("text") or ""
            if text.startswith("big "):
                await send({"type": "websocket.send", "text": "x" * int(text[4:])})
            else:
                await send({"type": "websocket.send", "text": str(count)})
        else:
            return
