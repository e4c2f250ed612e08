import type { Comparison } from '@shiplog/schema'
import { shortCommit } from './commit-cell.ts'
import { commitList } from './commit-list.ts'
import { counted, utc } from './format.ts'
import { type Html, html } from './html.ts'
import type { PageContent } from './layout.ts'

/** What the compare form asks: an application (and its repository), and two environments. */
export interface CompareSelection {
  app?: string
  repository?: string
  from?: string
  to?: string
}

const query = (selection: CompareSelection) =>
  new URLSearchParams(
    Object.entries(selection).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString()

function environmentSelect(
  id: string,
  name: 'from' | 'to',
  label: string,
  chosen: string | undefined,
  environments: string[],
) {
  return html`<label for="${id}">${label}<select id="${id}" name="${name}">
${environments.map((environment) => html`<option value="${environment}"${environment.toLowerCase() === chosen?.toLowerCase() ? html` selected` : ''}>${environment}</option>`)}
</select></label>`
}

function side(label: string, each: Comparison['from']): Html {
  return html`<dt>${label}</dt><dd>${
    each.deployment
      ? html`<a href="/ui/deployments/${each.deployment.id}">${each.deployment.version}</a> <span class="muted">(${shortCommit(each.deployment.commitHash)}, ${utc(each.deployment.deployedAt)})</span>`
      : html`<span class="muted">never deployed</span>`
  }</dd>`
}

function results(comparison: Comparison, selection: CompareSelection): Html {
  const { from, to, commits, deployments } = comparison
  return html`<dl class="facts">
${side(`${from.environment} runs`, from)}
${side(`${to.environment} runs`, to)}
</dl>
${comparison.reason ? html`<p class="notice" role="status"><strong>Incomplete:</strong> ${comparison.reason}</p>` : ''}
<h2>${commits.length === 0 ? 'Nothing waits' : counted(commits.length, 'commit waits', 'commits wait')}</h2>
${
  commits.length === 0
    ? html`<p>${to.environment} has every commit ${from.environment} delivered${comparison.complete ? '' : ' that a commit list names'}.</p>`
    : commitList(commits)
}
<p><a href="/ui/compare.md?${query(selection)}" download>Download them as release notes (Markdown)</a></p>
<h2>Deployments of ${from.environment} since what ${to.environment} runs</h2>
${
  deployments.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<ul>${deployments.map((deployment) => html`<li><a href="/ui/deployments/${deployment.id}">${deployment.version}</a> <span class="muted">${utc(deployment.deployedAt)}</span></li>`)}</ul>`
}`
}

/** What the compare page draws: the form as asked (or proposed), and the comparison once asked. */
export interface CompareModel {
  comparison: Comparison | undefined
  selection: CompareSelection
  /** The workspace's environments, in pipeline order. */
  environments: string[]
}

/** Two environments of one application side by side: what waits to go from one to the other. */
export function comparePage({ comparison, selection, environments }: CompareModel): PageContent {
  const heading = comparison
    ? `${comparison.app}: ${comparison.from.environment} → ${comparison.to.environment}`
    : 'Compare two environments'
  return {
    title: comparison ? `Compare ${heading}` : heading,
    section: '/ui',
    description:
      'What is in one environment and not yet in another: the commits waiting, and release notes.',
    body: html`<h1>${heading}</h1>
<form class="filters" method="get" action="/ui/compare">
<label for="compare-app">Application<input id="compare-app" name="app" required value="${selection.app ?? ''}"></label>
<label for="compare-repository">Repository (if the name is in several)<input id="compare-repository" name="repository" value="${selection.repository ?? ''}"></label>
${environmentSelect('compare-from', 'from', 'From', selection.from, environments)}
${environmentSelect('compare-to', 'to', 'To', selection.to, environments)}
<button type="submit">Compare</button>
</form>
${comparison ? results(comparison, selection) : html`<p>Name an application and two environments: the commits delivered to the first and not yet to the second are listed, newest first.</p>`}`,
  }
}
