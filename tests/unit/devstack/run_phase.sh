#!/bin/bash
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

# Run one devstack phase of the plugin the way devstack does: the settings
# sourced, then plugin.sh sourced with the mode and phase, under errexit.
# Usage: run_phase.sh <plugin dir> <mode> [<phase>]
# $DISABLED_SERVICES (comma-separated) are disabled after the settings.
set -o errexit

here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=tests/unit/devstack/stubs.sh
source "$here/stubs.sh"
# shellcheck source=devstack/settings
source "$1/settings"
IFS=, read -ra disabled <<< "${DISABLED_SERVICES:-}"
disable_service "${disabled[@]}"
# shellcheck source=devstack/plugin.sh
source "$1/plugin.sh" "$2" "${3:-}"
