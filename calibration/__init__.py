"""What the camera and the table look like: learned once, saved to a file, loaded by the reader."""
from calibration.model import (
    Calibration,
    CalibrationError,
    DieColour,
    Exposure,
    default_path,
    delta_e,
    find,
    to_lab,
)

__all__ = ["Calibration", "CalibrationError", "DieColour", "Exposure", "default_path", "delta_e", "find", "to_lab"]
