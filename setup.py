"""Build the C search core as the extension ``solver.engine._core``.

Every ``*.c`` file in ``solver/engine/csrc`` except the C-level tests (``test_*.c``)
is part of the extension; the core has no dependency beyond libc and Python.

The core is compiled on the machine it is installed on, so on x86-64 it uses the
POPCNT instruction when this machine's CPU has it (bit counts are about 5% of the
search's instructions; a portable count is used otherwise). ``SM_PORTABLE=1`` builds
without it, for a wheel meant for other machines.
"""
import os
import platform
import re
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("solver/engine/csrc")
sources = sorted(
    str(p) for p in CSRC.glob("*.c") if not p.name.startswith("test_")
)


def host_cpu_flags() -> list[str]:
    """``-mpopcnt`` when building on an x86-64 Linux CPU that reports popcnt."""
    if os.environ.get("SM_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    return ["-mpopcnt"] if re.search(r"^flags\s*:.*\bpopcnt\b", cpuinfo, re.M) else []


setup(
    ext_modules=[
        Extension(
            "solver.engine._core",
            sources=sources,
            include_dirs=[str(CSRC)],
            extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-fvisibility=hidden",
                                *host_cpu_flags()],
        )
    ]
)
