"""Exact RTP calculators, Monte Carlo simulation through the play path, par sheets."""
