"""Build the C search core as the extension ``solver.engine._core``.

Every ``*.c`` file in ``solver/engine/csrc`` except the C-level tests (``test_*.c``)
is part of the extension; the core has no dependency beyond libc and Python.
"""
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("solver/engine/csrc")
sources = sorted(
    str(p) for p in CSRC.glob("*.c") if not p.name.startswith("test_")
)

setup(
    ext_modules=[
        Extension(
            "solver.engine._core",
            sources=sources,
            include_dirs=[str(CSRC)],
            extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-fvisibility=hidden"],
        )
    ]
)
