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

# Stand-ins for the devstack functions devstack/plugin.sh calls.
# shellcheck shell=bash
#
# Each call is appended to $DEVSTACK_CALLS as one line: the function name
# and its arguments separated by tabs.  iniset edits real ini files (through
# $INISET_TOOL), the database lives in SQLite files under $DEVSTACK_STATE,
# and the service runners only record what they would start.

declare -A GITREPO GITBRANCH GITDIR
export GITREPO GITBRANCH GITDIR

function _record {
    local IFS=$'\t'
    echo "$*" >> "$DEVSTACK_CALLS"
}

function is_service_enabled {
    local service
    for service in "$@"; do
        [[ ",$ENABLED_SERVICES," == *",$service,"* ]] && return 0
    done
    return 1
}

function enable_service {
    local service
    for service in "$@"; do
        is_service_enabled "$service" || ENABLED_SERVICES+=",$service"
    done
}

function disable_service {
    local service
    for service in "$@"; do
        ENABLED_SERVICES=$(echo ",$ENABLED_SERVICES," | sed "s/,$service,/,/g; s/^,//; s/,$//")
    done
}

function trueorfalse {
    local default=$1 value=${!2:-}
    case "${value,,}" in
        1|yes|true|on) echo True ;;
        0|no|false|off) echo False ;;
        *) echo "$default" ;;
    esac
}

function use_library_from_git {
    [[ ",$LIBS_FROM_GIT," == *",$1,"* ]]
}

function iniset {
    _record iniset "$@"
    "$PYTHON" "$INISET_TOOL" "$@"
}

function sudo {
    _record sudo "$@"
    "$@"
}

function which {
    echo "/usr/local/bin/$1"
}

function get_python_exec_prefix {
    echo "$PYTHON_BIN_DIR"
}

function database_connection_url {
    _record database_connection_url "$@"
    echo "sqlite:///$DEVSTACK_STATE/$1.sqlite"
}

function recreate_database {
    _record recreate_database "$@"
    rm -f "$DEVSTACK_STATE/$1.sqlite"
}

function get_or_create_service {
    _record get_or_create_service "$@"
    echo "service-id-$1"
}

function get_or_create_project {
    _record get_or_create_project "$@"
    echo "project-id-$1"
}

function get_or_create_user {
    _record get_or_create_user "$@"
    echo "user-id-$1"
}

function wait_for_service {
    _record wait_for_service "$@"
    return "${WAIT_FOR_SERVICE_RC:-0}"
}

function die {
    _record die "$@"
    echo "die: $*" >&2
    exit 1
}

function echo_summary {
    echo "$@"
}

# Helpers whose effect the tests only need to see requested.
for _name in setup_develop setup_dev_lib git_clone git_clone_by_name \
        pip_install pip_install_gr create_service_user get_or_create_endpoint \
        get_or_add_user_project_role configure_keystone_authtoken_middleware \
        iniset_rpc_backend setup_colorized_logging write_uwsgi_config \
        remove_uwsgi_config run_process stop_process start_tls_proxy \
        restart_apache_server; do
    eval "function $_name { _record $_name \"\$@\"; }"
done
unset _name
