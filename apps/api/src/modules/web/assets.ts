import { createHash } from 'node:crypto'
import { compress, encodingFor } from './compression.ts'

// The dashboard's only stylesheet, served by the API itself (no CDN, no web font: clusters are
// often air-gapped). Its URL carries a hash of its content, so browsers may keep it for good.
const STYLESHEET = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad;
  --bg: #ffffff; --panel: #f6f8fa; --bad: #a40e26; --good: #116329; --warn: #7d4e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--bg); overflow-wrap: anywhere; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible {
  outline: 3px solid #f0b400; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 1; }
header.top { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center;
  padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
header.top .who { margin-left: auto; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; color: var(--muted); }
header.top .who form.switch { display: flex; gap: 6px; align-items: center; }
main { padding: 16px 20px 40px; max-width: 1400px; }
h1 { font-size: 1.5rem; margin: 8px 0 16px; }
h2 { font-size: 1.15rem; margin: 24px 0 8px; }
.muted { color: var(--muted); }
.table-scroll { overflow-x: auto; max-width: 100%; position: relative; }
table { border-collapse: collapse; min-width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; margin-bottom: 16px; }
form.filters label, form.stack label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted);
  max-width: 100%; min-width: 0; }
form.stack { display: flex; flex-direction: column; gap: 12px; max-width: 480px; }
input, select, textarea { font: inherit; color: var(--ink); padding: 6px 8px; border: 1px solid #8c959f;
  border-radius: 4px; background: var(--bg); }
button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: var(--bg); color: var(--accent); }
a.button { display: inline-block; padding: 6px 14px; border-radius: 4px; background: var(--accent);
  color: #fff; text-decoration: none; }
ol.history { padding-left: 1.2em; }
button.danger { background: var(--bad); border-color: var(--bad); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 0.8rem;
  border: 1px solid currentColor; white-space: nowrap; }
.badge.failed, .badge.rollback, .badge.open { color: var(--bad); }
.badge.recorded, .badge.resolved, .badge.forward { color: var(--good); }
.badge.queued, .badge.redeploy, .badge.initial, .badge.voided { color: var(--warn); }
.notice { padding: 10px 14px; border: 1px solid var(--line); border-left: 4px solid var(--accent);
  background: var(--panel); margin: 0 0 16px; }
.notice.error { border-left-color: var(--bad); }
.pager { display: flex; gap: 16px; margin-top: 12px; }
.keys { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 16px; }
.key { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; }
.key h2 { margin: 0 0 4px; font-size: 1rem; }
.key .figure { font-size: 1.6rem; font-weight: 700; }
.key .previous { color: var(--muted); margin-top: -0.5em; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.chart { display: block; max-width: 100%; height: auto; }
.chart-grid { stroke: var(--line); stroke-width: 1; }
.chart-axis-label { fill: var(--muted); font-size: 11px; }
.chart-bar { fill: var(--accent); }
.chart-line { stroke: var(--accent); stroke-width: 2; fill: none; }
.chart-point { fill: var(--accent); }
.chart-empty { fill: var(--muted); font-size: 13px; }
footer.page-footer { padding: 0 20px 24px; }
details.definition summary { cursor: pointer; color: var(--accent); }
code { overflow-wrap: anywhere; }
dl.facts dd { min-width: 0; overflow-wrap: anywhere; }
input, select { max-width: 100%; }
pre { background: var(--panel); padding: 10px 12px; overflow-x: auto; border-radius: 4px; max-width: 100%; }
.badge.rolled-back, .badge.open-incident { color: var(--bad); }
.marks { display: flex; flex-wrap: wrap; gap: 2px 4px; margin-top: 2px; }
.field-error { color: var(--bad); font-size: 0.85rem; }
input[aria-invalid="true"], select[aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
.waiting { font-size: 0.85rem; }
ul.plain { list-style: none; padding: 0; }
.steps > li { margin-bottom: 16px; }
@media (max-width: 600px) { main { padding: 12px; } header.top .who { margin-left: 0; }
  dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: 6px; } }
`

// The little the pages do with JavaScript on: a destructive form asks once more. Filters apply
// with their button only, so a keyboard can move through a select without leaving the page.
const SCRIPT = `
document.addEventListener('submit', (event) => {
  const question = event.target instanceof HTMLFormElement ? event.target.dataset.confirm : undefined
  if (question && !window.confirm(question)) event.preventDefault()
})
`

// The tab's icon: a hull on a line of the log.
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5cad"/><path d="M5 19h22l-4 6H9z" fill="#fff"/><path d="M15 6v12M15 7l8 9h-8" stroke="#fff" stroke-width="2" fill="none" stroke-linejoin="round"/></svg>`

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12)

/** Where pages link the stylesheet, the script and the icon. */
export const STYLESHEET_PATH = `/ui/assets/shiplog.${hashOf(STYLESHEET)}.css`
export const SCRIPT_PATH = `/ui/assets/shiplog.${hashOf(SCRIPT)}.js`
export const FAVICON_PATH = `/ui/assets/shiplog.${hashOf(FAVICON)}.svg`

// Cached for a year (each URL changes with its content), and compressed once per encoding.
function asset(body: string, type: string) {
  const bytes = new TextEncoder().encode(body)
  const packed = { br: compress(bytes, 'br'), gzip: compress(bytes, 'gzip') }
  return (request: Request) => {
    const encoding = encodingFor(request)
    return new Response(encoding ? packed[encoding] : bytes, {
      headers: {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        vary: 'accept-encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      },
    })
  }
}

export const stylesheetResponse = asset(STYLESHEET, 'text/css')
export const scriptResponse = asset(SCRIPT, 'text/javascript')
export const faviconResponse = asset(FAVICON, 'image/svg+xml')

/** `/robots.txt`: every page needs a session, so there is nothing to hide or to find. */
export const robotsResponse = () =>
  new Response('User-agent: *\nAllow: /\n', {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=86400',
    },
  })
