{{/* ------------------------------------------------ Endpoint authentication (endpointAuth) */}}

{{/* Whether this release's daemon needs the bearer token: a fleet daemon (node agent, discovery)
     by default, as they show every watched JVM's pids, arguments, threads and snapshots; the
     sidecar only with endpointAuth.sidecar. */}}
{{- define "jvm-sentinel.endpointAuth.on" -}}
{{- if and .Values.endpointAuth.enabled (or .Values.nodeAgent.enabled .Values.discovery.enabled .Values.endpointAuth.sidecar) -}}
true
{{- end -}}
{{- end }}

{{- define "jvm-sentinel.endpointAuth.secretName" -}}
{{- .Values.endpointAuth.existingSecret | default (printf "%s-http" (include "jvm-sentinel.fullname" .) | trunc 63 | trimSuffix "-") -}}
{{- end }}

{{/* Where the daemon reads the token: the mounted Secret's key. */}}
{{- define "jvm-sentinel.endpointAuth.tokenFile" -}}
{{- printf "/var/run/secrets/jvm-sentinel-http/%s" .Values.endpointAuth.tokenKey -}}
{{- end }}

{{/* http.auth (bearer, the mounted token file) and http.openMetrics into a daemon's config, unless
     config.http.auth says otherwise. */}}
{{- define "jvm-sentinel.setEndpointAuth" -}}
{{- if include "jvm-sentinel.endpointAuth.on" .root -}}
{{- $http := .config.http | default dict -}}
{{- if not $http.auth -}}
{{- $_ := set $http "auth" (dict "bearer" (dict "tokenFile" (include "jvm-sentinel.endpointAuth.tokenFile" .root))) -}}
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
