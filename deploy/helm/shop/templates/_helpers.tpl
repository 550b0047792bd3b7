{{/* Names and labels. */}}
{{- define "shop.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "shop.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "shop.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "shop.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ include "shop.tag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: (dict "ctx" $ "component" "api"). */}}
{{- define "shop.selectorLabels" -}}
app.kubernetes.io/name: {{ include "shop.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "shop.tag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{- define "shop.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "shop.tag" .) }}
{{- end }}

{{- define "shop.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "shop.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "shop.secretName" -}}
{{- default (include "shop.fullname" .) .Values.existingSecret }}
{{- end }}

{{/* Seconds Kubernetes waits after SIGTERM before SIGKILL: the service's own
shutdown limit, the api's preStop pause, and a margin. */}}
{{- define "shop.terminationGracePeriodSeconds" -}}
{{- if lt (int .Values.terminationGraceMarginSeconds) 1 }}
{{- fail "terminationGraceMarginSeconds must be at least 1: Kubernetes must outwait the shutdown" }}
{{- end }}
{{- add (int .Values.shutdownTimeoutSeconds) (int .Values.api.preStopSleepSeconds) (int .Values.terminationGraceMarginSeconds) }}
{{- end }}

{{/* The ConfigMap's data: every non-empty `config` value, plus PORT and
SHUTDOWN_TIMEOUT. Refuses values that belong elsewhere. */}}
{{- define "shop.configData" -}}
{{- $reserved := dict "PORT" "api.port" "SHUTDOWN_TIMEOUT" "shutdownTimeoutSeconds" }}
{{- range $k, $v := .Values.config }}
{{- if hasKey $reserved $k }}
{{- fail (printf "config.%s: set %s instead" $k (get $reserved $k)) }}
{{- end }}
{{- if hasKey $.Values.secrets $k }}
{{- fail (printf "config.%s is a secret: set secrets.%s (or put it in existingSecret)" $k $k) }}
{{- end }}
{{- end }}
{{- if lt (int .Values.shutdownTimeoutSeconds) 1 }}
{{- fail "shutdownTimeoutSeconds must be at least 1" }}
{{- end }}
PORT: {{ .Values.api.port | quote }}
SHUTDOWN_TIMEOUT: {{ printf "%ds" (int .Values.shutdownTimeoutSeconds) | quote }}
{{- range $k, $v := .Values.config }}
{{- if ne (toString $v) "" }}
{{ $k }}: {{ toString $v | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* The Secret's stringData: every non-empty `secrets` value; the required
ones must be set. */}}
{{- define "shop.secretData" -}}
{{- range $k := list "DATABASE_URL" "REDIS_URL" "ADMIN_JWT_SECRET" "CUSTOMER_JWT_SECRET" "GATEWAY_WEBHOOK_SECRET" }}
{{- if eq (toString (get $.Values.secrets $k)) "" }}
{{- fail (printf "secrets.%s is required (or set existingSecret)" $k) }}
{{- end }}
{{- end }}
{{- range $k, $v := .Values.secrets }}
{{- if ne (toString $v) "" }}
{{ $k }}: {{ toString $v | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* The pod spec shared by every process: (dict "ctx" $ "component" "api"
"values" .Values.api "args" (list "api") "configMap" name "extra" yaml). */}}
{{- define "shop.podSpec" -}}
{{- $v := .ctx.Values }}
serviceAccountName: {{ include "shop.serviceAccountName" .ctx }}
automountServiceAccountToken: false
{{- with $v.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml $v.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ include "shop.terminationGracePeriodSeconds" .ctx }}
containers:
  - name: {{ .component }}
    image: {{ include "shop.image" .ctx }}
    imagePullPolicy: {{ $v.image.pullPolicy }}
    args: {{ toJson .args }}
    envFrom:
      - configMapRef:
          name: {{ .configMap }}
      - secretRef:
          name: {{ .secret }}
    {{- if or .values.env $v.extraEnv }}
    env:
      {{- range $k, $val := .values.env }}
      - name: {{ $k }}
        value: {{ toString $val | quote }}
      {{- end }}
      {{- with $v.extraEnv }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
    {{- end }}
    securityContext:
      {{- toYaml $v.securityContext | nindent 6 }}
    resources:
      {{- toYaml .values.resources | nindent 6 }}
    volumeMounts:
      - name: tmp
        mountPath: /tmp
    {{- with .extra }}
    {{- . | nindent 4 }}
    {{- end }}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: 16Mi
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Pod annotations that roll the pods when their configuration changes. */}}
{{- define "shop.podAnnotations" -}}
checksum/config: {{ include "shop.configData" .ctx | sha256sum }}
{{- if not .ctx.Values.existingSecret }}
checksum/secret: {{ include "shop.secretData" .ctx | sha256sum }}
{{- end }}
{{- with .values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The api container's port, probes and preStop pause. Readiness is
/readyz (Postgres and Redis answer: take the pod out of the Service while
they do not); liveness and startup are /healthz (the process serves:
restarting it would not bring a database back). */}}
{{- define "shop.apiContainerExtra" -}}
ports:
  - name: http
    containerPort: {{ .Values.api.port }}
    protocol: TCP
startupProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 2
  failureThreshold: 30
readinessProbe:
  httpGet:
    path: /readyz
    port: http
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
livenessProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 10
  timeoutSeconds: 2
  failureThreshold: 3
{{- if gt (int .Values.api.preStopSleepSeconds) 0 }}
lifecycle:
  preStop:
    sleep:
      seconds: {{ .Values.api.preStopSleepSeconds }}
{{- end }}
{{- end }}

{{/* The worker's and the scheduler's metrics port (METRICS_ADDR) and a
liveness probe on its /healthz; nothing when METRICS_ADDR is empty. */}}
{{- define "shop.metricsContainerExtra" -}}
{{- $addr := .Values.config.METRICS_ADDR | default "" | toString }}
{{- if $addr }}
{{- $port := last (splitList ":" $addr) | int }}
ports:
  - name: metrics
    containerPort: {{ $port }}
    protocol: TCP
livenessProbe:
  httpGet:
    path: /healthz
    port: metrics
  periodSeconds: 10
  failureThreshold: 3
{{- end }}
{{- end }}
