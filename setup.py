"""Build hooks that pyproject.toml cannot express: the cffi engine, the mypyc
modules and data files."""

import json
import os
import runpy
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
COMPILED = runpy.run_path(str(ROOT / "bgsim" / "compiled.py"))


class BuildWithData(build_py):
    """Copy ``data/`` into the wheel as ``bgsim/_data`` (a checkout reads ``../data``)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "bgsim" / "_data"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(ROOT / "data", target, ignore=shutil.ignore_patterns("__pycache__"))


class BuildExtWithHashes(build_ext):
    """Build the extensions, then record the hash of every source mypyc
    compiled, which ``bgsim.compiled.guard`` checks on import."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        inplace = self.inplace or self.editable_mode
        if inplace:
            self._remove_stale_extensions()
        if not MYPYC:
            return
        target = ROOT if inplace else Path(self.build_lib)
        hashes = COMPILED["source_hashes"](ROOT)
        path = target / "bgsim" / COMPILED["HASHES"]
        path.write_text(json.dumps(hashes, indent=1) + "\n", encoding="utf-8")

    def _remove_stale_extensions(self) -> None:
        """In a checkout, drop extensions an earlier build left for modules no
        longer compiled (Python would import them ahead of their sources)."""
        keep = {self.get_ext_filename(e.name) for e in self.extensions}
        for package in ("bgsim", "bgsim/_core", "bgsim/envs", "agents", "."):
            for path in (ROOT / package).glob("*.so"):
                if path.relative_to(ROOT).as_posix() not in keep:
                    path.unlink()


def mypyc_modules() -> list:
    """The modules of ``bgsim.compiled.MODULES`` as mypyc extensions, unless
    ``BGSIM_PURE=1`` asks for a pure-Python install."""
    if os.environ.get("BGSIM_PURE", "") not in ("", "0"):
        return []
    from mypyc.build import mypycify

    paths = [str(COMPILED["source_path"](m, Path())) for m in COMPILED["MODULES"]]
    return mypycify(paths, opt_level="3")


MYPYC = mypyc_modules()

setup(
    cmdclass={"build_py": BuildWithData, "build_ext": BuildExtWithHashes},
    cffi_modules=["combat_c/build.py:ffibuilder"],
    ext_modules=MYPYC,
)
