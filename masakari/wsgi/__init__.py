"""The WSGI application of masakari-api (see api.py)."""
