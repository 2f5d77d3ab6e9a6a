"""The reads of every move and every live update, as SQL composed once.

A move reads the table's row (locked, with whether its action id was already seen), the
table's seats and, once applied, the newest rows of its log (games.services.apply_action);
a phone's render needs the same (games.render.snapshot). Composed by the ORM for each
call, these three queries cost more CPU to build than to run (three times as much in
all: bench/RESULTS.md, 2026-11-22). Here the SQL is written once per database; rows still come back
through `Model.objects.raw`, so fields convert as the ORM's do.
"""

import datetime
import functools

from django.db import connection

from games.models import Action, Seat, Table


@functools.cache
def _statements(vendor: str, for_update: bool) -> dict[str, str]:
    q = connection.ops.quote_name
    table, seat, action = (q(m._meta.db_table) for m in (Table, Seat, Action))
    seat_table = q(Seat._meta.get_field("table").column)
    action_table = q(Action._meta.get_field("table").column)
    lock = " FOR UPDATE" if for_update else ""
    return {
        "table": f"SELECT * FROM {table} WHERE {q('id')} = %s",
        "locked": (
            f"SELECT t.*, EXISTS(SELECT 1 FROM {action} a WHERE a.{action_table} = t.{q('id')}"
            f" AND a.{q('client_action_id')} = %s) AS seen"
            f" FROM {table} t WHERE t.{q('id')} = %s{lock}"
        ),
        "seats": f"SELECT * FROM {seat} WHERE {seat_table} = %s ORDER BY {q('index')}",
        "log": (
            f"SELECT {q('version')}, {q('seat')}, {q('action')}, {q('acted_by')}, {q('created')}"
            f" FROM {action}"
            f" WHERE {action_table} = %s ORDER BY {q('version')} DESC LIMIT %s"
        ),
    }


def _sql(name: str) -> str:
    return _statements(connection.vendor, connection.features.has_select_for_update)[name]


def table(table_id: int) -> Table | None:
    return next(iter(Table.objects.raw(_sql("table"), [table_id])), None)


def locked_table(table_id: int, client_action_id: str) -> Table | None:
    """The table's row, locked until the transaction ends (where the database can), with
    `seen`: whether an action with this client action id is already in its log."""
    row = next(iter(Table.objects.raw(_sql("locked"), [client_action_id, table_id])), None)
    if row is not None:
        row.seen = bool(row.seen)  # SQLite answers 0 or 1
    return row


def seats(table_id: int) -> list[Seat]:
    return list(Seat.objects.raw(_sql("seats"), [table_id]))


def log(table_id: int, length: int) -> list[dict]:
    """The newest `length` rows of the table's log, newest first; `created` in UTC."""
    field = Action._meta.get_field("action")
    with connection.cursor() as cursor:
        cursor.execute(_sql("log"), [table_id, length])
        return [
            {
                "version": version,
                "seat": seat,
                "action": field.from_db_value(action, None, connection),
                "acted_by": acted_by,
                "created": _utc(created),
            }
            for version, seat, action, acted_by, created in cursor.fetchall()
        ]


def _utc(value) -> datetime.datetime | None:
    """A time as the database answers it (SQLite: naive, in UTC; PostgreSQL: aware), in
    UTC."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    if not isinstance(value, datetime.datetime):
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=datetime.UTC)
    return value.astimezone(datetime.UTC)
