import { commitUrl, type DeploymentCommits, type DeploymentStatus } from '@shiplog/schema'
import type { AuditEvent } from '@shiplog/schema/audit'
import { commitList } from './commit-list.ts'
import { marks } from './deployments.ts'
import { errorSummary, type FormState, fieldError } from './form-fields.ts'
import { counted, utc } from './format.ts'
import { actorText, historySection } from './history.ts'
import { bdi, type Html, html, isolate } from './html.ts'
import { incidentForm } from './incident-form.ts'
import type { PageContent, Viewer } from './layout.ts'

const SIGNAL = {
  rollback: 'rolled back by',
  revert: 'a commit it delivered was reverted by',
  incident: 'named as the cause of',
} as const

/** Who voided it, as the audit trail names them (a person, or a key), else as its row does. */
function voidedBy(voided: NonNullable<DeploymentStatus['voided']>, history: readonly AuditEvent[]) {
  const event = history.find((each) => each.action === 'deployment.voided')
  if (event) return html` by ${bdi(actorText(event.actor))}`
  return voided.keyName ? html` by key ${voided.keyName}` : ''
}

/** What a deployment's page draws: the receipt and what is known of it, and its forms. */
export interface DeploymentModel extends Viewer {
  deployment: DeploymentStatus
  /** The commits it delivered; undefined when none were sent. */
  commits: DeploymentCommits | undefined
  /** The deployment it replaced in its application and environment. */
  replaced: { id: string; version: string; deployedAt: string } | undefined
  history: readonly AuditEvent[]
  mayVoid: boolean
  notice?: string
  voidForm: FormState
  /** The incident form, prefilled from this deployment; undefined without incidents:write. */
  incident?: { form: FormState; environments: string[] }
}

function failureSection(deployment: DeploymentStatus): Html | string {
  const failure = deployment.changeFailure
  if (!failure) return ''
  return html`<h2>Failed in production</h2>
<ul>${failure.signals.map(
    (signal) =>
      html`<li>${SIGNAL[signal.kind]} ${
        signal.deploymentId
          ? html`<a href="/ui/deployments/${signal.deploymentId}">a later deployment</a>`
          : signal.incidentId
            ? html`<a href="/ui/incidents/${signal.incidentId}">an incident</a>`
            : ''
      }${signal.revertedCommit ? html` (commit <code>${signal.revertedCommit.slice(0, 12)}</code>)` : ''}${
        signal.recoveredAt
          ? html`, recovered ${utc(signal.recoveredAt)}`
          : html`, not recovered yet`
      }</li>`,
  )}</ul>`
}

function voidSection(deployment: DeploymentStatus, options: DeploymentModel): Html | string {
  if (!options.mayVoid || deployment.status !== 'recorded') return ''
  const state = options.voidForm
  const reason = fieldError(state, 'reason', 'reason')
  const confirm = fieldError(state, 'confirm', 'confirm')
  return html`<h2>Void this deployment</h2>
<p>Voiding keeps it for audit but leaves it out of every list, the overview and every metric. It cannot be undone.</p>
${errorSummary(state, 'Not voided')}
<form class="stack" method="post" action="/ui/deployments/${deployment.id}/void" data-confirm="Void ${isolate(deployment.app)} ${isolate(deployment.version)} in ${isolate(deployment.environment)}? It leaves every list and figure.">
<input type="hidden" name="csrf" value="${options.csrfToken}">
<label for="reason">Reason<input id="reason" name="reason" maxlength="500" required value="${state.values.reason ?? ''}"${reason.attributes}>${reason.message}</label>
<label for="confirm"><span><input type="checkbox" id="confirm" name="confirm" value="yes" required${confirm.attributes}> I understand this deployment leaves every figure</span>${confirm.message}</label>
<button class="danger" type="submit">Void deployment</button>
</form>`
}

function incidentSection(options: DeploymentModel): Html | string {
  if (!options.incident) return ''
  const refused = options.incident.form.errors.length > 0
  return html`<details class="incident"${refused ? html` open` : ''}><summary>Open an incident about this deployment</summary>
${incidentForm(options.incident.form, { ...options, environments: options.incident.environments, id: 'incident' })}
</details>`
}

/** One deployment: its receipt, its fate, its commits, and the forms its viewer may use. */
export function deploymentPage(options: DeploymentModel): PageContent {
  const { deployment, commits, replaced, history } = options
  const webUrl = commits?.webUrl ?? null
  return {
    title: `${isolate(deployment.app)} ${isolate(deployment.version)}`,
    section: '/ui/deployments',
    description: `${isolate(deployment.app)} ${isolate(deployment.version)} deployed to ${isolate(deployment.environment)}: its receipt, its commits and its fate.`,
    body: html`<h1>${bdi(deployment.app)} ${bdi(deployment.version)} <span class="muted">to</span> ${bdi(deployment.environment)}</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
<dl class="facts">
<dt>Status</dt><dd><span class="badge ${deployment.status}">${deployment.status}</span> ${marks({ ...deployment, status: 'recorded' })}</dd>
<dt>Repository</dt><dd>${webUrl ? html`<a href="${webUrl}">${bdi(deployment.repositoryFullName)}</a>` : bdi(deployment.repositoryFullName)}${deployment.monorepoPath ? html` <span class="muted">(${bdi(deployment.monorepoPath)})</span>` : ''}</dd>
<dt>Commit</dt><dd>${commitFact(deployment.commitHash, webUrl)}</dd>
<dt>Deployed</dt><dd>${utc(deployment.deployedAt)}</dd>
<dt>By</dt><dd>${deployment.author === null ? '—' : bdi(deployment.author)}</dd>
<dt>Source</dt><dd>${deployment.source}</dd>
${deployment.description ? html`<dt>Note</dt><dd>${bdi(deployment.description)}</dd>` : ''}
<dt>Received</dt><dd>${utc(deployment.receivedAt)}</dd>
<dt>Recorded</dt><dd>${deployment.recordedAt ? utc(deployment.recordedAt) : '—'}</dd>
${replaced ? html`<dt>Replaced</dt><dd><a href="/ui/deployments/${replaced.id}">${bdi(replaced.version)}</a> <span class="muted">of ${utc(replaced.deployedAt)}</span></dd>` : ''}
${deployment.duplicateOf ? html`<dt>Repeats</dt><dd><a href="/ui/deployments/${deployment.duplicateOf}">an earlier delivery</a></dd>` : ''}
${deployment.failure ? html`<dt>Not recorded</dt><dd>${bdi(deployment.failure.reason)} (${counted(deployment.failure.attempts, 'attempt')})</dd>` : ''}
${deployment.voided ? html`<dt>Voided</dt><dd>${utc(deployment.voided.at)}${voidedBy(deployment.voided, history)}${deployment.voided.reason ? html`: ${bdi(deployment.voided.reason)}` : ''}</dd>` : ''}
</dl>
${incidentSection(options)}
${failureSection(deployment)}
${historySection(history)}
<h2>Commits</h2>
${
  commits && commits.commits.length > 0
    ? html`${commitList(
        commits.commits.map((commit) => ({
          ...commit,
          url: webUrl === null ? null : commitUrl(webUrl, commit.sha),
        })),
        { reverts: true },
      )}${commits.truncated ? html`<p class="muted">The pipeline sent the first 5,000.</p>` : ''}`
    : html`<p class="muted">No commits were sent with this deployment (<code>shiplog notify</code> sends them).</p>`
}
${voidSection(deployment, options)}`,
  }
}

function commitFact(commitHash: string | null, webUrl: string | null): Html {
  if (commitHash === null) {
    return html`<span class="muted">commit unknown: its sender named none (a chart version or an image digest is not a commit)</span>`
  }
  return webUrl && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commitHash)
    ? html`<a href="${commitUrl(webUrl, commitHash)}"><code>${commitHash}</code></a>`
    : html`<code>${commitHash}</code>`
}
