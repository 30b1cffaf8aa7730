"""The `netcfg` command's entry point: Ctrl-C ends any command with one line and exit 130.

Python's own KeyboardInterrupt cannot give that everywhere: a signal that lands while a
module is being imported prints a traceback, and one that lands inside code run by `exec` of a
string (every dataclass's generated `__init__`) makes the interpreter end by re-raising SIGINT
on itself, whatever exit code the program chose. SIGINT is therefore turned into `Interrupted`
before anything heavy is imported; it is a BaseException (code that catches Exception does not
swallow it) and not a KeyboardInterrupt (so the interpreter leaves the exit code alone).
Commands that handle Ctrl-C themselves (`push` reverts what it started) install their own
handler while they run.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType


class Interrupted(BaseException):
    """The user pressed Ctrl-C (SIGINT)."""


_pressed = False


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    global _pressed
    _pressed = True
    raise Interrupted()


def pressed() -> bool:
    """Ctrl-C reached this command. A library may turn the `Interrupted` it raised into an
    error of its own (pydantic-core reports an exception inside its schema build as a
    SchemaError, which a Ctrl-C at start-up lands in): the command still ends as interrupted,
    not as an internal error."""
    return _pressed


def main() -> None:
    signal.signal(signal.SIGINT, _raise_interrupted)
    try:
        from netcfg.cli import main as cli

        cli()
    except Interrupted:
        sys.stderr.write("netcfg: interrupted\n")
        sys.exit(130)
    except Exception:
        if not _pressed:
            raise
        sys.stderr.write("netcfg: interrupted\n")
        sys.exit(130)
    finally:
        # the command is over: a Ctrl-C now has nothing to stop, and Python's shutdown would
        # otherwise restore the default action and die of it (exit -2, output already complete)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # and what it built is left out of the garbage collection Python's shutdown runs:
        # walking a large fabric's millions of objects once more, to free memory the process
        # is about to give back whole, took 0.25 s at the end of a gpu32768 command. Files
        # are closed where they are written, and stdout and stderr are flushed by the
        # shutdown itself.
        import gc

        gc.freeze()
