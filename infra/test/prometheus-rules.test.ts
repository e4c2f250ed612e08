import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

// Shiplog's alerts (infra/prometheus) through the real promtool: the rules parse, every alert
// fires on the series that should page and stays quiet on healthy ones, and every runbook an
// alert links exists and says what to do.

const FOLDER = join(import.meta.dir, '../prometheus')
const ROOT = join(import.meta.dir, '../..')

function promtool(args: string[]) {
  const run = Bun.spawnSync(['promtool', ...args], { cwd: FOLDER })
  return { code: run.exitCode, output: `${run.stdout}${run.stderr}` }
}

test('promtool check rules: every rule parses', () => {
  const checked = promtool(['check', 'rules', 'shiplog-alerts.yaml'])
  expect(checked).toEqual({ code: 0, output: expect.stringContaining('SUCCESS: 7 rules found') })
})

test('promtool test rules: each alert fires on its bad series and not on the good ones', () => {
  const tested = promtool(['test', 'rules', 'shiplog-alerts.test.yaml'])
  expect(tested).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') })
})

test('every alert has a unit test that fires it and one that does not', () => {
  const rules = parse(readFileSync(join(FOLDER, 'shiplog-alerts.yaml'), 'utf8'))
  const tests = parse(readFileSync(join(FOLDER, 'shiplog-alerts.test.yaml'), 'utf8'))
  const cases = tests.tests.flatMap(
    (group: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }) =>
      group.alert_rule_test,
  )
  for (const { alert } of rules.groups.flatMap(
    (group: { rules: { alert: string }[] }) => group.rules,
  )) {
    const mine = cases.filter((each: { alertname: string }) => each.alertname === alert)
    expect({
      alert,
      fires: mine.some((each: { exp_alerts: unknown[] }) => each.exp_alerts.length > 0),
    }).toEqual({ alert, fires: true })
    expect({
      alert,
      quiet: mine.some((each: { exp_alerts: unknown[] }) => each.exp_alerts.length === 0),
    }).toEqual({ alert, quiet: true })
  }
})

test('every alert links a runbook page that exists and says what to look at and what to do', () => {
  const rules = parse(readFileSync(join(FOLDER, 'shiplog-alerts.yaml'), 'utf8'))
  const linked = rules.groups.flatMap(
    (group: { rules: { annotations: { runbook_url: string } }[] }) =>
      group.rules.map((rule) => rule.annotations.runbook_url),
  )
  const pages = readdirSync(join(ROOT, 'docs/runbooks')).map((name) => `docs/runbooks/${name}`)
  for (const page of linked) {
    expect(pages).toContain(page)
    const text = readFileSync(join(ROOT, page), 'utf8')
    expect({
      page,
      look: text.includes('## What to look at'),
      act: text.includes('## What to do'),
    }).toEqual({ page, look: true, act: true })
  }
})
