"""The package version (read by pyproject.toml and the salt)."""
__version__ = "0.1.0"
