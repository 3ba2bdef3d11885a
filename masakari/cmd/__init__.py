"""Masakari's programs, one module per console script (api, engine...).

Importing this package has no side effect. The services that need eventlet
(api, engine) import :mod:`masakari.cmd.monkey_patch` first.
"""
