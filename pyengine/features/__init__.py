"""Reusable features that games compose."""
