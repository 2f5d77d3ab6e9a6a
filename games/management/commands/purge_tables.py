"""Delete abandoned tables, for cron: `manage.py purge_tables --days 30 [--dry-run]`.

Abandoned (games.services.abandoned): in the lobby, playing or closed, not archived, and
untouched for the given number of days — no action, no status change, no phone joining.
Finished games and archived sessions are kept.
"""

from django.core.management.base import BaseCommand, CommandError

from games.services import DEFAULT_PURGE_DAYS, MAX_PURGE_DAYS, abandoned, purge


class Command(BaseCommand):
    help = "Delete tables abandoned for at least --days days (lobby, playing or closed)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=DEFAULT_PURGE_DAYS)
        parser.add_argument(
            "--dry-run", action="store_true", help="list the tables without deleting them"
        )

    def handle(self, *args, days, dry_run, **options):
        if not 1 <= days <= MAX_PURGE_DAYS:
            raise CommandError(f"--days must be from 1 to {MAX_PURGE_DAYS} (got {days})")
        tables = abandoned(days).order_by("updated")
        if dry_run:
            rows = tables.values_list("code", "game", "mode", "status", "updated")
            for code, game, mode, status, updated in rows:
                self.stdout.write(f"  {code} {game} {mode} {status} {updated:%Y-%m-%d %H:%M}")
            self.stdout.write(f"{len(rows)} table(s) would be deleted (dry run).")
            return
        deleted = purge(tables)
        self.stdout.write(f"{deleted} table(s) deleted.")
