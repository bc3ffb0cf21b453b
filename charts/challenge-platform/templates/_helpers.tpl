{{/* Name of the chart, overridable. */}}
{{- define "cp.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every resource name: <release>-<chart>, or the release name when it contains
the chart name already. Kept short so that "-notification" still fits in 63 characters. */}}
{{- define "cp.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 48 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Labels on every resource. */}}
{{- define "cp.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "cp.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ default .Chart.AppVersion .Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: challenge-platform
{{- end }}

{{/* Selector labels of one process. Call with (dict "root" $ "name" "identity"). */}}
{{- define "cp.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cp.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Every process (gateway and subgraphs) with `defaults` merged under its own values, as a
YAML map name -> values; use with fromYaml. */}}
{{- define "cp.processes" -}}
{{- $procs := dict }}
{{- $_ := set $procs "gateway" (mergeOverwrite (deepCopy .Values.defaults) (deepCopy .Values.gateway)) }}
{{- range $name, $svc := .Values.services }}
{{- $_ := set $procs $name (mergeOverwrite (deepCopy $.Values.defaults) (deepCopy ($svc | default dict))) }}
{{- end }}
{{- toYaml $procs }}
{{- end }}

{{/* Image of one process. Call with (dict "root" $ "name" "identity"). */}}
{{- define "cp.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .name (default .root.Chart.AppVersion .root.Values.image.tag) }}
{{- end }}

{{/* Name of the ServiceAccount. */}}
{{- define "cp.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "cp.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* In-cluster GraphQL URL of a subgraph. Call with (dict "root" $ "name" "identity"). */}}
{{- define "cp.subgraphUrl" -}}
{{- $svc := get .root.Values.services .name }}
{{- printf "http://%s-%s:%v/graphql" (include "cp.fullname" .root) .name $svc.port }}
{{- end }}

{{/* REDIS_URL, from the ConfigMap or from a Secret. */}}
{{- define "cp.redisEnv" -}}
{{- if .Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.secretKey }}
{{- end }}
{{- end }}

{{/* Kafka TLS and SASL (docs/adr/0019): the non-secret part for the ConfigMap. */}}
{{- define "cp.kafkaSecurityConfig" -}}
{{- with .Values.kafka }}
{{- if .ssl }}
KAFKA_SSL: "true"
{{- end }}
{{- if .sasl.mechanism }}
{{- if and (eq .sasl.mechanism "plain") (not .ssl) }}
{{- fail "kafka.sasl.mechanism plain sends the password in clear: set kafka.ssl=true (or use scram-sha-512)" }}
{{- end }}
KAFKA_SASL_MECHANISM: {{ .sasl.mechanism | quote }}
KAFKA_SASL_USERNAME: {{ required "kafka.sasl.username is required with kafka.sasl.mechanism" .sasl.username | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Kafka TLS and SASL: the CA bundle and the SASL password, from existing Secrets. */}}
{{- define "cp.kafkaSecretEnv" -}}
{{- with .Values.kafka }}
{{- if .caSecret }}
{{- if not .ssl }}
{{- fail "kafka.caSecret is set but kafka.ssl is false" }}
{{- end }}
- name: KAFKA_SSL_CA
  valueFrom:
    secretKeyRef:
      name: {{ .caSecret }}
      key: {{ .caKey }}
{{- end }}
{{- if .sasl.mechanism }}
- name: KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ required "kafka.sasl.existingSecret is required with kafka.sasl.mechanism" .sasl.existingSecret }}
      key: {{ .sasl.passwordKey }}
{{- end }}
{{- end }}
{{- end }}

{{/* Secret with the JWT keys: the existing one, or the one the chart makes (secrets.yaml). */}}
{{- define "cp.jwtSecretName" -}}
{{- default (printf "%s-jwt" (include "cp.fullname" .)) .Values.jwt.existingSecret }}
{{- end }}

{{/* Secret with GATEWAY_SECRET: the existing one, or the one the chart makes (secrets.yaml). */}}
{{- define "cp.gatewaySecretName" -}}
{{- default (printf "%s-gateway" (include "cp.fullname" .)) .Values.gatewayCredential.existingSecret }}
{{- end }}

{{/* `from` peers every policy adds: the metrics scraper when configured, and extraFrom. */}}
{{- define "cp.metricsPeer" -}}
{{- with .Values.networkPolicy.metricsNamespaceSelector }}
# The metrics scraper (GET /metrics).
- namespaceSelector:
    {{- toYaml . | nindent 4 }}
  {{- with $.Values.networkPolicy.metricsPodSelector }}
  podSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- with .Values.networkPolicy.extraFrom }}
{{ toYaml . }}
{{- end }}
{{- end }}
