#!/usr/bin/env python3
"""Validates Kubernetes manifests (one multi-document YAML file per argument) offline.

Core kinds: against the strict JSON schemas of Kubernetes (unknown fields are errors) shipped in
the kubernetes-validate package. Prometheus Operator kinds (PodMonitor, PrometheusRule,
ServiceMonitor, AlertmanagerConfig): against the models generated from the operator's CRDs in the
cloudcoil.models.prometheus_operator package; a field the model does not know is an error too.
Prints one line per problem and exits 1 if there is any; prints "N passed, 0 failed" otherwise.
With --serve it validates the files named on each line of its input instead (see serve()).
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


def validate(files):
    """The problem lines of `files` and the summary line; 1 if there is any problem."""
    lines = []
    passed = failed = 0
    for name in files:
        with open(name) as f:
            for doc in yaml.safe_load_all(f):
                if not doc:
                    continue
                where = f"{name}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
                problems = check(doc)
                lines += [f"{where}: {p}" for p in problems]
                if problems:
                    failed += 1
                else:
                    passed += 1
    if passed + failed == 0:
        return ["no manifests found"], 1
    lines.append(f"{passed} passed, {failed} failed")
    return lines, 1 if failed else 0


def serve():
    """One request per stdin line (file names separated by tabs): its lines, then "END <code>".

    The schemas load once (2.5 s), each file then takes about 0.2 s: a test suite keeps one
    validator running instead of starting one per rendering.
    """
    for request in sys.stdin:
        try:
            lines, code = validate([f for f in request.rstrip("\n").split("\t") if f])
        except Exception as e:  # an unreadable file or bad YAML: a failed request, not the end
            lines, code = [f"cannot validate: {e}"], 1
        print("\n".join(lines + [f"END {code}"]), flush=True)
    return 0


def main(args):
    if args == ["--serve"]:
        return serve()
    lines, code = validate(args)
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
