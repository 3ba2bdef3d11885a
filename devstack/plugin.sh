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

#
# Devstack plugin of Masakari: installs, configures and starts
# masakari-api and masakari-engine (and masakari-monitors on compute nodes).
# Devstack sources this file once per phase: ``plugin.sh <mode> <phase>``.
# Variables come from devstack/settings.

# Save trace setting
XTRACE=$(set +o | grep xtrace)
set -o xtrace

# True: the API runs under uWSGI behind Apache at /instance-ha;
# False: the standalone masakari-api server on $MASAKARI_SERVICE_PORT.
MASAKARI_USE_MOD_WSGI=${MASAKARI_USE_MOD_WSGI:-True}

if is_service_enabled tls-proxy; then
    MASAKARI_SERVICE_PROTOCOL="https"
fi

# The endpoint path as stored in the catalogue: Keystone substitutes
# $(tenant_id)s with the project of the token.
# shellcheck disable=SC2016  # a literal, not a command substitution
MASAKARI_ENDPOINT_SUFFIX='v1/$(tenant_id)s'

# Entry points of the phases
# --------------------------

# install_masakari - the service from $MASAKARI_DIR (cloned from
# $MASAKARI_REPO when missing) with the extras of the enabled features,
# and its client
function install_masakari {
    if [[ ! -d "$MASAKARI_DIR" ]]; then
        git_clone "$MASAKARI_REPO" "$MASAKARI_DIR" "$MASAKARI_BRANCH"
    fi
    local extras
    extras=$(masakari_extras)
    setup_develop "$MASAKARI_DIR" ${extras:+"$extras"}
    if [[ "$MASAKARI_FENCING_EMULATOR" == "True" ]]; then
        # The Redfish BMC emulator of masakari-simulator.
        pip_install sushy-tools
    fi
    if [[ "$MASAKARI_COORDINATION_BACKEND_URL" == etcd3+* ]]; then
        # tooz's etcd3 gateway driver.
        pip_install etcd3gw
    fi
    if use_library_from_git "python-masakariclient"; then
        git_clone_by_name "python-masakariclient"
        setup_dev_lib "python-masakariclient"
    else
        pip_install_gr python-masakariclient
    fi
}

# masakari_extras - the setup.cfg extras the enabled features need,
# comma-separated
function masakari_extras {
    local extras=()
    if masakari_fencing_enabled; then
        extras+=(fencing)
    fi
    if [[ "$MASAKARI_COORDINATION_BACKEND_URL" == redis* ]]; then
        extras+=(coordination)
    fi
    local IFS=,
    echo "${extras[*]}"
}

function masakari_fencing_enabled {
    [[ -n "$MASAKARI_FENCING_FILE" ]]
}

# configure_masakari - write /etc/masakari/{api-paste.ini,masakari.conf}
function configure_masakari {
    sudo install -d -o "$STACK_USER" "$MASAKARI_CONF_DIR"
    cp -p "$MASAKARI_LOCAL_API_PASTE_INI" "$MASAKARI_API_PASTE_INI"

    rm -f "$MASAKARI_CONF"
    if is_service_enabled masakari-api; then
        generate_masakari_conf
        configure_masakari_api
    fi

    # Nova access of the API (host checks) and of the engine (recovery).
    iniset "$MASAKARI_CONF" DEFAULT os_privileged_user_name nova
    iniset "$MASAKARI_CONF" DEFAULT os_privileged_user_auth_url "$KEYSTONE_SERVICE_URI"
    iniset "$MASAKARI_CONF" DEFAULT os_privileged_user_password "$SERVICE_PASSWORD"
    iniset "$MASAKARI_CONF" DEFAULT os_privileged_user_tenant "$SERVICE_PROJECT_NAME"
    iniset "$MASAKARI_CONF" DEFAULT graceful_shutdown_timeout "$SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT"
    iniset_rpc_backend masakari "$MASAKARI_CONF" DEFAULT

    if is_service_enabled tls-proxy; then
        # The TLS proxy owns the public port; the API listens behind it.
        iniset "$MASAKARI_CONF" DEFAULT masakari_api_listen_port "$MASAKARI_SERVICE_PORT_INT"
    fi

    if [[ "$MASAKARI_USE_MOD_WSGI" == "True" ]]; then
        write_uwsgi_config "$MASAKARI_UWSGI_CONF" "$MASAKARI_UWSGI" "/instance-ha" "" "masakari-api"
    fi
    configure_masakari_features
}

# configure_masakari_features - the options of the opt-in features the
# MASAKARI_{FENCING,METRICS,TAKEOVER,COORDINATION}_* variables turn on
function configure_masakari_features {
    if masakari_fencing_enabled; then
        iniset "$MASAKARI_CONF" fencing config_file "$MASAKARI_FENCING_FILE"
        iniset "$MASAKARI_CONF" fencing required "$MASAKARI_FENCING_REQUIRED"
    fi
    if [[ "$MASAKARI_FENCING_EMULATOR" == "True" ]]; then
        write_masakari_bmc_topology
    fi
    if [[ "$MASAKARI_METRICS" == "True" ]]; then
        iniset "$MASAKARI_CONF" metrics enabled True
        iniset "$MASAKARI_CONF" metrics listen_address "$MASAKARI_METRICS_LISTEN_ADDRESS"
        iniset "$MASAKARI_CONF" metrics api_listen_port "$MASAKARI_METRICS_API_PORT"
        iniset "$MASAKARI_CONF" metrics engine_listen_port "$MASAKARI_METRICS_ENGINE_PORT"
        iniset "$MASAKARI_CONF" metrics multiprocess_dir "$MASAKARI_METRICS_DIR"
        sudo install -d -o "$STACK_USER" "$MASAKARI_METRICS_DIR"
    fi
    if [[ -n "$MASAKARI_TAKEOVER_LEASE_TIMEOUT" ]]; then
        iniset "$MASAKARI_CONF" takeover lease_timeout "$MASAKARI_TAKEOVER_LEASE_TIMEOUT"
    fi
    if [[ -n "$MASAKARI_TAKEOVER_NEW_NOTIFICATION_AGE" ]]; then
        iniset "$MASAKARI_CONF" takeover new_notification_age "$MASAKARI_TAKEOVER_NEW_NOTIFICATION_AGE"
    fi
    if [[ -n "$MASAKARI_COORDINATION_BACKEND_URL" ]]; then
        iniset "$MASAKARI_CONF" coordination backend_url "$MASAKARI_COORDINATION_BACKEND_URL"
    fi
}

# write_masakari_bmc_topology - the simulator topology of the emulated
# BMCs: one host per name of $MASAKARI_FENCING_HOSTS
function write_masakari_bmc_topology {
    local host hosts=()
    for host in ${MASAKARI_FENCING_HOSTS//,/ }; do
        hosts+=("\"$host\"")
    done
    local IFS=,
    echo "{\"hosts\": [${hosts[*]}]}" > "$MASAKARI_BMC_TOPOLOGY"
}

# generate_masakari_conf - the commented sample of every option
function generate_masakari_conf {
    # NOTE: the namespace of Masakari's own options is "masakari.conf"
    # (the oslo.config.opts entry point); the reference asked for
    # "masakari", which does not exist, and got a file without them.
    oslo-config-generator --namespace keystonemiddleware.auth_token \
        --namespace masakari.conf \
        --namespace oslo.db \
        --output-file "$MASAKARI_CONF"
}

# configure_masakari_api - database, logging and keystone options
function configure_masakari_api {
    local db_url
    db_url=$(database_connection_url masakari)

    iniset "$MASAKARI_CONF" DEFAULT masakari_api_workers "$API_WORKERS"
    iniset "$MASAKARI_CONF" database connection "$db_url"
    # The taskflow persistence tables live in the masakari database.
    iniset "$MASAKARI_CONF" taskflow connection "$db_url"
    iniset "$MASAKARI_CONF" DEFAULT debug "$ENABLE_DEBUG_LOG_LEVEL"
    iniset "$MASAKARI_CONF" DEFAULT use_syslog "$SYSLOG"
    if [[ "$LOG_COLOR" == "True" ]] && [[ "$SYSLOG" == "False" ]]; then
        setup_colorized_logging "$MASAKARI_CONF"
    fi
    configure_keystone_authtoken_middleware "$MASAKARI_CONF" masakari
}

# create_masakari_accounts - service user, catalogue service and endpoint
function create_masakari_accounts {
    if ! is_service_enabled masakari; then
        return
    fi
    create_service_user "masakari" "admin"

    local masakari_service
    masakari_service=$(get_or_create_service "masakari" \
        "instance-ha" "OpenStack High Availability")

    local endpoint
    if [[ "$MASAKARI_USE_MOD_WSGI" == "True" ]]; then
        endpoint="$MASAKARI_SERVICE_PROTOCOL://$SERVICE_HOST/instance-ha/$MASAKARI_ENDPOINT_SUFFIX"
    else
        endpoint="$MASAKARI_SERVICE_PROTOCOL://$SERVICE_HOST:$MASAKARI_SERVICE_PORT/$MASAKARI_ENDPOINT_SUFFIX"
    fi
    get_or_create_endpoint "$masakari_service" "$REGION_NAME" "$endpoint"
}

# init_masakari - fresh database with the schema, and tempest's users
function init_masakari {
    recreate_database masakari
    "$MASAKARI_MANAGE" --config-file "$MASAKARI_CONF" db sync
    create_alt_tempest_accounts
}

# create_alt_tempest_accounts - the second project and users tempest uses
function create_alt_tempest_accounts {
    local alt_project alt_user admin_alt_user
    alt_project=$(get_or_create_project "${ALT_TENANT_NAME:-alt_demo}" default)
    alt_user=$(get_or_create_user "${ALT_USERNAME:-alt_demo}" \
        "$ADMIN_PASSWORD" default "alt_demo@example.com")
    get_or_add_user_project_role member "$alt_user" "$alt_project"
    admin_alt_user=$(get_or_create_user "${ADMIN_ALT_USERNAME:-admin_alt_demo}" \
        "$ADMIN_PASSWORD" default "admin_alt_demo@example.com")
    get_or_add_user_project_role admin "$admin_alt_user" "$alt_project"
}

# start_masakari - the BMC emulators, the API (waited for), then the
# engine, once the fencing file is there and valid
function start_masakari {
    local service_url
    if [[ "$MASAKARI_FENCING_EMULATOR" == "True" ]]; then
        start_masakari_bmc_emulator
    fi
    if [[ "$MASAKARI_METRICS" == "True" ]]; then
        # NOTE: numbers of an earlier run would add to this one's.
        rm -f "$MASAKARI_METRICS_DIR"/*.db
    fi
    if [[ "$MASAKARI_USE_MOD_WSGI" == "True" ]]; then
        run_process masakari-api "$(which uwsgi) --procname-prefix masakari-api --ini $MASAKARI_UWSGI_CONF"
        service_url=$MASAKARI_SERVICE_PROTOCOL://$MASAKARI_SERVICE_HOST/instance-ha/v1
    else
        run_process masakari-api "$MASAKARI_BIN_DIR/masakari-api --config-file=$MASAKARI_CONF --debug"
        service_url=$MASAKARI_SERVICE_PROTOCOL://$MASAKARI_SERVICE_HOST:$MASAKARI_SERVICE_PORT
        if is_service_enabled tls-proxy; then
            start_tls_proxy masakari-service '*' "$MASAKARI_SERVICE_PORT" \
                "$SERVICE_HOST" "$MASAKARI_SERVICE_PORT_INT"
        fi
    fi

    echo "Waiting for Masakari API to start..."
    if ! wait_for_service "$SERVICE_TIMEOUT" "$service_url"; then
        die $LINENO "masakari-api did not start"
    fi

    if is_service_enabled masakari-engine; then
        if masakari_fencing_enabled; then
            "$MASAKARI_MANAGE" --config-file "$MASAKARI_CONF" fencing check ||
                die $LINENO "the fencing file $MASAKARI_FENCING_FILE is not valid"
        fi
        run_process masakari-engine "$MASAKARI_BIN_DIR/masakari-engine --config-file=$MASAKARI_CONF --debug"
    fi
}

# start_masakari_bmc_emulator - masakari-simulator's Redfish and IPMI BMCs
# for the hosts of the topology; they write the fencing file
function start_masakari_bmc_emulator {
    run_process masakari-bmc "$MASAKARI_BIN_DIR/masakari-simulator --topology $MASAKARI_BMC_TOPOLOGY --host $MASAKARI_BMC_EMULATOR_HOST --port $MASAKARI_BMC_EMULATOR_PORT --bmc --bmc-power-delay $MASAKARI_BMC_POWER_DELAY --fencing-config $MASAKARI_FENCING_FILE --fencing-driver $MASAKARI_FENCING_DRIVER"
    echo "Waiting for the BMC emulators to write $MASAKARI_FENCING_FILE..."
    local waited=0
    while [[ ! -s "$MASAKARI_FENCING_FILE" ]]; do
        if (( waited >= SERVICE_TIMEOUT )); then
            die $LINENO "masakari-bmc wrote no fencing file"
        fi
        sleep 1
        waited=$((waited + 1))
    done
}

# stop_masakari - both services, and the BMC emulators
function stop_masakari {
    local serv
    for serv in masakari-engine masakari-api; do
        stop_process "$serv"
    done
    if [[ "$MASAKARI_FENCING_EMULATOR" == "True" ]]; then
        stop_process masakari-bmc
    fi
}

# cleanup_masakari - remove what configure_masakari wrote
function cleanup_masakari {
    sudo rm -rf "${MASAKARI_CONF_DIR:?}"/*
    if [[ "$MASAKARI_USE_MOD_WSGI" == "True" ]]; then
        remove_uwsgi_config "$MASAKARI_UWSGI_CONF" "masakari-api"
    fi
}

# Horizon panels
# --------------

MASAKARI_DASHBOARD_LINKS=(
    "masakaridashboard/local/enabled/_50_masakaridashboard.py:openstack_dashboard/local/enabled"
    "masakaridashboard/local/local_settings.d/_50_masakari.py:openstack_dashboard/local/local_settings.d"
    "masakaridashboard/conf/masakari_policy.yaml:openstack_dashboard/conf"
)

# install_masakaridashboard - the panels, linked into horizon's tree
function install_masakaridashboard {
    git_clone "$MASAKARI_DASHBOARD_REPO" "$MASAKARI_DASHBOARD_DIR" "$MASAKARI_DASHBOARD_BRANCH"
    setup_develop "$MASAKARI_DASHBOARD_DIR"
    local link
    for link in "${MASAKARI_DASHBOARD_LINKS[@]}"; do
        ln -fs "$MASAKARI_DASHBOARD_DIR/${link%%:*}" "$HORIZON_DIR/${link#*:}"
    done
}

# uninstall_masakaridashboard - remove the links, reload horizon
function uninstall_masakaridashboard {
    local link
    for link in "${MASAKARI_DASHBOARD_LINKS[@]}"; do
        rm -f "$HORIZON_DIR/${link#*:}/$(basename "${link%%:*}")"
    done
    restart_apache_server
}

# masakari-monitors (compute nodes)
# ---------------------------------

MASAKARI_MONITORS_STARTED=(masakari-processmonitor masakari-instancemonitor
    masakari-introspectiveinstancemonitor)

# configure_masakarimonitors - install the monitors, write their config
function configure_masakarimonitors {
    git_clone "$MASAKARI_MONITORS_REPO" "$MASAKARI_MONITORS_DIR" "$MASAKARI_MONITORS_BRANCH"
    sudo install -d -o "$STACK_USER" "$MASAKARI_MONITORS_CONF_DIR"
    setup_develop "$MASAKARI_MONITORS_DIR"

    rm -f "$MASAKARI_MONITORS_CONF"
    oslo-config-generator --namespace masakarimonitors.conf \
        --namespace oslo.log \
        --namespace oslo.middleware \
        --output-file "$MASAKARI_MONITORS_CONF"

    iniset "$MASAKARI_MONITORS_CONF" api auth_url "$KEYSTONE_SERVICE_URI"
    iniset "$MASAKARI_MONITORS_CONF" api password "$SERVICE_PASSWORD"
    iniset "$MASAKARI_MONITORS_CONF" api project_name "$SERVICE_PROJECT_NAME"
    iniset "$MASAKARI_MONITORS_CONF" api username masakari
    iniset "$MASAKARI_MONITORS_CONF" api user_domain_id default
    iniset "$MASAKARI_MONITORS_CONF" api project_domain_id default
    iniset "$MASAKARI_MONITORS_CONF" api region "$REGION_NAME"

    # An empty list: the process monitor watches nothing until an
    # operator fills it.
    local process_list=$MASAKARI_MONITORS_CONF_DIR/process_list.yaml
    iniset "$MASAKARI_MONITORS_CONF" process process_list_path "$process_list"
    : > "$process_list"
}

# run_masakarimonitors - the process and instance monitors
# NOTE: masakari-hostmonitor is enabled by the settings but not started:
# it needs a Pacemaker/Corosync (or Consul) cluster that devstack lacks.
function run_masakarimonitors {
    local monitor
    for monitor in "${MASAKARI_MONITORS_STARTED[@]}"; do
        run_process "$monitor" "$MASAKARI_BIN_DIR/$monitor"
    done
}

# stop_masakarimonitors - stop them and remove their config
function stop_masakarimonitors {
    local monitor
    for monitor in "${MASAKARI_MONITORS_STARTED[@]}"; do
        stop_process "$monitor"
    done
    sudo rm -rf "${MASAKARI_MONITORS_CONF_DIR:?}"/*
}

# Phase dispatch
# --------------

function masakari_monitors_enabled {
    is_service_enabled masakari-monitors && is_service_enabled n-cpu
}

if is_service_enabled masakari; then
    if [[ "$1" == "stack" && "$2" == "install" ]]; then
        if is_service_enabled masakari-api; then
            echo_summary "Installing Masakari from $MASAKARI_DIR"
            install_masakari
        fi
    elif [[ "$1" == "stack" && "$2" == "post-config" ]]; then
        if is_service_enabled masakari-api; then
            echo_summary "Configuring Masakari"
            configure_masakari
            if is_service_enabled key; then
                create_masakari_accounts
            fi
        fi
    elif [[ "$1" == "stack" && "$2" == "extra" ]]; then
        if is_service_enabled masakari-api; then
            echo_summary "Initializing and starting Masakari"
            init_masakari
            start_masakari
        fi
        if is_service_enabled horizon; then
            install_masakaridashboard
        fi
    fi

    if [[ "$1" == "unstack" ]]; then
        if is_service_enabled horizon; then
            uninstall_masakaridashboard
        fi
        if is_service_enabled masakari-api; then
            stop_masakari
            cleanup_masakari
        fi
    fi
fi

if masakari_monitors_enabled; then
    if [[ "$1" == "stack" && "$2" == "post-config" ]]; then
        echo_summary "Configuring masakari-monitors"
        configure_masakarimonitors
    elif [[ "$1" == "stack" && "$2" == "extra" ]]; then
        echo_summary "Starting masakari-monitors"
        run_masakarimonitors
    fi

    if [[ "$1" == "unstack" ]]; then
        stop_masakarimonitors
    fi
fi

# Restore xtrace
$XTRACE
