"""Constants the reader and the training script must agree on (changing one means retraining)."""

# The classifier sees a CROP_SIZE square crop whose side is CROP_MARGIN times the die's extent.
CROP_SIZE = 32
CROP_MARGIN = 1.4
# The detector's size output is log2(extent / DETECTOR_EXTENT), extents in network pixels.
DETECTOR_EXTENT = 12.0
# Both networks take (pixel - PIXEL_MEAN) * PIXEL_SCALE, BGR order.
PIXEL_MEAN = 128.0
PIXEL_SCALE = 1 / 64
