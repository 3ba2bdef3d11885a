# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

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
