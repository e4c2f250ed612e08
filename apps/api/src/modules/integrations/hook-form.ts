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
}
