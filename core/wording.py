"""How a count reads in a message: "1 finding", "2 findings", never "2 finding(s)"."""

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
