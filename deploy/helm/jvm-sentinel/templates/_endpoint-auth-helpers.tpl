{{/* ------------------------------------------------ Endpoint authentication (endpointAuth) */}}

{{/* Whether this release's daemon wants a credential: a fleet daemon (node agent, discovery) by
     default, as they show every watched JVM's pids, arguments, threads and snapshots; the sidecar
     only with endpointAuth.sidecar. */}}
{{- define "jvm-sentinel.endpointAuth.on" -}}
{{- if and .Values.endpointAuth.enabled (or .Values.nodeAgent.enabled .Values.discovery.enabled .Values.endpointAuth.sidecar) -}}
true
{{- end -}}
{{- end }}

{{/* endpointAuth.scheme is basic: HTTP basic auth as endpointAuth.basic.username. */}}
{{- define "jvm-sentinel.endpointAuth.basic" -}}
{{- if eq (.Values.endpointAuth.scheme | default "bearer") "basic" -}}
true
{{- end -}}
{{- end }}

{{- define "jvm-sentinel.endpointAuth.secretName" -}}
{{- .Values.endpointAuth.existingSecret | default (printf "%s-http" (include "jvm-sentinel.fullname" .) | trunc 63 | trimSuffix "-") -}}
{{- end }}

{{/* The one key of the Secret that the daemon reads: the token, or the basic auth password. The
     basic auth username is no secret: it is in the daemon's config, and the PodMonitor reads it
     from the Secret's usernameKey. */}}
{{- define "jvm-sentinel.endpointAuth.fileKey" -}}
{{- if include "jvm-sentinel.endpointAuth.basic" . -}}
{{- .Values.endpointAuth.basic.passwordKey -}}
{{- else -}}
{{- .Values.endpointAuth.tokenKey -}}
{{- end -}}
{{- end }}

{{/* The volume (and mount) of that key: http-token, or http-password with basic auth. */}}
{{- define "jvm-sentinel.endpointAuth.volumeName" -}}
{{- eq (include "jvm-sentinel.endpointAuth.basic" .) "true" | ternary "http-password" "http-token" -}}
{{- end }}

{{/* Where the daemon reads it: the mounted Secret's key. */}}
{{- define "jvm-sentinel.endpointAuth.file" -}}
{{- printf "/var/run/secrets/jvm-sentinel-http/%s" (include "jvm-sentinel.endpointAuth.fileKey" .) -}}
{{- end }}

{{/* The bearer token's file (only with the bearer scheme; "" otherwise). */}}
{{- define "jvm-sentinel.endpointAuth.tokenFile" -}}
{{- if not (include "jvm-sentinel.endpointAuth.basic" .) -}}
{{- include "jvm-sentinel.endpointAuth.file" . -}}
{{- end -}}
{{- end }}

{{/* http.auth (bearer with the mounted token file, or basic with endpointAuth.basic.username and
     the mounted password file) and http.openMetrics into a daemon's config, unless config.http.auth
     says otherwise. */}}
{{- define "jvm-sentinel.setEndpointAuth" -}}
{{- if include "jvm-sentinel.endpointAuth.on" .root -}}
{{- $http := .config.http | default dict -}}
{{- if not $http.auth -}}
{{- if include "jvm-sentinel.endpointAuth.basic" .root -}}
{{- $basic := dict "username" .root.Values.endpointAuth.basic.username "passwordFile" (include "jvm-sentinel.endpointAuth.file" .root) -}}
{{- $_ := set $http "auth" (dict "basic" $basic) -}}
{{- else -}}
{{- $_ := set $http "auth" (dict "bearer" (dict "tokenFile" (include "jvm-sentinel.endpointAuth.file" .root))) -}}
{{- end -}}
{{- end -}}
{{- if .root.Values.endpointAuth.openMetrics -}}
{{- $_ := set $http "openMetrics" true -}}
{{- end -}}
{{- $_ := set .config "http" $http -}}
{{- end -}}
{{- end }}

{{/* The credential's volume mount, as one list item of a container's volumeMounts. */}}
{{- define "jvm-sentinel.endpointAuth.volumeMount" -}}
{{- if include "jvm-sentinel.endpointAuth.on" . -}}
- name: {{ include "jvm-sentinel.endpointAuth.volumeName" . }}
  mountPath: /var/run/secrets/jvm-sentinel-http
  readOnly: true
{{- end }}
{{- end }}

{{/* The credential's volume, as one list item of a pod's volumes: the token, or the basic auth
     password alone (the username is in the config). */}}
{{- define "jvm-sentinel.endpointAuth.volume" -}}
{{- if include "jvm-sentinel.endpointAuth.on" . -}}
{{- $key := include "jvm-sentinel.endpointAuth.fileKey" . -}}
# The {{ eq (include "jvm-sentinel.endpointAuth.basic" .) "true" | ternary "basic auth password" "bearer token" }} of the daemon's own endpoint (endpointAuth).
- name: {{ include "jvm-sentinel.endpointAuth.volumeName" . }}
  secret:
    secretName: {{ include "jvm-sentinel.endpointAuth.secretName" . }}
    defaultMode: 0400
    items:
      - key: {{ $key }}
        path: {{ $key }}
{{- end }}
{{- end }}

{{/* For NOTES.txt: the credential the daemon wants while it serves plain HTTP ("The bearer token
     of endpointAuth"); "" with config.http.tls or without http.auth. A port-forward reaches the pod
     through the API server, but a scrape crosses the pod network. */}}
{{- define "jvm-sentinel.plainHttpCredential" -}}
{{- $http := (.Values.config | default dict).http | default dict -}}
{{- if not $http.tls -}}
{{- $auth := kindIs "map" $http.auth | ternary $http.auth dict -}}
{{- if hasKey $auth "basic" -}}
The basic auth password of config.http.auth
{{- else if hasKey $auth "bearer" -}}
The bearer token of config.http.auth
{{- else if include "jvm-sentinel.endpointAuth.on" . -}}
{{- if include "jvm-sentinel.endpointAuth.basic" . -}}
The basic auth password of endpointAuth
{{- else -}}
The bearer token of endpointAuth
{{- end -}}
{{- end -}}
{{- end -}}
{{- end }}

{{/* Checks endpointAuth.existingSecret as lookup found it (.secret; nothing to check when helm
     could not look): the key the daemon reads, and with basic auth the username the daemon
     expects under usernameKey, which the PodMonitor sends. */}}
{{- define "jvm-sentinel.endpointAuth.checkSecret" -}}
{{- $v := .root.Values.endpointAuth -}}
{{- if .secret -}}
{{- $name := include "jvm-sentinel.endpointAuth.secretName" .root -}}
{{- $basic := eq (include "jvm-sentinel.endpointAuth.basic" .root) "true" -}}
{{- $key := include "jvm-sentinel.endpointAuth.fileKey" .root -}}
{{- $data := .secret.data | default dict -}}
{{- if not (hasKey $data $key) -}}
{{- fail (printf "endpointAuth.existingSecret %s has no key %s (endpointAuth.%s): add it, or set that value to the key that holds the %s" $name $key ($basic | ternary "basic.passwordKey" "tokenKey") ($basic | ternary "password" "token")) -}}
{{- end -}}
{{- if $basic -}}
{{- $username := index $data $v.basic.usernameKey | default "" | b64dec -}}
{{- if ne $username $v.basic.username -}}
{{- fail (printf "endpointAuth.existingSecret %s: key %s must hold endpointAuth.basic.username (%s), which the daemon expects and the PodMonitor sends from that key; %s" $name $v.basic.usernameKey $v.basic.username (hasKey $data $v.basic.usernameKey | ternary "it holds another name" "the key is missing")) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end }}
