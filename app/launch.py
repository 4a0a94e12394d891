"""The `geardyn` command: the GUI (``geardyn gui [FILE]``) or the headless CLI.

Qt is imported only for the GUI, so the CLI subcommands stay headless.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] == "gui":
        from app.main_window import run_gui

        return run_gui(args[1:])
    from core.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
