"""Sphinx configuration of the wargrid documentation site.

Built by ``docs/build.sh`` with warnings as errors. The API pages are made
from the docstrings (numpy style, read by ``sphinx.ext.napoleon``); the
Markdown pages (glossary, changelog, benchmarks) are read by MyST.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import wargrid  # noqa: E402

project = "wargrid"
copyright = "the wargrid authors"
version = release = wargrid.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "gallery/_pictures/README.md"]

# numpy-style docstrings only
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_param = True

# Type hints go into the parameter descriptions instead of long signatures.
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
autosummary_generate = False

# References to names the site does not document (numpy types, private
# helpers named in prose) are left as plain text instead of warnings.
nitpicky = False

# The glossary and the changelog use GitHub-style Markdown tables; the
# benchmarks page links to files of the repository.
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"wargrid {release}"
html_static_path: list[str] = []

# -- gallery: the pictures of ``wargrid demo`` ---------------------------------
# The demo runs once (about 30 s with warm kernels) into docs/_gallery; a
# later build reuses its pictures (delete the folder to make them again).
# Its index.html has one <h2> title, one caption and the picture files per
# step; docs/gallery.md includes the page made from them here.

import html  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402

GALLERY = Path(__file__).resolve().parent / "_gallery"
exclude_patterns.append("_gallery")


def _write_gallery() -> None:
    index = GALLERY / "index.html"
    if not index.exists():
        subprocess.run([sys.executable, "-m", "wargrid", "demo", "--out", str(GALLERY), "--quiet"],
                       check=True, env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})
    text = index.read_text(encoding="utf-8")
    steps = re.findall(r'<h2>(.*?)</h2><p>(.*?)</p><p><a href="([^"]+\.svg)">', text)
    if not steps:
        raise RuntimeError(f"no pictures found in {index}")
    out = []
    for title, caption, picture in steps:
        out += [f"## {html.unescape(title)}", "", html.unescape(caption).replace("*", r"\*"), "",
                f"![{html.unescape(title)}](_gallery/{picture})", ""]
    (GALLERY / "items.md").write_text("\n".join(out), encoding="utf-8")


_write_gallery()


# -- "Import your maps": one picture per format -------------------------------
# docs/examples/import_maps.py writes a small map of each format, loaded with
# no options, as SVG into docs/_gallery/import (delete it to draw them again).


def _write_import_pictures() -> None:
    folder = GALLERY / "import"
    page = (Path(__file__).resolve().parent / "import.md").read_text(encoding="utf-8")
    wanted = re.findall(r"_gallery/import/([\w-]+\.svg)", page)
    if not all((folder / name).exists() for name in wanted):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve().parent / "examples" / "import_maps.py")], check=True,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src"), "WARGRID_PICTURES": str(folder)})


_write_import_pictures()
