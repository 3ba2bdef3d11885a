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

"""What a service does once it has loaded everything it serves with."""

import gc


def freeze_loaded_objects():
    """Move every object allocated so far (libraries, configuration, the
    WSGI app, the engine's drivers) out of the garbage collector's reach.

    NOTE: they live as long as the process, yet each full collection
    walked them all again, a pause that made the slowest of the API's
    large pages several times slower than the rest (measured in
    doc/source/contributor/benchmarks.rst). Frozen before the API's
    workers fork, they also
    stay in pages the workers share with their parent. Objects that
    become garbage later are still collected as usual.
    """
    gc.collect()
    gc.freeze()
