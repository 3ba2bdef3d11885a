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

"""oslo.policy enforcer wiring.

The rule defaults live in :mod:`masakari.policies`; operators override
them with ``[oslo_policy]/policy_file``.
"""

import sys

from oslo_config import cfg
from oslo_log import log as logging
from oslo_policy import policy
from oslo_utils import excutils

from masakari import exception
from masakari import policies

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
_ENFORCER = None


def reset():
    global _ENFORCER
    if _ENFORCER:
        _ENFORCER.clear()
        _ENFORCER = None


def init(policy_file=None, rules=None, default_rule=None, use_conf=True,
         suppress_deprecation_warnings=True):
    """Create the global enforcer once and register the in-code rules."""
    global _ENFORCER
    if not _ENFORCER:
        _ENFORCER = policy.Enforcer(CONF, policy_file=policy_file,
                                    rules=rules, default_rule=default_rule,
                                    use_conf=use_conf)
        # NOTE: 22.0.0 has no deprecated rules; the warnings would only be
        # about library-side default changes the operator cannot act on.
        _ENFORCER.suppress_deprecation_warnings = \
            suppress_deprecation_warnings
        _ENFORCER.suppress_default_change_warnings = True
        register_rules(_ENFORCER)
    return _ENFORCER


def register_rules(enforcer):
    enforcer.register_defaults(policies.list_rules())


def get_enforcer():
    """Entry point of the oslopolicy-* command line tools.

    They pass their own options (--namespace, --output-file) on the command
    line; strip them so oslo.config only sees Masakari's.
    """
    conf_args = []
    i = 1
    while i < len(sys.argv):
        if sys.argv[i].strip('-') in ['namespace', 'output-file']:
            i += 2
            continue
        conf_args.append(sys.argv[i])
        i += 1
    CONF(conf_args, project='masakari')
    return init()


def authorize(context, action, target, do_raise=True):
    """Check ``action`` against ``target`` with the context's credentials.

    :raises PolicyNotAuthorized: if the check fails and do_raise is True.
    :returns: the result of the check otherwise.
    """
    enforcer = init()
    credentials = context.to_policy_values()
    try:
        return enforcer.authorize(action, target, credentials,
                                  do_raise=do_raise,
                                  exc=exception.PolicyNotAuthorized,
                                  action=action)
    except policy.PolicyNotRegistered:
        with excutils.save_and_reraise_exception():
            LOG.exception('Policy not registered')
    except exception.PolicyNotAuthorized:
        with excutils.save_and_reraise_exception():
            LOG.debug('Policy check for %(action)s failed with credentials '
                      '%(credentials)s',
                      {'action': action, 'credentials': credentials})


def check_is_admin(context):
    """Whether the context's roles satisfy the ``context_is_admin`` rule."""
    enforcer = init()
    credentials = context.to_policy_values()
    target = credentials
    return enforcer.authorize('context_is_admin', target, credentials)


@policy.register('is_admin')
class IsAdminCheck(policy.Check):
    """``is_admin:True`` / ``is_admin:False``: compare the context flag."""

    def __init__(self, kind, match):
        self.expected = match.lower() == 'true'
        super().__init__(kind, str(self.expected))

    def __call__(self, target, creds, enforcer):
        return creds['is_admin'] == self.expected


def get_rules():
    if _ENFORCER:
        return _ENFORCER.rules
