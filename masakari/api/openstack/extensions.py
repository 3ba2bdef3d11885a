"""The descriptor each ``masakari.api.v1.extensions`` entry point names.

Operators' tooling lists these through ``GET /v1/extensions``; routes do
not come from here (see ``masakari.api.openstack.ha.ROUTES``).
"""


class V1APIExtensionBase:
    """Name, alias and description of one API resource."""

    name = None
    alias = None
    description = None

    @classmethod
    def to_dict(cls):
        """The extension as ``GET /v1/extensions`` shows it."""
        return {'name': cls.name, 'alias': cls.alias,
                'description': cls.description, 'namespace': '',
                'updated': '', 'links': []}
