"""Replay viewer (pygame) and tournament plots (plotly): the top layer."""
