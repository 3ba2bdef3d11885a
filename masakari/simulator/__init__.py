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

"""A simulated OpenStack cloud (Keystone v3, Nova v2.1, Placement) for
Masakari.

Masakari recovers instances by calling Nova. This package serves, over real
HTTP, a small Keystone, a Nova and a Placement with the semantics Masakari
relies on, so that recoveries can be rehearsed and tested without a
cloud::

    masakari-simulator --topology small [--host 127.0.0.1] [--port 18774]

It prints its URL and the masakari.conf lines that point Masakari at it.
It is independent of the Masakari services (it imports none of them).

Mounts (one port):

* ``/identity``: Keystone. ``GET /`` (300, versions), ``GET /v3``,
  ``POST /v3/auth/tokens`` (password method, project or system scope; 201,
  token in ``X-Subject-Token``, catalogue with a ``compute`` entry named
  ``nova`` pointing at ``/compute/v2.1`` and a ``placement`` entry
  pointing at ``/placement``), ``GET|HEAD|DELETE
  /v3/auth/tokens`` (validate or revoke ``X-Subject-Token``). Tokens expire
  after ``token_ttl`` seconds.
* ``/compute``: Nova, microversions 2.1 to 2.53 (``X-OpenStack-Nova-API-
  Version`` / ``OpenStack-API-Version: compute X.Y``, echoed). ``GET
  /os-services?host=&binary=``, ``PUT /os-services/{uuid}``, ``GET
  /servers[/detail]?all_tenants=&host=&limit=&marker=``, ``GET
  /servers/{id}``, ``POST /servers/{id}/action`` (``lock``, ``unlock``,
  ``os-resetState``, ``os-stop``, ``os-start``, ``evacuate``), ``GET
  /os-aggregates[/{id}]``, ``POST /os-aggregates/{id}/action``
  (``add_host``, ``remove_host``). Every call needs a valid token; the
  admin-only calls need the ``admin`` role.
* ``/placement``: Placement reads (``masakari.simulator.placement``),
  microversions 1.0 to 1.39, admin only: ``GET /resource_providers
  [?name=&uuid=]``, ``GET /resource_providers/{uuid}[/inventories|
  /usages|/allocations]``, ``GET /allocations/{consumer}``. One provider
  per compute host, named after it.
* ``/_simulator``: control. ``GET|DELETE /calls`` (the ordered call log of
  Keystone, Nova and Placement requests,
  ``?service=nova|keystone|placement``), ``GET /state``, ``POST /hosts``,
  ``PUT /hosts/{name}`` (e.g. ``{"state": "down"}``, or ``{"resources":
  {...}}`` for new inventories),
  ``POST /servers``, ``PUT /servers/{id}``, ``PUT /delays``, ``GET|POST|
  DELETE /faults``, ``DELETE /tokens`` (revoke all), ``GET /machines``,
  ``GET|PUT /machines/{name}`` (``{"power": "on"|"off"}``, ``{"alive":
  false}`` for a crash, optional ``"delay"``), ``PUT /redfish-events``
  (power changes applied by the Redfish BMC emulator).

Topology file (JSON object; every key optional; unknown keys are errors)::

    {
      "region": "RegionOne",            # catalogue region
      "compute_service_name": "nova",   # catalogue name of the compute entry
      "max_limit": 1000,                # Nova's [api]max_limit (page size)
      "token_ttl": 3600,                # seconds a token lives
      "service_down_time": 60,          # Nova's: a dead host's service
                                        # is reported up this long
      "boot_time": 0,                   # power on -> service reports
      "delays": {"evacuate": 2.0, "stop": 1.0, "start": 1.0},
      "evacuation_workers": 0,          # evacuations Nova runs at once
      "evacuation_queue": null,         # accepted beyond the workers,
                                        # then 429 (null: no bound)
      "projects": ["service", {"name": "demo", "domain": "Default"}],
      "users": [{"name": "masakari", "password": "masakari",
                 "domain": "Default",
                 "roles": {"service": ["admin"]},  # project -> roles
                 "system_roles": ["admin"]}],      # for system scope
      "hosts": ["compute-1",
                {"name": "compute-2", "state": "up", "status": "enabled",
                 "disabled_reason": null, "forced_down": false,
                 "zone": "nova", "binaries": ["nova-compute"],
                 "max_servers": 10,
                 # Placement inventories over the defaults (below)
                 "resources": {"VCPU": {"total": 32,
                                        "allocation_ratio": 4.0},
                               "MEMORY_MB": 131072}}],
      "flavors": {"gpu.large": {"vcpus": 8, "ram": 32768, "disk": 100,
                                "ephemeral": 0, "swap": 0,
                                "extra_specs": {
                                    "resources:CUSTOM_GPU": "1"}}},
      "servers": [{"name": "vm", "count": 3,    # vm-1, vm-2, vm-3
                   "host": "compute-1", "project": "demo",
                   "flavor": "m1.small",
                   "vm_state": "active", "task_state": null,
                   "power_state": 1, "locked": false,
                   "metadata": {"HA_Enabled": "True"},
                   "fail_evacuate": false, "evacuate_delay": null,
                   "id": "optional fixed UUID (not with count)"}],
      "aggregates": [{"name": "agg-1", "id": 1, "hosts": ["compute-1"],
                      "availability_zone": null, "metadata": {}}],
      "faults": [{"service": "nova", "method": "POST",
                  "path": "/servers/*/action", "action": "evacuate",
                  "status": 503, "message": "...", "hang": 0,
                  "times": 1, "skip": 0}]
    }

Defaults: user ``masakari``/``masakari`` with the admin role on project
``service`` and on the system; project ``demo`` always exists and owns the
servers that name no project. Ids are derived from names, so a topology
always yields the same ids. Bundled examples live in ``topologies/``
(``--topology small`` loads ``topologies/small.json``).

Behaviour worth knowing:

* A host's ``state`` is what Nova reports (``up``/``down``); Nova refuses to
  evacuate from a host whose service is up (400), so mark the failed host
  down (topology or ``PUT /_simulator/hosts/{name}``) to let recovery work.
* Every compute host has a machine (power on/off, alive or not). A host
  powered off (through its BMC or ``/machines``) or crashed stops
  heartbeating; Nova keeps reporting its service up for
  ``service_down_time`` seconds unless it is forced down, and refuses to
  evacuate from it meanwhile. Powered on, the host reports again after
  ``boot_time``. A service's ``updated_at`` is its last report (a running
  service reports continuously; a stopped one keeps the time of its last
  heartbeat, or of the last change of its record), so a host powered on
  within ``service_down_time`` of its failure looks up at once, with an
  old ``updated_at``, until it has booted. ``masakari.simulator.bmcs``
  (the CLI's ``--bmc``) gives each host a Redfish and an IPMI BMC tied to
  its power.
* Each server holds its flavor's resources (``m1.small`` by default; the
  ``m1.*`` flavors of Nova are built in) on its host's Placement
  provider. A host without ``resources`` has ``VCPU`` 128 at ratio 4.0,
  ``MEMORY_MB`` 1048576 (512 reserved) and ``DISK_GB`` 10240. An
  evacuation accepted holds the resources on its destination too, until
  it ends (Nova keeps the failed host's allocation until that host's
  nova-compute starts again; here it goes when the evacuation ends).
* Evacuate picks its destination when accepted: the requested host if its
  service is enabled and up (disabled only with ``force``), under
  ``max_servers`` and with room in Placement, else the least loaded such
  host; with none (Nova's NoValidHost) the server ends in ``error`` at
  once, on its host, with the fault Nova records. The move completes
  after ``evacuate_delay`` (per server) or ``delays.evacuate`` seconds;
  ``fail_evacuate`` servers end in ``error`` on their old host instead.
  With ``evacuation_workers`` N > 0, Nova carries out N evacuations at a
  time and the others wait their turn (in the order they were accepted);
  with ``evacuation_queue`` Q as well, an evacuation asked for while N + Q
  are in progress is refused with 429 (an overloaded API and conductor).
  ``GET /_simulator/state`` tells under ``evacuations`` how many are in
  progress, the most ever in progress at once (``peak``) and how many were
  refused.
* Fault rules match Keystone, Nova or Placement calls by method, path
  glob (with or without the version prefix) and action name; ``hang``
  delays the answer (a "hung" call), ``status`` replaces it by an error in
  the service's fault format; ``times``/``skip`` choose which matching
  calls are affected.
* Servers are listed newest first (Nova's created_at/id descending order),
  i.e. in reverse topology order; a full page has a ``servers_links`` next
  link.
"""
