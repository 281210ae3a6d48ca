"""Build the C search core as the extension ``solver.engine._core``.

Every ``*.c`` file in ``solver/engine/csrc`` except the C-level tests (``test_*.c``)
is part of the extension; the core has no dependency beyond libc and Python.

The core is compiled on the machine it is installed on, so on x86-64 it uses the
instruction sets this machine's CPU reports: POPCNT (bit counts are about 5% of the
search's instructions; a portable count is used otherwise) and AVX, AVX2, BMI1/2, LZCNT,
FMA, MOVBE and F16C (HOST_ISA_OPTIONS; VEX-encoded code throughout: tables 0.88 of the time
on an Intel Xeon VM, paired in one process). ``SM_PORTABLE=1`` builds without
them, for a wheel meant for other machines; the core then picks its AVX2/BMI2 paths at run
time.

The command line lives in the repository's ``cli/`` folder and installs as
``solver.cli``, so the wheel adds one top-level name only, ``solver``; from a source
checkout it is also importable as ``cli`` (the tests and ``python -m cli.main`` use that).
"""

import os
import platform
import re
from pathlib import Path

from setuptools import Extension, find_packages, setup

CSRC = Path("solver/engine/csrc")
sources = sorted(str(p) for p in CSRC.glob("*.c") if not p.name.startswith("test_"))


# /proc/cpuinfo flag -> the compiler option that lets the compiler use it everywhere
HOST_ISA_OPTIONS = {
    "popcnt": "-mpopcnt",
    "avx": "-mavx",
    "avx2": "-mavx2",
    "bmi1": "-mbmi",
    "bmi2": "-mbmi2",
    "abm": "-mlzcnt",
    "fma": "-mfma",
    "movbe": "-mmovbe",
    "f16c": "-mf16c",
}


def host_cpu_flags() -> list[str]:
    """The options of HOST_ISA_OPTIONS whose instruction set this x86-64 Linux CPU reports.

    gcc never emits PDEP/PEXT on its own (slow on AMD Zen 1 and 2), so -mbmi2 is safe
    there; the core's own uses of them are chosen at run time."""
    if os.environ.get("SM_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    line = re.search(r"^flags\s*:(.*)$", cpuinfo, re.M)
    flags = set(line.group(1).split()) if line else set()
    return [opt for flag, opt in HOST_ISA_OPTIONS.items() if flag in flags]


setup(
    packages=[*find_packages(include=["solver", "solver.*"]), "solver.cli", "solver.cli.commands"],
    package_dir={"solver.cli": "cli"},
    ext_modules=[
        Extension(
            "solver.engine._core",
            sources=sources,
            include_dirs=[str(CSRC)],
            extra_compile_args=[
                "-std=c11",
                "-O3",
                "-Wall",
                "-Wextra",
                "-fvisibility=hidden",
                *host_cpu_flags(),
            ],
        )
    ],
)
