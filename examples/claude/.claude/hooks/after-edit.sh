#!/bin/sh
# PostToolUse (Edit|Write): remind the model to format the file it changed.
# JSON on stdout: additionalContext is added after the tool's result.
python3 -c '
import json, sys
event = json.load(sys.stdin)
path = event["tool_input"].get("file_path", "the file")
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "PostToolUse",
    "additionalContext": f"after-edit: run the formatter on {path}",
}}))
'
