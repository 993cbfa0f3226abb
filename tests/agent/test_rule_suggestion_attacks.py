"""Crafted lines against "don't ask again": the rule written must not allow more.

For each line the user approves, the rules :func:`rules_to_remember` offers are put
in force, and each probe (a line the user did not approve, beyond the same program
and subcommand, or one that runs another program) must still not run unasked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hookline.agent.gate import PermissionGate
from hookline.agent.rule_suggestions import rules_to_remember
from hookline.core.runner import HookRunner
from hookline.settings.permission_rules import PermissionRules

#: (the approved line, probes that must still ask).
CASES = [
    ("npm run 'build x'", ["npm run evil", "npm run test"]),
    ("npm run build\\ x", ["npm run evil"]),
    ("npm run -s build", ["npm run evil", "npm run -s evil"]),
    ("npm run --silent build", ["npm run evil"]),
    ("npm run-script build -- x", ["npm run-script evil", "npm run evil"]),
    ("npm rum build x", ["npm rum evil"]),
    ("npm x cowsay hi", ["npm x evil", "npm x -- rm -rf /"]),
    ("npm exec cowsay hi", ["npm exec evil"]),
    ("pnpm run-script build x", ["pnpm run-script evil"]),
    ("yarn run 'a b' c", ["yarn run evil"]),
    ("go generate ./x", ["go generate ./...", "go generate ./evil"]),
    ("docker compose ps -a", ["docker compose run x sh", "docker compose exec x sh"]),
    ("docker container ls -a", ["docker container run -v /:/h x", "docker container exec x sh"]),
    ("podman compose ps -a", ["podman compose run x sh"]),
    ("git hook run pre-commit", ["git hook run evil"]),
    ("bun exec echo hi", ["bun exec rm -rf /"]),
    ("git push origin main", ["git push --receive-pack='touch p' .", "git pull", "rm -rf /"]),
    ("git fetch origin", ["git fetch --upload-pack='touch p' .", "git -c x=y fetch"]),
    ("git -C sub push origin", ["git -C / push origin", "git push --force"]),
    ("git --no-pager push origin", ["git push --force", "git --no-pager pull"]),
    ("cargo build --release", ["cargo run", "cargo install evil"]),
    ("touch 'a b'", ["touch a", "touch b", "touch c"]),
    ("touch '*'", ["touch x", "touch ../x"]),
    ("touch 'a*'", ["touch ab"]),
    ("rm 'x y'", ["rm -rf /", "rm x"]),
    ("rm -- '-rf'", ["rm -rf /"]),
    ("echo 'x' && touch y", ["touch z", "rm y"]),
    ("touch $'a\\nb'", ["touch a", "touch b"]),
    ("touch 'a:*'", ["touch a", "touch abc"]),
    ("touch x:*", ["touch x", "touch xyz"]),
    ("mkdir 'x *'", ["mkdir x", "mkdir x y"]),
    ("npm install left-pad", ["npm exec evil", "npm run evil"]),
    ("make build", ["make evil", "make -f /tmp/x"]),
    ("kubectl get pods", ["kubectl exec x -- sh", "kubectl delete pods x"]),
    ("gh pr list", ["gh api -X DELETE /repos/x", "gh extension install evil"]),
    ("touch a; rm b", ["rm -rf /", "touch ../x"]),
    ("TZ=UTC touch x", ["touch x; rm -rf /", "rm x"]),
    ("docker ps -a", ["docker run x", "docker exec x sh"]),
    ("uv pip list", ["uv run evil", "uv tool run evil"]),
]


@pytest.mark.parametrize(("line", "probes"), CASES)
def test_a_remembered_rule_allows_no_more(tmp_path: Path, line: str, probes: list[str]) -> None:
    gate = PermissionGate(HookRunner(), cwd=str(tmp_path), rules=PermissionRules.from_lists())
    rules = rules_to_remember(gate, "bash", {"command": line})
    for rule in rules:
        gate.rules.add("allow", rule, file="x", scope="local", root=str(tmp_path))
    for probe in probes:
        check = gate.check("bash", {"command": probe})
        assert check.decision != "allow", f"{line!r} offered {rules}, which allow {probe!r}"


@pytest.mark.parametrize(
    ("rule", "line"),
    [
        ("Bash(go test *)", "go test -exec 'touch p' ./..."),
        ("Bash(go test *)", "go test -exec='touch p' ./..."),
        ("Bash(go build *)", "go build -toolexec 'touch p' ."),
        ("Bash(go build *)", "go build --toolexec='touch p' ."),
        ("Bash(go vet *)", "go vet -vettool=./evil ."),
        ("Bash(cargo build *)", "cargo build --config 'target.x.runner=\"evil\"'"),
        ("Bash(cargo test *)", "cargo test --config=build.rustc-wrapper=./evil"),
    ],
)
def test_a_remembered_wildcard_does_not_cover_a_program_option(
    tmp_path: Path, rule: str, line: str
) -> None:
    # a program named in an option is code given at run time, as git's --upload-pack
    rules = PermissionRules.from_lists(allow=[rule])
    gate = PermissionGate(HookRunner(), cwd=str(tmp_path), rules=rules)
    assert gate.check("bash", {"command": line}).decision != "allow"
