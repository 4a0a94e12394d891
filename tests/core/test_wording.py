"""A count in a message reads in the singular for one and in the plural otherwise (core.wording)."""

from core.wording import counted


def test_one_takes_the_singular_and_every_other_count_the_plural():
    assert counted(1, "row") == "1 row"
    assert counted(0, "row") == "0 rows"
    assert counted(2, "row") == "2 rows"


def test_an_irregular_plural_is_given():
    assert counted(1, "body", "bodies") == "1 body"
    assert counted(3, "body", "bodies") == "3 bodies"
