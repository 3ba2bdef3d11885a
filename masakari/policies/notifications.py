"""Policy rules of the /notifications API."""

from oslo_policy import policy

from masakari.policies import base

NOTIFICATIONS = 'os_masakari_api:notifications:%s'
INDEX = NOTIFICATIONS % 'index'
DETAIL = NOTIFICATIONS % 'detail'
CREATE = NOTIFICATIONS % 'create'
DISCOVERABLE = NOTIFICATIONS % 'discoverable'

rules = [
    policy.DocumentedRuleDefault(
        name=INDEX,
        check_str=base.RULE_ADMIN_API,
        description="Lists IDs, notification types, host_name, "
                    "generated_time, payload and status for all "
                    "notifications.",
        operations=[{'method': 'GET', 'path': '/notifications'}]),
    policy.DocumentedRuleDefault(
        name=DETAIL,
        check_str=base.RULE_ADMIN_API,
        description="Shows details for a notification.",
        operations=[{'method': 'GET',
                     'path': '/notifications/{notification_id}'}]),
    policy.DocumentedRuleDefault(
        name=CREATE,
        check_str=base.RULE_ADMIN_API,
        description="Creates a notification.",
        operations=[{'method': 'POST', 'path': '/notifications'}]),
    policy.RuleDefault(
        name=DISCOVERABLE,
        check_str=base.RULE_ADMIN_API,
        description="Notification API extensions to change the API."),
]


def list_rules():
    return rules
