"""One module per `qwixx-table` subcommand; each defines `configure(parser)` and `run(args) -> int`.

Heavy imports (OpenCV, Flask) stay inside `run` so that `qwixx-table --help` stays fast.
"""
