"""Hypothesis profiles: a moderate one for CI (the default) and a thorough one for local runs.

Select with HYPOTHESIS_PROFILE=thorough.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session, exitstatus):
    """With ADJOIN_NO_SKIPS set (CI sets it: CI installs every extra), a skipped test fails the run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if os.environ.get("ADJOIN_NO_SKIPS") and skipped and session.exitstatus == 0:
        reporter.ensure_newline()
        reporter.write_line(f"ADJOIN_NO_SKIPS: {len(skipped)} test(s) skipped, so the run fails "
                            "(install what they need: CI installs every extra)", red=True)
        for report in skipped[:20]:
            reporter.write_line(f"  skipped: {report.nodeid}: {report.longrepr[-1] if report.longrepr else ''}")
        session.exitstatus = 1
