"""GearDyn's errors: one root, and the model error that names the fields it is about.

Every error the program raises on purpose is a `GearDynError`. A `ModelError` carries (path, message) pairs,
the path naming the field as a model file does (``joints['sun_joint'].axis``, ``settings.step``), so that the
command line can map a path to its flag and the app focus the field, without parsing the text.
"""

from __future__ import annotations

from typing import Any


class GearDynError(Exception):
    """The root of GearDyn's errors."""


class ModesError(GearDynError):
    """Elements' modes (a lossy gear stuck or rolling) that cannot be decided at an instant of a run: the run fails
    there with this message, keeping what it computed. `items` names the model items (the elements) concerned."""

    def __init__(self, message: str, items: tuple[str, ...] = ()):
        super().__init__(message)
        self.items = tuple(items)


class ModelError(GearDynError, ValueError):
    """An edit, a file or a run that would make the model inconsistent, or a model that cannot run as it stands.

    ``ModelError(path, message)`` names one field; ``ModelError(message)`` one with no field (a file that is
    not JSON); ``ModelError.of(problems)`` several, (path, message) pairs. `problems` holds them, `path` and
    `detail` the first one's parts; the text is ``path: message`` of the first.
    """

    def __init__(self, path_or_message: str, message: str | None = None):
        path, detail = ("", path_or_message) if message is None else (path_or_message, message)
        super().__init__(f"{path}: {detail}" if path else detail)
        self.problems: list[tuple[str, str]] = [(path, detail)]

    @classmethod
    def of(cls, problems: list[tuple[str, str]], summary: str = "") -> "ModelError":
        """An error for several (path, message) pairs; its text is `summary` with the first, or the first alone."""
        path, detail = problems[0]
        error = cls(summary + f"{path}: {detail}" if path else summary + detail) if summary else cls(path, detail)
        error.problems = list(problems)
        return error

    @property
    def path(self) -> str:
        return self.problems[0][0]

    @property
    def detail(self) -> str:
        return self.problems[0][1]

    def report(self, most: int = 10) -> list[str]:
        """Every problem as a line 'path: message' (the first `most`, then how many more were left out); the first
        line is the error's text."""
        lines = [str(self)] + [f"{path}: {detail}" if path else detail for path, detail in self.problems[1:most]]
        if len(self.problems) > most:
            lines.append(f"... and {len(self.problems) - most} more")
        return lines


def problems_of(read, *args) -> tuple[Any, list[tuple[str, str]]]:
    """(read(*args), []), or (None, the (path, message) pairs of the ModelError it raised): a reader that names
    every bad field of a file reads each part this way and goes on."""
    try:
        return read(*args), []
    except ModelError as exc:
        return None, exc.problems
