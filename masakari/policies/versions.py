"""Policy rules of the version documents (registered, never enforced)."""

from oslo_policy import policy

from masakari.policies import base

VERSIONS = 'os_masakari_api:versions:%s'
INDEX = VERSIONS % 'index'
DISCOVERABLE = VERSIONS % 'discoverable'

rules = [
    policy.DocumentedRuleDefault(
        name=INDEX,
        check_str=base.RULE_ANY,
        description="List all versions.",
        operations=[{'method': 'GET', 'path': '/'}]),
    policy.RuleDefault(
        name=DISCOVERABLE,
        check_str=base.RULE_ANY,
        description="Version API extensions to change the API."),
]


def list_rules():
    return rules
