"""Contract tests of the REST API against the real paste pipeline."""
