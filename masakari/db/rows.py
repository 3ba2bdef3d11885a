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

"""The row type every DB API read gives: a dict with attribute access."""


class Row(dict):
    """A row: item access, ``get`` and attribute access, as a model
    instance has, without the ORM's per-instance bookkeeping (the identity
    map, change tracking), which cost more than the query itself on pages
    of a hundred rows.
    """

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def maker(names, embed=None, embedded_names=()):
    """The function turning a result's values into a Row: the columns
    ``names``, then, when ``embed`` names a relationship, the columns
    ``embedded_names`` of its row, carried under ``embed`` (None when the
    outer join found no row: its ``id`` is NULL).
    """
    if embed is None:
        return lambda values: Row(zip(names, values))
    width = len(names)
    embedded_id = width + embedded_names.index('id')

    def row(values):
        result = Row(zip(names, values))
        result[embed] = (Row(zip(embedded_names, values[width:]))
                         if values[embedded_id] is not None else None)
        return result
    return row
