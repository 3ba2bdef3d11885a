"""Example topologies of masakari-simulator (JSON, loaded by name)."""
