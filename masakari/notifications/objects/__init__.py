"""Versioned notification objects: envelope parts and payloads."""
