{{/*
Named templates. The ones under "Sidecar" are the chart's interface for platform teams: a chart of
their own adds this chart as a dependency and includes them in its pod template with a context of
{Values, Release} (see deploy/README.md, "Helm"). Each reads only .Values and .Release.Name.
*/}}

{{- define "jvm-sentinel.targetName" -}}
{{- .Values.targetName | default .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end }}

{{- define "jvm-sentinel.fullname" -}}
{{- printf "%s-jvm-sentinel" (include "jvm-sentinel.targetName" .) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "jvm-sentinel.labels" -}}
app.kubernetes.io/name: {{ include "jvm-sentinel.targetName" . }}
app.kubernetes.io/component: jvm-sentinel
app.kubernetes.io/instance: {{ .Release.Name }}
{{ include "jvm-sentinel.chartLabels" . }}
{{- end }}

{{/* The labels Helm's conventions put on every object (never on selectors: they change on upgrade). */}}
{{- define "jvm-sentinel.chartLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ include "jvm-sentinel.imageTag" . | quote }}
app.kubernetes.io/part-of: jvm-sentinel
{{- end }}

{{/* image.tag, else the chart's appVersion. A chart that includes the sidecar templates with a
     context of {Values, Release} has no .Chart here: it sets image.tag. */}}
{{- define "jvm-sentinel.imageTag" -}}
{{- $appVersion := "" -}}
{{- with .Chart }}{{ $appVersion = .AppVersion }}{{ end -}}
{{- .Values.image.tag | default $appVersion | required "image.tag is required when the jvm-sentinel templates are included without .Chart in their context" -}}
{{- end }}

{{- define "jvm-sentinel.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "jvm-sentinel.imageTag" .) -}}
{{- end }}


{{/* Sets http.listen of a config dict from `port`: one value decides both the container port and
     where the daemon listens. A config.http.listen of its own on another port is an error. */}}
{{- define "jvm-sentinel.setListen" -}}
{{- $http := .config.http | default dict -}}
{{- $listen := printf "0.0.0.0:%d" (int .root.Values.port) -}}
{{- if and $http.listen (not (hasSuffix (printf ":%d" (int .root.Values.port)) (toString $http.listen))) -}}
{{- fail (printf "config.http.listen (%s) and port (%d) disagree: set only port, the chart sets http.listen to %s" $http.listen (int .root.Values.port) $listen) -}}
{{- end -}}
{{- $_ := set $http "listen" ($http.listen | default $listen) -}}
{{- $_ := set .config "http" $http -}}
{{- end }}

{{/* The daemon's own notifications link the same runbooks as the PrometheusRule: alerts.runbookBaseUrl
     from runbookBaseUrl, unless config.alerts sets it. */}}
{{- define "jvm-sentinel.setRunbookBaseUrl" -}}
{{- $alerts := .config.alerts | default dict -}}
{{- $_ := set $alerts "runbookBaseUrl" ($alerts.runbookBaseUrl | default .root.Values.runbookBaseUrl) -}}
{{- $_ := set .config "alerts" $alerts -}}
{{- end }}

{{/* The daemon's one disk budget (storage.maxDiskMb) from the sizeLimit of the /tmp emptyDir it
     writes to: three quarters of it, leaving room for the alert state file, the JVM's own files
     and a snapshot's rename, unless config.storage.maxDiskMb sets it. */}}
{{- define "jvm-sentinel.setStorage" -}}
{{- $storage := .config.storage | default dict -}}
{{- if not (hasKey $storage "maxDiskMb") -}}
{{- $limit := toString .sizeLimit -}}
{{- $mib := 0 -}}
{{- if hasSuffix "Gi" $limit -}}
{{- $mib = mul (trimSuffix "Gi" $limit | int) 1024 -}}
{{- else if hasSuffix "Mi" $limit -}}
{{- $mib = trimSuffix "Mi" $limit | int -}}
{{- else -}}
{{- fail (printf "%s (%s) must be in Mi or Gi, so the chart can size storage.maxDiskMb to it; or set config.storage.maxDiskMb" .name $limit) -}}
{{- end -}}
{{- $_ := set $storage "maxDiskMb" (div (mul $mib 3) 4) -}}
{{- end -}}
{{- $_ := set .config "storage" $storage -}}
{{- end }}

{{- define "jvm-sentinel.selectorLabels" -}}
app.kubernetes.io/name: {{ include "jvm-sentinel.targetName" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "jvm-sentinel.checkMode" -}}
{{- if not (has .Values.mode (list "jmx" "pid")) -}}
{{- fail (printf "mode must be jmx or pid, not %q" .Values.mode) -}}
{{- end -}}
{{- if and (eq .Values.mode "jmx") (not .Values.jmx.existingSecret) -}}
{{- fail "mode jmx needs jmx.existingSecret: a Secret with the JMX password files (deploy/kubernetes/secret-example.yaml); passwords are never chart values" -}}
{{- end -}}
{{- end }}

{{/* The daemon's sentinel.yaml: .Values.config plus the one target this sidecar watches. */}}
{{- define "jvm-sentinel.config" -}}
{{- /* Named only when targetName is set: otherwise the daemon names it after the pod, so every
     replica has its own target name. */ -}}
{{- $target := dict -}}
{{- if .Values.targetName -}}
{{- $_ := set $target "name" .Values.targetName -}}
{{- end -}}
{{- if eq .Values.mode "jmx" -}}
{{- $_ := set $target "jmx" (printf "127.0.0.1:%d" (int .Values.jmx.port)) -}}
{{- $_ := set $target "username" .Values.jmx.username -}}
{{- $_ := set $target "passwordFile" "/var/run/secrets/jvm-sentinel/monitor-password" -}}
{{- end -}}
{{- if .Values.targetTags -}}
{{- $_ := set $target "tags" .Values.targetTags -}}
{{- end -}}
{{- $config := deepCopy .Values.config -}}
{{- include "jvm-sentinel.setListen" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setRunbookBaseUrl" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setEndpointAuth" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setStorage" (dict "config" $config "sizeLimit" .Values.tmpSizeLimit "name" "tmpSizeLimit") -}}
{{- if eq .Values.mode "jmx" -}}
{{- $_ := set $config "targets" (list $target) -}}
{{- end -}}
{{- toYaml $config -}}
{{- end }}

{{/* ---------------------------------------------------------------- Sidecar */}}

{{/* The watched app's pod identity (docs/identity.md): every series, alert and dedup key of the
     replica carries it, and the target is named after the pod unless targetName is set. */}}
{{- define "jvm-sentinel.podIdentityEnv" -}}
- name: JVM_SENTINEL_POD_NAMESPACE
  valueFrom: {fieldRef: {fieldPath: metadata.namespace}}
- name: JVM_SENTINEL_POD_NAME
  valueFrom: {fieldRef: {fieldPath: metadata.name}}
- name: JVM_SENTINEL_NODE_NAME
  valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
# The app's container, not this one: the downward API has no field for it.
- name: JVM_SENTINEL_CONTAINER_NAME
  value: {{ .Values.appContainerName | default "app" | quote }}
{{- end }}

{{/* The sidecar container, as one list item of a pod's containers; with sidecar.native, of its
     initContainers (restartPolicy: Always makes it a native sidecar, Kubernetes 1.29+). */}}
{{- define "jvm-sentinel.sidecar.container" -}}
{{- include "jvm-sentinel.checkMode" . -}}
- name: jvm-sentinel
  image: {{ include "jvm-sentinel.image" . | quote }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  {{- if .Values.sidecar.native }}
  restartPolicy: Always
  {{- end }}
  {{- if eq .Values.mode "pid" }}
  # find-pid.sh (deploy/kubernetes/find-pid.sh) waits for the app's JVM and runs the daemon
  # with its pid in place of {pid}; it exits when that JVM does, so the kubelet restarts it.
  command: [/app/bin/find-pid.sh]
  args:
    - java
    - -XX:+ExitOnOutOfMemoryError
    - -XX:+DisableAttachMechanism
    - -Djava.io.tmpdir=/tmp
    - -jar
    - /app/jvm-sentinel.jar
    - run
    - --pid
    - "{pid}"
    {{- with .Values.targetName }}
    - --name
    - {{ . | quote }}
    {{- end }}
  {{- else }}
  args: [run]
  {{- end }}
  env:
    - name: JVM_SENTINEL_CONFIG
      value: /etc/jvm-sentinel/sentinel.yaml
    {{- include "jvm-sentinel.podIdentityEnv" . | nindent 4 }}
    {{- if eq .Values.mode "pid" }}
    - name: JVM_SENTINEL_PID_MATCH
      value: {{ .Values.pid.match | quote }}
    - name: JVM_SENTINEL_PID_WAIT
      value: {{ .Values.pid.waitSeconds | quote }}
    {{- end }}
    {{- with .Values.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  ports:
    - name: metrics
      containerPort: {{ .Values.port }}
  {{- /* Probes that can only restart the sidecar; no readinessProbe (values.yaml, probes). */}}
  {{- if not .Values.sidecar.native }}
  startupProbe:
    {{- include "jvm-sentinel.healthGet" . | nindent 4 }}
    {{- if eq .Values.mode "pid" }}
    # Covers the wait for the app's JVM (pid.waitSeconds).
    periodSeconds: 5
    failureThreshold: {{ add (div .Values.pid.waitSeconds 5) 2 }}
    {{- else }}
    {{- toYaml .Values.probes.startup | nindent 4 }}
    {{- end }}
  {{- end }}
  livenessProbe:
    {{- include "jvm-sentinel.healthGet" . | nindent 4 }}
    {{- if .Values.sidecar.native }}
    # No startup probe on a native sidecar: the app's containers would wait for it to pass.
    initialDelaySeconds: {{ eq .Values.mode "pid" | ternary (add .Values.pid.waitSeconds 30) .Values.probes.nativeJmxInitialDelaySeconds }}
    {{- end }}
    {{- toYaml .Values.probes.liveness | nindent 4 }}
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  securityContext:
    runAsUser: {{ .Values.runAsUser }}
    runAsGroup: {{ .Values.runAsGroup }}
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: jvm-sentinel-config
      mountPath: /etc/jvm-sentinel
      readOnly: true
    {{- if eq .Values.mode "jmx" }}
    - name: jvm-sentinel-secret
      mountPath: /var/run/secrets/jvm-sentinel
      readOnly: true
    - name: jvm-sentinel-tmp
      mountPath: /tmp
    {{- else }}
    # One /tmp with the app: its attach socket and hsperfdata live there.
    - name: shared-tmp
      mountPath: /tmp
    {{- end }}
    # No Kubernetes API token for the daemon, whatever the pod's ServiceAccount mounts: a volume
    # of its own at the token's path keeps the ServiceAccount admission from adding the token to
    # this container (the app's containers get it as before).
    - name: jvm-sentinel-no-api-token
      mountPath: /var/run/secrets/kubernetes.io/serviceaccount
      readOnly: true
    {{- with include "jvm-sentinel.endpointAuth.volumeMount" . }}{{ . | nindent 4 }}{{ end }}
    {{- with .Values.extraVolumeMounts }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}

{{/* The sidecar's volumes, as list items of the pod's volumes. In pid mode "shared-tmp" must
     also be mounted at /tmp in the app container. */}}
{{- define "jvm-sentinel.sidecar.volumes" -}}
- name: jvm-sentinel-config
  configMap:
    name: {{ include "jvm-sentinel.fullname" . }}
{{- if eq .Values.mode "jmx" }}
- name: jvm-sentinel-secret
  secret:
    secretName: {{ .Values.jmx.existingSecret }}
    defaultMode: 0440
    items:
      - {key: {{ .Values.jmx.passwordKey }}, path: monitor-password}
- name: jvm-sentinel-tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- else }}
- name: shared-tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end }}
# Empty: covers the API token's path in the sidecar.
- name: jvm-sentinel-no-api-token
  emptyDir:
    medium: Memory
    sizeLimit: 1Mi
{{- with include "jvm-sentinel.endpointAuth.volume" . }}
{{ . }}
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* jmx mode: the env entry that gives the app's JVM its JMX agent on loopback, to add to the
     app container (the image needs no change). */}}
{{- define "jvm-sentinel.app.jmxEnv" -}}
- name: JAVA_TOOL_OPTIONS
  value: >-
    -Dcom.sun.management.jmxremote.port={{ .Values.jmx.port }}
    -Dcom.sun.management.jmxremote.rmi.port={{ .Values.jmx.port }}
    -Dcom.sun.management.jmxremote.host=127.0.0.1
    -Djava.rmi.server.hostname=127.0.0.1
    -Dcom.sun.management.jmxremote.authenticate=true
    -Dcom.sun.management.jmxremote.ssl=false
    -Dcom.sun.management.jmxremote.password.file=/etc/jmx-auth/jmxremote.password
    -Dcom.sun.management.jmxremote.access.file=/etc/jmx-auth/jmxremote.access
{{- end }}

{{/* jmx mode: the init container that copies the JMX password files owner-only (the JVM
     refuses group-readable ones), and the volumes it and the app use. */}}
{{- define "jvm-sentinel.app.jmxInitContainer" -}}
- name: jmx-auth-files
  image: {{ include "jvm-sentinel.image" . | quote }}
  command:
    - /bin/sh
    - -c
    - >-
      cp /jmx-secret/jmxremote.password /jmx-secret/jmxremote.access /jmx-auth/ &&
      chmod 0400 /jmx-auth/jmxremote.password /jmx-auth/jmxremote.access
  resources:
    requests: {cpu: 10m, memory: 16Mi}
    limits: {cpu: 100m, memory: 32Mi}
  securityContext:
    runAsUser: {{ .Values.runAsUser }}
    runAsGroup: {{ .Values.runAsGroup }}
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - {name: jmx-secret, mountPath: /jmx-secret, readOnly: true}
    - {name: jmx-auth, mountPath: /jmx-auth}
{{- end }}

{{- define "jvm-sentinel.app.jmxVolumes" -}}
- name: jmx-secret
  secret:
    secretName: {{ .Values.jmx.existingSecret }}
    defaultMode: 0440
    items:
      - {key: {{ .Values.jmx.passwordFileKey }}, path: jmxremote.password}
      - {key: {{ .Values.jmx.accessFileKey }}, path: jmxremote.access}
- name: jmx-auth
  emptyDir:
    medium: Memory
    sizeLimit: 1Mi
{{- end }}

{{/* ---------------------------------------------------------------- Discovery */}}

{{- define "jvm-sentinel.discovery.name" -}}
{{- printf "%s-discovery" (include "jvm-sentinel.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "jvm-sentinel.discovery.selectorLabels" -}}
{{ include "jvm-sentinel.selectorLabels" . }}
jvm-sentinel.io/role: discovery
{{- end }}

{{- define "jvm-sentinel.discovery.check" -}}
{{- if not (has .Values.discovery.kind (list "Deployment" "DaemonSet")) -}}
{{- fail (printf "discovery.kind must be Deployment or DaemonSet, not %q" .Values.discovery.kind) -}}
{{- end -}}
{{- /* The daemon refuses credentials for a namespace it does not watch: say so at install, not in
     a crash-looping pod's log. */ -}}
{{- with .Values.discovery.namespaces -}}
{{- $watched := . -}}
{{- range $i, $c := $.Values.discovery.credentials -}}
{{- range $c.namespaces -}}
{{- if not (has . $watched) -}}
{{- fail (printf "discovery.credentials[%d].namespaces has %q, which discovery.namespaces (%s) does not watch: add it there or remove it here" $i . (join ", " $watched)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end }}

{{/* The fleet daemon's sentinel.yaml: .Values.config plus discovery.kubernetes from values. */}}
{{- define "jvm-sentinel.discovery.config" -}}
{{- $k8s := deepCopy (.Values.discovery.kubernetes | default dict) -}}
{{- with .Values.discovery.namespaces -}}
{{- $_ := set $k8s "namespaces" . -}}
{{- end -}}
{{- if eq .Values.discovery.kind "DaemonSet" -}}
{{- $_ := set $k8s "node" "${NODE_NAME}" -}}
{{- end -}}
{{- with .Values.discovery.credentials -}}
{{- $_ := set $k8s "credentials" . -}}
{{- end -}}
{{- $config := deepCopy .Values.config -}}
{{- include "jvm-sentinel.setListen" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setRunbookBaseUrl" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setEndpointAuth" (dict "root" . "config" $config) -}}
{{- include "jvm-sentinel.setStorage" (dict "config" $config "sizeLimit" .Values.discovery.tmpSizeLimit "name" "discovery.tmpSizeLimit") -}}
{{- $_ := set $config "discovery" (dict "kubernetes" $k8s) -}}
{{- toYaml $config -}}
{{- end }}

{{/* The probes' GET of /health: over HTTPS when config.http.tls makes the daemon serve HTTPS (the
     kubelet does not verify the certificate of an HTTPS probe). */}}
{{- define "jvm-sentinel.healthGet" -}}
{{- $http := (.Values.config | default dict).http | default dict -}}
httpGet: {path: /health, port: metrics{{ if $http.tls }}, scheme: HTTPS{{ end }}}
{{- end }}

{{/* Whether the daemon serves HTTPS (config.http.tls). */}}
{{- define "jvm-sentinel.https" -}}
{{- if ((.Values.config | default dict).http | default dict).tls -}}
true
{{- end -}}
{{- end }}
