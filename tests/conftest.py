"""Shared pytest configuration: the hypothesis profiles.

``HYPOTHESIS_PROFILE`` selects one (default ``ci``):

* ``ci`` — derandomized (the same examples on every run), no deadline, few examples per test,
  so that the whole suite stays fast;
* ``thorough`` — randomized, many more examples, for long runs before a release
  (``HYPOTHESIS_PROFILE=thorough python -m pytest``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=25,
    print_blob=True,
    suppress_health_check=_SLOW_DATA,
)
settings.register_profile(
    "thorough", deadline=None, max_examples=1_000, suppress_health_check=_SLOW_DATA
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
