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

"""[wsgi] options of the standalone API server (masakari-api)."""

from oslo_config import cfg

wsgi_group = cfg.OptGroup(
    'wsgi',
    title='WSGI Options',
    help="HTTP server settings of masakari-api. A WSGI container "
         "(uWSGI, mod_wsgi) hosting masakari.wsgi.api ignores them, "
         "except secure_proxy_ssl_header.")

wsgi_opts = [
    cfg.StrOpt('api_paste_config',
               default='api-paste.ini',
               help="paste.deploy file that defines the API pipeline. A "
                    "relative name is searched for next to the "
                    "configuration files, then in the standard "
                    "configuration directories; an absolute path must "
                    "exist."),
    cfg.StrOpt('wsgi_log_format',
               default='%(client_ip)s "%(request_line)s" status: '
                       '%(status_code)s len: %(body_length)s time: '
                       '%(wall_seconds).7f',
               help="Template of the access log line written for every "
                    "request. Available keys: client_ip, date_time, "
                    "request_line, status_code, body_length and "
                    "wall_seconds."),
    cfg.StrOpt('secure_proxy_ssl_header',
               deprecated_for_removal=True,
               deprecated_reason="The http_proxy_to_wsgi middleware of "
                                 "oslo.middleware handles proxy headers; "
                                 "use [oslo_middleware]/"
                                 "enable_proxy_headers_parsing.",
               help="Name of a WSGI environ key, such as "
                    "HTTP_X_FORWARDED_PROTO, whose value, when present, "
                    "replaces the URL scheme of the request. Set it when a "
                    "proxy terminates TLS in front of the API."),
    cfg.StrOpt('ssl_ca_file',
               help="CA certificate file used to verify clients. When set, "
                    "clients must present a certificate."),
    cfg.StrOpt('ssl_cert_file',
               help="Certificate file of the HTTPS server (needed with "
                    "[DEFAULT]/use_ssl)."),
    cfg.StrOpt('ssl_key_file',
               help="Private key file of the HTTPS server (needed with "
                    "[DEFAULT]/use_ssl)."),
    cfg.IntOpt('tcp_keepidle',
               default=600,
               help="Idle time in seconds before TCP keep-alive probes "
                    "start on client connections, where the platform "
                    "supports it."),
    cfg.IntOpt('default_pool_size',
               default=1000,
               help="Number of green threads serving requests in each API "
                    "worker."),
    cfg.IntOpt('max_header_line',
               default=16384,
               help="Longest HTTP header line accepted, in bytes. Large "
                    "Keystone tokens (e.g. PKI) may need more."),
    cfg.BoolOpt('keep_alive',
                default=True,
                help="Keep client connections open between requests. "
                     "False closes each connection after its response."),
    cfg.IntOpt('client_socket_timeout',
               default=900,
               help="Seconds a client connection may stay idle before it "
                    "is closed. 0 waits forever."),
]


def register_opts(conf):
    conf.register_group(wsgi_group)
    conf.register_opts(wsgi_opts, group=wsgi_group)


def list_opts():
    return {wsgi_group: wsgi_opts}
