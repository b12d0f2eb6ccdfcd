{{/* ------------------------------------------------ The PodMonitor's credentials */}}

{{/* The credentials of the PodMonitor's endpoint, as fields of a podMetricsEndpoints item: those of
     the daemon's http.auth, by reference to the Secret the daemon reads, or nothing when /metrics
     is open. A daemon whose credential the chart cannot name stops the install: a PodMonitor
     without it would be answered 401 and its series would be missing without a word. */}}
{{- define "jvm-sentinel.podMonitor.credentials" -}}
{{- $http := (.Values.config | default dict).http | default dict -}}
{{- $pm := .Values.podMonitor -}}
{{- if and $pm.authorization $pm.basicAuth -}}
{{- fail "podMonitor.authorization and podMonitor.basicAuth exclude each other: set the one that matches config.http.auth (bearer: authorization, basic: basicAuth)" -}}
{{- end -}}
{{- $given := "" -}}
{{- if $pm.authorization }}{{ $given = "podMonitor.authorization" }}{{ end -}}
{{- if $pm.basicAuth }}{{ $given = "podMonitor.basicAuth" }}{{ end -}}
{{- if $http.auth -}}
{{- /* Written by hand (config.http.auth): only its author knows which Secret holds the credential. */ -}}
{{- $scheme := "" -}}
{{- $wanted := "" -}}
{{- $tokenFile := "" -}}
{{- $auth := kindIs "map" $http.auth | ternary $http.auth dict -}}
{{- if hasKey $auth "bearer" }}{{ $scheme = "bearer" }}{{ $wanted = "podMonitor.authorization" }}{{ end -}}
{{- if kindIs "map" $auth.bearer }}{{ $tokenFile = toString $auth.bearer.tokenFile }}{{ end -}}
{{- if hasKey $auth "basic" }}{{ $scheme = "basic" }}{{ $wanted = "podMonitor.basicAuth" }}{{ end -}}
{{- if $http.openMetrics -}}
{{- if $given -}}
{{- fail (printf "%s is set, but config.http.openMetrics serves /metrics without credentials: remove %s, or openMetrics" $given $given) -}}
{{- end -}}
{{- else if not $wanted -}}
{{- fail "config.http.auth takes basic or bearer (docs/configuration.md, \"http\")" -}}
{{- else if and (eq $scheme "bearer") (not $given) (include "jvm-sentinel.endpointAuth.on" .) $tokenFile (eq $tokenFile (include "jvm-sentinel.endpointAuth.tokenFile" .)) -}}
{{- /* Your own http.auth, reading endpointAuth's mounted token: that Secret. */ -}}
{{- include "jvm-sentinel.podMonitor.endpointAuthCredentials" . -}}
{{- else if and $given (ne $given $wanted) -}}
{{- fail (printf "config.http.auth.%s wants %s, not %s (bearer: authorization, basic: basicAuth)" $scheme $wanted $given) -}}
{{- else if not $given -}}
{{- fail (printf "config.http.auth.%s closes /metrics, and the PodMonitor cannot know which Secret holds its credential: set %s to the Secret (in the release's namespace) that the daemon's %s comes from, use endpointAuth instead of config.http.auth, or set config.http.openMetrics: true (values.yaml, podMonitor)" $scheme $wanted $scheme) -}}
{{- else if eq $scheme "bearer" -}}
authorization:
  type: Bearer
  credentials:
    {{- toYaml $pm.authorization.credentials | nindent 4 }}
{{- else -}}
basicAuth:
  {{- toYaml $pm.basicAuth | nindent 2 }}
{{- end -}}
{{- else if include "jvm-sentinel.endpointAuth.on" . -}}
{{- if $given -}}
{{- fail (printf "%s is for a config.http.auth of your own; with endpointAuth the PodMonitor sends its %s already (Secret %s): remove %s" $given (eq (include "jvm-sentinel.endpointAuth.basic" .) "true" | ternary "username and password" "token") (include "jvm-sentinel.endpointAuth.secretName" .) $given) -}}
{{- end -}}
{{- if not (or .Values.endpointAuth.openMetrics $http.openMetrics) -}}
{{- include "jvm-sentinel.podMonitor.endpointAuthCredentials" . -}}
{{- end -}}
{{- else if $given -}}
{{- fail (printf "%s is set, but the daemon asks for no credentials (no config.http.auth, and endpointAuth is off for this release%s): remove %s" $given (ternary "" "; endpointAuth.sidecar turns it on for the sidecar" (or .Values.nodeAgent.enabled .Values.discovery.enabled)) $given) -}}
{{- end -}}
{{- end }}

{{- define "jvm-sentinel.podMonitor.endpointAuthCredentials" -}}
{{- $secret := include "jvm-sentinel.endpointAuth.secretName" . -}}
{{- if include "jvm-sentinel.endpointAuth.basic" . -}}
# The daemon's endpoint wants basic auth (endpointAuth): from the same Secret.
basicAuth:
  username:
    name: {{ $secret }}
    key: {{ .Values.endpointAuth.basic.usernameKey }}
  password:
    name: {{ $secret }}
    key: {{ .Values.endpointAuth.basic.passwordKey }}
{{- else -}}
# The daemon's endpoint wants the bearer token (endpointAuth): the same Secret.
authorization:
  type: Bearer
  credentials:
    name: {{ $secret }}
    key: {{ .Values.endpointAuth.tokenKey }}
{{- end -}}
{{- end }}
