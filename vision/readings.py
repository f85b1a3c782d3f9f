"""What the reader says about one die."""
from __future__ import annotations

import math
from dataclasses import dataclass

QWIXX_COLOURS = ("white", "red", "yellow", "green", "blue")
# The dice of one Qwixx roll: colour and how many.
QWIXX_ROLL = {"white": 2, "red": 1, "yellow": 1, "green": 1, "blue": 1}
# Dice the game does not use are still reported, so that they are not mistaken for Qwixx dice.
ALL_COLOURS = QWIXX_COLOURS + ("black", "other")
# Why a die's value is not given.
PROBLEMS = ("cocked", "edge", "occluded", "blurred", "small")


@dataclass(frozen=True)
class DieReading:
    colour: str
    value: int | None  # 1-6, or None when the top face cannot be read safely
    confidence: float  # 0..1, how sure the reader is of colour and value together
    center: tuple[float, float]  # pixels, (x, y)
    corners: tuple[tuple[float, float], ...]  # outline of the die's top face, pixels
    problem: str | None = None  # one of PROBLEMS when value is None

    def __post_init__(self) -> None:
        if self.colour not in ALL_COLOURS:
            raise ValueError(f"unknown die colour {self.colour!r}")
        if self.value is not None and not 1 <= self.value <= 6:
            raise ValueError(f"die value {self.value} is outside 1-6")
        if self.problem is not None and self.problem not in PROBLEMS:
            raise ValueError(f"unknown problem {self.problem!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence {self.confidence} is outside 0..1")

    @property
    def edge(self) -> float:
        """The top face's mean side in pixels (0 without an outline)."""
        if len(self.corners) < 3:
            return 0.0
        sides = zip(self.corners, self.corners[1:] + self.corners[:1])
        return sum(math.dist(a, b) for a, b in sides) / len(self.corners)

    def to_json(self) -> dict:
        return {
            "colour": self.colour,
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "problem": self.problem,
        }

    @classmethod
    def from_json(cls, data: dict) -> "DieReading":
        return cls(
            colour=data["colour"],
            value=data["value"],
            confidence=float(data["confidence"]),
            center=(float(data["center"][0]), float(data["center"][1])),
            corners=tuple((float(x), float(y)) for x, y in data["corners"]),
            problem=data.get("problem"),
        )
