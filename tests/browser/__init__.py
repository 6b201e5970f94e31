"""Helpers for the browser tests (tests/test_site.py) and `build.py bench`'s page loads."""
