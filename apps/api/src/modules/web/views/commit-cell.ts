import { type Html, html } from './html.ts'

/**
 * A deployment's commit as the pages show it in brief: its first 12 digits, or "commit unknown"
 * where an integration's sender named none (never a made-up SHA).
 */
export function shortCommit(commitHash: string | null): Html {
  return commitHash === null
    ? html`<span class="muted">commit unknown</span>`
    : html`<code>${commitHash.slice(0, 12)}</code>`
}
