from django.core.management.base import BaseCommand

from notify import digest


class Command(BaseCommand):
    help = (
        "E-mail each player who asked for it the games where it is their turn and those "
        "that ended in the last day (run it once a day from cron)."
    )

    def handle(self, *args, **options):
        sent = digest.send_all()
        self.stdout.write(f"{sent} digest(s) sent")
