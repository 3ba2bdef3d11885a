"""masakari-engine: processes notifications and runs the recovery flows."""
