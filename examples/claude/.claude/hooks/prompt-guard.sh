#!/bin/sh
# UserPromptSubmit: a prompt holding what looks like an API key is refused, so it never
# reaches the model or the session file.
if python3 -c 'import json, re, sys; sys.exit(0 if re.search(r"sk-[A-Za-z0-9]{20,}", json.load(sys.stdin)["prompt"]) else 1)'; then
  echo '{"decision": "block", "reason": "prompt-guard: the prompt contains an API key; remove it"}'
fi
exit 0
