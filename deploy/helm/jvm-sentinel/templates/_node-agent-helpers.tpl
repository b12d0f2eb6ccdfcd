{{/* Labels of the node agent's objects (nodeAgent.enabled). */}}
{{- define "jvm-sentinel.nodeAgent.labels" -}}
{{ include "jvm-sentinel.nodeAgent.selectorLabels" . }}
app.kubernetes.io/component: node-agent
{{ include "jvm-sentinel.chartLabels" . }}
{{- end }}

{{- define "jvm-sentinel.nodeAgent.selectorLabels" -}}
app.kubernetes.io/name: jvm-sentinel-node-agent
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* The node agent's sentinel.yaml: .Values.config plus discovery.local, no targets; targetTags
     become the daemon's tags on every series. */}}
{{- define "jvm-sentinel.nodeAgent.config" -}}
{{- $config := deepCopy .Values.config -}}
{{- include "jvm-sentinel.setListen" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setRunbookBaseUrl" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setEndpointAuth" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setStorage" (dict "config" $config "sizeLimit" .Values.nodeAgent.tmpSizeLimit "name" "nodeAgent.tmpSizeLimit") -}}
{{- $_ := set $config "discovery" (dict "local" .Values.nodeAgent.discovery) -}}
{{- if .Values.targetTags -}}
{{- $_ := set $config "tags" .Values.targetTags -}}
{{- end -}}
{{- toYaml $config -}}
{{- end }}
