import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'

// Words that are PromQL's own, not series: binary operators, modifiers and the float literals.
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan'])
// Modifiers followed by a parenthesised list of label names.
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'])

// What follows a function or an aggregation (`sum by (le) (…)`), never a series name.
const calls = (next: string | undefined) => next === '(' || next === 'by' || next === 'without'

/**
 * The series names an expression selects, in order of appearance. Strings, label matchers and
 * durations are dropped first; a name followed by `(`, `by` or `without` is a function or an aggregation; the
 * label names a modifier lists are skipped.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
  // Numbers first, so the `e3` of `1e3` or the `m` of `5m` is never read as a name.
  const tokens: string[] = bare.match(/\d[\w.]*|[A-Za-z_:][\w:]*|\S/g) ?? []
  const names: string[] = []
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as string
    const next = tokens[index + 1]
    if (LABEL_LISTS.has(token.toLowerCase())) {
      const close = next === '(' ? tokens.indexOf(')', index) : index
      index = close === -1 ? tokens.length : close
    } else if (/^[A-Za-z_:]/.test(token) && !calls(next) && !KEYWORDS.has(token.toLowerCase())) {
      if (!names.includes(token)) names.push(token)
    }
  }
  return names
}

/**
 * Runs `promtool check rules` on the expressions, each as a recording rule named after where
 * it comes from (a valid metric name), so a parse error names its panel and query.
 */
export function promtoolCheck(expressions: { name: string; expr: string }[]): {
  code: number
  output: string
} {
  const file = join(mkdtempSync(join(tmpdir(), 'shiplog-promql-')), 'expressions.yaml')
  const rules = expressions.map(({ name, expr }) => ({ record: name, expr }))
  writeFileSync(file, stringify({ groups: [{ name: 'expressions', rules }] }))
  const run = Bun.spawnSync(['promtool', 'check', 'rules', file])
  return { code: run.exitCode, output: `${run.stdout}${run.stderr}` }
}
