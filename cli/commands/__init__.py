"""Sub-commands of ``sm358``; each module defines ``add_parser(subparsers)`` and ``run(args)``."""
