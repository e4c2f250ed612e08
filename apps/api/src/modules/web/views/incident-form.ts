import { errorSummary, type FormState, fieldError, textField } from './form-fields.ts'
import { type Html, html } from './html.ts'
import type { PageContent, Viewer } from './layout.ts'

/** `2026-05-04T10:00:00Z`: an instant as the form's start field takes it, to the second. */
export const formInstant = (date: Date) => `${date.toISOString().slice(0, 19)}Z`

/**
 * The form that opens an incident, as typed (or prefilled: from a deployment, its application,
 * environment and id as the cause, and now as the start), with the errors of a refused post.
 */
export function incidentForm(
  state: FormState,
  options: Viewer & { environments: string[]; id: string },
): Html {
  const id = (name: string) => `${options.id}-${name}`
  const environment = fieldError(state, id('environment'), 'environment')
  const chosen = state.values.environment?.toLowerCase()
  return html`${errorSummary(state, 'The incident was not opened')}
<form class="stack" method="post" action="/ui/incidents">
<input type="hidden" name="csrf" value="${options.csrfToken}">
${textField(state, { id: id('title'), name: 'title', label: 'Title', extra: html` maxlength="200" required` })}
<label for="${id('environment')}">Environment<select id="${id('environment')}" name="environment" required${environment.attributes}>
${options.environments.map((name) => html`<option value="${name}"${name.toLowerCase() === chosen ? html` selected` : ''}>${name}</option>`)}
</select>${environment.message}</label>
${textField(state, { id: id('app'), name: 'app', label: 'Application (optional)' })}
${textField(state, { id: id('cause'), name: 'causeDeploymentId', label: 'Cause: deployment id (optional)', extra: html` spellcheck="false"` })}
${textField(state, { id: id('started'), name: 'startedAt', label: 'Started (UTC, RFC 3339)', extra: html` spellcheck="false" placeholder="YYYY-MM-DDThh:mm:ssZ"` })}
<button type="submit">Open incident</button>
</form>`
}

/** A refused incident, shown again as typed with what to fix. */
export function incidentFormPage(
  state: FormState,
  options: Viewer & { environments: string[] },
): PageContent {
  return {
    title: 'Open an incident',
    section: '/ui/incidents',
    body: html`<h1>Open an incident</h1>
${incidentForm(state, { ...options, id: 'incident' })}
<p><a href="/ui/incidents">Back to the incidents</a></p>`,
  }
}
