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

"""[metrics] options: the Prometheus endpoints of masakari-api and
masakari-engine; and [host_failure]/recovery_time_budget.

Everything here is an extension of Masakari 22.0.0 and off by default:
with [metrics]/enabled false no port is opened and no request changes.
"""

from oslo_config import cfg

metrics_group = cfg.OptGroup(
    'metrics',
    title='Prometheus metrics options',
    help="Prometheus metrics of masakari-api and masakari-engine, served "
         "over HTTP. See the 'Monitoring Masakari' page of the "
         "administrator guide.")

metrics_opts = [
    cfg.BoolOpt('enabled',
                default=False,
                help="Serve Prometheus metrics: masakari-engine on "
                     "engine_listen_port, masakari-api (console script, "
                     "uWSGI or mod_wsgi) on api_listen_port. False opens "
                     "no port and records nothing."),
    cfg.HostAddressOpt('listen_address',
                       default='127.0.0.1',
                       help="Address the metrics endpoints listen on. "
                            "The endpoint has no authentication: keep it "
                            "on a management network."),
    cfg.IntOpt('api_listen_port',
               default=9781, min=1, max=65535,
               help="Port of masakari-api's metrics endpoint (the sum of "
                    "all its worker processes)."),
    cfg.IntOpt('engine_listen_port',
               default=9782, min=1, max=65535,
               help="Port of masakari-engine's metrics endpoint."),
    cfg.StrOpt('multiprocess_dir',
               help="Directory where the processes of a multi-process "
                    "masakari-api write their metrics, so that the "
                    "endpoint serves their sum (prometheus_client's "
                    "multiprocess mode). Unset: the environment variable "
                    "PROMETHEUS_MULTIPROC_DIR when set; otherwise the "
                    "masakari-api console script makes a temporary "
                    "directory and the WSGI application (uWSGI, mod_wsgi) "
                    "serves its own process's numbers only. The directory "
                    "must be emptied before the service starts; the "
                    "console script empties it itself."),
]

budget_opts = [
    cfg.FloatOpt('recovery_time_budget',
                 min=0,
                 help="Seconds a host recovery may take. A recovery that "
                      "takes longer logs a WARNING naming its slowest "
                      "phase and counts in the metric "
                      "masakari_engine_recovery_over_budget_total. Unset: "
                      "no budget."),
]


def register_opts(conf):
    conf.register_group(metrics_group)
    conf.register_opts(metrics_opts, group=metrics_group)
    conf.register_opts(budget_opts, group='host_failure')


def list_opts():
    return {metrics_group: metrics_opts, 'host_failure': budget_opts}
