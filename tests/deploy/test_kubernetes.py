"""deploy/kubernetes/hookline.yaml: the Deployment and Service parsed and cross-checked."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import Any

import yaml

from tests.deploy.helpers import (
    DEPLOY,
    option,
    require_asgi_serve,
    serving_policy,
    unknown_flags,
)

MANIFESTS = DEPLOY / "kubernetes" / "hookline.yaml"


def _documents() -> dict[str, dict[str, Any]]:
    docs = [doc for doc in yaml.safe_load_all(MANIFESTS.read_text()) if doc]
    for doc in docs:
        assert {"apiVersion", "kind", "metadata", "spec"} <= doc.keys(), doc
        assert doc["metadata"]["name"]
    kinds = {doc["kind"]: doc for doc in docs}
    assert sorted(kinds) == ["Deployment", "Service"]
    return kinds


def _container() -> dict[str, Any]:
    (container,) = _documents()["Deployment"]["spec"]["template"]["spec"]["containers"]
    return dict(container)


def test_deployment_selects_its_own_pods_and_the_service_selects_them() -> None:
    docs = _documents()
    deployment, service = docs["Deployment"], docs["Service"]
    assert deployment["apiVersion"] == "apps/v1" and service["apiVersion"] == "v1"
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert service["spec"]["selector"].items() <= labels.items()
    ports = {p["name"]: p["containerPort"] for p in _container()["ports"]}
    for port in service["spec"]["ports"]:
        assert port["targetPort"] in ports or port["targetPort"] in ports.values()


def test_container_runs_serve_with_workers_a_redis_store_and_the_token_from_a_secret() -> None:
    container = _container()
    args = [str(a) for a in container["args"]]
    host, _, port = (option(args, "--http") or "").rpartition(":")
    assert host == "0.0.0.0" and "--allow-remote" in args
    assert int(port) in {p["containerPort"] for p in container["ports"]}
    assert (option(args, "--workers") or "").isdigit()
    assert (option(args, "--store") or "").startswith("redis://")
    assert option(args, "--token") is None
    (token,) = [e for e in container["env"] if e["name"] == "HOOKLINE_SERVE_TOKEN"]
    assert set(token["valueFrom"]["secretKeyRef"]) == {"name", "key"}
    assert "value" not in token


def test_probes_resources_and_a_locked_down_container() -> None:
    container = _container()
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= container["resources"][kind].keys()
    pod = _documents()["Deployment"]["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["readOnlyRootFilesystem"] is True


def test_container_args_are_real_serve_flags() -> None:
    require_asgi_serve()
    assert unknown_flags([str(a) for a in _container()["args"]]) == []


def test_probe_paths_are_routes_of_the_service(tmp_path: Path) -> None:
    """Asked of the running service, without a token, as the kubelet asks."""
    require_asgi_serve()
    container = _container()
    paths = [container[p]["httpGet"]["path"] for p in ("livenessProbe", "readinessProbe")]
    with serving_policy(tmp_path) as port:
        for path in paths:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            conn.close()
            assert response.status == 200, (path, response.status)
