"""The examples in the referee's docstring and the README run as written."""
import doctest
from pathlib import Path

import referee

README = Path(__file__).resolve().parent.parent / "README.md"


def test_referee_docstring_examples():
    result = doctest.testmod(referee, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
