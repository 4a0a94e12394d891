"""SIGINT and SIGTERM during a command: they end the computation at its next step with what it computed, and
a write in progress is finished before the command exits.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

#: Exit status of a command ended by a signal after its files were written (128 + SIGINT, as shells report it)
SIGNALLED = 130


class CancelOnSignal:
    """Within the block, SIGINT (Ctrl-C) and SIGTERM call `cancel()` instead of killing the process.

    The computation then ends at its next step with what it computed, which the command writes. `cancel` may
    be changed within the block (a command's phases: ending the command while nothing is computed yet, then
    the run's cancel, then only noting the signal while the files are written). A second signal while the
    first is handled kills as usual.
    """

    SIGNALS = tuple(s for s in (getattr(signal, "SIGINT", None), getattr(signal, "SIGTERM", None)) if s is not None)

    def __init__(self, cancel):
        self.cancel, self.received, self._old = cancel, None, {}

    def _handler(self, signum, frame):
        if self.received is not None:  # asked twice: stop now
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        self.received = signal.Signals(signum).name
        if self.cancel is not None:
            self.cancel()

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._old[sig] = signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        return False


def end_unprepared(signal_name: str) -> None:
    """A signal while a run is prepared: nothing is computed and nothing written yet, so the command ends here.

    Raising instead would not do: the signal may land in a callback of numba's compiler, which drops it.
    """
    print(f"cancelled by {signal_name} while the run was prepared: nothing was computed", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(1)
