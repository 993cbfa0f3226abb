#!/bin/sh
# PreToolUse (Bash): refuse `rm -rf /` and downloads piped into a shell.
# Exit 2 blocks the call; what is written to stderr is the reason the model reads.
command=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["tool_input"].get("command", ""))')
case "$command" in
  *"rm -rf /"*)
    echo "guard-bash: rm -rf / is never allowed" >&2
    exit 2 ;;
  *curl*"| sh"*|*curl*"|sh"*|*wget*"| sh"*)
    echo "guard-bash: download the script, read it, then run it" >&2
    exit 2 ;;
esac
exit 0
