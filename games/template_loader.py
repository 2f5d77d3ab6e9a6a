"""The project's templates, read without their indentation: it is for people reading the
files, and a phone would otherwise be sent it with every update (a tenth of a region's
bytes). Done once, when a template is loaded, so that no render pays for it.

Safe because no template of ours holds a <pre> or <textarea> whose content it would
change, and every {% blocktranslate %} is `trimmed`: its message is the same with or
without the indentation (tests/web/test_catalogues.py extracts from the files as written).
"""

from django.template.loaders import filesystem


class Loader(filesystem.Loader):
    def get_contents(self, origin):
        return "\n".join(line.lstrip() for line in super().get_contents(origin).split("\n"))
