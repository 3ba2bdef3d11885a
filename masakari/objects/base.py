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

"""Masakari's versioned-object base: registry, common mixins, serializer.

Objects travel between masakari-api and masakari-engine as primitives under
the ``masakari_object.*`` keys (namespace ``masakari_object``).
"""

import datetime
import functools

from oslo_utils import timeutils
from oslo_utils import uuidutils
from oslo_utils import versionutils
from oslo_versionedobjects import base as ovoo_base
from oslo_versionedobjects import fields as ovoo_fields

from masakari.db import api as db
from masakari import exception
from masakari.objects import fields

SERIAL_NAMESPACE = 'masakari_object'
PROJECT_NAMESPACE = 'masakari'
CHANGES_KEY = SERIAL_NAMESPACE + '.changes'


class MasakariObjectRegistry(ovoo_base.VersionedObjectRegistry):
    """The registry of the classes that can be rebuilt from RPC messages.

    Notification and payload classes are only ever sent, so they are built
    with :meth:`register_notification` and kept out of the registry;
    :meth:`register_notification_objects` puts them in for the fingerprint
    test and the docs.
    """

    notification_classes = []

    def registration_hook(self, cls, index):
        # NOTE: expose each class as masakari.objects.<Name>, keeping the
        # highest version when several versions of a class are registered.
        from masakari import objects

        current = getattr(objects, cls.obj_name(), None)
        if current is None:
            setattr(objects, cls.obj_name(), cls)
            return
        current_version = versionutils.convert_version_to_tuple(
            current.VERSION)
        if versionutils.convert_version_to_tuple(cls.VERSION) >= \
                current_version:
            setattr(objects, cls.obj_name(), cls)

    @classmethod
    def register_notification(cls, notification_cls):
        """Build a notification or payload class without registering it.

        Use it only on concrete classes, not on bases meant for inheritance.
        """
        cls.register_if(False)(notification_cls)
        cls.notification_classes.append(notification_cls)
        return notification_cls

    @classmethod
    def register_notification_objects(cls):
        """Register the notification classes for real (tests and docs)."""
        for notification_cls in cls.notification_classes:
            cls.register(notification_cls)


class MasakariObject(ovoo_base.VersionedObject):
    """Base class of every Masakari object.

    Remotable methods run locally (there is no indirection API); their
    names and parameters are nevertheless part of the fingerprints.
    """

    OBJ_SERIAL_NAMESPACE = SERIAL_NAMESPACE
    OBJ_PROJECT_NAMESPACE = PROJECT_NAMESPACE

    def masakari_obj_get_changes(self):
        """Return the changed fields, with datetimes as naive UTC for the DB.

        oslo DateTime fields hold timezone-aware values; the database
        columns store naive UTC.
        """
        changes = self.obj_get_changes()
        for name, value in changes.items():
            if isinstance(value, datetime.datetime) and value.tzinfo:
                changes[name] = timeutils.normalize_time(value)
        return changes


class MasakariObjectDictCompat(ovoo_base.VersionedObjectDictCompat):
    """Item access (``obj['name']``, ``get``, ``update``...) on objects."""


class MasakariPersistentObject(object):
    """Mixin of the fields every database-backed object carries, and the
    steps their remotable create/save/destroy share.

    A class names its uuid field in ``UUID_FIELD``, and its fields that
    are not their row's column as is in ``COLUMN_LOADERS`` (or
    ``NOT_LOADED``). Objects send no versioned notification: the layer
    that asks for a write announces it (masakari.ha for the API, the
    engine for its host updates).
    """

    UUID_FIELD = 'uuid'

    fields = {
        'created_at': fields.DateTimeField(nullable=True),
        'updated_at': fields.DateTimeField(nullable=True),
        'deleted_at': fields.DateTimeField(nullable=True),
        'deleted': fields.BooleanField(default=False),
    }

    # Fields a row does not hold (filled otherwise, or never stored).
    NOT_LOADED = ()
    # Field name -> function(obj, name, column value) giving the field's
    # value, for the fields that are not their column as is.
    COLUMN_LOADERS = {}

    @staticmethod
    def _from_db_object(context, obj, db_row):
        """Fill every stored field of ``obj`` from a DB row (a
        ``masakari.db.rows.Row``); clear its changes.
        """
        obj._context = context
        # NOTE: the attributes the field properties read, written straight
        # into the instance (what setattr does, without its lookups).
        values = vars(obj)
        for name, attribute, load in _row_loaders(type(obj)):
            values[attribute] = load(obj, name, db_row[name])
        obj.obj_reset_changes()
        return obj

    @classmethod
    def _load(cls, context, db_row):
        """A new object of this class filled from a DB row."""
        return cls._from_db_object(context, cls(), db_row)

    def _db_updates(self):
        """The changed fields, as the DB API takes them."""
        return self.masakari_obj_get_changes()

    def _create(self, db_create, prepare=None):
        """Insert the changed fields, then reload from the new row.

        The uuid is generated into the insert only, so until the reload
        the object is as it was sent to the database (what the .end of a
        versioned notification about it shows, see
        masakari.notifications.api.around_write).

        :param prepare: checks and adjusts the insert's values in place.
        :raises: ObjectActionError when the object already has an id.
        """
        db_row = db_create(self._context, self._insert_values(prepare))
        self._from_db_object(self._context, self, db_row)

    @classmethod
    def _create_all(cls, context, objs, db_create_all):
        """``_create`` for several new objects, inserted by one call of
        ``db_create_all`` (one transaction); none for no objects.
        """
        if not objs:
            return
        db_rows = db_create_all(context,
                                [obj._insert_values() for obj in objs])
        for obj, db_row in zip(objs, db_rows):
            cls._from_db_object(context, obj, db_row)

    def _insert_values(self, prepare=None):
        """The values to insert: the changed fields, with a generated
        uuid unless one is set.

        :raises: ObjectActionError when the object already has an id.
        """
        if self.obj_attr_is_set('id'):
            raise exception.ObjectActionError(action='create',
                                              reason='already created')
        updates = self._db_updates()
        if self.UUID_FIELD not in updates:
            updates[self.UUID_FIELD] = uuidutils.generate_uuid()
        if prepare is not None:
            prepare(updates)
        return updates

    def _save(self, db_update):
        """Write the changed fields (never the id), then reload."""
        updates = self._db_updates()
        updates.pop('id', None)
        db_row = db_update(self._context, getattr(self, self.UUID_FIELD),
                           updates)
        self._from_db_object(self._context, self, db_row)

    def _compare_and_set(self, db_update_if, expected, values):
        """Write ``values`` to the row only if its columns have the
        ``expected`` values, in one conditional UPDATE (the DB API's
        ``*_update_if``); reload from the row when it matched.

        :returns: True when this caller made the change; False when the
            row did not match (the object is then unchanged).
        """
        db_row = db_update_if(self._context, getattr(self, self.UUID_FIELD),
                              expected, values)
        if db_row is None:
            return False
        self._from_db_object(self._context, self, db_row)
        return True

    def _destroy(self, db_delete):
        """Soft-delete the row, then forget the id.

        :raises: ObjectActionError when the object has no id or no uuid.
        """
        if not self.obj_attr_is_set('id'):
            raise exception.ObjectActionError(action='destroy',
                                              reason='already destroyed')
        if not self.obj_attr_is_set(self.UUID_FIELD):
            raise exception.ObjectActionError(action='destroy',
                                              reason='no uuid')
        db_delete(self._context, getattr(self, self.UUID_FIELD))
        delattr(self, 'id')


def reading(context):
    """A context manager running the object loads within it in one
    database read transaction (see masakari.db.facade.reading).
    """
    return db.reading(context)


def read_retried(fn):
    """Decorate a function that opens a :func:`reading` block: it runs
    again as a whole on a deadlock or a lost connection (see
    masakari.db.facade.retried).
    """
    return db.retried(fn)


def field_attribute(name):
    """The instance attribute holding field ``name`` of an object; absent
    while the field is unset. Renderers of many objects read it directly
    (``getattr(obj, attribute, default)``) instead of asking
    ``obj_attr_is_set`` and then the field's property.
    """
    return ovoo_base._get_attrname(name)


def _loader(field, fast):
    """``load(obj, name, value)`` for ``field``: ``fast(value)`` unless it
    gives _UNSET (then, as for None on a field that is not nullable, the
    field's own coercion decides).
    """
    nullable = field.nullable
    coerce = field.coerce

    def load(obj, name, value):
        if value is None:
            if nullable:
                return None
            return coerce(obj, name, value)
        loaded = fast(value)
        return coerce(obj, name, value) if loaded is _UNSET else loaded
    return load


def _exact_loader(field, type_):
    """The loader of a field whose value is its column's as is, when of
    ``type_`` exactly (one call per value: no fast path to call).
    """
    nullable = field.nullable
    coerce = field.coerce

    def load(obj, name, value):
        if type(value) is type_ or (value is None and nullable):
            return value
        return coerce(obj, name, value)
    return load


def _valid(field):
    valid = frozenset(field._type._valid_values)
    return lambda value: (value if type(value) is str and value in valid
                          else _UNSET)


def _utc(value):
    # NOTE: naive from the database, stored in UTC: what the field's own
    # coercion makes of it, without its parsing and checks.
    if type(value) is datetime.datetime and value.tzinfo is None:
        return value.replace(tzinfo=datetime.timezone.utc)
    return _UNSET


_UNSET = object()
# Field type -> the loader of a column value to the field's value, which
# leaves to the field's coercion whatever its fast path does not take.
# Integer columns hold booleans on some backends (and ``deleted``
# everywhere), which the field turns into bool as well.
_FAST_LOADERS = {
    ovoo_fields.UUID: lambda field: _exact_loader(field, str),
    ovoo_fields.String: lambda field: _exact_loader(field, str),
    ovoo_fields.Integer: lambda field: _exact_loader(field, int),
    ovoo_fields.Boolean: lambda field: _loader(field, bool),
    ovoo_fields.DateTime: lambda field: _loader(field, _utc),
}


def _row_loader(cls, name, field):
    if name in cls.COLUMN_LOADERS:
        return cls.COLUMN_LOADERS[name]
    if isinstance(field._type, ovoo_fields.Enum):
        return _loader(field, _valid(field))
    make_loader = _FAST_LOADERS.get(type(field._type))
    if make_loader is None:
        return field.coerce
    return make_loader(field)


@functools.lru_cache(maxsize=None)
def _row_loaders(cls):
    """(field name, attribute, load) of each field a row fills, where
    ``load(obj, name, column value)`` gives the field's value.

    NOTE: objects are filled from rows by the hundred per list request;
    the field setters' generic coercion was most of their cost.
    """
    return tuple((name, field_attribute(name), _row_loader(cls, name, field))
                 for name, field in cls.fields.items()
                 if name not in cls.NOT_LOADED)


class ObjectListBase(ovoo_base.ObjectListBase):
    """Base of the list objects; their primitive keys are masakari_object.*.

    The oslo list base is a mixin without a namespace of its own, so the
    key prefix is fixed here rather than taken from the MRO.
    """

    @classmethod
    def _obj_primitive_key(cls, field):
        return '%s.%s' % (SERIAL_NAMESPACE, field)

    @classmethod
    def _query(cls, context, db_list, item_cls, **query):
        """A list of ``item_cls`` objects, one per row ``db_list(context,
        **query)`` returns.
        """
        return cls._of(context, [item_cls._load(context, db_row)
                                 for db_row in db_list(context, **query)])

    @classmethod
    def _of(cls, context, items):
        """A list object holding ``items``, objects of its item class.

        NOTE: what obj_make_list builds, without its check of every item
        against the field's object type (twice: on append, then on
        assignment), a large part of a list's cost; later
        changes to the list are checked as usual.
        """
        list_obj = cls(context)
        objects = ovoo_fields.CoercedList()
        objects.enable_coercing(cls.fields['objects']._type._element_type,
                                list_obj, 'objects')
        list.extend(objects, items)
        setattr(list_obj, field_attribute('objects'), objects)
        list_obj.obj_reset_changes()
        return list_obj


class MasakariObjectSerializer(ovoo_base.VersionedObjectSerializer):
    """Turn Masakari objects into primitives and back, for RPC."""

    OBJ_BASE_CLASS = MasakariObject


def obj_equal_prims(obj_1, obj_2, ignore=None):
    """Compare two objects by their primitives, ignoring change tracking.

    :param ignore: further keys to drop (at any depth) before comparing.
    :returns: True when the primitives match.
    """

    def _strip(prim, keys):
        if isinstance(prim, dict):
            return {k: _strip(v, keys) for k, v in prim.items()
                    if k not in keys}
        if isinstance(prim, list):
            return [_strip(v, keys) for v in prim]
        return prim

    keys = [CHANGES_KEY] + list(ignore or [])
    return (_strip(obj_1.obj_to_primitive(), keys) ==
            _strip(obj_2.obj_to_primitive(), keys))


# The oslo decorators and helpers the object modules use, in one place.
remotable = ovoo_base.remotable
