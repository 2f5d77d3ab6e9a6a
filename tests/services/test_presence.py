"""Who is at the table across two server processes (issue 19): a phone's arrival, its page
hidden, its going and its return reach the phones of the other process at once, through
Redis; the phones of a process that dies without a word are seen gone once their notes
go stale (PRESENCE_SECONDS in tests/services/settings.py: a note a second, stale after 4)."""

import re

import pytest

from tests.services.conftest import close_all, seat_phones

pytestmark = pytest.mark.services


def said(phone, name: str) -> str:
    section = re.search(r'<section class="presence".*?</section>', phone.page.html, re.S)
    if section is None:
        return ""
    match = re.search(rf'aria-hidden="true">(.)</span> {name}: ([^<]+)</span>', section.group(0))
    return match.group(1) + " " + match.group(2) if match else ""


async def until(phone, name, wanted, timeout=5):
    await phone.wait_until(lambda: said(phone, name) == wanted, timeout, f"{name}: {wanted}")


async def test_presence_crosses_processes_and_a_dead_process_phones_go(cluster):
    a, b = cluster.servers
    table = cluster.new_table(server=a)
    phones = await seat_phones(table, [a, a, b, b])
    ana, boris, chloe, dmitri = phones
    try:
        for name in ("Ana", "Boris", "Chloé", "Dmitri"):
            await until(ana, name, "● en línea")
        await chloe.send({"kind": "presence", "state": "away"})  # on B
        await until(ana, "Chloé", "◐ ausente")  # on A
        await chloe.send({"kind": "presence", "state": "here"})
        await until(boris, "Chloé", "● en línea")
        await dmitri.close()
        await until(ana, "Dmitri", "○ sin conexión")
        # B dies: Chloé's phone does not come back; her seat is gone once its note is stale
        chloe.auto_reconnect = False
        b.kill()
        await until(ana, "Chloé", "○ sin conexión", timeout=10)
        assert said(ana, "Boris") == "● en línea"
        # Chloé comes back through A: at once
        await chloe.connect(a)
        await until(ana, "Chloé", "● en línea")
        await until(chloe, "Ana", "● en línea")
    finally:
        await close_all(phones)
