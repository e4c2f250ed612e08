import type { DeploymentCommits, DeploymentStatus } from '@shiplog/schema'
import { utc } from '../format.ts'
import { html } from '../html.ts'
import type { PageContent, Viewer } from '../layout.ts'
import { marks } from './deployments.ts'

const SIGNAL = {
  rollback: 'rolled back by',
  revert: 'a commit it delivered was reverted by',
  incident: 'named as the cause of',
} as const

/** One deployment: its receipt, its fate, its commits, and (for admins) voiding it. */
export function deploymentPage(
  deployment: DeploymentStatus,
  commits: DeploymentCommits | undefined,
  replaced: { id: string; version: string; deployedAt: string } | undefined,
  viewer: Viewer & { mayVoid: boolean; notice?: string },
): PageContent {
  const failure = deployment.changeFailure
  return {
    title: `${deployment.app} ${deployment.version}`,
    section: '/ui/deployments',
    body: html`<h1>${deployment.app} ${deployment.version} <span class="muted">to</span> ${deployment.environment}</h1>
${viewer.notice ? html`<p class="notice" role="status">${viewer.notice}</p>` : ''}
<dl class="facts">
<dt>Status</dt><dd><span class="badge ${deployment.status}">${deployment.status}</span> ${marks({ ...deployment, status: 'recorded' })}</dd>
<dt>Repository</dt><dd>${deployment.repositoryFullName}${deployment.monorepoPath ? html` <span class="muted">(${deployment.monorepoPath})</span>` : ''}</dd>
<dt>Commit</dt><dd><code>${deployment.commitHash}</code></dd>
<dt>Deployed</dt><dd>${utc(deployment.deployedAt)}</dd>
<dt>By</dt><dd>${deployment.author ?? '—'}</dd>
${deployment.description ? html`<dt>Note</dt><dd>${deployment.description}</dd>` : ''}
<dt>Received</dt><dd>${utc(deployment.receivedAt)}</dd>
<dt>Recorded</dt><dd>${deployment.recordedAt ? utc(deployment.recordedAt) : '—'}</dd>
${replaced ? html`<dt>Replaced</dt><dd><a href="/ui/deployments/${replaced.id}">${replaced.version}</a> <span class="muted">of ${utc(replaced.deployedAt)}</span></dd>` : ''}
${deployment.duplicateOf ? html`<dt>Repeats</dt><dd><a href="/ui/deployments/${deployment.duplicateOf}">an earlier delivery</a></dd>` : ''}
${deployment.failure ? html`<dt>Not recorded</dt><dd>${deployment.failure.reason} (${deployment.failure.attempts} attempts)</dd>` : ''}
${deployment.voided ? html`<dt>Voided</dt><dd>${utc(deployment.voided.at)}${deployment.voided.keyName ? html` by key ${deployment.voided.keyName}` : ''}${deployment.voided.reason ? html`: ${deployment.voided.reason}` : ''}</dd>` : ''}
</dl>
${
  failure
    ? html`<h2>Failed in production</h2>
<ul>${failure.signals.map(
        (signal) =>
          html`<li>${SIGNAL[signal.kind]} ${
            signal.deploymentId
              ? html`<a href="/ui/deployments/${signal.deploymentId}">a later deployment</a>`
              : signal.incidentId
                ? html`<a href="/ui/incidents#${signal.incidentId}">an incident</a>`
                : ''
          }${signal.revertedCommit ? html` (commit <code>${signal.revertedCommit.slice(0, 12)}</code>)` : ''}${
            signal.recoveredAt
              ? html`, recovered ${utc(signal.recoveredAt)}`
              : html`, not recovered yet`
          }</li>`,
      )}</ul>`
    : ''
}
<h2>Commits</h2>
${
  commits && commits.commits.length > 0
    ? html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Commit</th><th scope="col">Committed (UTC)</th><th scope="col">Reverts</th></tr></thead>
<tbody>${commits.commits.map(
        (commit) =>
          html`<tr><td><code>${commit.sha.slice(0, 12)}</code></td><td>${utc(commit.committedAt)}</td><td>${commit.reverts.map((sha) => html`<code>${sha.slice(0, 12)}</code> `)}</td></tr>`,
      )}</tbody></table></div>${commits.truncated ? html`<p class="muted">The pipeline sent the first 5,000.</p>` : ''}`
    : html`<p class="muted">No commits were sent with this deployment (<code>shiplog notify</code> sends them).</p>`
}
${
  viewer.mayVoid && deployment.status === 'recorded'
    ? html`<h2>Void this deployment</h2>
<p>Voiding keeps it for audit but leaves it out of every list, the overview and every metric. It cannot be undone.</p>
<form class="stack" method="post" action="/ui/deployments/${deployment.id}/void" data-confirm="Void ${deployment.app} ${deployment.version} in ${deployment.environment}? It leaves every list and figure.">
<input type="hidden" name="csrf" value="${viewer.csrfToken}">
<label for="reason">Reason<input id="reason" name="reason" maxlength="500" required></label>
<label><span><input type="checkbox" name="confirm" value="yes" required> I understand this deployment leaves every figure</span></label>
<button class="danger" type="submit">Void deployment</button>
</form>`
    : ''
}`,
  }
}
