#!/usr/bin/env bash
# Starts (or stops) a local Redis Cluster of three masters and no replicas, from the same redis-server as the
# standalone one, for trying Redrive on a cluster and for the cluster tests.
#   installer/redis-cluster.sh start [PORT PORT PORT]   (default 7001 7002 7003; a running cluster is left as it is)
#   installer/redis-cluster.sh stop  [PORT PORT PORT]
# Then: REDRIVE_REDIS_URI=redis://127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003
# Nodes keep nothing on disk but their cluster configuration, under ${REDRIVE_CLUSTER_DIR:-/tmp/redrive-cluster}.
set -euo pipefail

action=${1:?"usage: redis-cluster.sh start|stop [PORT PORT PORT]"}
shift
ports=("${@:-7001 7002 7003}")
read -r -a ports <<<"${ports[*]}"
dir=${REDRIVE_CLUSTER_DIR:-/tmp/redrive-cluster}

cluster_ok() {
    redis-cli -p "${ports[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'
}

case "$action" in
start)
    if cluster_ok; then
        echo "cluster on ${ports[*]} is already up"
        exit 0
    fi
    seeds=()
    for port in "${ports[@]}"; do
        mkdir -p "$dir/$port"
        rm -f "$dir/$port/nodes.conf"
        redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
            --cluster-config-file "$dir/$port/nodes.conf" --dir "$dir/$port" --save "" --appendonly no \
            --daemonize yes --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log"
        seeds+=("127.0.0.1:$port")
    done
    for port in "${ports[@]}"; do
        for _ in $(seq 1 50); do
            redis-cli -p "$port" ping >/dev/null 2>&1 && break
            sleep 0.1
        done
    done
    redis-cli --cluster create "${seeds[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log"
    for _ in $(seq 1 100); do
        if cluster_ok; then
            echo "cluster on ${ports[*]} is up"
            exit 0
        fi
        sleep 0.1
    done
    echo "cluster on ${ports[*]} did not reach cluster_state:ok; see $dir" >&2
    exit 1
    ;;
stop)
    for port in "${ports[@]}"; do
        redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
    done
    ;;
*)
    echo "usage: redis-cluster.sh start|stop [PORT PORT PORT]" >&2
    exit 2
    ;;
esac
