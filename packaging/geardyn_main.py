"""Entry script of the frozen application: the same `geardyn` command as the installed one."""

import multiprocessing
import sys

from app.launch import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a spawned study worker is this program again, told so by its arguments
    sys.exit(main())
