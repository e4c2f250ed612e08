// Registered in bunfig.toml, so it runs once before every `bun test` run: the API that tests
// start serves the CLI bundle of this checkout, built now (it is not committed; about 0.1 s).
import { writeCliBundle } from './build-cli.ts'

await writeCliBundle()
