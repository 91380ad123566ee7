#!/bin/sh
# Run Donify as a Tello at 192.168.10.1 so that DJITelloPy scripts connect UNMODIFIED.
#
#   sudo scripts/tello-netns.sh up [--drones N] [donify tello options…]   # Ctrl-C stops Donify
#   sudo scripts/tello-netns.sh down                                       # removes the namespace
#
# `up` makes a network namespace ("donify", or $DONIFY_NETNS) joined to this host by a veth pair:
# the drones' side has 192.168.10.1/24 (more drones: .3, .4, …), this host's side
# 192.168.10.2/24, as a PC on a Tello's Wi-Fi has. It then runs `donify tello` inside it, in the
# foreground, as the user who called sudo. DJITelloPy on this host binds *:8889 and *:8890 itself
# and sends to 192.168.10.1:8889, which is now Donify. The namespace stays after Donify stops (run
# `up` again); `down` stops what still runs in it and removes it and the veth pair.
#
# Environment: DONIFY the command to run (default: `donify` on PATH); DONIFY_NETNS the namespace.
set -eu

NS="${DONIFY_NETNS:-donify}"
SHORT="$(printf '%.12s' "$NS")"  # interface names have at most 15 characters
HOST_IF="${SHORT}-h"
DRONE_IF="${SHORT}-d"
SUBNET="192.168.10"

die() { echo "tello-netns.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "expected 'up' or 'down' (sudo scripts/tello-netns.sh up [--drones N] [donify tello options])"
ACTION="$1"; shift
[ "$(id -u)" = 0 ] || die "$ACTION: needs root to make a network namespace (run it with sudo)"
command -v ip >/dev/null 2>&1 || die "$ACTION: needs the 'ip' command (iproute2)"

case "$ACTION" in
  down)
    if ip netns list | grep -qw "$NS"; then
      for pid in $(ip netns pids "$NS"); do kill "$pid" 2>/dev/null || true; done
      ip netns del "$NS"
    fi
    ip link del "$HOST_IF" 2>/dev/null || true
    echo "tello-netns.sh: namespace $NS removed"
    ;;
  up)
    DRONES=1
    if [ "${1:-}" = "--drones" ]; then
      [ $# -ge 2 ] || die "up: --drones: expected a number of drones"
      DRONES="$2"; shift 2
    fi
    case "$DRONES" in ''|*[!0-9]*) die "up: --drones: expected a whole number from 1 to 16, got '$DRONES'" ;; esac
    [ "$DRONES" -ge 1 ] && [ "$DRONES" -le 16 ] || die "up: --drones: expected 1 to 16, got $DRONES"
    if ! ip netns list | grep -qw "$NS"; then
      ip netns add "$NS" 2>/dev/null || die "up: could not make the network namespace $NS (needs CAP_NET_ADMIN: root on the host, or a privileged container)"
      ip link add "$HOST_IF" type veth peer name "$DRONE_IF"
      ip link set "$DRONE_IF" netns "$NS"
      ip addr add "$SUBNET.2/24" dev "$HOST_IF"
      ip link set "$HOST_IF" up
      ip netns exec "$NS" ip link set lo up
      ip netns exec "$NS" ip link set "$DRONE_IF" up
    fi
    # the drones' addresses: .1, then .3, .4, … (.2 is this host's side)
    i=0
    while [ "$i" -lt "$DRONES" ]; do
      if [ "$i" = 0 ]; then last=1; else last=$((i + 2)); fi
      ip netns exec "$NS" ip addr replace "$SUBNET.$last/24" dev "$DRONE_IF"
      i=$((i + 1))
    done
    DONIFY_CMD="${DONIFY:-donify}"
    echo "tello-netns.sh: Donify's drones are $SUBNET.1$( [ "$DRONES" -gt 1 ] && echo " and $SUBNET.3…" ) in namespace $NS; this host is $SUBNET.2"
    echo "tello-netns.sh: scripts connect unchanged: Tello() (or TelloSwarm.fromIps([...]))"
    if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
      # shellcheck disable=SC2086
      exec ip netns exec "$NS" runuser -u "$SUDO_USER" -- $DONIFY_CMD tello --host "$SUBNET.1" --port 8889 --drones "$DRONES" "$@"
    fi
    # shellcheck disable=SC2086
    exec ip netns exec "$NS" $DONIFY_CMD tello --host "$SUBNET.1" --port 8889 --drones "$DRONES" "$@"
    ;;
  *)
    die "expected 'up' or 'down', got '$ACTION'"
    ;;
esac
