"""Build hooks that pyproject.toml cannot express: the cffi engine and data files."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


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


setup(
    cmdclass={"build_py": BuildWithData},
    cffi_modules=["combat_c/build.py:ffibuilder"],
)
