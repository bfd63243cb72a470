"""The `memoir` command line."""

from memoir.cli.app import app, main

__all__ = ["app", "main"]
