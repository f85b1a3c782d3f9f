"""The rules of Qwixx: pure Python, no I/O."""
from referee.errors import RuleError

__all__ = ["RuleError"]
