"""Test-wide settings: property tests draw their examples from a fixed seed
(``derandomize``) and keep no example database, so every run of the suite
tests the same cases, as every other bgsim test does."""

from hypothesis import settings

settings.register_profile("bgsim", derandomize=True, database=None)
settings.load_profile("bgsim")
