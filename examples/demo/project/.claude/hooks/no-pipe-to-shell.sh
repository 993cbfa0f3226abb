#!/bin/sh
# A Claude Code PreToolUse hook, written against Claude's documentation only:
# read the tool input JSON on stdin; exit 2 with a reason on stderr blocks the call.
input=$(cat)
case "$input" in
  *'| sh'*|*'|sh'*|*'| bash'*|*'|bash'*)
    echo "Piping a download into a shell is not allowed in this project." >&2
    exit 2 ;;
esac
exit 0
