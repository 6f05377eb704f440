# shellcheck shell=bash
# Raises the open-file limit for a server or the lab. Sourced by ./petrel.
# Every connection is a file descriptor: 10,000 connections need more than the
# usual default of 1024. Raises the soft limit to the hard one (and the hard one
# too where allowed), and says so in one line when it stays too low.

PETREL_FD_WANTED=65536
PETREL_FD_NEEDED=10240 # 10,000 connections and what the JVM itself keeps open

petrel_raise_fd_limit() {
  local hard soft
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$PETREL_FD_WANTED" ]; then
    if ulimit -Hn "$PETREL_FD_WANTED" 2>/dev/null; then hard=$PETREL_FD_WANTED; fi
  fi
  ulimit -Sn "$hard" 2>/dev/null || true
  soft=$(ulimit -Sn)
  if [ "$soft" != unlimited ] && [ "$soft" -lt "$PETREL_FD_NEEDED" ]; then
    echo "petrel: the open-file limit is $soft and cannot be raised here; connections past about $((soft - 64)) will be refused (raise it with 'ulimit -n' as root, or LimitNOFILE= for a systemd service)" >&2
  fi
}
