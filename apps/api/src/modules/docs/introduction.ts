/** What the document says first, to a reader of `/docs` or of `/openapi.json`: Markdown. */
export const INTRODUCTION = `Shiplog records deployments: a build pipeline reports that a version (and commit) of an application was deployed to an environment of a repository, and anyone with a key of the same workspace reads back what is deployed where.

Send every \`/v1\` request with \`Authorization: Bearer <key>\`. A key is \`shiplog_\` and 43 characters; an operator issues one with \`bun run keys create\`. A key sees only its own workspace, and does only what its scopes allow: \`read\` (every \`GET\`), \`deployments:write\` (record deployments), \`incidents:write\`, \`environments:write\` (set environments' place in the pipeline and their production mark), and \`admin\` (all of them); a key created without \`--scope\` has \`deployments:write\` and \`read\`. A request its key has no scope for gets \`403\` (\`/problems/forbidden\`), after authentication and the rate limit and before anything else is checked.

Each key has a token bucket, by default 100 requests a minute (reads count like writes). Every answer to a valid key carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a \`429\` carries \`Retry-After\`, in seconds.

Every error is RFC 9457 problem details (\`application/problem+json\`); its \`type\` names the problem, such as \`/problems/validation-failed\`, and a \`422\` lists every failing field or parameter in \`errors\`. Every answer echoes \`X-Request-Id\`: yours if you sent one, else a new one.`
