"""The ``solver`` command line: one argparse subparser per module in :mod:`solver.commands`.

Every user error ends the same way: one line ``solver: error: ...`` on stderr and exit
status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from .commands import COMMANDS

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141          # what a shell reports for a process killed by SIGPIPE

EPILOG = """\
exit status: 0 success; 1 a negative answer (see each command); 2 bad input or usage
(one line 'solver: error: ...' on stderr); 130 interrupted. Run 'solver COMMAND --help'
for the details of a command."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse with usage errors as one line on stderr (exit status 2)."""

    def error(self, message: str):
        message = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> "tuple[ArgumentParser, dict]":
    """The top-level parser, and the subparser of each command by name."""
    parser = ArgumentParser(
        prog="solver",
        description="Exhaustive solver for Russian patience games: Glencoe, Intrigue, Banner, "
                    "Devil's Solitaire, Forget-me-not, Clover and PySol's rule profiles.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"solver {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    commands = {}
    for module in COMMANDS:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.DESCRIPTION,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(command)
        command.set_defaults(run=module.run, command=module.NAME)
        commands[module.NAME] = command
    return parser, commands


def parse_args(argv: "list[str]") -> argparse.Namespace:
    """Parse the command line. A command's options may come anywhere among its operands
    (``solver check intrigue 3 --show moves.txt``), so each command parses intermixed."""
    parser, commands = build_parser()
    if argv and argv[0] in commands:
        return commands[argv[0]].parse_intermixed_args(argv[1:])
    args = parser.parse_args(argv)      # --help, --version, or a usage error
    if args.command is None:
        parser.error("no command given; choose one of " + ", ".join(commands))
    return args


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    message = " ".join(str(message).split())
    print(f"solver: error: {message}", file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: "list[str] | None" = None) -> int:
    """Run the command line; returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        try:
            args = parse_args(list(argv))
        except SystemExit as exit_:          # --help, --version and usage errors
            return exit_.code if isinstance(exit_.code, int) else 0
        status = args.run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("solver: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError as exc:
        return _fail(str(exc))
    except OSError as exc:
        if exc.filename is not None:
            return _fail(f"cannot read {exc.filename!r}: {exc.strerror or exc}")
        return _fail(exc.strerror or str(exc))


if __name__ == "__main__":
    raise SystemExit(main())
