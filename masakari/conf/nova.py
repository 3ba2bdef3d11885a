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

"""[DEFAULT] options for reaching Nova with Masakari's privileged account.

Also registers, unlisted, the keystoneauth session options in a group
named DEFAULT (file section [DEFAULT]); Masakari never reads them.
"""

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

nova_opts = [
    cfg.StrOpt('nova_catalog_admin_info',
               default='compute:nova:publicURL',
               help="Where to find Nova in the Keystone service catalogue, "
                    "as <service_type>:<service_name>:<endpoint_type>."),
    cfg.StrOpt('os_region_name',
               help="Region of the Nova endpoint to use when the "
                    "catalogue has several."),
    cfg.StrOpt('nova_ca_certificates_file',
               help="CA bundle that verifies the TLS certificates of Nova "
                    "and of Keystone for the privileged account. Unset "
                    "means the system CA store."),
    cfg.BoolOpt('nova_api_insecure',
                default=False,
                help="Do not verify the TLS certificate of Nova. Only for "
                     "test deployments."),
    cfg.StrOpt('os_privileged_user_name',
               help="Name of the account Masakari uses for every Nova "
                    "call (it needs the admin role in Nova). Required."),
    cfg.StrOpt('os_privileged_user_password',
               secret=True,
               help="Password of the privileged account. Required."),
    cfg.StrOpt('os_privileged_user_tenant',
               help="Project the privileged account is scoped to. "
                    "Required unless os_system_scope is set."),
    cfg.URIOpt('os_privileged_user_auth_url',
               help="Keystone URL used to authenticate the privileged "
                    "account, e.g. http://controller/identity. Required."),
    cfg.StrOpt('os_user_domain_name',
               default='default',
               help="Domain of the privileged account's user."),
    cfg.StrOpt('os_project_domain_name',
               default='default',
               help="Domain of the privileged account's project."),
    cfg.StrOpt('os_system_scope',
               help="Request a system-scoped token (e.g. 'all') for the "
                    "privileged account instead of a project-scoped one."),
    cfg.FloatOpt('nova_api_timeout',
                 default=60.0,
                 min=1.0,
                 help="Timeout in seconds of every HTTP request the Nova "
                      "client makes, to Nova and to Keystone. A request "
                      "that gets no answer in time fails like any other "
                      "Nova error instead of blocking the API request or "
                      "the recovery flow indefinitely. Not in Masakari "
                      "22.0.0, which waits forever."),
]


def register_opts(conf):
    conf.register_opts(nova_opts)
    # NOTE: registered so that these names stay valid in [DEFAULT] (the
    # reference accepts them); TLS to Nova is set with the options above.
    ks_loading.register_session_conf_options(conf, 'DEFAULT')


def list_opts():
    return {'DEFAULT': nova_opts}
