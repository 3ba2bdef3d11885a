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

"""Query-string parsing shared by the four list endpoints.

A repeated parameter counts with its last value, except ``sort_key`` and
``sort_dir``, which collect every value in order.
"""

from http import HTTPStatus

from oslo_config import cfg
from oslo_utils import strutils
import webob.exc

from masakari import exception

CONF = cfg.CONF

DEFAULT_SORT_KEY = 'created_at'
DEFAULT_SORT_DIR = 'desc'


def _invalid_sort_key(exc):
    # NOTE: the reference shows the repr of oslo.db's exception here,
    # e.g. InvalidSortKey('Sort key supplied is invalid: foo').
    message = exc.format_message()
    if message.startswith('InvalidSortKey('):
        return message
    return 'InvalidSortKey(%r)' % message


# Errors of the DB list functions, for every list handler's
# ``wsgi.expected_errors``.
LIST_ERRORS = {
    exception.InvalidInput: HTTPStatus.BAD_REQUEST,
    exception.MarkerNotFound: HTTPStatus.BAD_REQUEST,
    exception.InvalidSortKey: (HTTPStatus.BAD_REQUEST, _invalid_sort_key),
}


def _non_negative_integer(value, name):
    try:
        number = int(value)
    except (TypeError, ValueError):
        reason = '%s must be an integer' % name
    else:
        if number >= 0:
            return number
        reason = '%s must be >= 0' % name
    raise webob.exc.HTTPBadRequest(
        explanation=exception.InvalidInput(reason=reason).format_message())


def limit_and_marker(req):
    """``(limit, marker)`` of a list request; 400 on a bad number.

    The limit is capped at ``[DEFAULT]osapi_max_limit``, its default too.
    ``page_size`` is validated like ``limit`` and then ignored (reference
    behaviour). The marker is the raw ``id`` string, checked by the DB.
    """
    max_limit = CONF.osapi_max_limit
    limit = max_limit
    if 'limit' in req.GET:
        limit = min(_non_negative_integer(req.GET['limit'], 'limit'),
                    max_limit)
    if 'page_size' in req.GET:
        _non_negative_integer(req.GET['page_size'], 'page_size')
    return limit, req.GET.get('marker')


def sort_params(req):
    """``(sort_keys, sort_dirs)``, stripped, with the reference defaults.

    Directions and keys are checked by the DB layer, in its order.
    """
    keys = [key.strip() for key in req.GET.getall('sort_key')]
    dirs = [direction.strip() for direction in req.GET.getall('sort_dir')]
    return keys or [DEFAULT_SORT_KEY], dirs or [DEFAULT_SORT_DIR]


def filters(req, names):
    """The last value of each of ``names`` present in the query string."""
    return {name: req.GET[name] for name in names if name in req.GET}


def boolean_filter(req, name):
    """Parse the ``name`` filter with bool_from_string(strict); 400 if bad."""
    try:
        return strutils.bool_from_string(req.GET[name], strict=True)
    except ValueError as exc:
        raise webob.exc.HTTPBadRequest(
            explanation='Invalid value for %s: %s' % (name, exc))
