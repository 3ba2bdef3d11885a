"""End-to-end tests: the real masakari-api and masakari-engine processes."""
