"""The examples in the referee's docstring and the README run as written."""
import doctest
from pathlib import Path

import referee

ROOT = Path(__file__).resolve().parent.parent


def test_referee_docstring_examples():
    result = doctest.testmod(referee, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
