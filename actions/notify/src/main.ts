// The action's entry, bundled with everything it imports into dist/index.js by
// `bun run build:action`, so the runner needs no install step. It is `shiplog notify` with the
// inputs as flags: the same parsing, GITHUB_* detection, retries and exit codes. The client is
// imported by path because this folder is not a workspace (it has nothing to install).
import { appendFileSync } from 'node:fs'
import { commandClient } from '../../../packages/client/src/command-client.ts'
import { localCheckout } from '../../../packages/client/src/git-checkout.ts'
import { type Output, runNotify } from '../../../packages/client/src/notify.ts'
import {
  type NotifyPlan,
  planNotify,
  UsageError,
} from '../../../packages/client/src/notify-args.ts'
import { notifyArgs } from './inputs.ts'
import { outputLine, workflowCommand } from './workflow-commands.ts'

async function main(env: Record<string, string | undefined>): Promise<number> {
  const git = await localCheckout()
  let plan: NotifyPlan
  try {
    plan = await planNotify(notifyArgs(env), env, git.read)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.log(workflowCommand('error', error.message))
    return 2
  }
  const errors: string[] = []
  const output: Output = {
    out: (line) => console.log(line),
    err: (line) => errors.push(line),
    // A warning (the commits could not be read) leaves the step green, as it leaves the CLI.
    warn: (message) => console.log(workflowCommand('warning', message)),
    // A retry through an outage, as it happens: the run shows why the step took longer.
    note: (message) => console.log(workflowCommand('notice', message)),
    // Written on acceptance, so a later step sees the id even when waiting for it fails.
    accepted: (created) => {
      const file = env.GITHUB_OUTPUT
      if (!file) {
        console.log(workflowCommand('warning', 'GITHUB_OUTPUT is not set: no outputs written'))
        return
      }
      appendFileSync(
        file,
        outputLine('deployment-id', created.id) + outputLine('receipt-url', created.location),
      )
    },
  }
  const code = await runNotify(plan, commandClient(plan, output), output, git)
  // One annotation with every line: the API's detail and each field error.
  if (errors.length > 0) console.log(workflowCommand('error', errors.join('\n')))
  return code
}

process.exitCode = await main(process.env)
