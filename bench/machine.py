"""One line naming the machine a bench ran on.

Why: the same build runs up to three times faster on one virtual machine than on another,
so a timing means little without the CPU it was measured on (docs/engine.md, "How to
measure").
"""

from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    """The CPU's model name with its family and model numbers, as Linux reports them
    ('unknown CPU' elsewhere: describe() names the architecture anyway)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                key, sep, value = line.partition(":")
                if not sep:
                    break  # the first processor's block ends at a blank line
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    name = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']} model {fields['model']})"
    return name


def describe() -> str:
    """E.g. 'AMD EPYC (family 25 model 1), 2 CPUs, x86_64, CPython 3.11.7'."""
    return (
        f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )
