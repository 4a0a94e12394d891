"""How a count reads in a message ("1 finding", "2 findings", never "2 finding(s)"), a list of words ("a, b and
c"), and a value given: cut to a readable length."""

from __future__ import annotations


def counted(n: int, one: str, many: str = "") -> str:
    """n and the noun, singular for one: counted(1, 'row') is '1 row', counted(2, 'row') '2 rows'.

    Parameters
    ----------
    n : int
        The count.
    one : str
        The noun for one.
    many : str, optional
        The noun for any other count, where it is not `one` + 's' (counted(2, 'body', 'bodies')).
    """
    return f"{n} {one if n == 1 else many or one + 's'}"


def listed(words) -> str:
    """Words as a sentence lists them: listed(['a', 'b', 'c']) is 'a, b and c', listed(['a']) is 'a'."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def short_repr(value, limit: int = 60) -> str:
    """repr of a value cut to a readable length for messages (a list of 200,000 numbers shows its start)."""
    if isinstance(value, (list, tuple, dict)) and len(value) > limit:
        value = value[:limit] if not isinstance(value, dict) else dict(list(value.items())[:limit])
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    return text if len(text) <= limit else text[:limit - 3] + "..."
