"""The banner of a moment (static/js/table.js, `headline`) says what the element marked
data-headline says, else the moment's h3, else the whole moment, without the words of the
rule links inside: no moment is special-cased by its name. The function runs in Node on a
small stand-in for the DOM (the few calls it makes); skipped where Node is missing."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")

# A tree of {"tag", "attrs", "classes", "children" | "text"} and the DOM calls `headline`
# makes on it: matches, querySelector(All) for the selectors it uses, cloneNode, remove,
# textContent.
FAKE_DOM = r"""
function make(spec, parent) {
  var el = { tag: spec.tag, attrs: spec.attrs || {}, classes: spec.classes || [],
             text: spec.text, parent: parent, children: [] };
  el.children = (spec.children || []).map(function (c) { return make(c, el); });
  el.matches = function (selectors) {
    return selectors.split(",").some(function (sel) {
      sel = sel.trim();
      var m;
      if ((m = /^\[([\w-]+)\]$/.exec(sel))) return m[1] in el.attrs;
      if ((m = /^\.([\w-]+)$/.exec(sel))) return el.classes.indexOf(m[1]) >= 0;
      if ((m = /^(\w+)\[(\w+)\*="([^"]+)"\]$/.exec(sel)))
        return el.tag === m[1] && (el.attrs[m[2]] || "").indexOf(m[3]) >= 0;
      if (/^\w+$/.test(sel)) return el.tag === sel;
      throw new Error("selector not faked: " + sel);
    });
  };
  el.querySelectorAll = function (sel) {
    var out = [];
    (function walk(node) {
      node.children.forEach(function (c) { if (c.matches(sel)) out.push(c); walk(c); });
    })(el);
    return out;
  };
  el.querySelector = function (sel) { return el.querySelectorAll(sel)[0] || null; };
  el.cloneNode = function () { return make(toSpec(el), null); };
  el.remove = function () {
    if (el.parent) el.parent.children.splice(el.parent.children.indexOf(el), 1);
  };
  Object.defineProperty(el, "textContent", { get: function () {
    return el.text !== undefined ? el.text :
      el.children.map(function (c) { return c.textContent; }).join("");
  } });
  return el;
}
function toSpec(el) {
  return { tag: el.tag, attrs: el.attrs, classes: el.classes, text: el.text,
           children: el.children.map(toSpec) };
}
"""


def headline_source() -> str:
    script = (ROOT / "static/js/table.js").read_text()
    match = re.search(r"\n(  function headline\(el\) \{.*?\n  \})\n", script, re.S)
    assert match, "table.js has no function headline(el)"
    return match.group(1)


def el(tag, *children, text=None, classes=(), **attrs) -> dict:
    attrs = {key.replace("_", "-"): value for key, value in attrs.items()}
    return {"tag": tag, "attrs": attrs, "classes": list(classes), "children": list(children)} | (
        {"text": text} if text is not None else {}
    )


def t(text: str) -> dict:
    return {"tag": "#text", "text": text}


RULE = el("a", t("T-C"), classes=["rule-link"], href="/es/rules/x/#T-C")
CASES = [
    # the element marked data-headline inside the moment, whatever the moment's name
    (
        el(
            "div",
            el("h3", t("Not this")),
            el("p", el("strong", t("Ana won the trick"), data_headline=""), t(" with 7.")),
            data_moment="trick-3",
        ),
        "Ana won the trick",
    ),
    # the moment itself may be its headline
    (el("strong", t("Your turn."), data_moment="turn", data_headline=""), "Your turn."),
    # else its h3
    (el("section", el("h3", t("Hand scored")), el("p", t("…"))), "Hand scored"),
    # else the whole moment, its words joined by single spaces
    (el("p", t("🏆 Ana  wins\n the game."), data_moment="winner"), "🏆 Ana wins the game."),
    # the words of a rule link inside never reach the banner, by class or by address
    (
        el("p", el("span", t("Refused: "), RULE, t(" rule."), data_headline=""), t(" Detail")),
        "Refused: rule.",
    ),
    (
        el(
            "h3",
            t("Row 12 "),
            el("a", t("T-OBSOLETE-12"), href="/fr/rules/g/#T-OBSOLETE-12"),
            t(" gone"),
        ),
        "Row 12 gone",
    ),
    (el("div", el("h3", t("Closed"), data_headline=""), data_moment="closed"), "Closed"),
]


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_banner_reads_the_headline_and_leaves_rule_links_out():
    trees = [tree for tree, _wanted in CASES]
    program = (
        FAKE_DOM
        + headline_source()
        + f"\nvar trees = {json.dumps(trees)};\n"
        + "var out = trees.map(function (t) { return headline(make(t, null)); });\n"
        + "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [wanted for _tree, wanted in CASES]


def test_no_moment_is_told_apart_by_its_name():
    script = (ROOT / "static/js/table.js").read_text()
    assert 'indexOf("trick")' not in script
    assert "[data-headline]" in headline_source()
