import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { helm, helmTemplate, kustomize, ofKind, parseManifests, run } from './lib/manifests.ts'

// Shiplog's alerts (the chart's files/shiplog-alerts.yaml, tested from infra/prometheus) through the real promtool: the rules parse, every alert
// fires on the series that should page and stays quiet on healthy ones, and every runbook an
// alert links exists and says what to do.

const FOLDER = join(import.meta.dir, '../prometheus')
const ROOT = join(import.meta.dir, '../..')
const RULES = join(ROOT, 'infra/helm/shiplog/files/shiplog-alerts.yaml')

function promtool(args: string[]) {
  const run = Bun.spawnSync(['promtool', ...args], { cwd: FOLDER })
  return { code: run.exitCode, output: `${run.stdout}${run.stderr}` }
}

test('promtool check rules: every rule parses', () => {
  const checked = promtool(['check', 'rules', RULES])
  expect(checked).toEqual({ code: 0, output: expect.stringContaining('SUCCESS: 8 rules found') })
})

test('promtool test rules: each alert fires on its bad series and not on the good ones', () => {
  const tested = promtool(['test', 'rules', 'shiplog-alerts.test.yaml'])
  expect(tested).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') })
})

test('every alert has a unit test that fires it and one that does not', () => {
  const rules = parse(readFileSync(RULES, 'utf8'))
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
  const rules = parse(readFileSync(RULES, 'utf8'))
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

describe('the chart’s PrometheusRule [needs the helm binary; skipped when it is not on PATH]', () => {
  test.skipIf(!helm)('off by default and in production values: nothing extra renders', () => {
    expect(ofKind(helmTemplate([]), 'PrometheusRule')).toEqual([])
    expect(
      ofKind(
        helmTemplate([join(ROOT, 'infra/helm/shiplog/ci/production-values.yaml')]),
        'PrometheusRule',
      ),
    ).toEqual([])
  })

  test.skipIf(!helm)(
    'on: the rules promtool tests, the labels asked for, runbooks under the base URL, and promtool accepts what renders',
    () => {
      const [rule, ...more] = ofKind(
        helmTemplate([join(import.meta.dir, 'fixtures/prometheus-rule-values.yaml')]),
        'PrometheusRule',
      )
      expect(more).toEqual([])
      expect(rule?.metadata.labels?.release).toBe('kube-prometheus-stack')
      const source = parse(readFileSync(RULES, 'utf8'))
      const prefixed = structuredClone(source)
      for (const group of prefixed.groups) {
        for (const each of group.rules) {
          each.annotations.runbook_url = `https://github.com/acme/shiplog/blob/main/${each.annotations.runbook_url}`
        }
      }
      expect(rule?.spec.groups).toEqual(prefixed.groups)
      const rendered = join(mkdtempSync(join(tmpdir(), 'shiplog-rules-')), 'rendered.yaml')
      writeFileSync(rendered, stringify({ groups: rule?.spec.groups }))
      expect(promtool(['check', 'rules', rendered])).toEqual({
        code: 0,
        output: expect.stringContaining('SUCCESS: 8 rules found'),
      })
    },
  )
})

describe('the Kustomize component', () => {
  test('holds the chart’s rules, unchanged, and renders one PrometheusRule only where an overlay adds it', () => {
    const component = parse(
      readFileSync(join(ROOT, 'infra/k8s/components/prometheus-rule/prometheusrule.yaml'), 'utf8'),
    )
    expect(component.spec.groups).toEqual(parse(readFileSync(RULES, 'utf8')).groups)
    expect(ofKind(kustomize('production'), 'PrometheusRule')).toEqual([])
    const withRules = parseManifests(
      run(['kubectl', 'kustomize', join(import.meta.dir, 'fixtures/kustomize-with-rules')]),
    )
    expect(ofKind(withRules, 'PrometheusRule').map((rule) => rule.spec.groups)).toEqual([
      component.spec.groups,
    ])
  })
})
