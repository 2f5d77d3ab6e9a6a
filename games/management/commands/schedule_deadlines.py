"""Schedule what every table waiting or in play waits for, on the task queue
(games.deadlines): `manage.py schedule_deadlines`. Each change of a table schedules its
own; this is for tables whose jobs are not in the queue (a deploy from a version that kept
its deadlines elsewhere, a database restored from a backup). Run twice, it schedules
nothing twice: a waiting job keeps its place."""

from django.core.management.base import BaseCommand

from games import deadlines
from games.models import Table


class Command(BaseCommand):
    help = "Schedule the deadlines of every table in the lobby or in play on the task queue."

    def add_arguments(self, parser):
        parser.add_argument("--table", help="only the table with this code")

    def handle(self, *args, table=None, **options):
        tables = Table.objects.filter(status__in=[Table.Status.LOBBY, Table.Status.PLAYING])
        if table:
            tables = tables.filter(code=table.upper())
        count = 0
        for table_id in tables.values_list("pk", flat=True).iterator():
            deadlines.schedule(table_id)
            count += 1
        self.stdout.write(f"{count} table(s) scheduled.")
