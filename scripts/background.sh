#!/bin/sh
# Runs a long command in the background at the lowest CPU priority, and waits for it later: `make
# test` starts the sanitizer build this way first, so it runs in whatever CPU the native and wasm
# builds leave idle (at nice 19 a process gets about 1.5% of a core a busy nice-0 process wants)
# and waits for it before the browser tests, which it would slow. Its output goes to a log: the lines starting "==" or "shard" are
# shown when it succeeds, the whole log when it fails.
#
#   scripts/background.sh start NAME COMMAND [ARG...]   # returns at once
#   scripts/background.sh wait NAME                      # exit status of COMMAND
#
# State lives in build/background/NAME.{pid,log,status}.
set -u
dir=build/background
what=$1 name=$2
shift 2
case $what in
  start)
    mkdir -p "$dir"
    rm -f "$dir/$name.status"
    # No setsid: with the kernel's autogroups (sched_autogroup_enabled), a new session is a new
    # group that gets an equal share of the CPU whatever its nice value; in make's own session
    # nice 19 holds (measured: under setsid the nice-19 compiles took half of each core beside
    # make's). Its output goes to files, so make does not wait for it; the status file appears
    # when the command ends.
    nice -n 19 sh -c '"$@" >"'"$dir/$name.log"'" 2>&1; echo $? >"'"$dir/$name.status"'"' \
      sh "$@" </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/$name.pid"
    echo "== $name: started in the background (nice 19; log $dir/$name.log)"
    ;;
  wait)
    if [ ! -f "$dir/$name.pid" ]; then
      echo "$name was not started" >&2
      exit 2
    fi
    start=$(date +%s)
    while [ ! -f "$dir/$name.status" ]; do
      if ! kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null && [ ! -f "$dir/$name.status" ]; then
        echo "$name ended without an exit status (killed?); its log:" >&2
        cat "$dir/$name.log" >&2
        exit 1
      fi
      sleep 2
    done
    status=$(cat "$dir/$name.status")
    echo "== $name: waited $(($(date +%s) - start)) s for the background run; exit status $status"
    if [ "$status" = 0 ]; then grep -E '^(==|shard)' "$dir/$name.log"; else cat "$dir/$name.log"; fi
    exit "$status"
    ;;
  *)
    echo "usage: $0 start|wait NAME [COMMAND...]" >&2
    exit 2
    ;;
esac
