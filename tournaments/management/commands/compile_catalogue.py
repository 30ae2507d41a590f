"""``manage.py compile_catalogue [--check]``: the translation catalogues compiled in pure
Python (config.catalogue), the same step ``make install`` runs; no gettext needed."""

from django.core.management.base import BaseCommand, CommandError

from config import catalogue


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/django.po to .mo with polib (no gettext needed)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="Write nothing; fail when a .mo is stale."
        )

    def handle(self, *args, check: bool = False, **options):
        stale = catalogue.compile_all(check=check)
        for path in stale:
            self.stdout.write(f"{'out of date' if check else 'compiled'}: {path}")
        if check and stale:
            raise CommandError("Run `manage.py compile_catalogue` (or `make install`).")
