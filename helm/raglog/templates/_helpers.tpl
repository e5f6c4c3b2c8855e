{{/*
Names. The full name is also the FlinkDeployment's name, from which Flink derives the cluster id and the Kubernetes
service names ("<name>-rest"), hence the 45-character cap.
*/}}
{{- define "raglog.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 45 | trimSuffix "-" -}}
{{- end -}}

{{- define "raglog.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 45 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 45 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 45 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "raglog.proxyName" -}}
{{- printf "%s-proxy" (include "raglog.fullname" .) -}}
{{- end -}}

{{- define "raglog.proxyServiceAccountName" -}}
{{- if .Values.proxy.serviceAccount.create -}}
{{- default (include "raglog.proxyName" .) .Values.proxy.serviceAccount.name -}}
{{- else -}}
{{- .Values.proxy.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "raglog.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "raglog.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selects the JobManager and TaskManager pods (the labels ride on the FlinkDeployment's pod template). */}}
{{- define "raglog.jobSelectorLabels" -}}
app.kubernetes.io/name: {{ include "raglog.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: flink
{{- end -}}

{{- define "raglog.proxySelectorLabels" -}}
app.kubernetes.io/name: {{ include "raglog.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: proxy
{{- end -}}

{{- define "raglog.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "raglog.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "flink" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "raglog.jobImage" -}}
{{- printf "%s:%s" .Values.job.image.repository (default .Chart.AppVersion .Values.job.image.tag) -}}
{{- end -}}

{{- define "raglog.proxyImage" -}}
{{- printf "%s:%s" .Values.proxy.image.repository (default .Chart.AppVersion .Values.proxy.image.tag) -}}
{{- end -}}

{{/* Where mounted secrets and CA files appear inside the pods. */}}
{{- define "raglog.llmKeyFile" -}}/etc/raglog/llm/api-key{{- end -}}
{{- define "raglog.kafkaCaFile" -}}/etc/raglog/kafka-tls/ca.crt{{- end -}}
{{- define "raglog.esCaFile" -}}/etc/raglog/es-tls/ca.crt{{- end -}}
{{- define "raglog.upstreamCaFile" -}}/etc/raglog/upstream-tls/ca.crt{{- end -}}

{{/*
Refuses values that would put a secret into a ConfigMap or a custom resource. Every credential is a Secret reference;
a literal here would be stored in plain text, in the release history too.
*/}}
{{- define "raglog.refuseInlineSecrets" -}}
{{- $r := .Values.raglog -}}
{{- range $field := list "apiKey" "password" "token" -}}
{{- if hasKey $r.llm $field -}}
{{- fail (printf "raglog.llm.%s: secrets are never inline; create a Secret and set raglog.llm.apiKeySecret.name" $field) -}}
{{- end -}}
{{- if hasKey $r.elasticsearch.auth $field -}}
{{- fail (printf "raglog.elasticsearch.auth.%s: secrets are never inline; set raglog.elasticsearch.auth.apiKeySecret or passwordSecret" $field) -}}
{{- end -}}
{{- if hasKey $r.kafka.security.sasl $field -}}
{{- fail (printf "raglog.kafka.security.sasl.%s: secrets are never inline; set raglog.kafka.security.sasl.passwordSecret.name" $field) -}}
{{- end -}}
{{- end -}}
{{- range $field := list "accessKey" "secretKey" "accessKeyId" "secretAccessKey" -}}
{{- if hasKey $.Values.job.s3 $field -}}
{{- fail (printf "job.s3.%s: secrets are never inline; set job.s3.credentials.secretName" $field) -}}
{{- end -}}
{{- end -}}
{{- range $k, $v := $r.kafka.properties -}}
{{- if and (regexMatch "(?i)(password|secret|jaas|token)" $k) (not (contains "${" (toString $v))) -}}
{{- fail (printf "raglog.kafka.properties.%s looks like a secret: write it as a ${env:NAME} or ${file:PATH:KEY} reference (Kafka config providers), never the value" $k) -}}
{{- end -}}
{{- end -}}
{{- range $k, $v := $.Values.job.flinkConfiguration -}}
{{- if regexMatch "(?i)(password|secret-key|secret\\.key|access-key|access\\.key|api-key)" $k -}}
{{- fail (printf "job.flinkConfiguration.%s would store a secret in the FlinkDeployment in plain text; pass it from a Secret through job.env" $k) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* True when SASL is on. */}}
{{- define "raglog.kafkaSasl" -}}
{{- if hasPrefix "SASL_" .Values.raglog.kafka.security.protocol -}}true{{- end -}}
{{- end -}}

{{/*
The Kafka client properties the job and the proxy share: security from `raglog.kafka.security`, the password through
Kafka's EnvVarConfigProvider (resolved by each client when it starts, so it is in neither the job graph nor a file),
then the user's own properties.
*/}}
{{- define "raglog.kafkaProperties" -}}
{{- $s := .Values.raglog.kafka.security -}}
{{- $props := dict -}}
{{- if not (has $s.protocol (list "PLAINTEXT" "SSL" "SASL_PLAINTEXT" "SASL_SSL")) -}}
{{- fail (printf "raglog.kafka.security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not %s" $s.protocol) -}}
{{- end -}}
{{- if ne $s.protocol "PLAINTEXT" -}}
{{- $_ := set $props "security.protocol" $s.protocol -}}
{{- end -}}
{{- if include "raglog.kafkaSasl" . -}}
{{- if not $s.sasl.passwordSecret.name -}}
{{- fail "raglog.kafka.security.protocol is SASL_*: set raglog.kafka.security.sasl.passwordSecret.name (a Secret holding the password)" -}}
{{- end -}}
{{- $module := "" -}}
{{- if eq $s.sasl.mechanism "PLAIN" -}}
{{- $module = "org.apache.kafka.common.security.plain.PlainLoginModule" -}}
{{- else if has $s.sasl.mechanism (list "SCRAM-SHA-256" "SCRAM-SHA-512") -}}
{{- $module = "org.apache.kafka.common.security.scram.ScramLoginModule" -}}
{{- else -}}
{{- fail (printf "raglog.kafka.security.sasl.mechanism must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, not %s (others: set raglog.kafka.properties)" $s.sasl.mechanism) -}}
{{- end -}}
{{- $_ := set $props "sasl.mechanism" $s.sasl.mechanism -}}
{{- $_ := set $props "sasl.jaas.config" (printf "%s required username=\"%s\" password=\"${env:RAGLOG_KAFKA_SASL_PASSWORD}\";" $module $s.sasl.username) -}}
{{- $_ := set $props "config.providers" "env" -}}
{{- $_ := set $props "config.providers.env.class" "org.apache.kafka.common.config.provider.EnvVarConfigProvider" -}}
{{- $_ := set $props "config.providers.env.param.allowlist.pattern" "^RAGLOG_KAFKA_.*$" -}}
{{- end -}}
{{- if $s.tls.caSecret.name -}}
{{- $_ := set $props "ssl.truststore.type" "PEM" -}}
{{- $_ := set $props "ssl.truststore.location" (include "raglog.kafkaCaFile" .) -}}
{{- end -}}
{{- range $k, $v := .Values.raglog.kafka.properties -}}
{{- $_ := set $props $k (toString $v) -}}
{{- end -}}
{{- toYaml $props -}}
{{- end -}}

{{/* The environment variable that carries the Kafka SASL password, for the job and the proxy. */}}
{{- define "raglog.kafkaEnv" -}}
{{- if include "raglog.kafkaSasl" . }}
- name: RAGLOG_KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.raglog.kafka.security.sasl.passwordSecret.name }}
      key: {{ .Values.raglog.kafka.security.sasl.passwordSecret.key }}
{{- end }}
{{- end -}}

{{/* A checksum of what the pods read at start, so a change to it rolls them. */}}
{{- define "raglog.configChecksum" -}}
{{- include (print .Template.BasePath "/job-configmap.yaml") . | sha256sum -}}
{{- end -}}

{{/* The Flink containers' environment: secrets by reference only (secretKeyRef), then the user's extra variables. */}}
{{- define "raglog.jobEnv" -}}
{{- $r := .Values.raglog -}}
{{- $j := .Values.job -}}
{{ include "raglog.kafkaEnv" . }}
{{- if $r.elasticsearch.auth.apiKeySecret.name }}
- name: RAGLOG_ES_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $r.elasticsearch.auth.apiKeySecret.name }}
      key: {{ $r.elasticsearch.auth.apiKeySecret.key }}
{{- end }}
{{- if $r.elasticsearch.auth.passwordSecret.name }}
- name: RAGLOG_ES_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $r.elasticsearch.auth.passwordSecret.name }}
      key: {{ $r.elasticsearch.auth.passwordSecret.key }}
{{- end }}
{{- with $j.s3.credentials }}
{{- if .secretName }}
- name: AWS_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .accessKeyIdKey }}
- name: AWS_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .secretAccessKeyKey }}
{{- end }}
{{- end }}
{{- with $j.env }}
{{ toYaml . }}
{{- end }}
{{- end -}}
