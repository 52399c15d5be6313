"""Widgets and drawings that more than one pane (or the CLI's chart export) uses."""
