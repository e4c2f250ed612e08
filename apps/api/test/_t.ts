import { startHarness, validDeployment } from '/work/main/apps/api/test/harness.ts'

const h = await startHarness()
const t0 = performance.now()
const r = await h.post(validDeployment(), { key: `shiplog_${'A'.repeat(43)}` })
console.log(
  'status',
  r.status,
  'logs right after response:',
  h.logs.filter((l) => l.msg === 'request').length,
)
await new Promise((res) => setTimeout(res, 0))
console.log('after a macrotask:', h.logs.filter((l) => l.msg === 'request').length)
await new Promise((res) => setTimeout(res, 50))
console.log(
  'after 50ms:',
  h.logs.filter((l) => l.msg === 'request').length,
  (performance.now() - t0).toFixed(1),
)
await h.close()
