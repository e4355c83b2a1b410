"""Move notation (RULES §5): parse/print round-trips and bad move text."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import InvalidMoveError
from solver.moves import CELL, DEAL, DOWN, PARK, REDEAL, UP, WASTE, Move, parse_moves

numbers = st.integers(min_value=1, max_value=8)
salic_moves = st.one_of(st.just(Move(DEAL)),
                        st.builds(Move, st.sampled_from([UP, DOWN, PARK]), numbers, numbers))
banner_moves = st.one_of(st.sampled_from([Move(DEAL), Move(REDEAL), Move(WASTE)]),
                         st.builds(lambda k: Move(CELL, k), numbers))


@given(salic_moves)
def test_salic_moves_round_trip(move):
    assert Move.parse(str(move), "salic") == move
    assert Move.parse(str(move).upper()) == move
    assert eval(repr(move)) == move


@given(banner_moves)
def test_banner_moves_round_trip(move):
    assert Move.parse(str(move), "banner") == move
    assert Move.parse(str(move).upper(), "banner") == move


@pytest.mark.parametrize("text, expected", [
    ("deal", Move(DEAL)), ("3>u5", Move(UP, 3, 5)), ("3>d5", Move(DOWN, 3, 5)),
    ("3>7", Move(PARK, 3, 7)), ("W>F", Move(WASTE)), ("c3>f", Move(CELL, 3)),
    ("redeal", Move(REDEAL))])
def test_rules_notation(text, expected):
    assert Move.parse(text) == expected


def test_parse_moves_reads_white_space_comments_and_printed_solutions():
    text = ("glencoe 7: winnable in 6 moves\ndeal 1>u1   # first\n\n12. 3>d5  7H\n13. deal  QS\n"
            "c2>f w>f")
    assert [str(m) for m in parse_moves(text)] == ["deal", "1>u1", "3>d5", "deal", "c2>f", "w>f"]


@pytest.mark.parametrize("text, family", [
    ("3>x5", None), ("9>u1", "salic"), ("0>1", "salic"), ("w>f", "salic"), ("redeal", "salic"),
    ("c1>f", "salic"), ("3>u5", "banner"), ("c9>f", "banner"), ("dael", None), ("", None)])
def test_malformed_moves_name_the_token(text, family):
    with pytest.raises(InvalidMoveError, match=f"invalid move {text!r}"):
        Move.parse(text, family)
