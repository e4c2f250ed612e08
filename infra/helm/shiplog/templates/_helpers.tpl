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
Whether the chart runs Postgres as a CloudNativePG Cluster (database.cloudnativepg.enabled). The
operator's Secret then holds the URL, so a Secret or URL of the user's would be a second source.
*/}}
{{- define "shiplog.cloudnativepg" -}}
{{- with .Values.database }}
{{- if .cloudnativepg.enabled }}
{{- if or .existingSecret .url .readSecretKey .readUrl }}
{{- fail "database.cloudnativepg.enabled takes DATABASE_URL and DATABASE_READ_URL from the operator's Secret: leave database.existingSecret, url, readSecretKey and readUrl empty" }}
{{- end -}}
true
{{- end }}
{{- end }}
{{- end }}

{{/*
The CloudNativePG Cluster's name; the operator names its Services <name>-rw (the primary) and
<name>-ro (the standbys) and its Secret <name>-app after it, and refuses names over 50 characters.
*/}}
{{- define "shiplog.postgresCluster" -}}
{{- $name := printf "%s-postgres" (include "shiplog.fullname" .) }}
{{- if gt (len $name) 50 }}
{{- fail (printf "the CloudNativePG Cluster's name %s is over the operator's 50 characters: shorten the release name or set fullnameOverride" $name) }}
{{- end }}
{{- $name }}
{{- end }}

{{/*
When the migration hooks run (the Job, its ConfigMap and Secret alike, so each finds the others):
before the release's objects on install and upgrade; with the chart's own Cluster, after them on
install, since until they exist there is no database to migrate.
*/}}
{{- define "shiplog.migrateHook" -}}
{{- ternary "post-install,pre-upgrade" "pre-install,pre-upgrade" (not (empty (include "shiplog.cloudnativepg" .))) }}
{{- end }}

{{/*
The migration Job's first container with the chart's own Cluster: on a first install the Job
starts while the operator is still creating the primary, and refused connections would spend its
retries (backoffLimit). It waits until the -rw Service takes a connection; activeDeadlineSeconds
still bounds the whole Job.
*/}}
{{- define "shiplog.waitForPostgres" -}}
- name: wait-for-postgres
  image: {{ include "shiplog.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  command:
    - bun
    - -e
    - |
      const primary = { hostname: '{{ include "shiplog.postgresCluster" . }}-rw', port: 5432 }
      for (;;) {
        const socket = await Bun.connect({ ...primary, socket: { data() {} } }).catch(() => null)
        if (socket) process.exit(0)
        await Bun.sleep(2000)
      }
  resources:
    {{- toYaml .Values.migrate.resources | nindent 4 }}
  securityContext:
    {{- include "shiplog.securityContext" . | nindent 4 }}
  volumeMounts:
    - name: tmp
      mountPath: /tmp
{{- end }}

{{/*
The Secret holding DATABASE_URL: the CloudNativePG Cluster's <name>-app, an existing one, or
<fullname>-database (created by the chart when database.url is set, else expected to exist, as
with Kustomize).
*/}}
{{- define "shiplog.databaseSecret" -}}
{{- if and .Values.database.existingSecret .Values.database.url }}
{{- fail "set database.existingSecret or database.url, not both" }}
{{- end }}
{{- if include "shiplog.cloudnativepg" . }}
{{- printf "%s-app" (include "shiplog.postgresCluster" .) }}
{{- else }}
{{- default (printf "%s-database" (include "shiplog.fullname" .)) .Values.database.existingSecret }}
{{- end }}
{{- end }}

{{/*
The key of DATABASE_URL in that Secret: `uri` in the operator's, which names the -rw Service.
*/}}
{{- define "shiplog.databaseSecretKey" -}}
{{- ternary "uri" .Values.database.secretKey (not (empty (include "shiplog.cloudnativepg" .))) }}
{{- end }}

{{/*
DATABASE_URL from a Secret. Called with (dict "context" $ "secret" name).
*/}}
{{- define "shiplog.databaseEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ include "shiplog.databaseSecretKey" .context }}
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
DATABASE_READ_URL, for the API alone (its read endpoints): the CloudNativePG Cluster's -ro
Service, or a replica's URL from the database Secret; nothing when there is no read replica. The
worker and the migration write, so they never get it.
*/}}
{{- define "shiplog.databaseReadEnv" -}}
{{- $key := include "shiplog.databaseReadKey" . }}
{{- if include "shiplog.cloudnativepg" . -}}
{{- $cluster := include "shiplog.postgresCluster" . -}}
# The operator's Secret has a URL of the -rw Service only: the -ro one is composed from its
# password (generated letters and digits, so nothing to escape). Kubernetes expands $(NAME)
# from variables listed before it.
- name: CNPG_APP_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $cluster }}-app
      key: password
- name: DATABASE_READ_URL
  value: postgresql://shiplog:$(CNPG_APP_PASSWORD)@{{ $cluster }}-ro:5432/shiplog
{{- else if $key -}}
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
