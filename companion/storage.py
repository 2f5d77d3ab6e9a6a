"""The production static files storage: style sheets and scripts minified before they are
hashed and compressed, so a phone's first load carries no comments or indentation.

rcssmin and rjsmin only drop what the languages ignore (comments, whitespace); the
names, selectors and statements stay as written. `collectstatic` copies the source files
here first; they are minified in place and then hashed from these copies, not from the
source folders, by WhiteNoise's manifest storage.
"""

from pathlib import PurePath

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFY = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def post_process(self, paths, dry_run=False, **options):
        if not dry_run:
            for path in paths:
                minify = MINIFY.get(PurePath(path).suffix)
                if minify:
                    with self.open(path) as source:
                        text = source.read().decode()
                    self.delete(path)
                    self.save(path, ContentFile(minify(text).encode()))
            paths = {path: (self, path) for path in paths}
        yield from super().post_process(paths, dry_run, **options)
