"""Versioned notification objects: envelope parts and payloads (spec 06)."""
