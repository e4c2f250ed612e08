import { typeErrors } from './typescript.ts'

// @grafana/schema ships TypeScript types only (no JSON schema), so a dashboard is checked by
// compiling it as an object literal typed by them: the dashboard as `Dashboard`, each panel's
// options and custom field config as its plugin's own types, which `Dashboard` leaves open.
// A plugin without a FieldConfig type (stat) takes no custom field config.
const PANELS: Record<string, { name: string; custom: boolean }> = {
  timeseries: { name: 'TimeSeriesPanelCfg', custom: true },
  stat: { name: 'StatPanelCfg', custom: false },
  table: { name: 'TablePanelCfg', custom: true },
}
const PRELUDE = `import type { Dashboard, DataQuery } from '@grafana/schema'
${Object.entries(PANELS)
  .map(
    ([type, { name }]) =>
      `import type * as ${type} from '@grafana/schema/dist/esm/raw/composable/${type}/panelcfg/x/${name}_types.gen'`,
  )
  .join('\n')}
// JSON spells a string enum by its value ("absolute"), which TypeScript's enum type refuses.
type Json<T> = T extends string ? \`\${T}\` : T extends readonly (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T
// Dashboard leaves targets open, and @grafana/schema has no Prometheus query type: these are
// the fields of Grafana's Prometheus query (public/app/plugins/datasource/prometheus).
interface PrometheusTarget extends DataQuery {
  datasource: { type: 'prometheus'; uid: string }
  expr: string
  editorMode?: 'code' | 'builder'
  format?: 'time_series' | 'table' | 'heatmap'
  instant?: boolean
  range?: boolean
  interval?: string
  legendFormat?: string
}
`

interface PanelJson {
  type: string
  id?: number
  options?: unknown
  fieldConfig?: { defaults?: { custom?: unknown } }
  targets?: unknown[]
  panels?: PanelJson[]
}

/** Errors of a dashboard against @grafana/schema's types, or an empty list. */
export function dashboardTypeErrors(dashboard: { panels?: PanelJson[] }): string[] {
  const declarations = [`export const dashboard: Json<Dashboard> = ${json(dashboard)}`]
  const unchecked: string[] = []
  const panels = (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])])
  for (const panel of panels.filter((each) => each.type !== 'row')) {
    const name = `panel${panel.id}`
    const plugin = PANELS[panel.type]
    if (!plugin) {
      unchecked.push(`${name}: no options type for panel type ${panel.type}; add it to PANELS`)
      continue
    }
    declarations.push(
      `export const ${name}Options: Json<${panel.type}.Options> = ${json(panel.options ?? {})}`,
      `export const ${name}Custom: ${plugin.custom ? `Json<Partial<${panel.type}.FieldConfig>>` : 'Record<string, never>'} = ${json(panel.fieldConfig?.defaults?.custom ?? {})}`,
      `export const ${name}Targets: PrometheusTarget[] = ${json(panel.targets ?? [])}`,
    )
  }
  return [...unchecked, ...typeErrors(`${PRELUDE}\n${declarations.join('\n')}\n`)]
}

const json = (value: unknown) => JSON.stringify(value, null, 2)
