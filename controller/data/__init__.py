"""Data files shipped with the controller (see README.md here)."""
