"""Entry script of the frozen application: the same `geardyn` command as the installed one."""

import multiprocessing
import os
import sys

from app.launch import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a spawned study worker is this program again, told so by its arguments
    # The shipped kernels (kernels/ in this folder) are compiled for a generic CPU of this architecture, so
    # that they load on any machine (numba keys compiled code by the CPU it targets; it loads only when a run
    # compiles, after this line).
    os.environ.setdefault("NUMBA_CPU_NAME", "generic")
    sys.exit(main())
