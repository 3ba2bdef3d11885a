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

"""[DEFAULT] options about exception message formatting."""

from oslo_config import cfg

exc_log_opts = [
    cfg.BoolOpt('fatal_exception_format_errors',
                default=False,
                help="Make a failure to format an exception message fatal. "
                     "When an exception's message template does not match "
                     "the arguments it was raised with, True re-raises the "
                     "formatting error (useful in tests); False logs it and "
                     "uses the unformatted template."),
]


def register_opts(conf):
    conf.register_opts(exc_log_opts)


def list_opts():
    return {'DEFAULT': exc_log_opts}
