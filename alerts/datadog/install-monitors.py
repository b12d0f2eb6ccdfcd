#!/usr/bin/env python3
"""Creates or updates ONE family of jvm-sentinel's Datadog monitors, scoped to one service and env.

    DD_API_KEY=... DD_APP_KEY=... alerts/datadog/install-monitors.py \\
        --family service-checks --service orders --env prod --notify @pagerduty-orders

Families (one file each; install one, or a storm pages once per family):
  service-checks  the daemon's own detection, one service-check monitor per rule (recommended)
  metrics         the same rules as Datadog metric monitors, for teams that want Datadog to decide
  alert-active    one monitor on jvm.sentinel.alert.active (the daemon's alerts as a metric)
The daemon's health monitors (monitors-health.json: stopped reporting, notifications lost) are
installed with any family unless --no-health.

Idempotent: a monitor is found by its name (which carries the service and env), updated in place
if it exists and created if not; running it twice leaves one copy of each. Monitors of other
families or services are never touched. Standard library only; every request has a timeout.
"""
import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = ("service-checks", "metrics", "alert-active")
TIMEOUT_SECONDS = 15
RUNBOOKS = "https://github.com/jvm-sentinel/jvm-sentinel/blob/main/alerts/runbooks/"
TAG_VALUE = re.compile(r"^[a-zA-Z][a-zA-Z0-9_.:/-]*$")


def scoped_query(query, scope):
    """The query limited to the service and env: metric filters and service-check scopes."""
    and_scope = " AND ".join(scope)

    def metric(match):
        inner = match.group(1)
        if inner == "*":
            return "{" + ",".join(scope) + "}"
        joiner = " AND " if " AND " in inner or " OR " in inner else ","
        body = f"({inner})" if " OR " in inner and not inner.startswith("(") else inner
        return "{" + body + joiner + (and_scope if joiner == " AND " else ",".join(scope)) + "}"

    if query.lstrip().startswith('"'):  # service check: "check".over("*").by(...)
        over = ",".join(f'"{s}"' for s in scope)
        return query.replace('.over("*")', f".over({over})")
    # A filter follows its metric name directly ("jvm.x{...}"); "by {target}" is a grouping.
    return re.sub(r"(?<=[A-Za-z0-9_])\{([^{}]*)\}", metric, query)


def monitors_for(family, service, env, notify, runbook_base, health):
    files = [f"monitors-{family}.json"] + (["monitors-health.json"] if health else [])
    scope = [f"env:{env}", f"service:{service}"]
    out = []
    for name in files:
        with open(os.path.join(HERE, name)) as f:
            for m in json.load(f):
                m = dict(m)
                m["name"] = f"{m['name']} [service:{service} env:{env}]"
                m["query"] = scoped_query(m["query"], scope)
                m["message"] = m["message"].replace("@your-team-handle", notify).replace(
                    RUNBOOKS, runbook_base)
                tags = [t for t in m.get("tags", []) if not t.startswith(("service:", "env:"))]
                m["tags"] = tags + scope + ["managed-by:jvm-sentinel-install", f"family:{family}"]
                out.append(m)
    return out


class Api:
    def __init__(self, base, api_key, app_key):
        self.base = base.rstrip("/")
        self.headers = {"DD-API-KEY": api_key, "DD-APPLICATION-KEY": app_key,
                        "Content-Type": "application/json", "Accept": "application/json"}

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers=self.headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                text = response.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")[:500]
            raise SystemExit(f"{method} {path}: HTTP {e.code} {detail}")
        except (urllib.error.URLError, TimeoutError) as e:
            raise SystemExit(f"{method} {path}: {e} (is --api-url {self.base} right?)")

    def existing(self, name):
        """Monitors whose name is exactly `name` (the search matches substrings)."""
        query = urllib.parse.urlencode({"name": name, "page_size": 1000})
        return [m for m in self.call("GET", f"/api/v1/monitor?{query}") or []
                if m.get("name") == name]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--family", required=True, choices=FAMILIES)
    p.add_argument("--service", required=True, help="the app's own service tag (DD_SERVICE)")
    p.add_argument("--env", required=True, help="the env tag (DD_ENV)")
    p.add_argument("--notify", default="@your-team-handle",
                   help="who is notified: @pagerduty-x, @slack-y, @team (default: a placeholder)")
    p.add_argument("--runbook-base-url", default=RUNBOOKS)
    p.add_argument("--no-health", action="store_true", help="leave out monitors-health.json")
    p.add_argument("--api-url", default=os.environ.get("DD_API_URL", "https://api.datadoghq.com"),
                   help="your Datadog site's API, e.g. https://api.datadoghq.eu (env DD_API_URL)")
    p.add_argument("--dry-run", action="store_true", help="print the monitors, call nothing")
    args = p.parse_args(argv)
    for label, value in (("--service", args.service), ("--env", args.env)):
        if not TAG_VALUE.match(value):
            p.error(f"{label} {value!r} is not a Datadog tag value (a letter, then [a-zA-Z0-9_.:/-])")
    monitors = monitors_for(args.family, args.service, args.env, args.notify,
                            args.runbook_base_url, not args.no_health)
    if args.dry_run:
        print(json.dumps(monitors, indent=2))
        return 0
    api_key, app_key = os.environ.get("DD_API_KEY"), os.environ.get("DD_APP_KEY")
    if not api_key or not app_key:
        p.error("set DD_API_KEY and DD_APP_KEY (an API key and an application key)")
    api = Api(args.api_url, api_key, app_key)
    created = updated = 0
    for m in monitors:
        found = api.existing(m["name"])
        if found:
            for extra in found[1:]:  # duplicates left by an earlier, non-idempotent install
                api.call("DELETE", f"/api/v1/monitor/{extra['id']}")
            api.call("PUT", f"/api/v1/monitor/{found[0]['id']}", m)
            updated += 1
        else:
            api.call("POST", "/api/v1/monitor", m)
            created += 1
    print(f"{args.family}: {created} created, {updated} updated "
          f"(service:{args.service} env:{args.env})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
