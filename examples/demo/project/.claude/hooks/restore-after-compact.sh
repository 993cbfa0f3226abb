#!/usr/bin/env bash
# SessionStart with source "compact": what the summary may have lost goes back to the
# model as context (plain stdout on SessionStart is added as context).
cat > /dev/null
echo "compact" >> "$CLAUDE_PROJECT_DIR/.claude/restored.log"
echo "Restored after compaction: the build folder must stay; config.env holds a secret."
