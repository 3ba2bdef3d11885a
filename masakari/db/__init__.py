"""Masakari's main database: models, migrations, the DB API and purge.

Callers use :mod:`masakari.db.api`; nothing else here is a public entry
point except :mod:`masakari.db.migration` (``masakari-manage db``).
"""
