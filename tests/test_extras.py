"""The core runs without the extras; a missing extra is a clear error that names the install command."""

from __future__ import annotations

import subprocess
import sys
import textwrap

BLOCK = """
import sys
for name in ("PIL", "starlette", "uvicorn"):
    sys.modules[name] = None  # as if the extra were not installed: importing it raises ImportError
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


def test_core_works_without_extras_and_missing_ones_say_what_to_install():
    r = _run(
        """
        import wargrid
        import wargrid.render
        from wargrid._extras import MissingExtraError
        m = wargrid.generate(12, 8, kind="hex", seed=1)
        assert wargrid.Map(wargrid.HexGrid(12, 8)).path((0, 0), (11, 7)).cost == 26.0  # 13 steps of 2
        svg = wargrid.render.render_svg(m)
        assert "<svg" in svg[:200]
        for name in ("PIL", "starlette", "uvicorn"):
            assert sys.modules[name] is None  # the core never imported them
        try:
            from wargrid.render.png import render_png
            render_png(m)
        except MissingExtraError as e:
            assert 'pip install "wargrid[png]"' in str(e), e
            assert isinstance(e, ImportError) and isinstance(e, wargrid.WargridError)
        else:
            raise AssertionError("render_png worked without Pillow")
        import wargrid.serve
        try:
            wargrid.serve.create_app()
        except MissingExtraError as e:
            assert 'pip install "wargrid[serve]"' in str(e), e
        else:
            raise AssertionError("the playground started without Starlette")
        print("ok")
        """
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def _cli(args: list[str], block: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    code = f"import sys\nfor name in {block!r}:\n    sys.modules[name] = None\n" \
           f"from wargrid.cli import main\nsys.exit(main({args!r}))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_serve_without_its_extra_says_what_to_install_before_any_address():
    r = _cli(["serve", "--port", "0"], ("starlette", "uvicorn"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "http://" not in r.stdout and "Traceback" not in r.stderr
    assert r.stderr.strip() == ('wargrid serve: error: The playground (wargrid serve) need the optional package '
                                "'starlette': pip install \"wargrid[serve]\"")


def test_every_verb_that_needs_an_extra_exits_2_naming_it(tmp_path):
    import wargrid

    wargrid.save_map(wargrid.generate(6, 4, seed=1), tmp_path / "m.json")
    png = _cli(["render", str(tmp_path / "m.json"), str(tmp_path / "a.png")], ("PIL",))
    assert png.returncode == 2 and 'pip install "wargrid[png]"' in png.stderr and "Traceback" not in png.stderr, png
    assert not (tmp_path / "a.png").exists()
    survey = _cli(["survey", "--maps", "2", "--size", "8x6", "--out", str(tmp_path / "s.parquet")], ("pyarrow", "distributed"))
    assert survey.returncode == 2 and 'pip install "wargrid[survey]"' in survey.stderr, survey
    assert "Traceback" not in survey.stderr
