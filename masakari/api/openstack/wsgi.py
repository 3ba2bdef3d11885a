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

"""Request processing of a v1 resource: versions, JSON, the one error path.

``dispatch`` runs the request-processing steps in order around a handler;
every error a handler lets out becomes the fault body here, and
nowhere else (``FaultWrapper`` is only the last resort).
"""

import functools
from http import HTTPStatus
import json

from oslo_config import cfg
from oslo_db import exception as db_exception
from oslo_log import log as logging
import oslo_messaging as messaging
import webob
import webob.exc

from masakari.api import microversion
from masakari import exception

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

JSON = 'application/json'
VND_JSON = 'application/vnd.openstack.masakari+json'
SUPPORTED_CONTENT_TYPES = (JSON, VND_JSON)
# The media type chosen by the URL map (masakari.api.urlmap) for the reply.
BEST_CONTENT_TYPE = 'masakari.best_content_type'

FAULT_NAMES = {
    400: 'badRequest', 401: 'unauthorized', 403: 'forbidden',
    404: 'itemNotFound', 405: 'badMethod', 409: 'conflictingRequest',
    413: 'overLimit', 415: 'badMediaType', 429: 'overLimit',
    501: 'notImplemented', 503: 'serviceUnavailable',
}
# Dependencies out of reach: 503 with Retry-After and their name, not the
# 500 below (a client retries, nothing was lost).
UNAVAILABLE = {
    db_exception.DBConnectionError: 'database',
    messaging.MessagingTimeout: 'masakari-engine',
    messaging.MessageDeliveryFailure: 'message bus',
    exception.NovaUnreachable: 'compute service (Nova)',
}
UNEXPECTED_ERROR = (
    'Unexpected API Error. Please report this at '
    'https://bugs.launchpad.net/masakari/ and attach the Masakari API log '
    'if possible.\n%s')


class Request(webob.Request):
    """A request that knows its microversion and honours the proxy header."""

    api_version = microversion.DEFAULT_VERSION

    def __init__(self, environ, *args, **kwargs):
        header = CONF.wsgi.secure_proxy_ssl_header
        if header and header in environ:
            environ['wsgi.url_scheme'] = environ[header]
        super().__init__(environ, *args, **kwargs)

    @property
    def context(self):
        return self.environ['masakari.context']

    def best_match_content_type(self):
        """The reply's media type: the URL map's choice, else Accept."""
        if BEST_CONTENT_TYPE not in self.environ:
            offers = self.accept.acceptable_offers(SUPPORTED_CONTENT_TYPES)
            self.environ[BEST_CONTENT_TYPE] = offers[0][0] if offers else JSON
        return self.environ[BEST_CONTENT_TYPE]


def fault(status, message, headers=None):
    """The JSON fault response ``{"<name>": {"code": .., "message": ..}}``."""
    name = FAULT_NAMES.get(status, 'masakariFault')
    body = {name: {'code': status, 'message': message}}
    response = webob.Response(status=status,
                              body=json.dumps(body).encode())
    # NOTE: set as a header: WebOb drops a charset given for JSON.
    response.headers['Content-Type'] = JSON + '; charset=UTF-8'
    response.headers.update(headers or {})
    return response


def response(status):
    """Declare the success status of a handler (default 200)."""
    def decorator(handler):
        handler.success_status = status
        return handler
    return decorator


def expected_errors(*mappings):
    """Map the domain exceptions a handler expects to HTTP statuses.

    :param mappings: dicts of exception class -> HTTPStatus, or ->
        (HTTPStatus, function giving the message from the exception); a
        subclass uses the entry of its nearest listed ancestor.
    Deliberate HTTP errors, Forbidden and ValidationError pass through;
    anything else becomes the reference's 500 "Unexpected API Error".
    """
    table = {}
    for mapping in mappings:
        table.update(mapping)

    def decorator(handler):
        @functools.wraps(handler)
        def wrapper(*args, **kwargs):
            try:
                return handler(*args, **kwargs)
            except (webob.exc.HTTPException, exception.Forbidden,
                    exception.ValidationError):
                raise
            except Exception as exc:
                for cls in type(exc).__mro__:
                    if cls in table:
                        raise _mapped_error(table[cls], exc) from exc
                    if cls in UNAVAILABLE:
                        raise _unavailable(UNAVAILABLE[cls], exc) from exc
                LOG.exception('Unexpected exception in API method')
                raise _http_error(HTTPStatus.INTERNAL_SERVER_ERROR,
                                  UNEXPECTED_ERROR % type(exc)) from exc
        return wrapper
    return decorator


def _mapped_error(entry, exc):
    status, message = entry, exc.format_message()
    if isinstance(entry, tuple):
        status, message = entry[0], entry[1](exc)
    return _http_error(status, message)


def _unavailable(dependency, exc):
    LOG.warning('Answering 503: the %(dependency)s cannot be reached: '
                '%(error)s', {'dependency': dependency, 'error': exc})
    unavailable = exception.DependencyUnavailable(dependency=dependency)
    return webob.exc.HTTPServiceUnavailable(
        explanation=unavailable.format_message(),
        headers={'Retry-After': str(unavailable.retry_after)})


def _http_error(status, message):
    return webob.exc.status_map[int(status)](explanation=message)


def _error_response(exc):
    """The fault for an exception that left a handler."""
    if isinstance(exc, webob.exc.HTTPException):
        retry_after = exc.headers.get('Retry-After')
        return fault(exc.code, exc.explanation,
                     {'Retry-After': retry_after} if retry_after else None)
    if isinstance(exc, (exception.Forbidden, exception.Invalid)):
        return fault(exc.code, exc.format_message())
    raise exc


def _request_body(req):
    """Decode a POST/PUT body: ``None`` when empty, else UTF-8 JSON."""
    raw = req.body
    if not raw:
        return None
    try:
        return json.loads(raw.decode('utf-8'))
    except (ValueError, RecursionError):
        # NOTE: RecursionError (absurdly deep nesting) is a 500 in the
        # reference; it is just as malformed as invalid JSON.
        raise webob.exc.HTTPBadRequest(explanation='Malformed request body')


def _check_project_id(req, route_args):
    url_project = route_args.pop('project_id', None)
    if url_project is None:
        return
    context_project = req.context.project_id
    if url_project != context_project:
        raise webob.exc.HTTPBadRequest(explanation=(
            "Malformed request URL: URL's project_id '%s' doesn't match "
            "Context's project_id '%s'" % (url_project, context_project)))


def _check_content_type(req):
    content_type = req.content_type
    if content_type and content_type != 'text/plain' and (
            content_type not in SUPPORTED_CONTENT_TYPES):
        raise exception.InvalidContentType(content_type=content_type)


def dispatch(req, handler, action, route_args):
    """Serve a routed request with ``handler`` (None: 405 for ``action``).

    Steps, first failure answers: microversion (400/406), Content-Type
    (415), handler lookup (405), body (400), project id (400), handler.
    """
    try:
        req.api_version = microversion.parse(req.headers)
    except exception.InvalidGlobalAPIVersion as exc:
        return fault(exc.code, exc.format_message(),
                     {'Vary': microversion.HEADER})
    except exception.InvalidAPIVersionString as exc:
        return fault(exc.code, exc.format_message())
    try:
        response = _call(req, handler, action, dict(route_args))
    except Exception as exc:
        response = _error_response(exc)
    response.headers.update(microversion.response_headers(req.api_version))
    return response


def _call(req, handler, action, route_args):
    try:
        _check_content_type(req)
    except exception.InvalidContentType:
        return fault(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                     'Unsupported Content-Type')
    content_type = req.best_match_content_type()
    try:
        req.GET
    except UnicodeDecodeError:
        # NOTE: a 500 in the reference.
        raise webob.exc.HTTPBadRequest(
            explanation='Malformed request query string')
    if handler is None:
        raise webob.exc.HTTPMethodNotAllowed(explanation=(
            "The request method: '%s' with action: '%s' is not allowed on "
            "this resource" % (req.method, action)))
    if req.method in ('POST', 'PUT'):
        route_args['body'] = _request_body(req)
    _check_project_id(req, route_args)
    result = handler(req, **route_args)
    status = getattr(handler, 'success_status', HTTPStatus.OK)
    if status == HTTPStatus.NO_CONTENT:
        response = webob.Response(status=status)
        # NOTE: the reference labels its empty 204 bodies as JSON too.
        response.headers['Content-Type'] = JSON
        response.headers['Content-Length'] = '0'
        return response
    return webob.Response(status=status, content_type=content_type,
                          charset=None, body=json.dumps(result).encode())
