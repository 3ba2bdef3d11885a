"""Request-body validation bound to microversion ranges."""

import functools

from masakari.api import microversion
from masakari.api.validation import validators

validate = validators.validate


def schema(body_schema, min_version=None, max_version=None):
    """Validate the handler's ``body`` against ``body_schema``.

    The schema applies only when the request's microversion lies in
    [min_version, max_version]; stack one decorator per range.
    """
    def decorator(handler):
        @functools.wraps(handler)
        def wrapper(req, *args, body=None, **kwargs):
            if microversion.is_supported(req, min_version or '1.0',
                                         max_version):
                validators.validate(body_schema, body)
            return handler(req, *args, body=body, **kwargs)
        return wrapper
    return decorator
