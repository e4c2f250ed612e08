{{/*
Names. With the release called "shiplog" (as in ci/production-values.yaml) objects are named
shiplog-api, shiplog-worker, shiplog-migrate: the same names as the Kustomize manifests.
*/}}
{{- define "shiplog.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "shiplog.fullname" -}}
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

{{- define "shiplog.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Selector labels of one component. Called with (dict "context" $ "component" "api").
*/}}
{{- define "shiplog.selectorLabels" -}}
app.kubernetes.io/name: {{ include "shiplog.name" .context }}
app.kubernetes.io/instance: {{ .context.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end }}

{{/*
All labels of one component's objects (component may be empty for shared objects).
*/}}
{{- define "shiplog.labels" -}}
{{ include "shiplog.selectorLabels" . }}
app.kubernetes.io/part-of: shiplog
app.kubernetes.io/version: {{ .context.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .context.Release.Service }}
helm.sh/chart: {{ include "shiplog.chart" .context }}
{{- end }}

{{/*
The image, pinned: a version tag (the chart's appVersion unless image.tag says otherwise).
*/}}
{{- define "shiplog.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if eq $tag "latest" }}
{{- fail "image.tag must be a version, not latest: a rollout must name the build it runs" }}
{{- end }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}

{{/*
The API's metrics port (METRICS_PORT), a listener apart from the public one: never api.port.
*/}}
{{- define "shiplog.apiMetricsPort" -}}
{{- if eq (int .Values.api.metricsPort) (int .Values.api.port) }}
{{- fail "api.metricsPort must differ from api.port: /metrics must not share the public listener" }}
{{- end }}
{{- .Values.api.metricsPort }}
{{- end }}

{{- define "shiplog.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "shiplog.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The Secret holding DATABASE_URL: an existing one, or <fullname>-database (created by the chart
when database.url is set, else expected to exist, as with Kustomize).
*/}}
{{- define "shiplog.databaseSecret" -}}
{{- if and .Values.database.existingSecret .Values.database.url }}
{{- fail "set database.existingSecret or database.url, not both" }}
{{- end }}
{{- default (printf "%s-database" (include "shiplog.fullname" .)) .Values.database.existingSecret }}
{{- end }}

{{/*
DATABASE_URL from a Secret. Called with (dict "context" $ "secret" name).
*/}}
{{- define "shiplog.databaseEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .context.Values.database.secretKey }}
{{- end }}

{{/*
The Secret key of DATABASE_READ_URL: database.readSecretKey, else read-url when the chart stores
database.readUrl; empty when there is no read replica.
*/}}
{{- define "shiplog.databaseReadKey" -}}
{{- if and .Values.database.readUrl (not .Values.database.url) }}
{{- fail "database.readUrl needs database.url: the chart stores both in the Secret it creates. With existingSecret, add the replica URL to that Secret and set database.readSecretKey" }}
{{- end }}
{{- if and .Values.database.url .Values.database.readSecretKey (not .Values.database.readUrl) }}
{{- fail "database.readSecretKey names a key of the Secret the chart creates from database.url: set database.readUrl, the replica URL to store there" }}
{{- end }}
{{- if .Values.database.readUrl }}
{{- default "read-url" .Values.database.readSecretKey }}
{{- else }}
{{- .Values.database.readSecretKey }}
{{- end }}
{{- end }}

{{/*
DATABASE_READ_URL from the database Secret, for the API alone (its read endpoints); nothing when
there is no read replica. The worker and the migration write, so they never get it.
*/}}
{{- define "shiplog.databaseReadEnv" -}}
{{- $key := include "shiplog.databaseReadKey" . }}
{{- if $key -}}
- name: DATABASE_READ_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "shiplog.databaseSecret" . }}
      key: {{ $key }}
{{- end }}
{{- end }}

{{/*
Whether single sign-on is on: api.config sets OIDC_ISSUER_URL. It needs the client secret from
oidc.existingSecret, and that Secret is of no use without it: either alone fails the render.
*/}}
{{- define "shiplog.oidcEnabled" -}}
{{- $issuer := index .Values.api.config "OIDC_ISSUER_URL" | default "" }}
{{- if and $issuer (not .Values.oidc.existingSecret) }}
{{- fail "api.config.OIDC_ISSUER_URL needs oidc.existingSecret: the Secret holding the OpenID client's secret (docs/sign-in.md)" }}
{{- end }}
{{- if and .Values.oidc.existingSecret (not $issuer) }}
{{- fail "oidc.existingSecret is set but api.config.OIDC_ISSUER_URL is not: set the issuer (and OIDC_CLIENT_ID, OIDC_ROLE_MAPPING, PUBLIC_URL) to turn single sign-on on" }}
{{- end }}
{{- if $issuer }}true{{- end }}
{{- end }}

{{/*
OIDC_CLIENT_SECRET from its Secret, for the API alone; nothing without single sign-on.
*/}}
{{- define "shiplog.oidcEnv" -}}
{{- if include "shiplog.oidcEnabled" . -}}
- name: OIDC_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .Values.oidc.existingSecret }}
      key: {{ .Values.oidc.secretKey }}
{{- end }}
{{- end }}

{{/*
INTEGRATION_SEALING_KEY from its Secret, for the API alone; nothing without one.
*/}}
{{- define "shiplog.integrationsEnv" -}}
{{- if .Values.integrations.existingSecret -}}
- name: INTEGRATION_SEALING_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.integrations.existingSecret }}
      key: {{ .Values.integrations.sealingKeyKey }}
{{- end }}
{{- end }}

{{/*
Pod-level hardening shared by every pod: the image's shiplog user (uid and gid 10001, the
Dockerfile's USER), never root.
*/}}
{{- define "shiplog.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
Container-level hardening: nothing is writable but /tmp, no privilege can be gained.
*/}}
{{- define "shiplog.securityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
Spread one component's pods over zones, then nodes; soft, so a small cluster still schedules.
*/}}
{{- define "shiplog.topologySpread" -}}
{{- $context := .context }}
{{- $component := .component }}
{{- range list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
- maxSkew: 1
  topologyKey: {{ . }}
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "shiplog.selectorLabels" (dict "context" $context "component" $component) | nindent 6 }}
  matchLabelKeys: [pod-template-hash]
{{- end }}
{{- end }}

{{/*
Scheduling settings from values, shared by every pod.
*/}}
{{- define "shiplog.scheduling" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
Prometheus scrape annotations for a pod serving /metrics on the given port.
*/}}
{{- define "shiplog.scrapeAnnotations" -}}
{{- if .context.Values.metrics.scrapeAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- with .context.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Egress every component needs: Postgres and DNS.
*/}}
{{- define "shiplog.egress" -}}
- ports:
    - port: {{ .Values.networkPolicy.postgresPort }}
      protocol: TCP
- ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
{{- end }}

{{/*
The job label of a monitor's targets: the alerts and dashboards select job=~"shiplog.*", while
the operator's default would be the Service's name or <namespace>/<PodMonitor name>, which
depend on the release. Called with the job's name.
*/}}
{{- define "shiplog.jobLabel" -}}
- action: replace
  targetLabel: job
  replacement: {{ . }}
{{- end }}
