{{/* ------------------------------------------------ Endpoint authentication (endpointAuth) */}}

{{/* Whether this release renders a fleet daemon (node agent, discovery) whose endpoint needs the
     bearer token: they show every watched JVM's pids, arguments, threads and snapshots. */}}
{{- define "jvm-sentinel.endpointAuth.on" -}}
{{- if and .Values.endpointAuth.enabled (or .Values.nodeAgent.enabled .Values.discovery.enabled) -}}
true
{{- end -}}
{{- end }}

{{/* Whether /metrics needs the token too (a scraper must then send it). */}}
{{- define "jvm-sentinel.endpointAuth.metricsClosed" -}}
{{- if and (include "jvm-sentinel.endpointAuth.on" .) (not .Values.endpointAuth.openMetrics) -}}
true
{{- end -}}
{{- end }}

{{- define "jvm-sentinel.endpointAuth.secretName" -}}
{{- .Values.endpointAuth.existingSecret | default (printf "%s-http" (include "jvm-sentinel.fullname" .) | trunc 63 | trimSuffix "-") -}}
{{- end }}

{{/* http.auth (bearer, the mounted token file) and http.openMetrics into a daemon's config, unless
     config.http.auth says otherwise. */}}
{{- define "jvm-sentinel.setEndpointAuth" -}}
{{- if include "jvm-sentinel.endpointAuth.on" .root -}}
{{- $http := .config.http | default dict -}}
{{- if not $http.auth -}}
{{- $_ := set $http "auth" (dict "bearer" (dict "tokenFile" (printf "/var/run/secrets/jvm-sentinel-http/%s" .root.Values.endpointAuth.tokenKey))) -}}
{{- end -}}
{{- if .root.Values.endpointAuth.openMetrics -}}
{{- $_ := set $http "openMetrics" true -}}
{{- end -}}
{{- $_ := set .config "http" $http -}}
{{- end -}}
{{- end }}

{{/* The token's volume mount, as one list item of a container's volumeMounts. */}}
{{- define "jvm-sentinel.endpointAuth.volumeMount" -}}
{{- if include "jvm-sentinel.endpointAuth.on" . -}}
- name: http-token
  mountPath: /var/run/secrets/jvm-sentinel-http
  readOnly: true
{{- end }}
{{- end }}

{{/* The token's volume, as one list item of a pod's volumes. */}}
{{- define "jvm-sentinel.endpointAuth.volume" -}}
{{- if include "jvm-sentinel.endpointAuth.on" . -}}
# The bearer token of the daemon's own endpoint (endpointAuth).
- name: http-token
  secret:
    secretName: {{ include "jvm-sentinel.endpointAuth.secretName" . }}
    defaultMode: 0400
    items:
      - key: {{ .Values.endpointAuth.tokenKey }}
        path: {{ .Values.endpointAuth.tokenKey }}
{{- end }}
{{- end }}
