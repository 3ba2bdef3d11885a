"""The domain layer of the API: rules that are not HTTP (see ha/api.py)."""
