// What each host's webhook form calls the boxes an integration fills in, as docs/integrations.md
// shows them: the words people look for on GitHub's and GitLab's pages, beside the events' names.

import type { IntegrationSource } from '@shiplog/db/integrations/integrations'

/** One host's webhook form. */
export interface HookForm {
  /** The host, and where its form is. */
  where: string
  /** The label of the secret's box. */
  secret: string
  /** The content type to choose; undefined where the host offers no choice (GitLab sends JSON). */
  contentType: string | undefined
  /** The label of the events' part of the form. */
  trigger: string
  /** The box to tick for each event an integration reads (SOURCES' events). */
  boxes: Record<string, string>
}

export const HOOK_FORMS: Record<IntegrationSource, HookForm> = {
  github: {
    where: "GitHub (the repository's or organization's Settings → Webhooks → Add webhook)",
    secret: 'Secret',
    contentType: 'application/json',
    trigger: 'Events',
    boxes: { deployment_status: 'Deployment statuses', push: 'Pushes' },
  },
  gitlab: {
    where: "GitLab (the project's or group's Settings → Webhooks → Add new webhook)",
    secret: 'Secret token',
    contentType: undefined,
    trigger: 'Trigger',
    boxes: { 'Deployment Hook': 'Deployment events', 'Push Hook': 'Push events' },
  },
  cdevents: {
    where:
      'your CDEvents sender (a cdviz collector, Tekton, Keptn, any CloudEvents HTTP sink: structured, binary or a bare CDEvent)',
    secret: 'Header Authorization: Bearer',
    contentType: 'application/cloudevents+json (structured) or application/json',
    trigger: 'Events',
    boxes: {
      'service.deployed': 'dev.cdevents.service.deployed',
      'service.upgraded': 'dev.cdevents.service.upgraded',
      'service.rolledback': 'dev.cdevents.service.rolledback',
      'incident.detected': 'dev.cdevents.incident.detected',
      'incident.reported': 'dev.cdevents.incident.reported',
      'incident.resolved': 'dev.cdevents.incident.resolved',
    },
  },
  argocd: {
    where:
      'Argo CD (argocd-notifications-cm, as infra/argocd/notifications-cm.yaml has it: the URL in service.webhook.shiplog)',
    secret: 'argocd-notifications-secret, key shiplog-token',
    contentType: 'application/json',
    trigger: 'Subscription (an annotation on each Application, or the defaultTriggers)',
    boxes: {
      'on-deployed (a CDEvent service.deployed)':
        'notifications.argoproj.io/subscribe.on-deployed.shiplog: ""',
    },
  },
  flux: {
    where:
      'Flux (a Provider of type generic-hmac and its Alert, as infra/flux/shiplog.yaml has them: the URL in the Provider’s address)',
    secret: 'The Provider’s Secret, key token',
    contentType: undefined,
    trigger: 'The Alert’s eventSources (Kustomizations, HelmReleases)',
    boxes: {
      'Kustomization ReconciliationSucceeded': 'kind: Kustomization',
      'HelmRelease InstallSucceeded': 'kind: HelmRelease',
      'HelmRelease UpgradeSucceeded': 'kind: HelmRelease',
    },
  },
  alertmanager: {
    where:
      'Alertmanager (a receiver with a webhook_configs entry, as infra/alertmanager/shiplog.yaml has it: the URL in url)',
    secret: 'http_config.authorization.credentials (or basic_auth.password)',
    contentType: undefined,
    trigger: 'The route that sends alerts to the receiver',
    boxes: {
      firing: 'send_resolved: true (firing is always sent)',
      resolved: 'send_resolved: true',
    },
  },
  pagerduty: {
    where:
      'PagerDuty (Integrations → Generic Webhooks (v3) → New Webhook, on a service or the account): the URL in Webhook URL',
    secret:
      'PagerDuty shows the signing secret once the webhook is created: give it to Shiplog as the integration’s secret',
    contentType: undefined,
    trigger: 'Event Subscription',
    boxes: {
      'incident.triggered': 'incident.triggered',
      'incident.resolved': 'incident.resolved',
      'incident.reopened': 'incident.reopened',
    },
  },
  opsgenie: {
    where: 'Opsgenie (Settings → Integrations → Webhook): the URL in Webhook URL',
    secret: 'Custom headers: Authorization = Bearer and the secret',
    contentType: undefined,
    trigger: 'Alert actions to forward',
    boxes: { Create: 'Alert is created', Close: 'Alert is closed' },
  },
}
