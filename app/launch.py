"""The `geardyn` command: the GUI (``geardyn gui [FILE]``) or the headless CLI.

Qt is imported only for the GUI, so the CLI subcommands stay headless.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from core.cli import main as cli_main

    if not args or (args[0] == "gui" and not {"-h", "--help"} & set(args[1:])):
        try:
            from app.main_window import run_gui
        except ImportError as exc:
            print(f"error: the GUI needs the gui extra ({exc.name or exc} is missing): "
                  "pip install 'geardyn[gui]' (make run installs it)", file=sys.stderr)
            return 1
        return run_gui(args[1:])
    return cli_main(args)  # the CLI subcommands, and the help of all of them (gui included)


if __name__ == "__main__":
    sys.exit(main())
