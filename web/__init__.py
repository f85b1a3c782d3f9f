"""The Flask app, the camera loop and the command line: the one place that wires the parts together."""
