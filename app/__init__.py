"""repolens-tui: local, offline repository intelligence in the terminal."""

__version__ = "0.1.0"
