"""Entry script of the frozen application: the same `geardyn` command as the installed one."""

import sys

from app.launch import main

if __name__ == "__main__":
    sys.exit(main())
