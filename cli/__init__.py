"""The ``sm358`` command line: one module per sub-command in ``cli.commands``."""
