"""What the camera and the table look like: learned once, saved to a file, loaded by the reader."""
