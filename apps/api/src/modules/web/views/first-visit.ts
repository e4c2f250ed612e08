import { type Html, html } from './html.ts'

const BODY = (version: string) =>
  JSON.stringify({
    repositoryFullName: 'acme/shop',
    environment: 'production',
    app: 'checkout',
    version,
    commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  })

/**
 * An empty workspace's overview: how to make a key, and three ways to send the first
 * deployment (curl, the CLI this server serves, the GitHub Action), with this server's address.
 */
export function firstDeploymentSteps(baseUrl: string, workspace: string): Html {
  return html`<p>No deployment has been recorded in this workspace yet. A pipeline reports each one after it deploys; the first one fills this page.</p>
<h2>Send the first deployment</h2>
<ol class="steps">
<li><p>Get a key for the pipeline, with the <code>deployments:write</code> scope. Whoever runs Shiplog makes one on its server (the key is the last line printed, shown once):</p>
<pre tabindex="0"><code>bun run keys create --workspace ${workspace} --name ci --scope deployments:write</code></pre>
<p>Keep it in the pipeline's secrets as <code>SHIPLOG_API_KEY</code>.</p></li>
<li><p>Then, after a deploy, with <strong>curl</strong>:</p>
<pre tabindex="0"><code>curl -i ${baseUrl}/v1/deployments \\
  -H "Authorization: Bearer $SHIPLOG_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '${BODY('1.0.0')}'</code></pre></li>
<li><p>or with <strong>the CLI</strong> this server serves (Node 20 or later; it also sends the commits the deployment delivered):</p>
<pre tabindex="0"><code>curl -fsS -o shiplog.mjs ${baseUrl}/cli/shiplog.mjs
SHIPLOG_URL=${baseUrl} node shiplog.mjs notify \\
  --app checkout --environment production --version 1.0.0 --wait</code></pre></li>
<li><p>or in <strong>GitHub Actions</strong>, after the deploy step:</p>
<pre tabindex="0"><code>- uses: shiplog/shiplog/actions/notify@v1
  with:
    url: ${baseUrl}
    api-key: \${{ secrets.SHIPLOG_API_KEY }}
    app: checkout
    environment: production
    version: \${{ github.ref_name }}</code></pre></li>
</ol>
<p>Every field and answer is in the <a href="/docs">API reference</a>. Environments appear in pipeline order (dev, test, staging, production) as deployments name them.</p>`
}
