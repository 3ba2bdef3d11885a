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

"""[DEFAULT] service options: identity, periodic tasks, API socket."""

import socket

from oslo_config import cfg

service_opts = [
    cfg.HostAddressOpt('host',
                       default=socket.gethostname(),
                       sample_default='<HOSTNAME>',
                       help="Name of this engine on the message bus: its "
                            "RPC server listens on the queue "
                            "<masakari_topic>.<host>. It must be unique per "
                            "engine and valid in an AMQP routing key; a "
                            "host name, FQDN or IP address fits. Defaults "
                            "to the machine's host name."),
    cfg.StrOpt('engine_manager',
               default='masakari.engine.manager.MasakariManager',
               help="Dotted path of the manager class the engine service "
                    "runs."),
    cfg.IntOpt('report_interval',
               default=10,
               help="Seconds between two service state reports. Not used "
                    "by Masakari."),
    cfg.BoolOpt('periodic_enable',
                default=True,
                help="Run the engine's periodic tasks (retry and expiry "
                     "of notifications)."),
    cfg.IntOpt('periodic_interval_max',
               default=300,
               help="Longest pause, in seconds, between two runs of the "
                    "periodic tasks."),
    cfg.IntOpt('periodic_fuzzy_delay',
               default=60,
               help="Upper bound, in seconds, of the random delay before "
                    "the first run of the periodic tasks, so that engines "
                    "started together do not run them in step. 0 disables "
                    "the delay."),
    cfg.BoolOpt('use_ssl',
                default=False,
                help="Serve the standalone API (masakari-api) over HTTPS, "
                     "with the certificate and key of [wsgi]/ssl_cert_file "
                     "and [wsgi]/ssl_key_file."),
    cfg.HostAddressOpt('masakari_api_listen',
                       default='0.0.0.0',
                       help="Address the standalone API binds to (IPv4 or "
                            "IPv6 address, or host name)."),
    cfg.IntOpt('masakari_api_listen_port',
               default=15868,
               min=1,
               max=65535,
               help="TCP port the standalone API listens on."),
    cfg.IntOpt('masakari_api_workers',
               help="Number of worker processes of the standalone API. "
                    "Unset or 0 means one per CPU; a negative value is "
                    "refused at start-up."),
    cfg.IntOpt('service_down_time',
               default=60,
               help="Seconds without a state report after which a service "
                    "would be considered down. Not used by Masakari."),
]


def register_opts(conf):
    conf.register_opts(service_opts)


def list_opts():
    return {'DEFAULT': service_opts}
