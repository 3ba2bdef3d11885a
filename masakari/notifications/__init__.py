"""Versioned notifications: the payload objects and the emitting helpers.

Moved out of the API layer so that objects and the engine can emit them
without importing masakari.api.
"""
