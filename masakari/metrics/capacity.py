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

"""The failover capacity of every segment, as masakari-engine gauges
(opt-in: [metrics]/segment_capacity_interval).

A background thread computes it (Nova and Placement reads, the packing,
by the function masakari-engine hands over: masakari.capacity's
``report.capacity``) once at start and then every interval; a scrape
serves the last computation and never reads the cloud. A segment whose
computation fails keeps no sample until the next one succeeds (logged).
"""

import threading

from oslo_log import log as logging
from prometheus_client.core import GaugeMetricFamily

import masakari.conf
from masakari import context as masakari_context
from masakari import objects

CONF = masakari.conf.CONF
LOG = logging.getLogger(__name__)


class SegmentCapacityCollector:
    """``masakari_segment_failures_tolerated{segment}``,
    ``masakari_segment_failures_tolerated_target{segment}`` and
    ``masakari_segment_spare{segment,resource}``.

    :param capacity: ``(context, segment)`` -> the capacity summary of a
        FailoverSegment (``masakari.capacity.report.capacity``).
    """

    def __init__(self, interval, capacity):
        self.interval = interval
        self._capacity = capacity
        self._summaries = []
        self._stop = threading.Event()

    @staticmethod
    def _families():
        tolerated = GaugeMetricFamily(
            'masakari_segment_failures_tolerated',
            'Host failures the segment tolerates: the servers of any that '
            'many failed hosts find room on the others, by the packing '
            'rule (a proven lower bound for large segments).',
            labels=['segment'])
        target = GaugeMetricFamily(
            'masakari_segment_failures_tolerated_target',
            'Host failures every segment should tolerate '
            '([metrics]/failures_tolerated_target).', labels=['segment'])
        spare = GaugeMetricFamily(
            'masakari_segment_spare',
            "Room left, per resource class, on the hosts the segment's "
            'recovery method fills (units of the class: VCPU, MB, GB...).',
            labels=['segment', 'resource'])
        return tolerated, target, spare

    def refresh(self):
        """Compute every segment's capacity now."""
        admin = masakari_context.get_admin_context()
        summaries = []
        for segment in objects.FailoverSegmentList.get_all(admin):
            try:
                summaries.append(self._capacity(admin, segment))
            except Exception as error:
                LOG.warning('Failover capacity of segment %(segment)s not '
                            'computed: %(error)s',
                            {'segment': segment.name, 'error': error})
        self._summaries = summaries

    def _run(self):
        while True:
            try:
                self.refresh()
            except Exception:
                LOG.exception('Failover capacity not computed.')
            if self._stop.wait(self.interval):
                return

    def start(self):
        """Compute now and then every interval, on a daemon thread."""
        threading.Thread(target=self._run, daemon=True,
                         name='segment-capacity').start()
        return self

    def stop(self):
        self._stop.set()

    def collect(self):
        tolerated, target, spare = self._families()
        for summary in self._summaries:
            name = summary['segment']
            tolerated.add_metric([name], summary['failures_tolerated'])
            target.add_metric([name], CONF.metrics.failures_tolerated_target)
            for resource, amount in summary['spare'].items():
                spare.add_metric([name, resource], amount)
        yield tolerated
        yield target
        yield spare

    def describe(self):
        return list(self._families())


def collectors(capacity):
    """The capacity collector (see SegmentCapacityCollector), started,
    when [metrics]/segment_capacity_interval is set; else none.
    """
    interval = CONF.metrics.segment_capacity_interval
    return ([SegmentCapacityCollector(interval, capacity).start()]
            if interval else [])
