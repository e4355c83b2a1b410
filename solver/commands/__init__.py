"""The subcommands of ``solver``, one module each.

Each module exposes ``NAME``, ``HELP`` (one line for ``solver --help``), ``DESCRIPTION`` (the
text of ``solver NAME --help``: behaviour and exit statuses), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit status). :mod:`solver.cli` builds one subparser per module
listed here, in this order; a new subcommand is a new module appended to ``COMMANDS``.
Options may come anywhere among a command's operands (each subparser parses with
``parse_intermixed_args``), so a command takes no ``argparse.REMAINDER`` operand.
"""
from . import bench, check, deal, games, report, solve, survey

COMMANDS = [games, deal, check, solve, bench, survey, report]
