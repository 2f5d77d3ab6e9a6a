"""The production static files storage (companion.storage): collectstatic minifies the
style sheets and scripts before hashing them, and keeps every rule and reference."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

PRODUCTION = {"BACKEND": "companion.storage.MinifiedManifestStaticFilesStorage"}
COMMENT = re.compile(r"/\*.*?\*/", re.S)


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    with override_settings(
        STATIC_ROOT=root, STORAGES={**settings.STORAGES, "staticfiles": PRODUCTION}
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
    names = json.loads((root / "staticfiles.json").read_text())["paths"]
    return root, names


def sources(suffix):
    found = {}
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            if path.endswith(suffix):
                found.setdefault(path, storage.path(path))
    return found


def test_the_production_setting_names_this_storage():
    # the settings module picks it when DEBUG is off; the test settings run with DEBUG on
    text = (settings.BASE_DIR / "companion" / "settings.py").read_text()
    assert '"companion.storage.MinifiedManifestStaticFilesStorage"' in text


def test_style_sheets_keep_every_rule_and_lose_their_comments(collected):
    root, names = collected
    sheets = sources(".css")
    assert {"css/site.css", "css/triggs.css", "css/triumfdrez.css"} <= set(sheets)
    for name, path in sheets.items():
        source = Path(path).read_text(encoding="utf-8")
        shipped = (root / names[name]).read_text()
        assert "/*" not in shipped and "\n  " not in shipped, name
        assert len(shipped) < len(source) or "/*" not in source, name
        # every rule and declaration kept: the same braces and the same declarations
        bare = COMMENT.sub("", source)
        assert shipped.count("{") == bare.count("{"), name
        assert shipped.count(";") + shipped.count("}") >= bare.count(";"), name
        words = set(re.findall(r"--[\w-]+|\.[a-z][\w-]+|#[a-z][\w-]+", bare))
        assert words <= set(re.findall(r"--[\w-]+|\.[a-z][\w-]+|#[a-z][\w-]+", shipped)), name


def test_scripts_keep_their_statements_and_lose_their_comments(collected):
    root, names = collected
    scripts = sources(".js")
    assert "js/table.js" in scripts
    for name, path in scripts.items():
        source = Path(path).read_text(encoding="utf-8")
        shipped = (root / names[name]).read_text()
        assert not re.search(r"(?m)^\s*//", shipped), name
        assert len(shipped) <= len(source), name
        # every name the script defines or calls is still there
        idents = set(
            re.findall(
                r"\b[A-Za-z_$][\w$]{3,}\b", COMMENT.sub("", re.sub(r"(?m)(^|\s)//.*$", "", source))
            )
        )
        assert idents <= set(re.findall(r"\b[A-Za-z_$][\w$]{3,}\b", shipped)), name
    table = (root / names["js/table.js"]).read_text()
    assert len(table) < 0.75 * len(Path(scripts["js/table.js"]).read_text(encoding="utf-8"))


def test_hashed_references_inside_style_sheets_resolve(collected):
    root, names = collected
    for name, hashed in names.items():
        if not name.endswith(".css"):
            continue
        for ref in re.findall(r"url\(['\"]?([^)'\"]+)", (root / hashed).read_text()):
            if ref.startswith(("data:", "#", "http")):
                continue
            assert (
                (root / hashed).parent.joinpath(ref.split("?")[0].split("#")[0]).resolve().exists()
            ), (name, ref)
