#!/usr/bin/env python3
"""Validates Kubernetes manifests (one multi-document YAML file per argument) offline.

Core kinds: against the strict JSON schemas of Kubernetes (unknown fields are errors) shipped in
the kubernetes-validate package. Prometheus Operator kinds (PodMonitor, PrometheusRule,
ServiceMonitor, AlertmanagerConfig): against the models generated from the operator's CRDs in the
cloudcoil.models.prometheus_operator package; a field the model does not know is an error too.
Prints one line per problem and exits 1 if there is any; prints "N passed, 0 failed" otherwise.
Run with the interpreter of the venv that .ci/install-test-deps builds.
"""
import sys

import yaml
import kubernetes_validate
from cloudcoil.models.prometheus_operator import v1 as monitoring
from cloudcoil.models.prometheus_operator import v1alpha1 as monitoring_alpha

KUBERNETES_VERSION = "1.34.0"
MONITORING = {"PodMonitor": monitoring.PodMonitor, "PrometheusRule": monitoring.PrometheusRule,
              "ServiceMonitor": monitoring.ServiceMonitor,
              "AlertmanagerConfig": monitoring_alpha.AlertmanagerConfig}


def unknown_fields(given, known, path=""):
    """Paths in `given` that the model dropped: fields the CRD does not define."""
    if isinstance(given, dict) and isinstance(known, dict):
        out = []
        for key, value in given.items():
            if key not in known:
                out.append(f"{path}.{key}")
            else:
                out += unknown_fields(value, known[key], f"{path}.{key}")
        return out
    if isinstance(given, list) and isinstance(known, list):
        return [p for i, (g, k) in enumerate(zip(given, known))
                for p in unknown_fields(g, k, f"{path}[{i}]")]
    return []


def check(doc):
    kind = doc.get("kind", "?")
    if doc.get("apiVersion", "").startswith("monitoring.coreos.com/"):
        model = MONITORING.get(kind)
        if model is None:
            return [f"no model for {kind}"]
        try:
            parsed = model.model_validate(doc)
        except Exception as e:  # pydantic's ValidationError lists every problem
            return [str(e)]
        dumped = parsed.model_dump(by_alias=True, exclude_none=True, mode="json")
        return [f"unknown field {p}" for p in unknown_fields(doc, dumped)]
    try:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as e:
        return [f"{'.'.join(str(p) for p in e.path)}: {e.message}"]
    except Exception as e:
        return [str(e)]
    return []


def main(files):
    passed = failed = 0
    for name in files:
        with open(name) as f:
            for doc in yaml.safe_load_all(f):
                if not doc:
                    continue
                where = f"{name}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
                problems = check(doc)
                for p in problems:
                    print(f"{where}: {p}")
                if problems:
                    failed += 1
                else:
                    passed += 1
    if passed + failed == 0:
        print("no manifests found")
        return 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
