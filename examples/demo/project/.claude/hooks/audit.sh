#!/bin/sh
# A Claude Code PostToolUse hook: append every file change to an audit log.
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/.claude/audit.log"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "audit: change recorded"}}'
