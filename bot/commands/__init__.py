"""One module per ``logo-bot`` command, each with ``main(argv) -> int``."""
